"""What does an atomic's default memory ordering cost? tl.atomic_add's default `sem` is
acq_rel: on sm_90 Triton emits `atom.global.gpu.acq_rel.add`, which ptxas brackets with a
MEMBAR.ALL.GPU before and a CCTL.IVALL (an L1 invalidation) after each ATOMG; with
sem="relaxed" the same add is one REDG. Where no atomic's result is read and nothing in the
kernel synchronises through the target (no load of it, no cas/xchg), relaxed ordering leaves the
final memory the same, so a rewrite could drop the fences. This measures whether that pays,
side by side in one process, on the suite's scatter_add (the embedding backward:
zeros(V, D).index_add_(0, ids, src), float32, V 32000, D 1024, 8192 rows; kopt's kernel of run 23
adds one row per program in one block of 1024):

- `acq_rel` / `relaxed`: the kernel alone (into an output zeroed once; timing only, the sums
  grow), one program per source row, BLOCK = D, 8 warps;
- `op_acq_rel` / `op_relaxed`: the operator as the module runs it (zero-fill + kernel);
- the same two kernels with ids drawn from 64 rows (`hot_*`: many programs add into each row);
- PyTorch eager's index_add_ on a zeroed output, and a copy of src's bytes (the bound).

Every variant is checked against PyTorch first (one call on a fresh zeroed output). Prints one
line per variant: median and range over --repeat interleaved measurements (each
triton.testing.do_bench's median, L2 cleared between repetitions) and the copy's time over it.

    python3 bench/gpu/atomic_probe.py [--repeat 5] [--out p.json]

Under TRITON_INTERPRET=1 (no GPU) it runs every variant once at 100 x 64, 256 rows, and checks it."""
from __future__ import annotations

import os
from collections.abc import Callable

import torch
import triton
import triton.language as tl
from probe_timing import COPY, copy_variant, parse_args, time_variants

INTERP = os.environ.get("TRITON_INTERPRET") == "1"
V, D, T = (100, 64, 256) if INTERP else (32000, 1024, 8192)
HOT_ROWS = 64
WARPS = 8


@triton.jit
def scatter_row_kernel(ids_ptr, src_ptr, out_ptr, dim, BLOCK: tl.constexpr, RELAXED: tl.constexpr):
    i = tl.program_id(0)
    dst = tl.load(ids_ptr + i)
    cols = tl.arange(0, BLOCK)
    mask = cols < dim
    v = tl.load(src_ptr + i * dim + cols, mask=mask)
    if RELAXED:
        tl.atomic_add(out_ptr + dst * dim + cols, v, mask=mask, sem="relaxed")
    else:
        tl.atomic_add(out_ptr + dst * dim + cols, v, mask=mask)


def _launch(ids: torch.Tensor, src: torch.Tensor, out: torch.Tensor, relaxed: bool) -> torch.Tensor:
    n, dim = src.shape
    scatter_row_kernel[(n,)](ids, src, out, dim, BLOCK=triton.next_power_of_2(dim), RELAXED=relaxed,
                             num_warps=WARPS)
    return out


def _op(ids: torch.Tensor, src: torch.Tensor, relaxed: bool) -> torch.Tensor:
    return _launch(ids, src, torch.zeros(V, src.shape[1], dtype=src.dtype, device=src.device), relaxed)


def _check(name: str, got: torch.Tensor, ids: torch.Tensor, src: torch.Tensor) -> None:
    want = torch.zeros(V, src.shape[1], dtype=src.dtype, device=src.device).index_add_(0, ids, src)
    # atomics add in any order: float32 sums of a few terms differ in their last bits
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-5, msg=lambda m: f"{name}: {m}")


def variants(dev: str) -> tuple[dict[str, Callable[[], object]], int]:
    """The variants to time, and how many kernel launches were checked against PyTorch."""
    gen = torch.Generator(device="cpu").manual_seed(0)
    ids = torch.randint(0, V, (T,), generator=gen).to(dev)
    hot = torch.randint(0, min(HOT_ROWS, V), (T,), generator=gen).to(dev)
    src = torch.randn(T, D, generator=gen).to(dev)
    checks = [(f"{name} relaxed={relaxed}", which, relaxed)
              for relaxed in (False, True) for name, which in (("ids", ids), ("hot", hot))]
    for label, which, relaxed in checks:
        _check(label, _op(which, src, relaxed), which, src)
    out = torch.zeros(V, D, device=dev)
    out_hot = torch.zeros(V, D, device=dev)
    fns: dict[str, Callable[[], object]] = {
        COPY: copy_variant(src, torch.empty_like(src)),
        "acq_rel": lambda: _launch(ids, src, out, False),
        "relaxed": lambda: _launch(ids, src, out, True),
        "op_acq_rel": lambda: _op(ids, src, False),
        "op_relaxed": lambda: _op(ids, src, True),
        "hot_acq_rel": lambda: _launch(hot, src, out_hot, False),
        "hot_relaxed": lambda: _launch(hot, src, out_hot, True),
        "eager_index_add": lambda: out.index_add_(0, ids, src),
    }
    return fns, len(checks)


def main() -> int:
    args = parse_args()
    dev = "cpu" if INTERP else "cuda"
    fns, checked = variants(dev)
    if INTERP:
        for fn in fns.values():
            fn()
        print(f"interpreter: {len(fns)} variants ran, {checked} launches checked against PyTorch")
        return 0
    time_variants(fns, args.repeat, args.out, {"V": V, "D": D, "T": T, "hot_rows": HOT_ROWS, "warps": WARPS})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
