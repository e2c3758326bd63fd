"""Which Triton matmul structure closes the gap to cuBLAS on this GPU? A measurement to decide
what the search should offer tile kernels next (issue 7: kopt's matmul class trails
torch.compile by 5-25% on the H200 after tile_grid and tma_loads; see
bench/results/h200-suite-2026-12-01/README.md).

For each shape, side by side in one process, every variant checked against torch first:
  torch       a @ b (cuBLAS), or F.linear for the weight-transposed shape
  tile        one program per output tile, grouped order, pointer loads (what tile_grid writes)
  tma         the same with device-side tensor descriptors (what tma_loads adds)
  persistent  min(tiles, SMs) programs looping over the tiles in grouped order, descriptors
              (what no rewrite reaches today: persistent_grid refuses tile_grid's lambda grid)
each at the configurations kopt's rounds chose on the H200 (128x256x64 and 256x128x64, 8
warps, 3 and 4 stages). Prints one line per (shape, variant, config): the median and range
over --repeat interleaved measurements, each triton.testing.do_bench's median (L2 cleared
between its repetitions), TFLOP/s, and the median's ratio to torch's.

    python3 bench/gpu/matmul_probe.py [--shapes matmul,linear] [--configs N] [--repeat 3] [--out probe.json]
    python3 bench/gpu/matmul_probe.py --offline 90     # no GPU: compile each variant, PTX facts

Needs a CUDA device of compute capability 9.0 or later (tensor descriptors); the kernels also
compile offline (triton.compile with target cuda:90), which is how they were checked when
written (2026-12-03, no GPU time left that session)."""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

import torch
import triton
import triton.language as tl
from triton.errors import TritonError

# (name, M, N, K, b_transposed): b_transposed means B is given as W (N x K, row-major), the
# layout of nn.Linear's weight
SHAPES = {"matmul": ("matmul", 4096, 4096, 4096, False), "linear": ("linear", 8192, 14336, 4096, True)}
Config = tuple[int, int, int, int, int, int]     # BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages
CONFIGS: list[Config] = [(128, 256, 64, 8, 8, 3), (128, 256, 64, 8, 8, 4), (256, 128, 64, 8, 8, 3), (256, 128, 64, 8, 8, 4)]
MAX_REPEAT = 20
REL_TOL = 2e-2          # float16 output against torch's, relative to the output's largest value


@triton.jit
def _tile_of(t, num_m, num_n, GROUP_M: tl.constexpr):
    """Tile t's (pid_m, pid_n) in grouped order: GROUP_M tile rows walked column by column."""
    per_group = GROUP_M * num_n
    first_m = (t // per_group) * GROUP_M
    rows = tl.minimum(num_m - first_m, GROUP_M)
    return first_m + (t % per_group) % rows, (t % per_group) // rows


@triton.jit
def tile_kernel(a, b, c, M, N, K, s_am, s_bk, s_bn, s_cm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid_m, pid_n = _tile_of(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = tl.load(a + rm[:, None] * s_am + (k + rk)[None, :], mask=(rm[:, None] < M) & ((k + rk)[None, :] < K), other=0.0)
        y = tl.load(b + (k + rk)[:, None] * s_bk + rn[None, :] * s_bn, mask=((k + rk)[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc = tl.dot(x, y, acc)
    tl.store(c + rm[:, None] * s_cm + rn[None, :], acc.to(c.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def _descs(a, b, c, M, N, K, B_T: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    a_d = tl.make_tensor_descriptor(a, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    if B_T:
        b_d = tl.make_tensor_descriptor(b, shape=[N, K], strides=[K, 1], block_shape=[BLOCK_N, BLOCK_K])
    else:
        b_d = tl.make_tensor_descriptor(b, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_d = tl.make_tensor_descriptor(c, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    return a_d, b_d, c_d


@triton.jit
def _tile_tma(a_d, b_d, c_d, pid_m, pid_n, K, B_T: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
              BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        x = a_d.load([pid_m * BLOCK_M, k])
        if B_T:
            y = tl.trans(b_d.load([pid_n * BLOCK_N, k]))
        else:
            y = b_d.load([k, pid_n * BLOCK_N])
        acc = tl.dot(x, y, acc)
    c_d.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))      # the probe is float16 only


@triton.jit
def tma_kernel(a, b, c, M, N, K, B_T: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
               BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    a_d, b_d, c_d = _descs(a, b, c, M, N, K, B_T, BLOCK_M, BLOCK_N, BLOCK_K)
    pid_m, pid_n = _tile_of(tl.program_id(0), tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N), GROUP_M)
    _tile_tma(a_d, b_d, c_d, pid_m, pid_n, K, B_T, BLOCK_M, BLOCK_N, BLOCK_K)


@triton.jit
def persistent_kernel(a, b, c, M, N, K, B_T: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    a_d, b_d, c_d = _descs(a, b, c, M, N, K, B_T, BLOCK_M, BLOCK_N, BLOCK_K)
    num_m, num_n = tl.cdiv(M, BLOCK_M), tl.cdiv(N, BLOCK_N)
    for t in range(tl.program_id(0), num_m * num_n, tl.num_programs(0)):
        pid_m, pid_n = _tile_of(t, num_m, num_n, GROUP_M)
        _tile_tma(a_d, b_d, c_d, pid_m, pid_n, K, B_T, BLOCK_M, BLOCK_N, BLOCK_K)


@dataclass
class Row:
    """One (shape, variant, configuration): its times over the repeats (ms, median and range)
    and the ratio of its median to torch's median from the same repeats."""

    shape: str
    variant: str
    config: str
    ok: bool
    ms: float | None
    ms_min: float | None
    ms_max: float | None
    tflops: float | None
    vs_torch: float | None
    note: str


def scratch_alloc(size: int, alignment: int, stream: Any) -> torch.Tensor:
    """Tensor descriptors' scratch memory (triton.set_allocator)."""
    return torch.empty(size, device="cuda", dtype=torch.int8)


def config_label(cfg: Config) -> str:
    return "x".join(map(str, cfg[:3])) + f" g{cfg[3]} w{cfg[4]} s{cfg[5]}"


def launcher(variant: str, a: torch.Tensor, b: torch.Tensor, b_t: bool, cfg: Config,
             sms: int) -> Callable[[], torch.Tensor]:
    bm, bn, bk, g, w, s = cfg
    M, K = a.shape
    N = b.shape[0] if b_t else b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    tiles = triton.cdiv(M, bm) * triton.cdiv(N, bn)
    meta = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g, "num_warps": w, "num_stages": s}
    if variant == "tile":
        s_bk, s_bn = (b.stride(1), b.stride(0)) if b_t else (b.stride(0), b.stride(1))
        return lambda: (tile_kernel[(tiles,)](a, b, c, M, N, K, a.stride(0), s_bk, s_bn, c.stride(0), **meta), c)[1]
    if variant == "tma":
        return lambda: (tma_kernel[(tiles,)](a, b, c, M, N, K, b_t, **meta), c)[1]
    return lambda: (persistent_kernel[(min(tiles, sms),)](a, b, c, M, N, K, b_t, **meta), c)[1]


def check_and_time(shape: str, ref_fn: Callable[[], torch.Tensor], flop: float,
                   candidates: Sequence[tuple[str, Config, Callable[[], Callable[[], torch.Tensor]]]],
                   repeat: int) -> list[Row]:
    """Builds and checks every candidate (variant, configuration, maker of its launch) against
    ref_fn's output once, then times ref_fn ("torch") and every correct candidate in turn,
    ``repeat`` times over (interleaved, so drift over the run reaches all alike). Prints and
    returns one row each; a candidate that fails to build, launch or match is a row with its
    reason. Shared by bmm_probe.py."""
    want = ref_fn().float()
    timed: list[tuple[str, str, Callable[[], torch.Tensor]]] = [("torch", "cuBLAS", ref_fn)]
    failed: list[Row] = []
    for variant, cfg, make in candidates:
        label = config_label(cfg)
        try:
            fn = make()
            err = float((fn().float() - want).abs().max() / want.abs().max())
            note = f"wrong: relative error {err:.3g}" if err > REL_TOL else ""
        except (RuntimeError, TritonError) as e:    # out of shared memory, compile errors: a row each
            note = f"{type(e).__name__}: {str(e)[:200]}"
        if note:
            failed.append(Row(shape, variant, label, False, None, None, None, None, None, note))
        else:
            timed.append((variant, label, fn))
    times: dict[int, list[float]] = {i: [] for i in range(len(timed))}
    for _ in range(repeat):
        for i, (_v, _l, fn) in enumerate(timed):
            times[i].append(triton.testing.do_bench(fn, return_mode="median"))
    t_ref = statistics.median(times[0])
    rows = []
    for i, (variant, label, _fn) in enumerate(timed):
        ms = statistics.median(times[i])
        rows.append(Row(shape, variant, label, True, ms, min(times[i]), max(times[i]), flop / ms / 1e9, ms / t_ref, ""))
    for r in rows + failed:
        print(f"{r.shape:7s} {r.variant:12s} {r.config:26s} " +
              (f"{r.ms:.4f} ms [{r.ms_min:.4f}-{r.ms_max:.4f}] {r.tflops:6.1f} TFLOP/s {r.vs_torch:.3f} of torch's time"
               if r.ok else r.note), file=sys.stderr, flush=True)
    return rows + failed


def probe(shape: str, sms: int, configs: list[Config], repeat: int) -> list[Row]:
    """Every variant of the shape at every configuration, against torch (check_and_time)."""
    name, M, N, K, b_t = SHAPES[shape]
    torch.manual_seed(0)
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(N, K, device="cuda", dtype=torch.float16) if b_t else torch.randn(K, N, device="cuda", dtype=torch.float16)
    ref_fn: Callable[[], torch.Tensor] = (lambda: torch.nn.functional.linear(a, b)) if b_t else (lambda: a @ b)
    candidates = [(variant, cfg, partial(launcher, variant, a, b, b_t, cfg, sms))
                  for variant in ("tile", "tma", "persistent") for cfg in configs]
    return check_and_time(name, ref_fn, 2.0 * M * N * K, candidates, repeat)


ARGS = {"tile": ["a", "b", "c", "M", "N", "K", "s_am", "s_bk", "s_bn", "s_cm"], "tma": ["a", "b", "c", "M", "N", "K", "B_T"]}
PTX_FACTS = ("wgmma.mma_async", "cp.async.bulk.tensor", "cp.async.cg", "ld.global")


def offline(arch: int, configs: list[Config]) -> list[dict[str, Any]]:
    """Each variant compiled for cuda:<arch> without a GPU (sizes divisible by 16, as the
    shapes are): PTX facts and shared memory per config, or the error."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource, make_backend
    tgt = GPUTarget("cuda", arch, 32)
    out = []
    for variant, fn in (("tile", tile_kernel), ("tma", tma_kernel), ("persistent", persistent_kernel)):
        names = ARGS["tile" if variant == "tile" else "tma"] + ["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M"]
        for b_t in ((False,) if variant == "tile" else (False, True)):
            for bm, bn, bk, g, w, st in configs:
                consts: dict[str, Any] = {"B_T": b_t, "BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g}
                sig = {n: "constexpr" if n in consts else "*fp16" if i < 3 else "i32" for i, n in enumerate(names)}
                cx = {(i,): consts[n] for i, n in enumerate(names) if n in consts}
                attrs = {(i,): [["tt.divisibility", 16]] for i, n in enumerate(names) if n not in consts}
                opts = make_backend(tgt).parse_options({"num_warps": w, "num_stages": st})
                row: dict[str, Any] = {"variant": variant, "b_transposed": b_t, "config": [bm, bn, bk, g, w, st]}
                try:
                    k = triton.compile(ASTSource(fn, sig, cx, attrs), target=tgt, options=opts.__dict__)
                    row.update({f: k.asm["ptx"].count(f) for f in PTX_FACTS}, shared=k.metadata.shared)
                except TritonError as e:
                    row["error"] = f"{type(e).__name__}: {str(e)[:200]}"
                print(json.dumps(row), flush=True)
                out.append(row)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default="matmul,linear", help=f"comma-separated, of {', '.join(SHAPES)}")
    ap.add_argument("--out", help="write the rows as JSON here")
    ap.add_argument("--offline", type=int, metavar="ARCH",
                    help="no GPU: compile every variant for cuda:ARCH (e.g. 90) and print its PTX facts")
    ap.add_argument("--configs", type=int, default=len(CONFIGS), help="use the first N configurations")
    ap.add_argument("--repeat", type=int, default=3, help="times each measurement is repeated, interleaved (1-20)")
    args = ap.parse_args(argv)
    if not 1 <= args.configs <= len(CONFIGS):
        ap.error(f"--configs: between 1 and {len(CONFIGS)}")
    if not 1 <= args.repeat <= MAX_REPEAT:
        ap.error(f"--repeat: between 1 and {MAX_REPEAT}")
    if args.offline is not None:
        facts = offline(args.offline, CONFIGS[:args.configs])
        return 0 if all("error" not in r for r in facts) else 1
    shapes = [s for s in args.shapes.split(",") if s]
    bad = [s for s in shapes if s not in SHAPES]
    if bad:
        ap.error(f"--shapes: unknown {', '.join(bad)} (known: {', '.join(SHAPES)})")
    if not torch.cuda.is_available() or torch.cuda.get_device_capability()[0] < 9:
        print("matmul_probe: needs a CUDA device of compute capability 9.0 or later", file=sys.stderr)
        return 2
    triton.set_allocator(scratch_alloc)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    rows = [r for s in shapes for r in probe(s, sms, CONFIGS[:args.configs], args.repeat)]
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                       "triton": triton.__version__, "sms": sms, "rows": [asdict(r) for r in rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
