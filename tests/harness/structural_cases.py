"""What the structural rewrite tests share (test_structural*.py): the fixtures and what each
must fit or refuse, the harness they run in, the launches it records for each (recorded on
first use, so a module pays only for the fixtures it reads: conftest's `recorded`), and helpers that load, validate
and compile candidates.

Fixtures: tests/harness/structural_fixtures/<rewrite>_<case>/{ref.py,kernel.py}."""
import ast
import importlib.util
import json
import os

from conftest import read

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
    # bench/suite/unseen/groupnorm (symlinks): per-lane Welford means and lane counts merged by
    # one tl.reduce of a tuple, the counts not derived from the program id (the tile widens them)
    "rows_per_program_groupnorm": {"rows_per_program", "persistent_grid", "l2_reuse"},
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
    # bench/suite/unseen/layernorm_blockptr (symlinks): the row walked through 1-D block
    # pointers (boundary_check, advanced by the block), twice
    "row_single_block_blockptr": {"row_single_block", "persistent_grid", "l2_reuse"},
    "elementwise_vector_kernel_attr": {"elementwise_vector", "persistent_grid", "rows_per_program"},
    "elementwise_vector_unspecialized": {"elementwise_vector", "persistent_grid", "rows_per_program",
                                         "specialize_args"},
    # a row kernel whose stride and length are kept unspecialised
    "specialize_args_l2norm": {"specialize_args", "row_single_block", "persistent_grid", "rows_per_program",
                               "l2_reuse", "even_bounds"},
    # one row per program adding into a column sum and a scalar total with tl.atomic_add: the
    # persistent loop keeps both sums in registers across its tiles (hoist)
    "persistent_grid_atomics": {"persistent_grid", "relaxed_atomics"},
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
    # 37 rows over 4 x k programs: the sums kept across tiles (and, hoist 0, added per tile)
    ("persistent_grid_atomics", "persistent_grid", {"k": 2}),
    ("persistent_grid_atomics", "persistent_grid", {"hoist": 0}),
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
    ("rows_per_program_groupnorm", "rows_per_program", {"ROWS": 8}),
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


def load_fixture(h, name, workdir, correctness_cases=2):
    """The harness's load of fixture `name` (its result), in workdir."""
    ref, ker = fixture(name)
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir=workdir, seed=0,
                  correctness_cases=correctness_cases, benchmark_cases=1)
    assert r["ok"], (name, r)
    return r["result"]


def record(h, names):
    """The launches the harness records when it loads each fixture (what `survey` gets)."""
    out = {}
    for name in names:
        res = load_fixture(h, name, f"s_{name}")
        assert res["static_check"]["ok"], (name, res["static_check"])
        out[name] = res["kernels"]
    return out


def load_and_validate(h, name, candidate):
    load_fixture(h, name, f"v_{name}")
    v = h.request("validate", candidate_source=candidate)
    assert v["ok"], v
    return v["result"]


def import_source(path, text, modname):
    with open(path, "w") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compile_cuda90(h, name, candidate):
    """The candidate's one kernel compiled offline for cuda:90 by the harness."""
    load_fixture(h, name, f"c_{name}", correctness_cases=1)
    c = h.request("compile", target="cuda:90", candidate_source=candidate)
    assert c["ok"], c
    (k,) = c["result"]["kernels"]
    return k


def tl_loads(source, kernel):
    fn = next(f for f in ast.parse(source).body if isinstance(f, ast.FunctionDef) and f.name == kernel)
    return sum(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "load"
               for c in ast.walk(fn))


def altered(recs, **last):
    out = json.loads(json.dumps(recs))
    out[0]["last"].update(last)
    return out


def descriptor_calls(source: str, kernel: str) -> tuple[ast.For, list[ast.Call]]:
    """The kernel's persistent tile loop and its make_tensor_descriptor calls."""
    fn = next(n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef) and n.name == kernel)
    tile_loop = next(s for s in fn.body if isinstance(s, ast.For))
    return tile_loop, [n for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                       and n.func.attr == "make_tensor_descriptor"]


class Recorded:
    """The launches the harness records when it loads a fixture (what `survey` gets), by the
    fixture's name, recorded on first use (conftest's `recorded`)."""

    def __init__(self, h):
        self.h = h
        self.seen = {}

    def __getitem__(self, name):
        if name not in self.seen:
            self.seen.update(record(self.h, [name]))
        return self.seen[name]
