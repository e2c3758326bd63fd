"""What does an online softmax cost once its row fits in one block? The suite's log_softmax
(4096 x 32000 bfloat16) keeps a running maximum and a rescaled running sum per lane, then writes
x - lse in a second loop; kopt's best (BLOCK 4096 loops, 16 warps, l2_reuse) reached 72% of a
same-size copy on the H200, and row_single_block's copy (one block per row, the loop's single
iteration with its vector state) spilled (30-114 registers) and lost. This times, side by side in
one process:

- `online`: the suite's kernel as written (bench/suite/ops/log_softmax/kernel.py, imported),
  at several blocks and warps;
- row_single_block's copy (one block per row, the loop's single iteration, the output pass
  reusing the first load), in four forms of one kernel: `unrolled` (FOLD=0: the online body
  with its vector state, as the rewrite wrote it before first_pass), `folded_where` (FOLD=1,
  WHERE=1: after first_pass, the reused value rebuilt with 0 in the masked lanes), `folded`
  (FOLD=1, WHERE=0: the output pass's masked lanes being dead; the final combine still
  multiplies by the folded sum s = where(alive, 1, 0)), `folded_sel` (FOLD=2, WHERE=0: s
  dropped from the combine under its own condition; no faster than `folded` on the H100) and
  `folded_guard` (FOLD=3, WHERE=0: as first_pass writes it now, the combine's per-lane guard
  `m > -inf` replaced by the row's `row_max > -inf`);
- `direct`: one block per row, the plain form: max, sum of exp(x - max), x - max - log(sum)
  (one exp per element against the online form's three);
- `direct_reload`: the same, reading x again for the output instead of keeping it live;
- a copy of the same bytes, PyTorch eager and torch.compile.

Every variant but the copy is checked against PyTorch first. Prints one line per variant: median
and range over --repeat interleaved measurements (each triton.testing.do_bench's median, L2
cleared between repetitions) and its fraction of the same-size copy's bandwidth.

    python3 bench/gpu/online_probe.py [--repeat 5] [--out p.json]
    python3 bench/gpu/online_probe.py --offline   # no GPU: registers and spills (ptxas -v)

Under TRITON_INTERPRET=1 (no GPU) it runs every variant once at 8 x 3000 and checks it."""
from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from functools import partial
from types import ModuleType

import torch
import triton
import triton.language as tl
from probe_timing import COPY, copy_variant, parse_args, time_variants

INTERP = os.environ.get("TRITON_INTERPRET") == "1"
SUITE_KERNEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "suite", "ops", "log_softmax",
                            "kernel.py")


def _suite_kernel() -> ModuleType:
    """The suite's first-draft log_softmax module (its kernel is the `online` variant)."""
    spec = importlib.util.spec_from_file_location("kopt_probe_log_softmax", SUITE_KERNEL)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@triton.jit
def single_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr, FOLD: tl.constexpr,
                  WHERE: tl.constexpr):
    # row_single_block's copy of the suite kernel; FOLD: first_pass's fold of the online state
    # (2: and of the final combine's s; 3: and its per-lane guard made the row's),
    # WHERE: the output pass's reused value rebuilt with its own `other` (0) in masked lanes
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_row
    cols = tl.arange(0, BLOCK)
    x_vals = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf"))
    x = x_vals.to(tl.float32)
    if FOLD:
        m_new = x
        alive = m_new > float("-inf")
        s = tl.where(alive, 1.0, 0.0).to(tl.float32)
    else:
        m = tl.full([BLOCK], float("-inf"), tl.float32)
        s = tl.zeros([BLOCK], dtype=tl.float32)
        m_new = tl.maximum(m, x)
        alive = m_new > float("-inf")
        s = s * tl.where(alive, tl.exp(m - m_new), 0.0) + tl.where(alive, tl.exp(x - m_new), 0.0)
    m = m_new
    row_max = tl.max(m, axis=0)
    if FOLD == 3:
        row_sum = tl.sum(tl.where(row_max > float("-inf"), tl.exp(m - row_max).to(tl.float32), 0.0), axis=0)
    elif FOLD == 2:
        row_sum = tl.sum(tl.where(m > float("-inf"), tl.exp(m - row_max).to(tl.float32), 0.0), axis=0)
    else:
        row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    lse = row_max + tl.log(row_sum)
    mask = cols < n_cols
    if WHERE:
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


# row_single_block's forms of single_kernel: name -> (FOLD, WHERE)
SINGLE_FORMS = {"unrolled": (0, 1), "folded_where": (1, 1), "folded": (1, 0), "folded_sel": (2, 0),
                "folded_guard": (3, 0)}


def _variants(x: torch.Tensor, y: torch.Tensor) -> dict[str, Callable[[], object]]:
    rows, n_cols = x.shape
    st = x.stride(0)
    whole = triton.next_power_of_2(n_cols)
    online = _suite_kernel().log_softmax_kernel
    out: dict[str, Callable[[], object]] = {}
    for bs, w in ((128, 4), (4096, 16), (4096, 8), (8192, 16)):
        out[f"online {bs}x{w}w"] = partial(online[(rows,)], x, y, n_cols, st, BLOCK=bs, num_warps=w)
    for name, (fold, where) in SINGLE_FORMS.items():
        for w in (16, 32):
            out[f"{name} {whole}x{w}w"] = partial(single_kernel[(rows,)], x, y, n_cols, st, BLOCK=whole,
                                                  FOLD=fold, WHERE=where, num_warps=w)
    for w in (8, 16, 32):
        for rl in (0, 1):
            name = "direct_reload" if rl else "direct"
            out[f"{name} {whole}x{w}w"] = partial(direct_kernel[(rows,)], x, y, n_cols, st, BLOCK=whole,
                                                  RELOAD=rl, num_warps=w)
    out[COPY] = copy_variant(x, y)
    return out


OFFLINE_ARCH = "sm_90a"         # what Triton's cuda:90 PTX targets
# form -> (kernel, its constexprs after BLOCK, in order)
OFFLINE_FORMS: dict[str, tuple[triton.runtime.JITFunction, dict[str, int]]] = {
    **{name: (single_kernel, {"FOLD": fold, "WHERE": where}) for name, (fold, where) in SINGLE_FORMS.items()},
    "direct": (direct_kernel, {"RELOAD": 0})}
# what Triton's launcher specializes the suite's arguments to at run time (both pointers and
# 32000 divisible by 16): without it the offline build loads 16 bits at a time
OFFLINE_ATTRS = {(i,): [["tt.divisibility", 16]] for i in range(4)}


def offline_registers(row_block: int, warps: int) -> dict[str, tuple[int, int, int]]:
    """{form: (registers, spilled bytes, SASS instructions)} of the single-block forms and the
    direct kernel at a row block, compiled for cuda:90 without a GPU, assembled by the ptxas
    Triton ships (`ptxas -v`; the one its launcher uses, not whichever is on PATH) and counted
    by its nvdisasm."""
    import re
    import subprocess
    import tempfile

    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import ASTSource, make_backend
    tgt = GPUTarget("cuda", 90, 32)
    tools = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin")
    args = {"x_ptr": "*bf16", "y_ptr": "*bf16", "n_cols": "i32", "stride_row": "i32", "BLOCK": "constexpr"}
    out = {}
    for form, (kernel, flags) in OFFLINE_FORMS.items():
        consts = {(4 + i,): v for i, v in enumerate([row_block, *flags.values()])}
        src = ASTSource(kernel, {**args, **dict.fromkeys(flags, "constexpr")}, consts, OFFLINE_ATTRS)
        k = triton.compile(src, target=tgt, options=make_backend(tgt).parse_options({"num_warps": warps}).__dict__)
        with tempfile.TemporaryDirectory() as d:
            ptx, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
            with open(ptx, "w") as f:
                f.write(k.asm["ptx"])
            r = subprocess.run([os.path.join(tools, "ptxas"), f"-arch={OFFLINE_ARCH}", "-v", ptx, "-o", cubin],
                               check=True, capture_output=True, text=True)
            sass = subprocess.run([os.path.join(tools, "nvdisasm"), "-c", cubin], check=True, capture_output=True,
                                  text=True).stdout
        regs, spills = re.search(r"Used (\d+) registers", r.stderr), re.search(r"(\d+) bytes spill stores", r.stderr)
        assert regs and spills, r.stderr
        # one instruction per `/*offset*/ OPCODE ...` line
        count = len(re.findall(r"^\s*/\*[0-9a-f]{4,}\*/\s+\S", sass, flags=re.MULTILINE))
        out[form] = (int(regs.group(1)), int(spills.group(1)), count)
    return out


def main() -> int:
    a = parse_args(offline="no GPU: registers and spills of the single-block forms (ptxas -v)")
    if a.offline and INTERP:
        print("online_probe: --offline compiles the real kernels; unset TRITON_INTERPRET", file=sys.stderr)
        return 2
    if a.offline:
        for w in (16, 32):
            for form, (regs, spills, count) in offline_registers(1 << 15, w).items():
                print(f"{form:14s} 32768 x {w:2d} warps: {regs} registers, {spills} bytes spilled, "
                      f"{count} instructions")
        return 0
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
        if name == COPY:
            continue
        y.zero_()
        got = fn() if name in ("eager", "torch.compile") else (fn(), y)[1]
        assert isinstance(got, torch.Tensor)
        torch.testing.assert_close(got, want, atol=2e-2, rtol=2e-2, msg=name)
    print(f"{len(fns)} variants checked or built at {m} x {n_cols}", flush=True)
    if not INTERP:
        time_variants(fns, a.repeat, a.out, {"shape": [m, n_cols]})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
