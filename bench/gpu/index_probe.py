"""Is a flat elementwise kernel's run-time integer division what holds it under the copy
bandwidth? A measurement to decide which rewrite the search should offer next (issue 7: kopt's
bias_gelu reaches 70% of a same-size copy on the H200, torch.compile 66%; its kernel finds the
bias column as ``offs % n_cols`` with n_cols a run-time argument, and gather_dim1 its row as
``offs // k``).

For each operator, side by side in one process, every variant checked against torch first:
  runtime    the suite's first conversion: a flat vector, the divisor a run-time argument
  constexpr  the same kernel with the divisor a tl.constexpr (the compiler divides by a
             constant with a multiply and shifts)
  tiled      a 2-D grid, (row, block of columns): no division at all (bias_gelu only)
  copy       a copy of the operator's own bytes (the same-size bound the suite reports)
each at BLOCK in --blocks and num_warps in --warps. Prints one line per (operator, variant):
the best configuration's median and range over --repeat interleaved measurements (each
triton.testing.do_bench's median, L2 cleared between its repetitions), and its ratio to the
copy's time.

    python3 bench/gpu/index_probe.py [--ops bias_gelu,gather_dim1] [--repeat 3] [--out probe.json]

Sizes are the suite's (bench/suite/ops/*/op.json): bias_gelu 8192 x 11008 float16,
gather_dim1 8192 x 4096 float32 gathering 256 per row. On a machine without a GPU,
TRITON_INTERPRET=1 runs every variant once at a small size and checks it (how it was
tested when written)."""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass

import torch
import triton
import triton.language as tl

INTERP = os.environ.get("TRITON_INTERPRET") == "1"
MAX_REPEAT = 20


@triton.jit
def bias_gelu_runtime(x_ptr, b_ptr, y_ptr, n, n_cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    h = (tl.load(x_ptr + offs, mask=mask) + tl.load(b_ptr + offs % n_cols, mask=mask)).to(tl.float32)
    tl.store(y_ptr + offs, (0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bias_gelu_constexpr(x_ptr, b_ptr, y_ptr, n, n_cols: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    h = (tl.load(x_ptr + offs, mask=mask) + tl.load(b_ptr + offs % n_cols, mask=mask)).to(tl.float32)
    tl.store(y_ptr + offs, (0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bias_gelu_tiled(x_ptr, b_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    offs = row.to(tl.int64) * n_cols + cols
    h = (tl.load(x_ptr + offs, mask=mask) + tl.load(b_ptr + cols, mask=mask)).to(tl.float32)
    tl.store(y_ptr + offs, (0.5 * h * (1.0 + tl.erf(h * 0.7071067811865476))).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def gather_runtime(x_ptr, idx_ptr, out_ptr, n_out, k, n_cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    col = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.load(x_ptr + (offs // k) * n_cols + col, mask=mask), mask=mask)


@triton.jit
def gather_constexpr(x_ptr, idx_ptr, out_ptr, n_out, k: tl.constexpr, n_cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    col = tl.load(idx_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, tl.load(x_ptr + (offs // k) * n_cols + col, mask=mask), mask=mask)


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@dataclass
class Row:
    op: str
    variant: str
    block: int
    num_warps: int
    median_ms: float
    lo_ms: float
    hi_ms: float
    to_copy: float = 0.0


Launch = Callable[[int, int], None]       # (BLOCK, num_warps) -> runs the variant once


def bias_gelu_case(dev: str) -> tuple[dict[str, Launch], Callable[[], torch.Tensor], torch.Tensor, int]:
    m, n = (16, 1000) if INTERP else (8192, 11008)
    x = torch.randn(m, n, dtype=torch.float16, device=dev)
    b = torch.randn(n, dtype=torch.float16, device=dev)
    y = torch.empty_like(x)
    numel = x.numel()
    variants: dict[str, Launch] = {
        "runtime": lambda blk, w: bias_gelu_runtime[(triton.cdiv(numel, blk),)](x, b, y, numel, n, BLOCK=blk,
                                                                                num_warps=w),
        "constexpr": lambda blk, w: bias_gelu_constexpr[(triton.cdiv(numel, blk),)](x, b, y, numel, n, BLOCK=blk,
                                                                                    num_warps=w),
        "tiled": lambda blk, w: bias_gelu_tiled[(m, triton.cdiv(n, blk))](x, b, y, n, BLOCK=blk, num_warps=w),
    }
    expect = torch.nn.functional.gelu((x + b).float()).to(x.dtype)
    return variants, lambda: y, expect, 2 * x.numel() * x.element_size()


def gather_case(dev: str) -> tuple[dict[str, Launch], Callable[[], torch.Tensor], torch.Tensor, int]:
    m, n, k = (16, 300, 40) if INTERP else (8192, 4096, 256)
    x = torch.randn(m, n, dtype=torch.float32, device=dev)
    idx = torch.randint(0, n, (m, k), dtype=torch.int64, device=dev)
    out = torch.empty(m, k, dtype=torch.float32, device=dev)
    total = idx.numel()
    variants: dict[str, Launch] = {
        "runtime": lambda blk, w: gather_runtime[(triton.cdiv(total, blk),)](x, idx, out, total, k, n, BLOCK=blk,
                                                                             num_warps=w),
        "constexpr": lambda blk, w: gather_constexpr[(triton.cdiv(total, blk),)](x, idx, out, total, k, n,
                                                                                 BLOCK=blk, num_warps=w),
    }
    return variants, lambda: out, torch.gather(x, 1, idx), total * (8 + 4 + 4)


CASES = {"bias_gelu": bias_gelu_case, "gather_dim1": gather_case}


def bench(fn: Callable[[], None]) -> float:
    if INTERP:
        fn()
        return 0.0
    return float(triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median"))


def probe(op: str, blocks: list[int], warps: list[int], repeat: int, dev: str) -> list[Row]:
    variants, result, expect, nbytes = CASES[op](dev)
    src = torch.empty(max(1, nbytes // 2 // 4), dtype=torch.float32, device=dev)
    dst = torch.empty_like(src)
    variants["copy"] = lambda blk, w: copy_kernel[(triton.cdiv(src.numel(), blk),)](src, dst, src.numel(),
                                                                                   BLOCK=blk, num_warps=w)
    configs = [(blk, w) for blk in blocks for w in warps]
    samples: dict[tuple[str, int, int], list[float]] = {}
    for name, launch in variants.items():
        if name == "copy":
            continue
        result().zero_()
        launch(*configs[0])
        torch.testing.assert_close(result(), expect, rtol=2e-2, atol=2e-2)
    for _ in range(repeat):
        for name, launch in variants.items():
            for blk, w in configs:
                samples.setdefault((name, blk, w), []).append(bench(lambda: launch(blk, w)))  # noqa: B023
    rows = []
    for name in variants:
        best = min(((statistics.median(samples[(name, blk, w)]), blk, w) for blk, w in configs))
        s = samples[(name, best[1], best[2])]
        rows.append(Row(op, name, best[1], best[2], best[0], min(s), max(s)))
    copy = next(r.median_ms for r in rows if r.variant == "copy")
    for r in rows:
        r.to_copy = copy / r.median_ms if r.median_ms > 0 else 0.0
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ops", default=",".join(CASES))
    ap.add_argument("--blocks", default="512,1024,2048,4096")
    ap.add_argument("--warps", default="4,8")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out")
    a = ap.parse_args(argv)
    ops = [o for o in a.ops.split(",") if o]
    bad = [o for o in ops if o not in CASES]
    if bad or not 1 <= a.repeat <= MAX_REPEAT:
        print(f"--ops: unknown {bad} (known: {', '.join(CASES)}); --repeat must be 1..{MAX_REPEAT}", file=sys.stderr)
        return 2
    dev = "cpu" if INTERP else "cuda"
    if not INTERP and not torch.cuda.is_available():
        print("no CUDA device (set TRITON_INTERPRET=1 to check the variants on the CPU)", file=sys.stderr)
        return 2
    blocks = [int(b) for b in a.blocks.split(",")]
    warps = [int(w) for w in a.warps.split(",")]
    rows = [r for op in ops for r in probe(op, blocks, warps, 1 if INTERP else a.repeat, dev)]
    for r in rows:
        print(f"{r.op:12s} {r.variant:10s} BLOCK {r.block:5d} warps {r.num_warps:2d}  {r.median_ms:.4f} ms "
              f"[{r.lo_ms:.4f}-{r.hi_ms:.4f}]  copy/this {r.to_copy:.3f}")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name() if not INTERP else "interpreter",
                       "rows": [asdict(r) for r in rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
