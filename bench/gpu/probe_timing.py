"""What the copy-relative probes share (modulo_probe.py, online_probe.py): the command line,
a copy of the same bytes as the bound, and the interleaved timing of named variants reported
one line each as a fraction of that copy. Imported by the probes as a sibling module (they run
as scripts from this directory)."""
from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

import torch
import triton
import triton.language as tl

MAX_REPEAT = 20
COPY = "copy 4096x8w"           # the variant every line is measured against
COPY_BLOCK, COPY_WARPS = 4096, 8


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


def copy_variant(x: torch.Tensor, y: torch.Tensor) -> Callable[[], object]:
    """A launch copying x's bytes into y (same size): the bound the probes compare with."""
    n = x.numel()
    return lambda: copy_kernel[(triton.cdiv(n, COPY_BLOCK),)](x, y, n, BLOCK_SIZE=COPY_BLOCK,
                                                               num_warps=COPY_WARPS)


@dataclass
class Line:
    variant: str
    median_ms: float
    lo_ms: float
    hi_ms: float
    copy_fraction: float


def parse_args(offline: str | None = None) -> argparse.Namespace:
    """--repeat and --out; --offline with its help text where the probe has an offline report."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5, help=f"interleaved measurements (1..{MAX_REPEAT})")
    ap.add_argument("--out", help="write the lines as JSON here")
    if offline:
        ap.add_argument("--offline", action="store_true", help=offline)
    a = ap.parse_args()
    if not 1 <= a.repeat <= MAX_REPEAT:
        ap.error(f"--repeat must be 1..{MAX_REPEAT}")
    return a


def time_variants(fns: dict[str, Callable[[], object]], repeat: int, out: str | None,
                  meta: dict[str, Any]) -> list[Line]:
    """Each variant timed `repeat` times, interleaved (triton.testing.do_bench's median, L2
    cleared between its repetitions); printed as median [range] and fraction of fns[COPY];
    written with meta to `out` as JSON when given."""
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for k, fn in fns.items():
            times[k].append(float(triton.testing.do_bench(fn, warmup=25, rep=100)))
    copy_ms = statistics.median(times[COPY])
    lines = [Line(k, statistics.median(v), min(v), max(v), copy_ms / statistics.median(v))
             for k, v in times.items()]
    for ln in lines:
        print(f"{ln.variant:24s} {ln.median_ms:.4f} ms [{ln.lo_ms:.4f}-{ln.hi_ms:.4f}]"
              f"  {100 * ln.copy_fraction:.0f}% of the same-size copy")
    if out:
        with open(out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), **meta, "repeat": repeat,
                       "lines": [asdict(ln) for ln in lines]}, f, indent=1)
    return lines
