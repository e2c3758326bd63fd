"""Structural rewrites (harness/kharness/structural): survey on every fixture, each rewrite
applied and its candidate validated against the reference by the real harness process
(TRITON_INTERPRET=1), the refusals and their reasons, the static check of every candidate,
and, offline for cuda:90, the IR property each rewrite is for.

Fixtures: tests/harness/structural_fixtures/<rewrite>_<case>/{ref.py,kernel.py}."""
import ast
import importlib.util
import itertools
import json
import os
import re
from typing import Any

import pytest
from conftest import read, start_harness
from kharness import launches as launch_rec
from kharness.client import HarnessClient
from kharness.srcedit import RewriteRefused
from kharness.static_check import check_source
from kharness.structural import REWRITES, apply, survey

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "structural_fixtures")

# fixture -> the rewrites whose precondition it meets (every other rewrite must refuse)
FITS = {
    "row_single_block_rmsnorm": {"row_single_block", "persistent_grid", "l2_reuse", "rows_per_program"},
    "row_single_block_softmax": {"row_single_block", "persistent_grid", "l2_reuse", "rows_per_program"},
    "row_single_block_unmasked": {"persistent_grid", "rows_per_program", "split_rows"},
    "tile_grid_matmul": {"tile_grid", "tma_loads"},
    "tile_grid_matmul1d": {"tile_grid", "persistent_grid", "tma_loads"},
    "tile_grid_batched": {"tile_grid", "tma_loads"},
    # a batch's matrix at `ptr + batch * stride` inline in the address: a descriptor's base
    "tile_grid_batchfirst": {"tma_loads"},
    "tile_grid_batchmix": {"tma_loads"},
    "strided_reduction_tiles_colsum": {"strided_reduction_tiles", "row_single_block", "persistent_grid",
                                       "rows_per_program", "split_rows"},
    "strided_reduction_tiles_colmax": {"strided_reduction_tiles", "row_single_block", "persistent_grid",
                                       "rows_per_program", "split_rows"},
    "strided_reduction_tiles_rowsum": {"row_single_block", "persistent_grid", "rows_per_program", "split_rows",
                                       "even_bounds"},
    "persistent_grid_scale": {"persistent_grid", "elementwise_vector", "rows_per_program"},
    # persistent_grid_scale's kernel with its block's start from a @triton.jit helper reading
    # tl.program_id: no rewrite that changes which program does what may fit
    "helper_reads_pid": set(),
    "persistent_grid_early_return": set(),
    "elementwise_vector_gelu": {"elementwise_vector", "persistent_grid", "rows_per_program"},
    "elementwise_vector_strided": {"persistent_grid", "rows_per_program"},
    "rows_per_program_rope": {"rows_per_program", "persistent_grid"},
    "rows_per_program_embedding": {"rows_per_program", "persistent_grid", "row_single_block"},
    # bench/suite/ops/moe_gating_topk (symlinks): reductions along the row, vectors carried
    # through the top-k loop
    "rows_per_program_moe": {"rows_per_program", "persistent_grid"},
    "tma_loads_linear": {"tma_loads", "tile_grid", "persistent_grid", "even_bounds"},
    "tma_loads_unmasked": set(),
    # @triton.heuristics: a flag derived from the block does not stop a rewrite; one that sets
    # the block does (every rewrite here but l2_reuse, which adds cache hints only, would
    # choose it)
    "row_single_block_heuristics": {"row_single_block", "persistent_grid", "l2_reuse"},
    "persistent_grid_heuristics": {"persistent_grid"},
    "row_single_block_heuristic_block": {"l2_reuse"},
    "tma_loads_attention": {"tma_loads", "fold_exp2"},
    "tile_grid_blockptr": {"tile_grid"},
    "deinterleave_pairs_rope": {"deinterleave_pairs", "rows_per_program", "persistent_grid"},
    # the rows tile, named odd offsets, the mask by position
    "deinterleave_pairs_rows": {"deinterleave_pairs", "persistent_grid"},
    # a mask along the pairs (`i < n`): refused
    "deinterleave_pairs_masked": {"rows_per_program", "persistent_grid"},
    # row statistics, then the normalisation: two kernels, one value per row between them
    # (fuse_kernels_softmax is bench/suite/unseen/softmax_two_kernels, the operator the
    # rewrite was written for, through symlinks)
    "fuse_kernels_softmax": {"fuse_kernels", "row_single_block", "persistent_grid", "rows_per_program", "l2_reuse"},
    "fuse_kernels_layernorm": {"fuse_kernels", "row_single_block", "persistent_grid", "rows_per_program",
                               "l2_reuse"},
    # the second kernel reads a row tensor the first writes: refused
    "fuse_kernels_hazard": {"persistent_grid", "rows_per_program"},
    # bench/suite/ops/log_softmax (symlinks): an online pass, then x read again to write
    "l2_reuse_logsoftmax": {"l2_reuse", "row_single_block", "persistent_grid", "rows_per_program"},
    # a row walked in blocks, each lane a running first maximum with its column (the kernel of
    # bench/suite/ops/argmax through a symlink, its ref.py here: 3 rows, ties everywhere), or
    # a sum of squares and a maximum: each row can be split over several programs
    "split_rows_argmax": {"split_rows", "row_single_block", "persistent_grid", "rows_per_program"},
    "split_rows_rownorm": {"split_rows", "row_single_block", "persistent_grid", "rows_per_program"},
    # a scalar running sum (from 0.0) and maximum, read freely after the loop (a mean)
    "split_rows_scalar": {"split_rows", "row_single_block", "persistent_grid", "rows_per_program"},
    # loops whose block divides their bound in the recorded launch: the unseen attention (64
    # keys in blocks of 32) and logsumexp (256 columns in blocks of 128, two loops) kernels and
    # the suite's matmul (K = 64 in blocks of 32) through symlinks; logsumexp at 300 columns
    # (every launch keeps its masks) is refused
    "even_bounds_attention": {"even_bounds", "tma_loads", "fold_exp2"},
    "even_bounds_lse": {"even_bounds", "row_single_block", "persistent_grid", "rows_per_program", "l2_reuse"},
    "even_bounds_lse_uneven": {"row_single_block", "persistent_grid", "rows_per_program", "l2_reuse"},
    "even_bounds_matmul": {"even_bounds", "tile_grid", "tma_loads"},
    # bench/suite/ops/causal_softmax (symlinks): scaled scores in three loops, two of them
    # exponentiated against the row maximum
    "fold_exp2_causal_softmax": {"fold_exp2", "even_bounds", "l2_reuse", "persistent_grid", "row_single_block",
                                 "rows_per_program"},
    # one launch per head from a Python loop, each on x[h] and y[h] and the shared weight
    "batch_launches_heads": {"batch_launches", "persistent_grid", "elementwise_vector", "rows_per_program"},
    # a 16 x 16 tile matmul on a 2-D grid launched once per batch element, strides read from
    # the whole tensors (the written c among them)
    "batch_launches_bmm": {"batch_launches", "tile_grid", "tma_loads", "even_bounds"},
    # bench/suite/ops/scatter_add (symlinks): a row added into the row its id names, atomically;
    # a histogram with a segment maximum (two atomics, an address through tl.multiple_of)
    "relaxed_atomics_scatter": {"relaxed_atomics", "row_single_block", "persistent_grid"},
    "relaxed_atomics_histogram": {"relaxed_atomics", "elementwise_vector", "persistent_grid"},
    # launch forms (bench/suite/unseen/rmsnorm_triton_op, rowmax_tl_range, leaky_relu_attr
    # through symlinks): a kernel behind torch.library.triton_op launched as wrap_triton(k)[grid]
    # (its grid a nested def, read as its tuple: normalize.tuple_grids), a row walked by tl.range with
    # num_stages, a kernel held in self.fn (normalize.name_kernel_attributes)
    "row_single_block_triton_op": {"row_single_block", "l2_reuse", "persistent_grid", "rows_per_program"},
    "row_single_block_tl_range": {"row_single_block", "persistent_grid", "rows_per_program"},
    "elementwise_vector_kernel_attr": {"elementwise_vector", "persistent_grid", "rows_per_program"},
    "elementwise_vector_unspecialized": {"elementwise_vector", "persistent_grid", "rows_per_program",
                                         "specialize_args"},
    # a row kernel whose stride and length are kept unspecialised
    "specialize_args_l2norm": {"specialize_args", "row_single_block", "persistent_grid", "rows_per_program",
                               "l2_reuse", "even_bounds"},
    # the tutorial's `grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']),)`
    "persistent_grid_lambda": {"persistent_grid", "elementwise_vector", "rows_per_program"},
}

# (fixture, rewrite, params): each candidate must pass validate on the interpreter: every
# rewrite on every fixture it fits with its default parameters, and the cases below.
APPLIED = sorted((name, rw, {}) for name, fits in FITS.items() for rw in fits) + [
    ("row_single_block_softmax", "row_single_block", {"elems_per_warp": 128, "max_warps": 8}),
    # the online log-softmax's single pass without first_pass's fold (the fallback candidate)
    ("l2_reuse_logsoftmax", "row_single_block", {"fold": 0}),
    ("tile_grid_matmul", "tile_grid", {"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 16, "GROUP_M": 8,
                                       "num_warps": 2, "num_stages": 5}),
    # 2 x 2 tiles of 2 batches, regrouped on axis 0 with the batch kept on axis 2
    ("tile_grid_batched", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                        "num_warps": 2, "num_stages": 2}),
    # 5 x 4 tiles in groups of 2 tile rows: the last group is clipped to one row
    ("tile_grid_matmul1d", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                         "num_warps": 2, "num_stages": 2}),
    # persistent: 20 tiles over the interpreter's 4 programs (5 each, groups clipped), and a
    # batched kernel's 2 x 2 tiles of 2 batches looped on axis 0
    ("tile_grid_matmul1d", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                         "num_warps": 2, "num_stages": 2, "PERSISTENT": 1}),
    ("tile_grid_batched", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                        "num_warps": 2, "num_stages": 2, "PERSISTENT": 1}),
    # descriptor twins: tile loads through tensor descriptors, one program per tile and
    # persistent (descriptors made once per program, before the tile loop)
    ("tile_grid_matmul1d", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                         "num_warps": 2, "num_stages": 2, "TMA": 1}),
    ("tile_grid_matmul1d", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                         "num_warps": 2, "num_stages": 2, "PERSISTENT": 1, "TMA": 1}),
    ("tile_grid_batched", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                        "num_warps": 2, "num_stages": 2, "PERSISTENT": 1, "TMA": 1}),
    # 3 column blocks, the last one partly past the matrix
    ("strided_reduction_tiles_colsum", "strided_reduction_tiles", {"BLOCK_R": 16, "BLOCK_C": 32}),
    ("strided_reduction_tiles_colmax", "strided_reduction_tiles", {"BLOCK_C": 16, "num_warps": 2}),
    ("persistent_grid_scale", "persistent_grid", {"k": 1}),
    ("elementwise_vector_gelu", "elementwise_vector", {"num_warps": 1, "m": 1}),
    ("elementwise_vector_unspecialized", "elementwise_vector", {"num_warps": 1, "m": 1}),
    ("specialize_args_l2norm", "specialize_args", {}),
    # 21 and 13 rows: the last tile is partly past the grid (rows masked out)
    ("rows_per_program_rope", "rows_per_program", {"ROWS": 4}),
    ("rows_per_program_rope", "rows_per_program", {"ROWS": 8}),
    ("rows_per_program_embedding", "rows_per_program", {"ROWS": 2}),
    ("rows_per_program_embedding", "rows_per_program", {"ROWS": 8}),
    # 32 tokens in one tile of 32 rows over 2 warps
    ("rows_per_program_moe", "rows_per_program", {"ROWS": 32, "num_warps": 2}),
    ("tma_loads_linear", "tma_loads", {"num_warps": 8, "num_stages": 4}),
    # 3 x 3 tiles of 16 over a 48 x 40 output in groups of 2 tile rows, K in steps of 16
    ("tile_grid_blockptr", "tile_grid", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2,
                                         "num_warps": 2, "num_stages": 2}),
    ("deinterleave_pairs_rows", "deinterleave_pairs", {"num_warps": 1}),
    ("fuse_kernels_softmax", "fuse_kernels", {"num_warps": 2}),
    ("l2_reuse_logsoftmax", "l2_reuse", {"keep": 0, "stream": 1, "stores": 1}),
    ("row_single_block_rmsnorm", "l2_reuse", {"keep": 1, "stream": 0, "stores": 1}),
    # 3 rows of 1000 in blocks of 128 (8 blocks): 2 programs a row, and 32 (most hold no block:
    # their lanes keep the initial -inf and column 0); ties everywhere (small integers)
    ("split_rows_argmax", "split_rows", {"SPLIT": 2}),
    ("split_rows_argmax", "split_rows", {"SPLIT": 32}),
    ("split_rows_rownorm", "split_rows", {"SPLIT": 4}),
    # unmasked blocks (the row a multiple of the block): each program still reads only blocks
    # that start inside the row; a column sum (a strided reduction) split the same way
    ("row_single_block_unmasked", "split_rows", {"SPLIT": 2}),
    ("strided_reduction_tiles_colsum", "split_rows", {"SPLIT": 4}),
    ("split_rows_scalar", "split_rows", {"SPLIT": 2}),
    ("strided_reduction_tiles_colmax", "split_rows", {"SPLIT": 2}),
    ("split_rows_scalar", "split_rows", {"SPLIT": 32}),
    ("even_bounds_attention", "even_bounds", {"num_warps": 8, "num_stages": 2}),
    ("tma_loads_attention", "fold_exp2", {"num_warps": 8, "num_stages": 4}),
]

# (fixture, rewrite, params, words the reason must contain)
REFUSED = [
    ("helper_reads_pid", "persistent_grid", {}, ["scale_shift_kernel line 19: calls block_start, which reads tl.program_id (line 14)"]),
    ("helper_reads_pid", "rows_per_program", {}, ["scale_shift_kernel line 19: calls block_start, which reads tl.program_id (line 14)"]),
    ("helper_reads_pid", "elementwise_vector", {}, ["scale_shift_kernel line 19: calls block_start, which reads tl.program_id (line 14)"]),
    ("helper_reads_pid", "strided_reduction_tiles", {}, ["scale_shift_kernel line 19: calls block_start, which reads tl.program_id (line 14)"]),
    ("row_single_block_unmasked", "row_single_block", {}, ["row_sum_kernel line 13", "tl.load at line 14 has no mask"]),
    ("row_single_block_rmsnorm", "row_single_block", {"max_row": 256}, ["n_cols = 300", "max_row=256"]),
    ("row_single_block_rmsnorm", "row_single_block", {"max_row": 300}, ["max_row must be a power of two"]),
    ("row_single_block_rmsnorm", "row_single_block", {"warps": 4}, ["unknown parameter 'warps'"]),
    ("row_single_block_rmsnorm", "row_single_block", {"elems_per_warp": 100}, ["outside its domain"]),
    ("elementwise_vector_gelu", "row_single_block", {}, ["gelu_kernel has no loop"]),
    ("tile_grid_batchfirst", "tile_grid", {}, ["bmm_kernel", "cannot find two tile indices"]),
    ("tile_grid_batchmix", "tile_grid", {}, ["bmm_kernel", "cannot tell which of pid_m (line 14)"]),
    ("elementwise_vector_gelu", "tile_grid", {}, ["does not call tl.dot"]),
    ("tile_grid_blockptr", "tile_grid", {"TMA": 1}, ["TMA=1 but tensor descriptors do not fit the rewritten kernel"]),
    ("tile_grid_matmul", "tile_grid", {"TMA": 2}, ["TMA=2 must be 0 or 1"]),
    ("tile_grid_matmul", "tile_grid", {"BLOCK_M": 96}, ["BLOCK_M=96", "power of two"]),
    ("tile_grid_matmul", "tile_grid", {"PERSISTENT": 2}, ["PERSISTENT=2", "0 or 1"]),
    ("strided_reduction_tiles_rowsum", "strided_reduction_tiles", {},
     ["row_sum_kernel", "no load adds the program's index row to a row offset multiplied by a stride"]),
    ("strided_reduction_tiles_colsum", "strided_reduction_tiles", {"BLOCK_R": 128, "BLOCK_C": 256},
     ["128x256 tile exceeds 16384"]),
    ("tile_grid_matmul", "strided_reduction_tiles", {}, ["exactly one tl.program_id(0)"]),
    ("persistent_grid_early_return", "persistent_grid", {}, ["line 14: returns early"]),
    ("tile_grid_matmul", "persistent_grid", {}, ["another axis than 0"]),
    ("elementwise_vector_strided", "elementwise_vector", {}, ["line 14: tl.load does not address `ptr + offs`"]),
    ("persistent_grid_early_return", "elementwise_vector", {}, ["line 13: uses the program id or block start (pid) beyond the offsets"]),
    ("row_single_block_rmsnorm", "elementwise_vector", {}, ["line 16: has a loop"]),
    ("elementwise_vector_gelu", "elementwise_vector", {"m": 3}, ["m=3 is outside its domain"]),
    ("elementwise_vector_gelu", "no_such_rewrite", {}, ["unknown structural rewrite 'no_such_rewrite'"]),
    ("persistent_grid_early_return", "rows_per_program", {}, ["line 13: the `if` header depends on the program id (pid)"]),
    ("tile_grid_matmul", "rows_per_program", {}, ["line 13: uses tl.program_id of another axis than 0"]),
    ("rows_per_program_rope", "rows_per_program", {"ROWS": 3}, ["ROWS=3 is outside its domain [2, 4, 8, 16, 32]"]),
    ("rows_per_program_rope", "rows_per_program", {"ROWS": 64}, ["ROWS=64 is outside its domain"]),
    ("tma_loads_unmasked", "tma_loads", {}, ["line 19: the load has no mask", "line 20: the load has no mask"]),
    ("elementwise_vector_gelu", "tma_loads", {}, ["calls no tl.dot"]),
    ("tma_loads_linear", "tma_loads", {"num_stages": 7}, ["num_stages=7 is outside its domain"]),
    ("row_single_block_heuristic_block", "row_single_block", {}, ["its @triton.heuristics sets BLOCK"]),
    ("row_single_block_heuristic_block", "persistent_grid", {}, ["its @triton.heuristics sets BLOCK"]),
    ("persistent_grid_heuristics", "elementwise_vector", {}, ["tl.load is not masked by `offs < n`"]),
    ("deinterleave_pairs_masked", "deinterleave_pairs", {},
     ["cmul_kernel: line 16: the mask or `other` (through m -> i) varies along the pairs' axis",
      "tl.arange at line 13"]),
    ("rows_per_program_rope", "deinterleave_pairs", {}, ["no load or store at `2 * i + 1`"]),
    ("elementwise_vector_gelu", "deinterleave_pairs", {}, ["binds no index vector"]),
    ("deinterleave_pairs_rope", "deinterleave_pairs", {"num_warps": 3}, ["num_warps=3 is outside its domain"]),
    ("fuse_kernels_hazard", "fuse_kernels", {},
     ["exp_kernel writes y, which div_kernel also gets", "div_kernel is not followed directly"]),
    ("elementwise_vector_gelu", "fuse_kernels", {}, ["not followed directly by the launch of another kernel"]),
    ("row_single_block_softmax", "fuse_kernels", {}, ["not followed directly by the launch of another kernel"]),
    ("fuse_kernels_softmax", "fuse_kernels", {"num_warps": 3}, ["num_warps=3 is outside its domain"]),
    ("elementwise_vector_gelu", "l2_reuse", {}, ["gelu_kernel: no tensor is loaded in two or more loops"]),
    ("l2_reuse_logsoftmax", "l2_reuse", {"keep": 0, "stream": 0, "stores": 0}, ["all 0"]),
    ("l2_reuse_logsoftmax", "l2_reuse", {"keep": 2}, ["keep=2 is outside its domain"]),
    ("even_bounds_lse_uneven", "even_bounds", {},
     ["lse_kernel: in the recorded launch no block divides its bound (N = 300 and BLOCK = 128)"]),
    ("elementwise_vector_gelu", "even_bounds", {}, ["gelu_kernel has no loop"]),
    ("row_single_block_unmasked", "even_bounds", {},
     ["row_sum_kernel line 13: no comparison of the loop's columns `off + tl.arange(0, BLOCK)` with n_cols"]),
    ("even_bounds_lse", "even_bounds", {"num_stages": 7}, ["num_stages=7 is outside its domain"]),
]


def fixture(name):
    return read(FIX, name, "ref.py"), read(FIX, name, "kernel.py")


@pytest.fixture(scope="module")
def h(tmp_path_factory):
    wd = tmp_path_factory.mktemp("structural")
    client = start_harness(wd)
    yield client
    client.close()


def record(h, names):
    """The launches the harness records when it loads each fixture (what `survey` gets)."""
    out = {}
    for name in names:
        ref, ker = fixture(name)
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir=f"s_{name}", seed=0,
                      correctness_cases=2, benchmark_cases=1)
        assert r["ok"], (name, r)
        assert r["result"]["static_check"]["ok"], (name, r["result"]["static_check"])
        out[name] = r["result"]["kernels"]
    return out


@pytest.fixture(scope="module")
def recorded(h):
    return record(h, FITS)


def load_and_validate(h, name, candidate):
    ref, ker = fixture(name)
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir=f"v_{name}", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    v = h.request("validate", candidate_source=candidate)
    assert v["ok"], v
    return v["result"]


@pytest.mark.parametrize("name", sorted(FITS))
def test_survey(recorded, name):
    fits = survey(fixture(name)[1], recorded[name])
    assert [f.name for f in fits] == list(REWRITES)
    got = {f.name for f in fits if f.fits}
    assert got == FITS[name], {f.name: f.why for f in fits}
    for f in fits:
        assert f.why, f
        assert json.loads(json.dumps(f.to_json())) == {"name": f.name, "fits": f.fits, "why": f.why,
                                                       "params": f.params, "domain": f.domain}
        if f.fits:
            kernel = f.params["kernel"]
            assert kernel in f.why and re.search(r"line \d+", f.why), f.why
            assert set(f.domain) and all(isinstance(v, list) and v for v in f.domain.values())
        else:
            assert f.params == {} and f.domain == {}


@pytest.mark.parametrize("name,rewrite,params", APPLIED,
                         ids=[f"{a[1]}-{a[0]}-{'-'.join(f'{k}{v}' for k, v in a[2].items()) or 'defaults'}"
                              for a in APPLIED])
def test_apply_is_correct(h, recorded, name, rewrite, params):
    cand = apply(fixture(name)[1], rewrite, params, recorded[name])
    assert cand != fixture(name)[1]
    st = check_source(cand)
    assert st["ok"], st["violations"]
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]
    assert res["who"] == "candidate" and res["cases_checked"] == 2


# split_rows_argmax's kernel changed so that a split would change the result, or that the
# rewrite cannot tell: (replaced text, replacement, words the reason must contain)
SPLIT_REFUSED = [
    # a lane count combined by a maximum: the count per lane depends on how the row is dealt
    ("best_idx = tl.where(take, cols.to(tl.int64), best_idx)", "best_idx = best_idx + 1",
     ["best_idx is used after the loop other than as its sum"]),
    # the last maximum of each lane, not the first
    ("take = x > best", "take = x >= best", ["not one strict comparison"]),
    # kept beside the maximum: a value, not its column
    ("best_idx = tl.where(take, cols.to(tl.int64), best_idx)", "best_idx = tl.where(take, x.to(tl.int64), best_idx)",
     ["best_idx keeps something other than the column of its extremum best"]),
    # a lane vector stored as it is
    ("    tl.store(out_ptr + row, idx)", "    tl.store(out_ptr + row + tl.arange(0, BLOCK), best)",
     ["tl.arange after the loop"]),
    ("    m = tl.max(best, axis=0)", "    m = tl.max(best * 2.0, axis=0)", ["best is used after the loop"]),
    # a name of the loop read after it
    ("    tl.store(out_ptr + row, idx)", "    tl.store(out_ptr + row, idx + start)", ["reads start, bound in the loop"]),
    ("for start in range(0, n_cols, BLOCK)", "for start in range(BLOCK, n_cols, BLOCK)", ["not 0"]),
    # a partial lane read in the loop for something else (stored as it goes), or before it
    ("        best = tl.where(take, x, best)",
     "        best = tl.where(take, x, best)\n        tl.store(out_ptr + row, tl.max(best, axis=0))",
     ["reads best in the loop other than to update it"]),
    ("    best_idx = tl.zeros([BLOCK], dtype=tl.int64)",
     "    best_idx = tl.zeros([BLOCK], dtype=tl.int64)\n    start_max = tl.max(best, axis=0)",
     ["reads best before the loop"]),
    # a sum that starts at 1 in every lane: each split program would add its start again
    ([("best_idx = tl.zeros([BLOCK], dtype=tl.int64)", "best_idx = tl.full([BLOCK], 1, tl.int64)"),
      ("best_idx = tl.where(take, cols.to(tl.int64), best_idx)", "best_idx += x.to(tl.int64)"),
      ("idx = tl.min(tl.where(best == m, best_idx, n_cols), axis=0)", "idx = tl.sum(best_idx, axis=0)")],
     None, ["the sum best_idx does not start at 0"]),
]


@pytest.mark.parametrize("old,new,words", SPLIT_REFUSED, ids=[f"split_rows-{i}" for i in range(len(SPLIT_REFUSED))])
def test_split_rows_refusals(recorded, old, new, words):
    src = fixture("split_rows_argmax")[1]
    for a, b in ([(old, new)] if new is not None else old):
        assert a in src, a
        src = src.replace(a, b)
    fit = next(f for f in survey(src, recorded["split_rows_argmax"]) if f.name == "split_rows")
    assert not fit.fits
    for w in words:
        assert w in fit.why, fit.why


@pytest.mark.parametrize("old,new,words", [
    ("total = 0.0", "total = 1.0", ["the sum total does not start at 0"]),
    # a running maximum kept with its block's position: a scalar first extremum
    ("        top = tl.maximum(top, tl.max(tl.where(cols < n_cols, x, float(\"-inf\")), axis=0))",
     "        blk_max = tl.max(x, axis=0)\n        up = blk_max > top\n        top = tl.where(up, blk_max, top)",
     ["top: a scalar kept as a first extremum"]),
    ("total = 0.0", "total = 0", ["the loop carries total, not a vector"]),
])
def test_split_rows_scalar_refusals(recorded, old, new, words):
    src = fixture("split_rows_scalar")[1]
    assert old in src
    fit = next(f for f in survey(src.replace(old, new), recorded["split_rows_scalar"]) if f.name == "split_rows")
    assert not fit.fits
    for w in words:
        assert w in fit.why, fit.why


@pytest.mark.parametrize("name,kernel", [("split_rows_argmax", "argmax_kernel"),
                                         ("split_rows_scalar", "row_stats_kernel")])
def test_split_rows_compiles_for_cuda(h, name, kernel):
    """Both kernels of the split compile offline for cuda:90 (a float64 scratch for scalars
    included): what runs on the H200 is what the interpreter validated."""
    ref, ker = fixture(name)
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir=f"cs_{name}", seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    cand = apply(ker, "split_rows", {"SPLIT": 8}, r["result"]["kernels"])
    c = h.request("compile", target="cuda:90", candidate_source=cand)
    assert c["ok"], c
    assert sorted(k["kernel"] for k in c["result"]["kernels"]) == [f"{kernel}_merge", f"{kernel}_split"]
    assert all(k["ptx_stats"] for k in c["result"]["kernels"])


def test_split_rows_float64_vector_is_no_scalar(h, recorded):
    """A float64 lane vector (``tl.zeros([BLOCK], dtype=tl.float64)``) is split as a vector: its
    lanes go to the scratch side by side, not as one scalar per program."""
    ref, ker = fixture("split_rows_rownorm")
    old = "acc = tl.zeros([BLOCK], dtype=tl.float32)"
    assert old in ker
    ker = ker.replace(old, "acc = tl.zeros([BLOCK], dtype=tl.float64)")
    cand = apply(ker, "split_rows", {"SPLIT": 4}, recorded["split_rows_rownorm"])
    assert "tl.arange(0, SPLIT * BLOCK)" in cand.split("acc = tl.load(", 1)[1].splitlines()[0], cand
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir="f64_split_rows", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    v = h.request("validate", candidate_source=cand)
    assert v["ok"] and v["result"]["passed"], v


def test_split_rows_merge_lanes_capped(recorded):
    """SPLIT times the recorded block is at most MAX_MERGE_LANES (one merge program holds that
    many lanes of each carried vector): the domain shrinks with the block, and a block past
    half the cap is refused."""
    from kharness.structural import split_rows
    recs = recorded["split_rows_argmax"]
    ker = fixture("split_rows_argmax")[1]

    def fit(block):
        return next(f for f in survey(ker, _altered(recs, kwargs={"BLOCK": {"kind": "int", "value": block}}))
                    if f.name == "split_rows")
    assert fit(128).domain["SPLIT"] == [2, 4, 8, 16, 32] and fit(128).params["SPLIT"] == 8
    assert fit(4096).domain["SPLIT"] == [2, 4] and fit(4096).params["SPLIT"] == 4
    assert all(v * 4096 <= split_rows.MAX_MERGE_LANES for v in fit(4096).domain["SPLIT"])
    big = fit(split_rows.MAX_MERGE_LANES)
    assert not big.fits and "even SPLIT 2 gives the merge kernel more than" in big.why, big.why


def test_split_rows_keeps_one_knob_each(h, recorded):
    """The split kernel's block and SPLIT are each bound once in forward, so the search has one
    knob for each, read by both launches, the grid and the scratch's size: changing them
    together keeps the result."""
    ref, ker = fixture("split_rows_argmax")
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir="knobs_split_rows", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    cand = apply(ker, "split_rows", {"SPLIT": 4}, recorded["split_rows_argmax"])
    kn = h.request("knobs", source=cand)
    assert kn["ok"], kn
    ids = {k["id"]: k for k in kn["result"]["knobs"]}
    assert ids["BLOCK"]["value"] == 128 and ids["SPLIT"]["value"] == 4, ids
    rw = h.request("rewrite", source=cand, changes={"SPLIT": 16, "BLOCK": 64})
    assert rw["ok"], rw
    v = h.request("validate", candidate_source=rw["result"]["source"])
    assert v["ok"] and v["result"]["passed"], v


@pytest.mark.parametrize("name,rewrite,params,words", REFUSED, ids=[f"{r[1]}-{r[0]}" for r in REFUSED])
def test_refusals(recorded, name, rewrite, params, words):
    with pytest.raises(RewriteRefused) as e:
        apply(fixture(name)[1], rewrite, params, recorded[name])
    for w in words:
        assert w in str(e.value), str(e.value)


@pytest.mark.parametrize("name,params", [
    ("tile_grid_matmul", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "TMA": 1}),
    ("tile_grid_batched", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "PERSISTENT": 1, "TMA": 1}),
])
def test_descriptor_loads_not_described_again(recorded, name, params):
    """tile_grid's descriptor twin keeps each pointer load as the path for a non-unit stride
    (``if stride == 1: desc.load(...) else: tl.load(...)``); tma_loads fitted those loads again
    and a round swept eight points of a rewrite that changes nothing the compiled kernel runs
    (the interpreter's tiles job, tests/integration/test_rounds.py). It no longer fits them."""
    twin = apply(fixture(name)[1], "tile_grid", params, recorded[name])
    assert "make_tensor_descriptor" in twin and "tl.load(" in twin, twin
    fit = next(f for f in survey(twin, recorded[name]) if f.name == "tma_loads")
    assert not fit.fits, fit
    assert "loaded through a tensor descriptor already" in fit.why, fit.why
    # the first-draft kernel still fits
    assert next(f for f in survey(fixture(name)[1], recorded[name]) if f.name == "tma_loads").fits


@pytest.mark.parametrize("name,params", [
    ("tile_grid_matmul", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "num_warps": 2}),
    ("tile_grid_blockptr", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "num_warps": 2}),
    ("tile_grid_batched", {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "PERSISTENT": 1}),
])
def test_tile_grid_params_name_every_knob(h, name, params):
    """The worker remembers the tile_grid points a round measured beside the one it took as
    configurations of the kernel that one wrote (search_adopt_siblings, workers/search.h): each
    knob of that kernel is set by the param named as the knob or as its role in capitals (the
    block-pointer kernel calls its tiles BM, BN, BK), with the value the knob has."""
    ref, ker = fixture(name)
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir=f"n_{name}", seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    rw = h.request("rewrite", structural={"name": "tile_grid", "params": params})
    assert rw["ok"], rw
    fit = next(f for f in survey(ker, r["result"]["kernels"]) if f.name == "tile_grid")
    point = {**fit.params, **params}
    kn = h.request("knobs", source=rw["result"]["source"])
    assert kn["ok"], kn
    knobs = kn["result"]["knobs"]
    assert knobs
    for k in knobs:
        key = k["id"] if k["id"] in point else k["role"].upper()
        assert key in point and point[key] == k["value"], (k, point)


def test_survey_without_launches_and_bad_source():
    fits = survey(fixture("elementwise_vector_gelu")[1], [])
    assert not any(f.fits for f in fits)
    assert "not launched on the recorded forward" in {f.name: f.why for f in fits}["elementwise_vector"]
    fits = survey("def broken(:\n", [])
    assert all(not f.fits and "does not parse" in f.why for f in fits)


def _import(path, text, modname):
    with open(path, "w") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.filterwarnings("ignore:Conversion of an array:DeprecationWarning")  # the interpreter's own loop
def test_row_single_block_shapes(tmp_path, recorded):
    """The single-block kernel handles other row lengths, and rows longer than max_row take
    the original kernel (in-process, interpreter)."""
    import torch
    launch_rec.install()
    name = "row_single_block_softmax"
    cand = apply(fixture(name)[1], "row_single_block", {"max_row": 512}, recorded[name])
    mod = _import(tmp_path / "cand.py", cand, "kopt_struct_row_cand")
    ref = _import(tmp_path / "ref.py", fixture(name)[0], "kopt_struct_row_ref")
    for cols, kernel in ((37, "softmax_kernel_row"), (512, "softmax_kernel_row"), (700, "softmax_kernel")):
        x = torch.randn(3, cols)
        with launch_rec.recording() as recs:
            y = mod.ModelNew()(x)
        assert [r["kernel"] for r in recs] == [kernel]
        torch.testing.assert_close(y, ref.Model()(x))
    # the single-block copy reads the row once: the later passes reuse the first load
    tree = ast.parse(cand)
    loads = {f.name: sum(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "load"
                         for c in ast.walk(f))
             for f in tree.body if isinstance(f, ast.FunctionDef)}
    assert loads == {"softmax_kernel": 3, "softmax_kernel_row": 1}


@pytest.mark.filterwarnings("ignore:Conversion of an array:DeprecationWarning")  # the interpreter's own loop
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")  # the kernel's own -inf - -inf in masked lanes
def test_row_single_block_reuse_other(tmp_path, recorded):
    """An online log-softmax loads its row with -inf in the masked lanes and again, in the
    output pass, with 0 under a mask held in a name: the single-block copy loads the row once.
    The output pass's value reaches only a store under the same mask, so its masked lanes are
    dead and it takes the earlier value as it is (no tl.where for the other `other`); with a
    sum of it beside the store they are live, and it takes the earlier value where the mask
    keeps it and 0 elsewhere. Each matches the reference on rows shorter than the block
    (masked lanes present) and exactly one block long."""
    import torch
    launch_rec.install()
    name = "l2_reuse_logsoftmax"
    cand = apply(fixture(name)[1], "row_single_block", {"max_row": 4096}, recorded[name])
    tree = ast.parse(cand)
    row = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "log_softmax_kernel_row")
    loads = [c for c in ast.walk(row) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
             and c.func.attr == "load"]
    wheres = [ast.unparse(c) for c in ast.walk(row) if isinstance(c, ast.Call)
              and isinstance(c.func, ast.Attribute) and c.func.attr == "where" and "_vals" in ast.unparse(c)]
    assert len(loads) == 1, ast.unparse(row)
    assert not wheres, wheres
    # what the fold left unread is gone: the sum's starting zeros, the selector s the combine no
    # longer reads, the loops' variables bound to 0
    bound = [t.id for st in row.body if isinstance(st, ast.Assign) for t in st.targets if isinstance(t, ast.Name)]
    assert not {"s", "start", "alive"} & set(bound), ast.unparse(row)
    # the output pass also sums its values (times 0): its masked lanes are read
    live = fixture(name)[1].replace(
        "        tl.store(y_ptr + row * stride_row + cols, (x - lse).to(y_ptr.dtype.element_ty), mask=mask)",
        "        tl.store(y_ptr + row * stride_row + cols, (x - lse + 0.0 * tl.sum(x, axis=0))"
        ".to(y_ptr.dtype.element_ty), mask=mask)")
    assert live != fixture(name)[1]
    cand_live = apply(live, "row_single_block", {"max_row": 4096}, recorded[name])
    row = next(f for f in ast.parse(cand_live).body if isinstance(f, ast.FunctionDef)
               and f.name == "log_softmax_kernel_row")
    wheres = [ast.unparse(c) for c in ast.walk(row) if isinstance(c, ast.Call)
              and isinstance(c.func, ast.Attribute) and c.func.attr == "where" and "_vals" in ast.unparse(c)]
    assert len(wheres) == 1 and wheres[0].startswith("tl.where(mask, "), wheres
    ref = _import(tmp_path / "ref.py", fixture(name)[0], "kopt_struct_lsm_ref")
    for text, tag in ((cand, "dead"), (cand_live, "live")):
        mod = _import(tmp_path / f"cand_{tag}.py", text, f"kopt_struct_lsm_cand_{tag}")
        for cols in (37, 3000, 4096):
            x = torch.randn(3, cols)
            with launch_rec.recording() as recs:
                y = mod.ModelNew()(x)
            assert [r["kernel"] for r in recs] == ["log_softmax_kernel_row"]
            torch.testing.assert_close(y, ref.Model()(x))


def test_row_single_block_reuse_keeps_other_loads():
    """A later load of another address, or of the same address under another mask, is not
    reused; names bound to the same expression compare equal to it written inline."""
    from kharness.structural.common import Module
    from kharness.structural.row_single_block import reuse_loads
    src = (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n"
        "    cols = tl.arange(0, B)\n"
        "    a = tl.load(x_ptr + cols, mask=cols < n, other=0.0)\n"
        "    m2 = cols < n - 1\n"
        "    b = tl.load(x_ptr + cols, mask=m2, other=1.0)\n"
        "    c = tl.load(y_ptr + cols, mask=cols < n, other=1.0)\n"
        "    m = cols < n\n"
        "    d = tl.load(x_ptr + cols, mask=m, other=2.0)\n"
        "    tl.store(y_ptr + cols, a + b + c + d + tl.sum(d, axis=0), mask=m)\n"
    )
    mod = Module(src, [])
    edits = reuse_loads(mod, mod.kernels["k"])
    from kharness.srcedit import apply_edits
    out = apply_edits(src, edits)
    assert "d = tl.where(m, a, 2.0).to(a.dtype)" in out, out     # the sum reads d's masked lanes
    assert out.count("tl.load(") == 3, out
    # stored only, under its own mask: d's masked lanes are dead and a stands in as it is
    dead = src.replace(" + tl.sum(d, axis=0), mask=m)", ", mask=m)")
    mod = Module(dead, [])
    out = apply_edits(dead, reuse_loads(mod, mod.kernels["k"]))
    assert "    d = a\n" in out, out
    # under another mask than the load's, the lanes may be stored: the where stays
    other = dead.replace("a + b + c + d, mask=m)", "a + b + c + d, mask=cols < n - 2)")
    mod = Module(other, [])
    out = apply_edits(other, reuse_loads(mod, mod.kernels["k"]))
    assert "d = tl.where(m, a, 2.0).to(a.dtype)" in out, out


def test_row_single_block_drops_only_unread_values():
    """drop_unread removes a binding no later statement reads before rebinding it (b's zeros,
    and the chain it leaves: e feeds only f, which nothing reads) and keeps a load, a call of a
    helper it cannot see into, a value an augmented assignment reads, one a loop reads and
    one a loop rebinds."""
    from kharness.structural.row_single_block import drop_unread
    src = (
        "import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n"
        "    cols = tl.arange(0, B)\n"
        "    a = tl.load(x_ptr + cols, mask=cols < n, other=0.0)\n"
        "    b = tl.zeros([B], dtype=tl.float32)\n"
        "    b = tl.full([B], 1.0, tl.float32)\n"
        "    c = b * 2\n"
        "    c += 1\n"
        "    d = helper(b)\n"
        "    e = tl.exp(c)\n"
        "    f = tl.where(cols < n, e, 0.0).to(tl.float32)\n"
        "    g = tl.zeros([B], dtype=tl.float32)\n"
        "    h = tl.zeros([B], dtype=tl.float32)\n"
        "    for i in range(0, n, B):\n"
        "        g = g + c\n"
        "        h = c\n"
        "    h = c + 1\n"
        "    tl.store(y_ptr + cols, c + g + h, mask=cols < n)\n"
    )
    out = drop_unread(src, "k", {})
    kept = [ln.strip() for ln in out.splitlines() if ln.startswith("    ")]
    dropped = {"b = tl.zeros([B], dtype=tl.float32)", "e = tl.exp(c)", "f = tl.where(cols < n, e, 0.0).to(tl.float32)"}
    assert kept == [ln.strip() for ln in src.splitlines() if ln.startswith("    ") and ln.strip() not in dropped], out


def test_row_single_block_distinct_configs(recorded):
    """The survey offers row_single_block's points as whole configurations, one per num_warps
    the recorded row is launched with (the rest would compile to a kernel already offered),
    the defaults first; each applies, and its dispatch launches that num_warps."""
    from kharness.structural import row_single_block as rsb
    name = "row_single_block_softmax"
    (fit,) = [f for f in survey(fixture(name)[1], recorded[name]) if f.name == "row_single_block"]
    configs = fit.domain["configs"]
    assert list(fit.domain) == ["configs"] and configs
    row_block = int(re.search(r"fits one block of (\d+)", fit.why).group(1))
    warps = [rsb.launched_warps(row_block, {**fit.params, **c}) for c in configs]
    assert len(set(warps)) == len(warps) == len(configs)
    assert all(configs[0][k] == rsb.DEFAULTS[k] for k in configs[0])
    # every num_warps the full product reaches is offered
    every = {rsb.launched_warps(row_block, dict(zip(sorted(rsb.DOMAIN), v)))
             for v in itertools.product(*(rsb.DOMAIN[k] for k in sorted(rsb.DOMAIN)))}
    assert set(warps) == every
    for c, w in zip(configs, warps):
        cand = apply(fixture(name)[1], "row_single_block", {**fit.params, **c}, recorded[name])
        launch = next(n for n in ast.walk(ast.parse(cand)) if isinstance(n, ast.keyword) and n.arg == "num_warps")
        # the emitted num_warps expression, its row-block name bound to the recorded row block
        row_names = {n.id for n in ast.walk(launch.value) if isinstance(n, ast.Name)} - {"min", "max"}
        assert len(row_names) == 1, ast.unparse(launch.value)
        got = eval(compile(ast.Expression(launch.value), "<num_warps>", "eval"),  # our own arithmetic
                   {"min": min, "max": max}, dict.fromkeys(row_names, row_block))
        assert got == w


def _compile(h, name, candidate):
    """The candidate's one kernel compiled offline for cuda:90 by the harness."""
    ref, ker = fixture(name)
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir=f"c_{name}", seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    c = h.request("compile", target="cuda:90", candidate_source=candidate)
    assert c["ok"], c
    (k,) = c["result"]["kernels"]
    return k


def _tl_loads(source, kernel):
    fn = next(f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef) and f.name == kernel)
    return sum(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "load"
               for c in ast.walk(fn))


def test_l2_reuse_keeps_the_authors_hints(recorded):
    """A kernel whose author already named an eviction policy on a re-read load (here: the
    last pass's, written by l2_reuse itself) is refused, naming the line, not given a second
    hint beside the first."""
    name = "row_single_block_rmsnorm"
    hinted = apply(fixture(name)[1], "l2_reuse", {"keep": 0, "stream": 1, "stores": 0}, recorded[name])
    line = next(i for i, t in enumerate(hinted.splitlines(), 1) if "evict_first" in t)
    fit = {f.name: f for f in survey(hinted, recorded[name])}["l2_reuse"]
    assert not fit.fits
    for why in (fit.why, str(pytest.raises(RewriteRefused, apply, hinted, "l2_reuse", {}, recorded[name]).value)):
        assert f"add_rmsnorm_kernel line {line}" in why and "already names an eviction_policy" in why, why


GATHER_TWO_PASSES = '''
import triton
import triton.language as tl


@triton.jit
def gather_kernel(idx_ptr, data_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n, BLOCK):
        i = off + tl.arange(0, BLOCK)
        acc += tl.load(idx_ptr + i, mask=i < n, other=0).to(tl.float32)
    for off in range(0, n, BLOCK):
        i = off + tl.arange(0, BLOCK)
        j = tl.load(idx_ptr + i, mask=i < n, other=0)
        tl.store(out_ptr + i, tl.load(data_ptr + j, mask=i < n) + tl.sum(acc, axis=0), mask=i < n)


def run(idx, data, out):
    gather_kernel[(1,)](idx, data, out, idx.numel(), BLOCK=128)
'''


def test_l2_reuse_follows_addresses_not_loaded_data():
    """The tensors read twice are found through address arithmetic only: idx is loaded in
    both passes (hinted), data once, through an index loaded from idx, which does not make
    data's load a second read of idx (a launch record written out: three tensors, an int)."""
    tensor = {"kind": "tensor", "dtype": "int64", "shape": [1000], "align16": True}
    launches = [{"kernel": "gather_kernel", "last": {"args": [tensor, tensor, tensor, {"kind": "int", "value": 1000}],
                                                     "kwargs": {}}}]
    fit = {f.name: f for f in survey(GATHER_TWO_PASSES, launches)}["l2_reuse"]
    assert fit.fits and fit.why.startswith("gather_kernel: idx_ptr loaded in a pass"), fit.why
    cand = apply(GATHER_TWO_PASSES, "l2_reuse", {"keep": 1, "stream": 1, "stores": 0}, launches)
    hinted = [line.strip() for line in cand.splitlines() if "eviction_policy" in line]
    assert len(hinted) == 2 and all("idx_ptr + i" in line for line in hinted), hinted
    assert "tl.load(data_ptr + j, mask=i < n)" in cand


def test_l2_reuse_hints_reach_the_ptx(h, recorded):
    """l2_reuse's hints become L2 cache policies in the offline cuda:90 compile of log_softmax
    (createpolicy, loads and stores qualified with L2::cache_hint), and the loads and stores
    are the kernel's own, counted at the same widths as before."""
    name = "l2_reuse_logsoftmax"
    before = _compile(h, name, fixture(name)[1])["ptx_stats"]
    after = _compile(h, name, apply(fixture(name)[1], "l2_reuse", {"keep": 1, "stream": 1, "stores": 1},
                                    recorded[name]))["ptx_stats"]
    assert before["createpolicy"] == 0 and after["createpolicy"] > 0
    widths = {k: v for k, v in before.items() if k.startswith(("ld.global", "st.global"))}
    assert widths and widths == {k: v for k, v in after.items() if k.startswith(("ld.global", "st.global"))}


def test_ir_properties_cuda90(h, recorded):
    """What each rewrite is for, where the IR shows it (offline compile, no GPU; the initial
    kernels have one element per thread or one column per program: 32-bit loads only).
    elementwise_vector and strided_reduction_tiles give 128-bit global loads;
    row_single_block loads each row once (fewer tt.load ops than the loop version's loads)."""
    name = "elementwise_vector_gelu"
    k = _compile(h, name, apply(fixture(name)[1], "elementwise_vector", {}, recorded[name]))
    assert k["ptx_stats"].get("ld.global.v4.32", 0) > 0 and k["ptx_stats"].get("st.global.v4.32", 0) > 0
    assert k["ptx_stats"].get("ld.global.32", 0) == 0
    assert k["metadata"]["num_warps"] == 4 and k["constexprs"] == {"(3,)": "1024"}

    name = "strided_reduction_tiles_colsum"
    k = _compile(h, name, apply(fixture(name)[1], "strided_reduction_tiles", {}, recorded[name]))
    assert k["ptx_stats"].get("ld.global.v4.32", 0) > 0

    # float16 pairs at stride 2: 16-bit loads and stores before; after, as wide as the tile
    # allows: 128-bit on the rows kernel's [4, 128] tile at 2 warps, 64-bit on one row of 128
    # (4 elements per thread at 1 warp)
    name = "deinterleave_pairs_rows"
    k = _compile(h, name, fixture(name)[1])
    assert k["ptx_stats"].get("ld.global.16", 0) > 0 and k["ptx_stats"].get("st.global.16", 0) > 0
    k = _compile(h, name, apply(fixture(name)[1], "deinterleave_pairs", {"num_warps": 2}, recorded[name]))
    stats = k["ptx_stats"]
    assert stats.get("ld.global.16", 0) == 0 and stats.get("st.global.16", 0) == 0
    assert stats.get("ld.global.v4.32", 0) > 0 and stats.get("st.global.v4.32", 0) > 0
    assert stats.get("ld.shared", 0) == 0               # no layout conversion through shared memory
    name = "deinterleave_pairs_rope"
    k = _compile(h, name, apply(fixture(name)[1], "deinterleave_pairs", {"num_warps": 1}, recorded[name]))
    assert k["ptx_stats"].get("ld.global.16", 0) == 0 and k["ptx_stats"].get("st.global.v2.32", 0) > 0

    name = "row_single_block_rmsnorm"
    cand = apply(fixture(name)[1], "row_single_block", {}, recorded[name])
    k = _compile(h, name, cand)
    assert k["kernel"] == "add_rmsnorm_kernel_row"
    ttir = read(k["files"]["ttir"]["path"])
    assert _tl_loads(fixture(name)[1], "add_rmsnorm_kernel") == 5
    assert _tl_loads(cand, "add_rmsnorm_kernel_row") == 3 == ttir.count("tt.load")


def test_row_single_block_reuse_other_cuda90(h, recorded):
    """The online log-softmax's single-block copy (its output pass's load, of another
    ``other``, reused through tl.where) compiles offline for cuda:90 with one tt.load, where
    the loop version has two; first_pass's fold leaves one exponential per element (the final
    combine's) of the three the unrolled online update computes, and the survey offers the
    unfolded copy as one more configuration."""
    name = "l2_reuse_logsoftmax"
    cand = apply(fixture(name)[1], "row_single_block", {}, recorded[name])
    k = _compile(h, name, cand)
    assert k["kernel"] == "log_softmax_kernel_row"
    assert _tl_loads(fixture(name)[1], "log_softmax_kernel") == 2
    ttir = read(k["files"]["ttir"]["path"])
    assert ttir.count("tt.load") == 1
    assert ttir.count("math.exp") == 1, ttir
    unfolded = apply(fixture(name)[1], "row_single_block", {"fold": 0}, recorded[name])
    assert read(_compile(h, name, unfolded)["files"]["ttir"]["path"]).count("math.exp") == 3
    (fit,) = [f for f in survey(fixture(name)[1], recorded[name]) if f.name == "row_single_block"]
    folds = [c["fold"] for c in fit.domain["configs"]]
    assert folds.count(0) == 1 and folds[-1] == 0 and "first_pass" in fit.why, (folds, fit.why)
    # the three-pass softmax folds nothing a finite-only rule decides: no unfolded twin
    other = "row_single_block_softmax"
    (fit,) = [f for f in survey(fixture(other)[1], recorded[other]) if f.name == "row_single_block"]
    assert {c["fold"] for c in fit.domain["configs"]} == {1}


def test_deinterleave_loads_move_only_past_no_store(recorded):
    """A pair of loads is merged only when no store (nor a call of the user's, which may
    store) sits between them: the merged load reads both halves at the first one's place."""
    name = "deinterleave_pairs_rope"
    src = fixture(name)[1]
    odd_load = "    b = tl.load(x_ptr + base + 2 * i + 1).to(tl.float32)\n"
    assert odd_load in src
    for between in ("    tl.store(y_ptr + base + 2 * i, tl.zeros([HALF], tl.float16))\n", "    touch(y_ptr)\n"):
        changed = src.replace(odd_load, between + odd_load).replace(
            "@triton.jit\ndef rope_i_kernel", "@triton.jit\ndef touch(p):\n    pass\n\n\n@triton.jit\ndef rope_i_kernel")
        cand = apply(changed, "deinterleave_pairs", {}, recorded[name])
        assert "x_ptr + base + 2 * i + 1" in cand and "tl.split" not in cand     # the loads stay
        assert "tl.join" in cand                                              # the stores merge


def _altered(recs, **last):
    out = json.loads(json.dumps(recs))
    out[0]["last"].update(last)
    return out


def test_recorded_sizes_decide(recorded):
    """The recorded launch is part of the precondition: a grid that does not match the
    kernel's mapping, or a row longer than max_row, is refused."""
    name = "elementwise_vector_gelu"
    recs = recorded[name]
    grid = recs[0]["last"]["grid"]
    with pytest.raises(RewriteRefused, match=r"recorded grid \[41\] is not cdiv\(n_elements, BLOCK\) = 40"):
        apply(fixture(name)[1], "elementwise_vector", {}, _altered(recs, grid=[grid[0] + 1]))
    name = "tile_grid_matmul"
    with pytest.raises(RewriteRefused, match=r"recorded grid \[3, 3\] is not cdiv\(M, BLOCK_M\) x cdiv\(N, BLOCK_N\)"):
        apply(fixture(name)[1], "tile_grid", {}, _altered(recorded[name], grid=[3, 3]))
    name = "row_single_block_softmax"
    args = json.loads(json.dumps(recorded[name][0]["last"]["args"]))
    args[4] = {"kind": "int", "value": 40000}
    with pytest.raises(RewriteRefused, match=r"n_cols = 40000 at the recorded launch is outside \(0, max_row=32768\]"):
        apply(fixture(name)[1], "row_single_block", {}, _altered(recorded[name], args=args))


def test_rows_per_program_ir_cuda90(h, recorded):
    """rows_per_program's point, where the IR shows it (offline compile for cuda:90): RoPE's
    program over a 16-element half head moves one 16-bit element per thread (half of the 128
    threads idle); a [32, 16] tile gives each thread 4 contiguous elements of every row it
    touches: 64-bit accesses of the float16 heads, 128-bit loads of the float32 tables."""
    name = "rows_per_program_rope"
    base = _compile(h, name, fixture(name)[1])["ptx_stats"]
    assert base.get("ld.global.16", 0) > 0 and base.get("st.global.16", 0) > 0
    tiled = _compile(h, name, apply(fixture(name)[1], "rows_per_program", {"ROWS": 32}, recorded[name]))["ptx_stats"]
    assert tiled.get("ld.global.16", 0) == 0 and tiled.get("st.global.16", 0) == 0, tiled
    assert tiled.get("ld.global.v4.32", 0) > 0 and tiled.get("st.global.v2.32", 0) > 0, tiled


def test_rows_per_program_reductions_ir_cuda90(h, recorded):
    """rows_per_program on row reductions (MoE gating, offline compile for cuda:90): one
    token's 128 experts over 4 warps reduce across warps through shared memory, with a barrier
    per reduction (11 barriers, 8 shared-memory reads); [8, 128] tiles put whole rows inside a
    warp, so the 8 rounds of top-k reduce with warp shuffles alone (what barriers remain
    convert the stores' layout), and the row loads become 128-bit."""
    name = "rows_per_program_moe"
    base = _compile(h, name, fixture(name)[1])["ptx_stats"]
    assert base.get("bar.sync", 0) > 8, base
    cand = apply(fixture(name)[1], "rows_per_program", {"ROWS": 8, "num_warps": 4}, recorded[name])
    assert "vals = tl.where(row_mask, vals, vals)" in cand and "tl.sum(vals, axis=1, keep_dims=True)" in cand
    tiled = _compile(h, name, cand)["ptx_stats"]
    assert tiled.get("bar.sync", 0) <= 3 and tiled.get("ld.shared", 0) <= 1, tiled      # the stores' layout only
    assert tiled.get("ld.global.v4.32", 0) > 0 and base.get("ld.global.v4.32", 0) == 0, (base, tiled)


def test_tma_loads_shape_and_ir_cuda90(h: HarnessClient, recorded: dict[str, list[dict[str, Any]]]) -> None:
    """tma_loads: a unit stride written as nothing gives a plain descriptor load (W's, read
    transposed, through tl.trans of a [BLOCK_N, BLOCK_K] block); a unit stride that is a
    parameter keeps the pointer load as the branch for other strides; the offline cuda:90
    compile makes tensor maps and TMA copies where the pointer loads were; and the rewrite
    composes with tile_grid's (the ladder tries tile_grid first)."""
    name = "tma_loads_linear"
    cand = apply(fixture(name)[1], "tma_loads", {}, recorded[name])
    assert "w_ptr_desc = tl.make_tensor_descriptor(w_ptr, shape=[N, K], strides=[stride_wn, 1], " \
           "block_shape=[BLOCK_N, BLOCK_K])" in cand
    assert "w = tl.trans(w_ptr_desc.load([pid_n * BLOCK_N, k]))" in cand
    assert "triton.set_allocator(" in cand and cand.count("tl.load(") == 1     # the bias only
    ttgir = read(_compile(h, name, cand)["files"]["ttgir"]["path"])
    assert ttgir.count("ttng.tensormap_create") == 2 and "ttng.async_tma_copy_global_to_local" in ttgir
    base = read(_compile(h, name, fixture(name)[1])["files"]["ttgir"]["path"])
    assert "tensormap" not in base

    name = "tile_grid_matmul"
    cand = apply(fixture(name)[1], "tma_loads", {}, recorded[name])
    assert "if stride_ak == 1:" in cand and "if stride_bn == 1:" in cand
    assert cand.count("tl.load(") == 2 and cand.count("_desc.load(") == 2     # each with its fallback
    grid_first = apply(fixture(name)[1], "tile_grid", {}, recorded[name])
    both = apply(grid_first, "tma_loads", {}, recorded[name])
    assert "GROUP_M" in both and "a_ptr_desc" in both
    assert load_and_validate(h, name, both)["passed"]


def test_tma_loads_attention_cuda90(h: HarnessClient, recorded: dict[str, list[dict[str, Any]]]) -> None:
    """tma_loads on an attention kernel: the descriptor's base takes the address's scalar offset
    (each head's matrix), the key block's index vector is read through its name bound in the
    loop, and the head dimension, a whole tl.arange(0, D), is its own extent; the offline
    cuda:90 compile makes a tensor map for K and V. (test_apply_is_correct validates it.)"""
    name = "tma_loads_attention"
    cand = apply(fixture(name)[1], "tma_loads", {}, recorded[name])
    assert "k_ptr_desc = tl.make_tensor_descriptor(k_ptr + base, shape=[S, D], strides=[D, 1], " \
           "block_shape=[BLOCK_N, D])" in cand, cand
    assert "k = k_ptr_desc.load([start, 0])" in cand and "v = v_ptr_desc.load([start, 0])" in cand
    assert cand.count("tl.load(") == 1                                          # q, outside the loop
    ttgir = read(_compile(h, name, cand)["files"]["ttgir"]["path"])
    assert ttgir.count("ttng.tensormap_create") == 2 and "ttng.async_tma_copy_global_to_local" in ttgir


def test_tma_loads_refused_without_the_accelerator(recorded: dict[str, list[dict[str, Any]]]) -> None:
    """The harness turns a fitting tma_loads into a refusal that names the device when its
    device has no tensor memory accelerator (the survey itself reads only source and
    launches); the other rewrites' fits are untouched."""
    from kharness.structural_survey import structural_survey
    name = "tma_loads_linear"
    here = {f["name"]: f for f in structural_survey(fixture(name)[1], recorded[name])}
    assert here["tma_loads"]["fits"] and here["tma_loads"]["domain"]
    why = "this device (compute capability 8.0) has no tensor memory accelerator (from 9.0)"
    there = {f["name"]: f for f in structural_survey(fixture(name)[1], recorded[name], why)}
    assert there["tma_loads"] == {"name": "tma_loads", "fits": False, "why": why, "params": {}, "domain": {}}
    assert {n: f["fits"] for n, f in there.items() if n != "tma_loads"} == \
        {n: f["fits"] for n, f in here.items() if n != "tma_loads"}


@pytest.mark.parametrize("name", ["fuse_kernels_softmax", "fuse_kernels_layernorm"])
def test_fused_kernel_is_one_row_kernel_that_row_in_registers_takes(h, recorded, name):
    """fuse_kernels leaves one kernel whose loops walk the row with one length and one block
    (K2's equal arguments and row block became K1's), so row_single_block takes it whole: the
    two steps a job takes in two rounds, each candidate validated on the interpreter."""
    ref, ker = fixture(name)
    fused = apply(ker, "fuse_kernels", {}, recorded[name])
    tree = ast.parse(fused)
    jit = [f for f in tree.body if isinstance(f, ast.FunctionDef) and f.decorator_list]
    launched = {c.func.value.id for c in ast.walk(tree) if isinstance(c, ast.Call)
                and isinstance(c.func, ast.Subscript) and isinstance(c.func.value, ast.Name)}
    assert len(launched) == 1 and launched <= {f.name for f in jit}, launched
    fn = next(f for f in jit if f.name in launched)
    loops = [n for n in ast.walk(fn) if isinstance(n, ast.For)]
    assert len(loops) == 3 and len({ast.dump(n.iter) for n in loops}) == 1, [ast.unparse(n.iter) for n in loops]
    # no load of the per-row values is left: they stay in registers
    assert not any(isinstance(c, ast.Call) and ast.unparse(c.func).endswith("load") and
                   any(p in ast.unparse(c.args[0]) for p in ("m_ptr", "s_ptr", "mean_ptr", "rstd_ptr"))
                   for c in ast.walk(fn))
    r = h.request("load", reference_source=ref, kernel_source=fused, workdir=f"f_{name}", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    whole = apply(fused, "row_single_block", {}, r["result"]["kernels"])
    res = load_and_validate(h, name, whole)
    assert res["passed"], res["failure"]


def test_fuse_kernels_refuses_other_index_forms_and_other_writes_of_the_scratch(h):
    """The scratch must be written once per program by the linked store and read back at the
    same index form: K2 reading `m_ptr + r.to(tl.int64)` where K1 stored at `m_ptr + r` leaves m
    unlinked, and K1 writing m through a second parameter too keeps it written: either way m is
    a tensor K1 writes and K2 gets, refused (each variant loads and runs, so its launches are
    recorded)."""
    ref, ker = fixture("fuse_kernels_softmax")
    tree = ast.parse(ker)
    norm = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "norm_kernel")
    load_m = next(c for c in ast.walk(norm) if isinstance(c, ast.Call) and ast.unparse(c) == "tl.load(m_ptr + r)")
    load_m.args[0].right = ast.parse("r.to(tl.int64)", mode="eval").body
    other_form = ast.unparse(tree)
    tree = ast.parse(ker)
    stats = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "stats_kernel")
    stats.args.args.insert(3, ast.arg("t_ptr"))
    stats.body.append(ast.parse("tl.store(t_ptr + r, m)").body[0])
    launch = next(c for c in ast.walk(tree) if isinstance(c, ast.Call) and isinstance(c.func, ast.Subscript)
                  and ast.unparse(c.func.value) == "stats_kernel")
    launch.args.insert(3, ast.Name("m"))
    aliased = ast.unparse(tree)
    for src, words in ((other_form, "stats_kernel writes m, which norm_kernel also gets"),
                       (aliased, "stats_kernel writes m, which norm_kernel also gets")):
        r = h.request("load", reference_source=ref, kernel_source=src, workdir="fuse_refuse", seed=0,
                      correctness_cases=1, benchmark_cases=1)
        assert r["ok"], r
        with pytest.raises(RewriteRefused, match=words):
            apply(src, "fuse_kernels", {}, r["result"]["kernels"])


def test_tma_loads_in_a_persistent_tile_loop(h, recorded):
    """tile_grid's persistent form, then tma_loads: the loads of the K loop inside the loop
    over the tiles fit, their descriptors (parameters only) are made once per program, before
    the tile loop, and the candidate validates."""
    name = "tma_loads_linear"
    ref, ker = fixture(name)
    pers = apply(ker, "tile_grid", {"PERSISTENT": 1}, recorded[name])
    r = h.request("load", reference_source=ref, kernel_source=pers, workdir="p_tma", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    kernels = r["result"]["kernels"]
    fit = {f.name: f for f in survey(pers, kernels)}["tma_loads"]
    assert fit.fits, fit.why
    cand = apply(pers, "tma_loads", {}, kernels)
    fn = next(n for n in ast.parse(cand).body if isinstance(n, ast.FunctionDef) and n.name == fit.params["kernel"])
    tile_loop = next(s for s in fn.body if isinstance(s, ast.For))
    descs = [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "make_tensor_descriptor"]
    assert descs and all(d.lineno < tile_loop.lineno for d in descs), cand
    assert check_source(cand)["ok"]
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]


def _descriptor_calls(source: str, kernel: str) -> tuple[ast.For, list[ast.Call]]:
    """The kernel's persistent tile loop and its make_tensor_descriptor calls."""
    fn = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == kernel)
    tile_loop = next(s for s in fn.body if isinstance(s, ast.For))
    return tile_loop, [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                       and n.func.attr == "make_tensor_descriptor"]


TILE_BATCHED = {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "num_warps": 2, "num_stages": 2,
                "PERSISTENT": 1}


def test_tma_loads_batch_axis_in_a_folded_batch_loop(h, recorded):
    """tile_grid's persistent form of a batched matmul folds the batch into the tile loop (bid =
    tile // num_tiles, the loop up to num_tiles * NUM_BATCH); tma_loads then makes one 3-D
    descriptor per operand before the loop, the batch its leading axis of extent NUM_BATCH,
    instead of a 2-D one per tile; the candidate validates on the interpreter (2 x 2 tiles of 2
    batches over 4 programs) and compiles for cuda:90 with tensor-map copies."""
    name = "tile_grid_batched"
    pers = apply(fixture(name)[1], "tile_grid", TILE_BATCHED, recorded[name])
    cand = apply(pers, "tma_loads", {}, recorded[name])
    tile_loop, descs = _descriptor_calls(cand, "bmm_kernel")
    assert len(descs) == 2 and all(d.lineno < tile_loop.lineno for d in descs), cand
    assert all(ast.unparse(next(kw.value for kw in d.keywords if kw.arg == "shape")).startswith("[NUM_BATCH, ")
               for d in descs), cand
    assert "a = tl.reshape(a_ptr_desc.load([bid, pid_m * BLOCK_M, k]), [BLOCK_M, BLOCK_K])" in cand, cand
    fit = {f.name: f for f in survey(pers, recorded[name])}["tma_loads"]
    assert "one 3-D descriptor made before the tile loop" in fit.why, fit.why
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]
    ttgir = read(_compile(h, name, cand)["files"]["ttgir"]["path"])
    assert ttgir.count("ttng.tensormap_create") == 2 and "ttng.async_tma_copy_global_to_local" in ttgir


@pytest.mark.parametrize("change", [
    # the batch index not the loop's quotient: no bound the leading axis could have
    ("bid = tl.cast(tile // num_tiles, tl.int32)", "bid = tl.cast(tile // num_tiles % NUM_BATCH, tl.int32)"),
    # the loop's stop not written as a product: its quotient's bound is not read off it
    ("range(tl.program_id(0), num_tiles * NUM_BATCH,", "range(tl.program_id(0), num_tiles * NUM_BATCH + 0,"),
], ids=["index", "stop"])
def test_tma_loads_batch_axis_needs_the_loops_bound(h, recorded, change):
    """Where the loop does not bound the batch index, the descriptors stay 2-D and per tile (as
    before the batch axis), and the candidate still validates."""
    name = "tile_grid_batched"
    pers = apply(fixture(name)[1], "tile_grid", TILE_BATCHED, recorded[name])
    assert change[0] in pers
    cand = apply(pers.replace(change[0], change[1]), "tma_loads", {}, recorded[name])
    tile_loop, descs = _descriptor_calls(cand, "bmm_kernel")
    assert len(descs) == 2 and all(d.lineno > tile_loop.lineno for d in descs), cand
    assert "tl.reshape(" not in cand and "a_ptr + (bid * sab)" in cand, cand
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]


def test_persistent_tile_twins_only_where_the_device_counts_sms(recorded: dict[str, list[dict[str, Any]]]) -> None:
    """tile_grid offers its persistent twins on cuda (and the interpreter), right after the
    head of its list, then the descriptor twins of those four (TMA=1, at their stages and one
    more); on ascend the persistent twins leave the configurations, and where the device has
    no tensor memory accelerator the descriptor twins do; the rest stays as it was."""
    from kharness.structural_survey import structural_survey
    name = "tile_grid_matmul1d"
    cuda = {f["name"]: f for f in structural_survey(fixture(name)[1], recorded[name])}["tile_grid"]
    configs = cuda["domain"]["configs"]
    assert [(c["PERSISTENT"], c["TMA"]) for c in configs[:12]] == [
        (0, 0), (0, 0), (1, 0), (1, 0), (0, 1), (0, 1), (0, 1), (0, 1), (1, 1), (1, 1), (1, 1), (1, 1)]
    assert [c["num_stages"] - configs[i // 2]["num_stages"] for i, c in enumerate(configs[4:12])] == [0, 1] * 4
    assert not any(c["PERSISTENT"] or c["TMA"] for c in configs[12:])
    npu = {f["name"]: f for f in structural_survey(fixture(name)[1], recorded[name], "no descriptors here",
                                                   "ascend")}["tile_grid"]
    assert npu["fits"] and npu["domain"]["configs"] == [c for c in configs if not c["PERSISTENT"] and not c["TMA"]]
    old = {f["name"]: f for f in structural_survey(fixture(name)[1], recorded[name], "capability 8.0")}["tile_grid"]
    assert old["domain"]["configs"] == [c for c in configs if not c["TMA"]]


@pytest.mark.parametrize("tma", [0, 1])
def test_tile_grid_names_do_not_depend_on_the_descriptor_trial(recorded: dict[str, list[dict[str, Any]]],
                                                               tma: int) -> None:
    """analyze tries the descriptor twin (to know whether TMA=1 fits); the names that trial
    took are given back, so the rewrite writes GROUP_M, num_pid_m, ... as a module analysed
    without it would (on the H200 a twin read GROUP_M_2)."""
    name = "tile_grid_matmul1d"
    src = fixture(name)[1]
    p = {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "num_warps": 4, "num_stages": 2,
         "PERSISTENT": 1, "TMA": tma}
    out = apply(src, "tile_grid", p, recorded[name])
    assert "GROUP_M" not in src and "GROUP_M: tl.constexpr" in out and "GROUP_M=2" in out, out
    assert not re.search(r"\b(GROUP_M|num_pid_m|num_pid_n|num_tiles|num_sms)_2\b", out), out


@pytest.mark.parametrize("tma", [0, 1])
def test_batched_persistent_folds_the_batch(h, recorded, tma):
    """Persistent and batched, tile_grid walks every batch's tiles in one loop over a 1-D grid
    (the batch index the quotient of the tile by the tiles of one batch), and the kernel, with
    tensor descriptors or without, compiles offline for cuda:90."""
    name = "tile_grid_batched"
    p = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "num_warps": 4, "num_stages": 3,
         "PERSISTENT": 1, "TMA": tma}
    out = apply(fixture(name)[1], "tile_grid", p, recorded[name])
    fn = next(f for f in ast.parse(out).body if isinstance(f, ast.FunctionDef) and f.name == "bmm_kernel")
    assert "NUM_BATCH" in [a.arg for a in fn.args.args]
    assert "num_tiles * NUM_BATCH" in out and "NUM_BATCH=nb" in out and "tl.program_id(2)" not in out, out
    assert re.search(r"grid = lambda meta: \(min\(num_sms, .* \* nb\),\)", out), out
    k = _compile(h, name, out)
    assert k["kernel"] == "bmm_kernel" and k["ptx_stats"].get("mma", 0) > 0, k["ptx_stats"]


BATCH_REFUSED = [
    ("        return y", "        assert h >= 0\n        return y", ["the loop variable h is read after the loop"]),
    ("    tl.store(y_ptr + offs, x * w + 1.0, mask=mask)",
     "    tl.store(y_ptr + offs, x * w + 1.0, mask=mask)\n    tl.store(w_ptr + offs, w, mask=mask)",
     ["scale_kernel writes through w_ptr, which every launch gets whole"]),
    ("](x[h], w, y[h]", "](x[h:h + 1], w, y[h]", ["x_ptr gets x[h:h + 1], which reads h other than"]),
    ("[(triton.cdiv(n, 128),)]", "[(triton.cdiv(n, 128) + h * 0,)]", ["the grid is not a tuple or list"]),
    ("offs = tl.program_id(0) * BLOCK", "offs = (tl.program_id(0) + tl.program_id(1)) * BLOCK",
     ["tl.program_id of axis 1, not one of the grid's 1"]),
    ("            scale_kernel[", "            n = n + 0\n            scale_kernel[", ["is not the whole body of a `for` loop"]),
    ("](x[h], w, y[h]", "](x[h], y, y[h]", ["y, which scale_kernel writes through y_ptr, is also passed as y"]),
    ("for h in range(x.shape[0]):", "for h in range(1, x.shape[0]):", ["is not `for i in range(E)`"]),
]


@pytest.mark.parametrize("old,new,words", BATCH_REFUSED, ids=[f"batch_launches-{i}" for i in range(len(BATCH_REFUSED))])
def test_batch_launches_refusals(recorded, old, new, words):
    src = fixture("batch_launches_heads")[1]
    assert old in src, old
    fit = next(f for f in survey(src.replace(old, new), recorded["batch_launches_heads"]) if f.name == "batch_launches")
    assert not fit.fits
    for w in words:
        assert w in fit.why, fit.why


@pytest.mark.filterwarnings("ignore:Conversion of an array:DeprecationWarning")  # the interpreter's own loop
def test_batch_launches_dispatch(tmp_path, recorded):
    """One launch of the batched copy for a tensor batch, in place, and with a read-only
    operand expanded over the batch; the loop as written where a tensor the kernel reads and
    writes through has first-axis stride 0 (its slices overlap); the same result as the
    reference each time (in-process, interpreter)."""
    import torch
    launch_rec.install()
    name = "batch_launches_heads"
    cand = apply(fixture(name)[1], "batch_launches", {}, recorded[name])
    mod = _import(tmp_path / "cand.py", cand, "kopt_struct_batch_cand")
    ref = _import(tmp_path / "ref.py", fixture(name)[0], "kopt_struct_batch_ref")
    x, w = torch.randn(5, 300), torch.randn(300)
    with launch_rec.recording() as recs:
        y = mod.ModelNew()(x, w)
    assert [r["kernel"] for r in recs] == ["scale_kernel_batched"]
    torch.testing.assert_close(y, ref.Model()(x, w))

    # in place: the written slice y[h] also read through x_ptr
    inplace = fixture(name)[1].replace("](x[h], w, y[h]", "](y[h], w, y[h]").replace(
        "y = torch.empty_like(x)", "y = x.clone()")
    cand_in = apply(inplace, "batch_launches", {}, recorded[name])
    mod_in = _import(tmp_path / "cand_in.py", cand_in, "kopt_struct_batch_inplace")
    with launch_rec.recording() as recs:
        y = mod_in.ModelNew()(x, w)
    assert [r["kernel"] for r in recs] == ["scale_kernel_batched"]
    torch.testing.assert_close(y, ref.Model()(x, w))
    # a 2-D grid gets the batch on axis 2; a read-only operand expanded over the batch (stride
    # 0) still takes the batched launch: its slices are the same rows either way
    bmm = "batch_launches_bmm"
    cand_bmm = apply(fixture(bmm)[1], "batch_launches", {}, recorded[bmm])
    assert "mm_kernel_batched[(triton.cdiv(M, 16), triton.cdiv(N, 16), n_batch)]" in cand_bmm, cand_bmm
    mod_bmm = _import(tmp_path / "cand_bmm.py", cand_bmm, "kopt_struct_batch_bmm")
    ref_bmm = _import(tmp_path / "ref_bmm.py", fixture(bmm)[0], "kopt_struct_batch_bmm_ref")
    a, b = torch.randn(3, 40, 24), torch.randn(1, 24, 20).expand(3, 24, 20)
    with launch_rec.recording() as recs:
        c = mod_bmm.ModelNew()(a, b)
    assert [r["kernel"] for r in recs] == ["mm_kernel_batched"]
    torch.testing.assert_close(c, ref_bmm.Model()(a, b), atol=1e-4, rtol=1e-4)
    # read-only and expanded (stride 0): the batched launch, every program reading the one row
    one = torch.randn(1, 300).expand(4, 300)
    with launch_rec.recording() as recs:
        y = mod.ModelNew()(one, w)
    assert [r["kernel"] for r in recs] == ["scale_kernel_batched"]
    torch.testing.assert_close(y, ref.Model()(one, w))
    # written in place through an expanded tensor (stride 0): every launch updates the same row
    # in turn, which one launch would race on; the loop runs as written
    shared = fixture(name)[1].replace("](x[h], w, y[h]", "](y[h], w, y[h]").replace(
        "y = torch.empty_like(x)", "y = x")
    mod_sh = _import(tmp_path / "cand_sh.py", apply(shared, "batch_launches", {}, recorded[name]),
                     "kopt_struct_batch_shared")
    row = torch.randn(1, 300)
    want = row.clone()
    for _ in range(4):
        want = want * w + 1.0
    with launch_rec.recording() as recs:
        y = mod_sh.ModelNew()(row.expand(4, 300), w)
    assert [r["kernel"] for r in recs] == ["scale_kernel"] * 4
    torch.testing.assert_close(y[0], want[0])


def test_launch_forms_are_kept(recorded):
    """A rewrite keeps the way the module launches: wrap_triton(k)[grid] for both the row
    copy and the original; tl.range's num_stages stays on the original loop and goes with the
    unrolled one; a launch through self.fn is written as a launch of the kernel it holds."""
    _, ker = fixture("row_single_block_triton_op")
    out = apply(ker, "row_single_block", {}, recorded["row_single_block_triton_op"])
    # the nested `def grid(meta): return (n_rows,)` is read as its tuple (normalize.tuple_grids)
    assert "wrap_triton(_rms_kernel_row)[(n_rows,)](x, weight, y, n_cols, 1e-6, BLOCK_SIZE=row_block" in out, out
    assert "wrap_triton(_rms_kernel)[(n_rows,)](x, weight, y, n_cols, 1e-6, BLOCK_SIZE=256)" in out, out
    assert "def grid" not in out, out
    _, ker = fixture("row_single_block_tl_range")
    out = apply(ker, "row_single_block", {}, recorded["row_single_block_tl_range"])
    row = out[out.index("def row_max_kernel_row"):]
    assert out.count("tl.range(0, n_cols, BLOCK, num_stages=1)") == 1 and "tl.range" not in row, out
    _, ker = fixture("elementwise_vector_kernel_attr")
    out = apply(ker, "elementwise_vector", {}, recorded["elementwise_vector_kernel_attr"])
    assert "self.fn[" not in out and "leaky_relu_kernel[grid](x, y, n, self.slope" in out, out


def _jit_decorator(source, kernel):
    fn = next(f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef) and f.name == kernel)
    return ast.unparse(fn.decorator_list[0])


@pytest.mark.parametrize("decorator,expected", [
    # the fixture's own: n and the output pointer released, the slope stays unspecialised
    ('@triton.jit(do_not_specialize=["n", "slope"], do_not_specialize_on_alignment=(1,))',
     "triton.jit(do_not_specialize=['slope'])"),
    ("@triton.jit(do_not_specialize=[2])", "triton.jit"),
    ("@triton.jit(do_not_specialize=(2, 3), debug=False)", "triton.jit(do_not_specialize=(3,), debug=False)"),
    # only the list is rewritten where it keeps an entry: the comment in the decorator stays
    ('@triton.jit(\n    do_not_specialize=["slope", "n"],  # one kernel for every size\n)',
     "triton.jit(do_not_specialize=['slope'])"),
    ('@triton.jit(do_not_specialize_on_alignment=["x_ptr", "y_ptr"])', "triton.jit"),
    # not literal lists: left as written
    ("@triton.jit(do_not_specialize=DNS)", "triton.jit(do_not_specialize=DNS)"),
    ('@triton.jit(do_not_specialize=["slope"])', "triton.jit(do_not_specialize=['slope'])"),
])
def test_elementwise_vector_specializes(recorded, decorator, expected):
    """elementwise_vector drops the mask's size and the accessed pointers from the kernel's
    do_not_specialize lists (names or indices), keeps every other entry and keyword, and
    says so in its hypothesis."""
    _, ker = fixture("elementwise_vector_unspecialized")
    first = ker.splitlines()[ker.splitlines().index("@triton.jit(do_not_specialize=[\"n\", \"slope\"], "
                                                   "do_not_specialize_on_alignment=(1,))")]
    src = ker.replace(first, decorator).replace("import triton\n", "import triton\nDNS = [2]\n")
    out = apply(src, "elementwise_vector", {}, recorded["elementwise_vector_unspecialized"])
    assert _jit_decorator(out, "leaky_relu_kernel") == expected, out
    assert ("# one kernel for every size" in out) == ("# one kernel for every size" in src), out
    (fit,) = [f for f in survey(src, recorded["elementwise_vector_unspecialized"]) if f.name == "elementwise_vector"]
    assert fit.fits and ("do_not_specialize" in fit.why) == (expected != _jit_decorator(src, "leaky_relu_kernel")), fit.why


def test_elementwise_vector_specialized_is_128_bit(h, recorded):
    """Offline for cuda:90: with the length unspecialised the masked float16 accesses are one
    element wide, whatever the hints; the candidate, with the length specialised (5008 is a
    multiple of 16), loads and stores 128 bits per access."""
    name = "elementwise_vector_unspecialized"
    before = _compile(h, name, fixture(name)[1])["ptx_stats"]
    assert before.get("ld.global.16", 0) > 0 and before.get("ld.global.v4.32", 0) == 0, before
    after = _compile(h, name, apply(fixture(name)[1], "elementwise_vector", {}, recorded[name]))["ptx_stats"]
    assert after.get("ld.global.16", 0) == 0 and after.get("st.global.16", 0) == 0, after
    assert after.get("ld.global.v4.32", 0) > 0 and after.get("st.global.v4.32", 0) > 0, after


def test_specialize_args(h, recorded):
    """specialize_args releases the stride and the row length (multiples of 16 in the recorded
    launch, both reaching the loads and stores) and keeps eps, which reaches none; offline for
    cuda:90 the row kernel's float16 accesses go from one element to 128 bits (8 per thread at
    one warp). Refused where nothing listed would be specialised, with each name's reason."""
    name = "specialize_args_l2norm"
    _, ker = fixture(name)
    (fit,) = [f for f in survey(ker, recorded[name]) if f.name == "specialize_args"]
    assert "n_cols (256, a multiple of 16), stride (256, a multiple of 16)" in fit.why, fit.why
    out = apply(ker, "specialize_args", {}, recorded[name])
    assert _jit_decorator(out, "l2norm_kernel") == "triton.jit(do_not_specialize=['eps'])", out
    before = _compile(h, name, ker)["ptx_stats"]
    assert before.get("ld.global.16", 0) > 0 and before.get("ld.global.v4.32", 0) == 0, before
    after = _compile(h, name, out)["ptx_stats"]
    assert after.get("ld.global.16", 0) == 0 and after.get("st.global.16", 0) == 0, after
    assert after.get("ld.global.v4.32", 0) > 0 and after.get("st.global.v4.32", 0) > 0, after
    eps_only = ker.replace('do_not_specialize=["stride", "n_cols", "eps"]', 'do_not_specialize=["eps"]')
    with pytest.raises(RewriteRefused, match="eps: reaches no load, store or atomic"):
        apply(eps_only, "specialize_args", {}, recorded[name])
    with pytest.raises(RewriteRefused, match="n: not specialisable at the recorded launch"):
        apply(fixture("elementwise_vector_kernel_attr")[1], "specialize_args", {},
              recorded["elementwise_vector_kernel_attr"])
    with pytest.raises(RewriteRefused, match="lists no parameter in do_not_specialize"):
        apply(fixture("elementwise_vector_gelu")[1], "specialize_args", {}, recorded["elementwise_vector_gelu"])
    with pytest.raises(RewriteRefused, match="unknown parameter 'num_warps'"):
        apply(ker, "specialize_args", {"num_warps": 4}, recorded[name])
