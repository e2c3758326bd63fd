"""Where does kopt's batched matmul lose to cuBLAS? kopt's best bmm kernel on the H200 (8 x
2048^3 float16; runs 16-17, bench/results/h200-tma-twins-2026-12-04) is tile_grid's persistent
loop over every (batch, tile) with tma_loads' descriptors, at 1.074-1.094x torch.compile's time
(cuBLAS), where the same structure on a 4096^3 matmul is at 1.018-1.025x. Two things differ
for the batch: tma_loads makes the A and B descriptors inside the loop, per tile, because
their base (``a_ptr + batch * stride_ab``) changes with the tile's batch; and with K 2048 each
tile's main loop is half as long, so what a tile spends outside it (the descriptors, the
pipeline's fill, the output's store) weighs twice as much. Side by side in one process, every
variant checked against torch first, at kopt's configurations (128x256x64 and 256x128x64, 8
warps, 3 and 4 stages):

- ``torch``: torch.bmm (cuBLAS);
- ``per_tile``: kopt's kernel as runs 16-17 chose it (2-D descriptors made per tile, the output
  stored through a tensor of pointers);
- ``per_tile_st``: the same with the output stored through a 2-D descriptor made per tile;
- ``batch3d``: 3-D descriptors over (batch, rows, columns), made once per program before the
  loop, a tile loaded as a (1, BM, BK) block and reshaped; pointer store;
- ``batch3d_st``: the same with the output stored through a 3-D descriptor made once.

Prints one line per (variant, configuration) to stderr, through matmul_probe.check_and_time
(shared with matmul_probe.py): the median and range over --repeat interleaved measurements
(each triton.testing.do_bench's median, L2 cleared between its repetitions), TFLOP/s, and the
median's ratio to torch's median.

    python3 bench/gpu/bmm_probe.py [--repeat 3] [--out p.json]
    python3 bench/gpu/bmm_probe.py --offline    # no GPU: compile every variant for cuda:90

Offline, each variant is compiled for cuda:90 (Triton's own ptxas) and its shared memory and
PTX instruction counts (TMA copies, tensor-map writes, wgmma, global stores) are printed: how
the variants were checked when written (2026-12-07, no GPU)."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from functools import partial
from typing import Any

import torch
import triton
import triton.language as tl
from matmul_probe import (
    MAX_REPEAT,
    Config,
    Row,
    check_and_time,
    config_label,
    scratch_alloc,
)
from triton.errors import TritonError

BATCH, M, N, K = 8, 2048, 2048, 2048
CONFIGS: list[Config] = [(128, 256, 64, 8, 8, 3), (128, 256, 64, 8, 8, 4), (256, 128, 64, 8, 8, 3)]
# variant -> (BATCH3D, STORE_DESC) of bmm_kernel
VARIANTS = {"per_tile": (0, 0), "per_tile_st": (0, 1), "batch3d": (1, 0), "batch3d_st": (1, 1)}


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, NB, M, N, K, s_ab, s_am, s_bb, s_bk, s_cb, s_cm,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
               BATCH3D: tl.constexpr, STORE_DESC: tl.constexpr):
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    if BATCH3D:
        a3 = tl.make_tensor_descriptor(a_ptr, shape=[NB, M, K], strides=[s_ab, s_am, 1],
                                       block_shape=[1, BLOCK_M, BLOCK_K])
        b3 = tl.make_tensor_descriptor(b_ptr, shape=[NB, K, N], strides=[s_bb, s_bk, 1],
                                       block_shape=[1, BLOCK_K, BLOCK_N])
        if STORE_DESC:
            c3 = tl.make_tensor_descriptor(c_ptr, shape=[NB, M, N], strides=[s_cb, s_cm, 1],
                                           block_shape=[1, BLOCK_M, BLOCK_N])
    for tile in range(tl.program_id(0), num_tiles * NB, tl.num_programs(0)):
        pid = tile % num_tiles
        group = GROUP_M * num_pid_n
        first_m = (pid // group) * GROUP_M
        rows = tl.minimum(num_pid_m - first_m, GROUP_M)
        pid_m = first_m + pid % group % rows
        pid_n = pid % group // rows
        batch = tile // num_tiles
        acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
        if BATCH3D:
            for k in range(0, K, BLOCK_K):
                a = a3.load([batch, pid_m * BLOCK_M, k]).reshape(BLOCK_M, BLOCK_K)
                b = b3.load([batch, k, pid_n * BLOCK_N]).reshape(BLOCK_K, BLOCK_N)
                acc += tl.dot(a, b)
        else:
            a2 = tl.make_tensor_descriptor(a_ptr + batch * s_ab, shape=[M, K], strides=[s_am, 1],
                                           block_shape=[BLOCK_M, BLOCK_K])
            b2 = tl.make_tensor_descriptor(b_ptr + batch * s_bb, shape=[K, N], strides=[s_bk, 1],
                                           block_shape=[BLOCK_K, BLOCK_N])
            for k in range(0, K, BLOCK_K):
                acc += tl.dot(a2.load([pid_m * BLOCK_M, k]), b2.load([k, pid_n * BLOCK_N]))
        out = acc.to(c_ptr.dtype.element_ty)
        if STORE_DESC:
            if BATCH3D:
                c3.store([batch, pid_m * BLOCK_M, pid_n * BLOCK_N], out.reshape(1, BLOCK_M, BLOCK_N))
            else:
                c2 = tl.make_tensor_descriptor(c_ptr + batch * s_cb, shape=[M, N], strides=[s_cm, 1],
                                               block_shape=[BLOCK_M, BLOCK_N])
                c2.store([pid_m * BLOCK_M, pid_n * BLOCK_N], out)
        else:
            rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            tl.store(c_ptr + batch * s_cb + rm[:, None] * s_cm + rn[None, :], out,
                     mask=(rm[:, None] < M) & (rn[None, :] < N))


def launcher(variant: str, a: torch.Tensor, b: torch.Tensor, cfg: Config, sms: int) -> Callable[[], torch.Tensor]:
    bm, bn, bk, g, w, s = cfg
    nb, m, k = a.shape
    n = b.shape[2]
    c = torch.empty((nb, m, n), device=a.device, dtype=a.dtype)
    grid = (min(sms, triton.cdiv(m, bm) * triton.cdiv(n, bn) * nb),)
    d3, st = VARIANTS[variant]

    def run() -> torch.Tensor:
        bmm_kernel[grid](a, b, c, nb, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                         c.stride(0), c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g,
                         BATCH3D=d3, STORE_DESC=st, num_warps=w, num_stages=s)
        return c
    return run


def probe(configs: list[Config], repeat: int) -> list[Row]:
    """Every variant at every configuration, against torch.bmm (matmul_probe.check_and_time)."""
    torch.manual_seed(0)
    a = torch.randn(BATCH, M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(BATCH, K, N, device="cuda", dtype=torch.float16)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    candidates = [(variant, cfg, partial(launcher, variant, a, b, cfg, sms)) for variant in VARIANTS for cfg in configs]
    return check_and_time("bmm", lambda: torch.bmm(a, b), 2.0 * BATCH * M * N * K, candidates, repeat)


OFFLINE_FACTS = ("cp.async.bulk.tensor", "tensormap", "wgmma.mma_async", "st.global")
ARG_NAMES = ["a_ptr", "b_ptr", "c_ptr", "NB", "M", "N", "K", "s_ab", "s_am", "s_bb", "s_bk", "s_cb", "s_cm"]


def offline(configs: list[Config]) -> int:
    """Every variant compiled for cuda:90 without a GPU (the probe's sizes: every integer a
    multiple of 16, as the launcher specializes them): shared memory and PTX instruction counts,
    one JSON line each. 1 if any failed to compile."""
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource, make_backend
    tgt = GPUTarget("cuda", 90, 32)
    bad = 0
    for variant, (d3, st) in VARIANTS.items():
        for bm, bn, bk, g, w, s in configs:
            consts = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g, "BATCH3D": d3, "STORE_DESC": st}
            names = ARG_NAMES + list(consts)
            sig = {n: "constexpr" if n in consts else "*fp16" if i < 3 else "i32" for i, n in enumerate(names)}
            cx = {(i,): consts[n] for i, n in enumerate(names) if n in consts}
            attrs = {(i,): [["tt.divisibility", 16]] for i, n in enumerate(names) if n not in consts and n != "NB"}
            opts = make_backend(tgt).parse_options({"num_warps": w, "num_stages": s})
            row: dict[str, Any] = {"variant": variant, "config": config_label((bm, bn, bk, g, w, s))}
            try:
                kern = triton.compile(ASTSource(bmm_kernel, sig, cx, attrs), target=tgt, options=opts.__dict__)
                ptx = kern.asm["ptx"]
                row.update({f: ptx.count(f) for f in OFFLINE_FACTS}, shared=kern.metadata.shared)
            except (TritonError, RuntimeError) as e:
                row["error"] = f"{type(e).__name__}: {str(e)[:300]}"
                bad = 1
            print(json.dumps(row), flush=True)
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", help="write the rows as JSON here")
    ap.add_argument("--offline", action="store_true", help="no GPU: compile every variant for cuda:90")
    ap.add_argument("--repeat", type=int, default=3, help=f"interleaved measurements (1-{MAX_REPEAT})")
    args = ap.parse_args(argv)
    if not 1 <= args.repeat <= MAX_REPEAT:
        ap.error(f"--repeat: between 1 and {MAX_REPEAT}")
    if args.offline:
        return offline(CONFIGS)
    if not torch.cuda.is_available() or torch.cuda.get_device_capability()[0] < 9:
        print("bmm_probe: needs a CUDA device of compute capability 9.0 or later", file=sys.stderr)
        return 2
    triton.set_allocator(scratch_alloc)
    rows = probe(CONFIGS, args.repeat)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(0), "torch": torch.__version__,
                       "triton": triton.__version__, "shape": [BATCH, M, N, K],
                       "rows": [asdict(r) for r in rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
