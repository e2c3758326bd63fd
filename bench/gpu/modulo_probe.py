"""Does the bias column's modulo cost bias_gelu its bandwidth? The suite's bias_gelu (8192 x 11008
float16, y = gelu(x + bias), exact erf) reached 65% of the 1 GiB copy on the H200 with kopt's
best launch (BLOCK_SIZE 2048, 2 warps) and the L2 profile called it compute-bound. Its first
draft finds each element's bias column with `offs % n_cols` on a flat vector. This times, side
by side in one process, the flat kernel at several launches against hand-written forms that
need no per-element modulo:

- `wrap`: flat, the program's first column computed once (a scalar modulo) and the block's
  columns wrapped by one conditional subtraction (exact while BLOCK_SIZE <= n_cols; a runtime
  branch keeps the modulo otherwise);
- `tile2d`: BLOCK_M rows x BLOCK_N columns per program, the bias loaded once per tile and
  broadcast over its rows;
- `nobias`: gelu(x) alone (wrong answer, not checked): what the erf costs without the bias;
- a copy of the same bytes (read x, write y) and torch.compile of the reference.

Every variant except nobias and the copy is checked against PyTorch first. Prints one line per
variant: median and range over --repeat interleaved measurements (each triton.testing.do_bench's
median, L2 cleared between repetitions) and its fraction of the same-size copy's bandwidth.

    python3 bench/gpu/modulo_probe.py [--repeat 5] [--out p.json]

Under TRITON_INTERPRET=1 (no GPU) it runs every variant once at 16 x 1000 and checks it."""
from __future__ import annotations

import os
from collections.abc import Callable

import torch
import triton
import triton.language as tl
from probe_timing import COPY, copy_variant, parse_args, time_variants

INTERP = os.environ.get("TRITON_INTERPRET") == "1"


@triton.jit
def flat_kernel(x_ptr, b_ptr, y_ptr, n, n_cols, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % n_cols, mask=mask)
    h = (x + b).to(tl.float32)
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def wrap_kernel(x_ptr, b_ptr, y_ptr, n, n_cols, BLOCK_SIZE: tl.constexpr):
    start = tl.program_id(0) * BLOCK_SIZE
    offs = start + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    if BLOCK_SIZE <= n_cols:
        col = start % n_cols + tl.arange(0, BLOCK_SIZE)
        col = tl.where(col >= n_cols, col - n_cols, col)
    else:
        col = offs % n_cols
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + col, mask=mask)
    h = (x + b).to(tl.float32)
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def tile2d_kernel(x_ptr, b_ptr, y_ptr, n, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    n_col_blocks = tl.cdiv(n_cols, BLOCK_N)
    rows = (pid // n_col_blocks) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = (pid % n_col_blocks) * BLOCK_N + tl.arange(0, BLOCK_N)
    offs = rows[:, None] * n_cols + cols[None, :]
    mask = (offs < n) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + cols, mask=cols < n_cols)
    h = (x + b[None, :]).to(tl.float32)
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def nobias_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    h = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = 0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def _variants(x: torch.Tensor, b: torch.Tensor, y: torch.Tensor) -> dict[str, Callable[[], object]]:
    n, n_cols = x.numel(), x.shape[-1]
    out: dict[str, Callable[[], object]] = {}
    for bs, w in ((512, 4), (2048, 2), (1024, 4), (4096, 4), (4096, 8)):
        out[f"flat {bs}x{w}w"] = lambda bs=bs, w=w: flat_kernel[(triton.cdiv(n, bs),)](
            x, b, y, n, n_cols, BLOCK_SIZE=bs, num_warps=w)
        out[f"wrap {bs}x{w}w"] = lambda bs=bs, w=w: wrap_kernel[(triton.cdiv(n, bs),)](
            x, b, y, n, n_cols, BLOCK_SIZE=bs, num_warps=w)
    for bm, bn, w in ((1, 1024, 4), (1, 2048, 4), (2, 1024, 4), (4, 512, 4), (4, 1024, 8),
                      (8, 256, 4), (8, 512, 8), (16, 128, 4), (1, 4096, 8)):
        grid = (triton.cdiv(x.shape[0], bm) * triton.cdiv(n_cols, bn),)
        out[f"tile2d {bm}x{bn}x{w}w"] = lambda bm=bm, bn=bn, w=w, grid=grid: tile2d_kernel[grid](
            x, b, y, n, n_cols, BLOCK_M=bm, BLOCK_N=bn, num_warps=w)
    out["nobias 2048x4w"] = lambda: nobias_kernel[(triton.cdiv(n, 2048),)](x, y, n, BLOCK_SIZE=2048,
                                                                          num_warps=4)
    out[COPY] = copy_variant(x, y)
    return out


def main() -> int:
    a = parse_args()
    dev = "cpu" if INTERP else "cuda"
    m, n_cols = (16, 1000) if INTERP else (8192, 11008)
    torch.manual_seed(0)
    x = torch.randn(m, n_cols, device=dev, dtype=torch.float16)
    b = torch.randn(n_cols, device=dev, dtype=torch.float16)
    y = torch.empty_like(x)
    want = torch.nn.functional.gelu(x.float() + b.float()).to(x.dtype)
    fns = _variants(x, b, y)
    if not INTERP:
        ref = torch.compile(lambda x, b: torch.nn.functional.gelu(x + b))
        fns["torch.compile"] = lambda: ref(x, b)
    for name, fn in fns.items():
        if name.startswith("nobias") or name == COPY:
            continue
        y.zero_()
        got = fn() if name == "torch.compile" else (fn(), y)[1]
        assert isinstance(got, torch.Tensor)
        torch.testing.assert_close(got, want, atol=2e-3, rtol=2e-3, msg=name)
    print(f"{len(fns)} variants checked or built at {m} x {n_cols}", flush=True)
    if not INTERP:
        time_variants(fns, a.repeat, a.out, {"shape": [m, n_cols]})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
