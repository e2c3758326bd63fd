"""What does an online softmax cost once its row fits in one block? The suite's log_softmax
(4096 x 32000 bfloat16) keeps a running maximum and a rescaled running sum per lane, then writes
x - lse in a second loop; kopt's best (BLOCK 4096 loops, 16 warps, l2_reuse) reached 72% of a
same-size copy on the H200, and row_single_block's copy (one block per row, the loop's single
iteration with its vector state) spilled (30-114 registers) and lost. This times, side by side in
one process:

- `online`: the kernel as written, at several blocks and warps;
- `unrolled`: one block per row, the online body run once with its vector state (what
  row_single_block wrote before first_pass);
- `folded`: the same after first_pass's fold, as row_single_block now writes it (the output
  pass's masked lanes dead, so it reuses the first load as it is); `folded_where`: as it wrote
  it before that (the reused value rebuilt with 0 in the masked lanes);
- `direct`: one block per row, the plain form: max, sum of exp(x - max), x - max - log(sum)
  (one exp per element against the online form's three);
- `direct_reload`: the same, reading x again for the output instead of keeping it live;
- a copy of the same bytes, PyTorch eager and torch.compile.

Every variant but the copy is checked against PyTorch first. Prints one line per variant: median
and range over --repeat interleaved measurements (each triton.testing.do_bench's median, L2
cleared between repetitions) and its fraction of the same-size copy's bandwidth.

    python3 bench/gpu/online_probe.py [--repeat 5] [--out p.json]

Under TRITON_INTERPRET=1 (no GPU) it runs every variant once at 8 x 3000 and checks it."""
from __future__ import annotations

import argparse
import json
import os
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass

import torch
import triton
import triton.language as tl

INTERP = os.environ.get("TRITON_INTERPRET") == "1"
MAX_REPEAT = 20


@triton.jit
def online_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alive = m_new > float("-inf")
        s = s * tl.where(alive, tl.exp(m - m_new), 0.0) + tl.where(alive, tl.exp(x - m_new), 0.0)
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    lse = row_max + tl.log(row_sum)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride_row + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def unrolled_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
    m_new = tl.maximum(m, x)
    alive = m_new > float("-inf")
    s = s * tl.where(alive, tl.exp(m - m_new), 0.0) + tl.where(alive, tl.exp(x - m_new), 0.0)
    m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    lse = row_max + tl.log(row_sum)
    x2 = tl.where(mask, x, 0.0)
    tl.store(y_ptr + row * stride_row + cols, (x2 - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def folded_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    # row_single_block's copy with first_pass's fold, as the rewrite writes it
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    cols = tl.arange(0, BLOCK)
    x_vals = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
    x = x_vals.to(tl.float32)
    m_new = x
    alive = m_new > float("-inf")
    s = tl.where(alive, 1.0, 0.0).to(tl.float32)
    m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    lse = row_max + tl.log(row_sum)
    mask = cols < n_cols
    x = x_vals.to(tl.float32)
    tl.store(y_ptr + row * stride_row + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def folded_where_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    # the same before the output pass's masked lanes were found dead: its value rebuilt from
    # the first load with 0 in the masked lanes (call CD, H100: 0.2091 ms at 32 warps)
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    cols = tl.arange(0, BLOCK)
    x_vals = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
    x = x_vals.to(tl.float32)
    m_new = x
    alive = m_new > float("-inf")
    s = tl.where(alive, 1.0, 0.0).to(tl.float32)
    m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    lse = row_max + tl.log(row_sum)
    mask = cols < n_cols
    x = tl.where(mask, x_vals, 0.0).to(x_vals.dtype).to(tl.float32)
    tl.store(y_ptr + row * stride_row + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def direct_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr, RELOAD: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
    row_max = tl.max(x, axis=0)
    row_sum = tl.sum(tl.where(mask, tl.exp(x - row_max), 0.0), axis=0)
    lse = row_max + tl.log(row_sum)
    if RELOAD:
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_row + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@dataclass
class Line:
    variant: str
    median_ms: float
    lo_ms: float
    hi_ms: float
    copy_fraction: float


def _variants(x: torch.Tensor, y: torch.Tensor) -> dict[str, Callable[[], object]]:
    rows, n_cols = x.shape
    st = x.stride(0)
    whole = triton.next_power_of_2(n_cols)
    out: dict[str, Callable[[], object]] = {}
    for bs, w in ((128, 4), (4096, 16), (4096, 8), (8192, 16)):
        out[f"online {bs}x{w}w"] = lambda bs=bs, w=w: online_kernel[(rows,)](
            x, y, n_cols, st, BLOCK=bs, num_warps=w)
    for w in (8, 16, 32):
        out[f"folded {whole}x{w}w"] = lambda w=w: folded_kernel[(rows,)](
            x, y, n_cols, st, BLOCK=whole, num_warps=w)
    for w in (16, 32):
        out[f"folded_where {whole}x{w}w"] = lambda w=w: folded_where_kernel[(rows,)](
            x, y, n_cols, st, BLOCK=whole, num_warps=w)
    for w in (16, 32):
        out[f"unrolled {whole}x{w}w"] = lambda w=w: unrolled_kernel[(rows,)](
            x, y, n_cols, st, BLOCK=whole, num_warps=w)
    for w in (8, 16, 32):
        for rl in (0, 1):
            name = "direct_reload" if rl else "direct"
            out[f"{name} {whole}x{w}w"] = lambda w=w, rl=rl: direct_kernel[(rows,)](
                x, y, n_cols, st, BLOCK=whole, RELOAD=rl, num_warps=w)
    n = x.numel()
    out["copy 4096x8w"] = lambda: copy_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK_SIZE=4096,
                                                                      num_warps=8)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out")
    a = ap.parse_args()
    if not 1 <= a.repeat <= MAX_REPEAT:
        ap.error(f"--repeat must be 1..{MAX_REPEAT}")
    dev = "cpu" if INTERP else "cuda"
    m, n_cols = (8, 3000) if INTERP else (4096, 32000)
    torch.manual_seed(0)
    x = torch.randn(m, n_cols, device=dev, dtype=torch.bfloat16)
    y = torch.empty_like(x)
    want = torch.log_softmax(x.float(), dim=-1).to(x.dtype)
    fns = _variants(x, y)
    if not INTERP:
        fns["eager"] = lambda: torch.log_softmax(x, dim=-1)
        ref = torch.compile(lambda x: torch.log_softmax(x.float(), dim=-1).to(x.dtype))
        fns["torch.compile"] = lambda: ref(x)
    for name, fn in fns.items():
        if name.startswith("copy"):
            continue
        y.zero_()
        got = fn() if name in ("eager", "torch.compile") else (fn(), y)[1]
        assert isinstance(got, torch.Tensor)
        torch.testing.assert_close(got, want, atol=2e-2, rtol=2e-2, msg=name)
    print(f"{len(fns)} variants checked or built at {m} x {n_cols}", flush=True)
    if INTERP:
        return 0
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(a.repeat):
        for k, fn in fns.items():
            times[k].append(float(triton.testing.do_bench(fn, warmup=25, rep=100)))
    copy_ms = statistics.median(times["copy 4096x8w"])
    lines = [Line(k, statistics.median(v), min(v), max(v), copy_ms / statistics.median(v))
             for k, v in times.items()]
    for ln in lines:
        print(f"{ln.variant:24s} {ln.median_ms:.4f} ms [{ln.lo_ms:.4f}-{ln.hi_ms:.4f}]"
              f"  {100 * ln.copy_fraction:.0f}% of the same-size copy")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "shape": [m, n_cols],
                       "repeat": a.repeat, "lines": [asdict(ln) for ln in lines]}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
