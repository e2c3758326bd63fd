"""Does even_bounds pay on a loop bound by arithmetic? The unseen attention operator's first
draft (bench/suite/unseen/attention: 64 x 2048 x 2048, head dim 64, float16) against the same
kernel rewritten by the harness's even_bounds (its K/V masks and the score select OR-ed with a
flag that @triton.heuristics sets when the key block divides the sequence) and against that
kernel rewritten again by fold_exp2 (the softmax scale folded into exp2), side by side in
one process at the launch configurations in --configs (BLOCK_M x BLOCK_N x num_warps x
num_stages), every variant checked against PyTorch's attention first: fold_exp2 with the
factor folded into the product (defer=0) and deferred to the scores' uses (defer=1). Call BW
measured two hand-written variants of the first draft here (the scale at the raw scores' uses,
and q scaled once before the loop, bench/results/h100-attention-argmax-2026-12-05); the first
differed from the first draft in the three lines that test_fold_exp2_defer asserts defer=1
writes.

Prints one line per (configuration, variant): the median and range over --repeat interleaved
measurements (each triton.testing.do_bench's median, L2 cleared between its repetitions), the
ratio of each variant to the initial, and TFLOP/s (4 * BH * S * S * D per call).

    python3 bench/gpu/even_bounds_probe.py [--repeat 5] [--configs 128x64x4x3,128x64x8x3] [--out p.json]

The candidates are made by kharness.structural.apply from the module's source, as a round
makes them, with the launch record kharness.launches takes of the first draft's forward. (Call BS measured a
hand-written copy of the even_exp2 kernel, written before fold_exp2; at 42bd0a4 a test asserted
the rewrite's output had the same syntax tree, and the copy was then removed.) Under TRITON_INTERPRET=1 (no GPU) it
runs every variant once at 2 x 64 x 64, head dim 16, and checks it."""
from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import statistics
import sys
import tempfile
from dataclasses import asdict, dataclass
from types import ModuleType

import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "harness"))
from kharness import launches
from kharness.structural import apply

INTERP = os.environ.get("TRITON_INTERPRET") == "1"
KERNEL = os.path.join(ROOT, "bench", "suite", "unseen", "attention", "kernel.py")
MAX_REPEAT = 20
DEFAULT_CONFIGS = "32x32x4x3,64x64x4x3,128x64x4x3,128x64x8x3,128x128x8x3"


@dataclass
class Line:
    config: str
    variant: str
    median_ms: float
    lo_ms: float
    hi_ms: float
    tflops: float


def _module(source: str, name: str) -> ModuleType:
    """The source as an importable module (Triton reads a kernel's source from its file)."""
    path = os.path.join(tempfile.mkdtemp(prefix="even_probe_"), f"{name}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help=f"interleaved measurements (1..{MAX_REPEAT})")
    ap.add_argument("--configs", default=DEFAULT_CONFIGS, help="BLOCK_MxBLOCK_Nxnum_warpsxnum_stages, comma-separated")
    ap.add_argument("--out", default="", help="write the lines as JSON here")
    a = ap.parse_args()
    if not 1 <= a.repeat <= MAX_REPEAT:
        ap.error(f"--repeat must be in 1..{MAX_REPEAT}")
    bh, s, d = (2, 64, 16) if INTERP else (64, 2048, 64)
    dev = "cpu" if INTERP else "cuda"
    with open(KERNEL, encoding="utf-8") as f:
        src = f.read()
    torch.manual_seed(0)
    q, k, v = (torch.randn(bh, s, d, dtype=torch.float16, device=dev) for _ in range(3))
    initial = _module(src, "attn_initial")
    launches.install()          # the launch record the rewrites read, as the harness makes it
    with launches.recording() as recs:
        initial.ModelNew()(q, k, v)
    record = launches.summarize(recs)
    even = apply(src, "even_bounds", {}, record)
    variants = {"initial": initial, "even": _module(even, "attn_even"),
                "even_exp2": _module(apply(even, "fold_exp2", {"defer": 0}, record), "attn_even_exp2"),
                "even_exp2_defer": _module(apply(even, "fold_exp2", {"defer": 1}, record), "attn_even_exp2_defer")}
    want = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float())
    flops = 4.0 * bh * s * s * d
    lines: list[Line] = []
    for cfg in a.configs.split(","):
        bm, bn, warps, stages = (int(x) for x in cfg.split("x"))
        if INTERP:
            bm, bn = min(bm, 32), min(bn, 32)
        fns = {}
        for name, mod in variants.items():
            def run(mod: ModuleType = mod, bm: int = bm, bn: int = bn, warps: int = warps,
                    stages: int = stages) -> torch.Tensor:
                o = torch.empty_like(q)
                grid = (math.ceil(s / bm), bh)
                mod.attn_fwd[grid](q, k, v, o, s, 1.0 / math.sqrt(d), D=d, BLOCK_M=bm, BLOCK_N=bn,
                                   num_warps=warps, num_stages=stages)
                return o
            err = (run().float() - want).abs().max().item()
            if err > 2e-2:
                print(f"{cfg} {name}: wrong (max abs error {err:.3g})", file=sys.stderr)
                return 1
            fns[name] = run
        if INTERP:
            print(f"{cfg}: all {len(fns)} variants correct (interpreter)")
            continue
        import triton.testing
        times: dict[str, list[float]] = {n: [] for n in fns}
        for r in range(a.repeat):
            for n in (list(fns) if r % 2 == 0 else list(reversed(fns))):
                times[n].append(float(triton.testing.do_bench(fns[n], warmup=25, rep=100)))
        for n, ts in times.items():
            med = statistics.median(ts)
            lines.append(Line(cfg, n, med, min(ts), max(ts), flops / med / 1e9))
            print(f"{cfg} {n:8s} {med:.4f} ms [{min(ts):.4f}-{max(ts):.4f}] {flops / med / 1e9:.0f} TFLOP/s")
        for n in fns:
            if n != "initial":
                print(f"{cfg} {n}/initial {statistics.median(times[n]) / statistics.median(times['initial']):.3f}")
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump({"device": torch.cuda.get_device_name() if not INTERP else "interpreter",
                       "lines": [asdict(x) for x in lines]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
