"""Structural rewrites of row kernels (harness/kharness/structural): split_rows, row_single_block,
l2_reuse, rows_per_program and fused row kernels: their candidates validated by the real
harness process (TRITON_INTERPRET=1), their refusals, and offline for cuda:90 the IR
property each is for. Shared tables and helpers: structural_cases.py."""
import ast
import itertools
import re

import pytest
from conftest import read
from kharness import launches as launch_rec
from kharness.srcedit import RewriteRefused
from kharness.structural import apply, survey
from structural_cases import (
    altered,
    compile_cuda90,
    fixture,
    import_source,
    load_and_validate,
    tl_loads,
)

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
def test_split_rows_compiles_for_cuda(harness, name, kernel):
    """Both kernels of the split compile offline for cuda:90 (a float64 scratch for scalars
    included): what runs on the H200 is what the interpreter validated."""
    ref, ker = fixture(name)
    r = harness.request("load", reference_source=ref, kernel_source=ker, workdir=f"cs_{name}", seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    cand = apply(ker, "split_rows", {"SPLIT": 8}, r["result"]["kernels"])
    c = harness.request("compile", target="cuda:90", candidate_source=cand)
    assert c["ok"], c
    assert sorted(k["kernel"] for k in c["result"]["kernels"]) == [f"{kernel}_merge", f"{kernel}_split"]
    assert all(k["ptx_stats"] for k in c["result"]["kernels"])


def test_split_rows_float64_vector_is_no_scalar(harness, recorded):
    """A float64 lane vector (``tl.zeros([BLOCK], dtype=tl.float64)``) is split as a vector: its
    lanes go to the scratch side by side, not as one scalar per program."""
    ref, ker = fixture("split_rows_rownorm")
    old = "acc = tl.zeros([BLOCK], dtype=tl.float32)"
    assert old in ker
    ker = ker.replace(old, "acc = tl.zeros([BLOCK], dtype=tl.float64)")
    cand = apply(ker, "split_rows", {"SPLIT": 4}, recorded["split_rows_rownorm"])
    assert "tl.arange(0, SPLIT * BLOCK)" in cand.split("acc = tl.load(", 1)[1].splitlines()[0], cand
    r = harness.request("load", reference_source=ref, kernel_source=ker, workdir="f64_split_rows", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    v = harness.request("validate", candidate_source=cand)
    assert v["ok"] and v["result"]["passed"], v


def test_split_rows_merge_lanes_capped(recorded):
    """SPLIT times the recorded block is at most MAX_MERGE_LANES (one merge program holds that
    many lanes of each carried vector): the domain shrinks with the block, and a block past
    half the cap is refused."""
    from kharness.structural import split_rows
    recs = recorded["split_rows_argmax"]
    ker = fixture("split_rows_argmax")[1]

    def fit(block):
        return next(f for f in survey(ker, altered(recs, kwargs={"BLOCK": {"kind": "int", "value": block}}))
                    if f.name == "split_rows")
    assert fit(128).domain["SPLIT"] == [2, 4, 8, 16, 32] and fit(128).params["SPLIT"] == 8
    assert fit(4096).domain["SPLIT"] == [2, 4] and fit(4096).params["SPLIT"] == 4
    assert all(v * 4096 <= split_rows.MAX_MERGE_LANES for v in fit(4096).domain["SPLIT"])
    big = fit(split_rows.MAX_MERGE_LANES)
    assert not big.fits and "even SPLIT 2 gives the merge kernel more than" in big.why, big.why


def test_split_rows_keeps_one_knob_each(harness, recorded):
    """The split kernel's block and SPLIT are each bound once in forward, so the search has one
    knob for each, read by both launches, the grid and the scratch's size: changing them
    together keeps the result."""
    ref, ker = fixture("split_rows_argmax")
    r = harness.request("load", reference_source=ref, kernel_source=ker, workdir="knobs_split_rows", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    cand = apply(ker, "split_rows", {"SPLIT": 4}, recorded["split_rows_argmax"])
    kn = harness.request("knobs", source=cand)
    assert kn["ok"], kn
    ids = {k["id"]: k for k in kn["result"]["knobs"]}
    assert ids["BLOCK"]["value"] == 128 and ids["SPLIT"]["value"] == 4, ids
    rw = harness.request("rewrite", source=cand, changes={"SPLIT": 16, "BLOCK": 64})
    assert rw["ok"], rw
    v = harness.request("validate", candidate_source=rw["result"]["source"])
    assert v["ok"] and v["result"]["passed"], v


# bench/suite/unseen/layernorm_blockptr's kernel changed so that one block covering the row
# would read or write other than its loops did, or the rewrite cannot tell:
# (replaced text, replacement, words the reason must contain)
BLOCKPTR_REFUSED = [
    # the pointer's shape is not the loop's bound: a wider block would read lanes past N
    ("shape=(N,), strides=(1,), offsets=(0,),\n                              block_shape=(BLOCK_N,), order=(0,))\n    s = ",
     "shape=(stride_row,), strides=(1,), offsets=(0,),\n                              block_shape=(BLOCK_N,), order=(0,))\n    s = ",
     ["line 13: a block pointer the row loop walks has a shape other than (N,)"]),
    ("x = tl.load(x_blk, boundary_check=(0,), padding_option=\"zero\").to(tl.float32)\n        s += x",
     "x = tl.load(x_blk).to(tl.float32)\n        s += x",
     ["tl.load at line 18 through a block pointer has no boundary_check on axis 0"]),
    ("shape=(N,), strides=(1,), offsets=(0,),\n                              block_shape=(BLOCK_N,), order=(0,))\n    s = ",
     "shape=(N,), strides=(1,), offsets=(1,),\n                              block_shape=(BLOCK_N,), order=(0,))\n    s = ",
     ["line 13: a block pointer the row loop walks starts neither at offsets=(0,) nor at its loop's offset"]),
    ("x_blk = tl.advance(x_blk, (BLOCK_N,))\n    mean", "x_blk = tl.advance(x_blk, (N,))\n    mean",
     ["line 21: x_blk is advanced by other than `tl.advance(x_blk, (BLOCK_N,))`"]),
    # the second walk starts where the first left the pointer (past the row: padding in both)
    (("    x_blk = tl.make_block_ptr(base=x_ptr + row * stride_row, shape=(N,), strides=(1,), offsets=(0,),\n"
      "                              block_shape=(BLOCK_N,), order=(0,))\n    y_blk"), "    y_blk",
     ["line 31: reads x_blk where the row loop (line 17) left it"]),
]


@pytest.mark.parametrize("old,new,words", BLOCKPTR_REFUSED,
                         ids=[f"row_single_block-blockptr-{i}" for i in range(len(BLOCKPTR_REFUSED))])
def test_row_single_block_blockptr_refusals(recorded, old, new, words):
    name = "row_single_block_blockptr"
    src = fixture(name)[1]
    assert src.count(old) == 1, old
    fit = next(f for f in survey(src.replace(old, new), recorded[name]) if f.name == "row_single_block")
    assert not fit.fits
    for w in words:
        assert w in fit.why, fit.why


# the first walk's pointer made inside the loop at the loop's offset instead of advanced
AT_OFFSET = [
    (("    x_blk = tl.make_block_ptr(base=x_ptr + row * stride_row, shape=(N,), strides=(1,), offsets=(0,),\n"
      "                              block_shape=(BLOCK_N,), order=(0,))\n    s = "), "    s = "),
    (("    for _ in range(0, N, BLOCK_N):\n        x = tl.load(x_blk, boundary_check=(0,), padding_option=\"zero\").to("
      "tl.float32)\n        s += x"),
     ("    for off in range(0, N, BLOCK_N):\n        x_blk = tl.make_block_ptr(base=x_ptr + row * stride_row, "
      "shape=(N,), strides=(1,), offsets=(off,), block_shape=(BLOCK_N,), order=(0,))\n"
      "        x = tl.load(x_blk, boundary_check=(0,), padding_option=\"zero\").to(tl.float32)\n        s += x")),
    ("        sq += x * x\n        x_blk = tl.advance(x_blk, (BLOCK_N,))\n", "        sq += x * x\n"),
]


def test_row_single_block_blockptr_made_at_the_loop_offset(harness, recorded):
    """A block pointer made in each pass at the loop's offset (`offsets=(off,)`), never
    advanced, walks the row as an advanced one does: the rewrite fits and its candidate
    validates on the interpreter; advanced as well, it is refused."""
    name = "row_single_block_blockptr"
    src = fixture(name)[1]
    for a, b in AT_OFFSET:
        assert src.count(a) == 1, a
        src = src.replace(a, b)
    fit = next(f for f in survey(src, recorded[name]) if f.name == "row_single_block")
    assert fit.fits, fit.why
    cand = apply(src, "row_single_block", {}, recorded[name])
    assert load_and_validate(harness, name, cand)["passed"]
    both = src.replace("        sq += x * x\n", "        sq += x * x\n        x_blk = tl.advance(x_blk, (BLOCK_N,))\n", 1)
    fit = next(f for f in survey(both, recorded[name]) if f.name == "row_single_block")
    assert not fit.fits and "line 15: the row loop both makes block pointer x_blk at its offset and advances it" in fit.why, fit.why


def test_row_single_block_blockptr_reads_row_once(recorded):
    """A row walked twice through block pointers is read once: the second walk's load of the
    same pointer, boundary check and padding reuses the first's value (the candidate's
    correctness: test_structural's test_apply_is_correct)."""
    name = "row_single_block_blockptr"
    cand = apply(fixture(name)[1], "row_single_block", {}, recorded[name])
    fn = next(f for f in ast.parse(cand).body if isinstance(f, ast.FunctionDef) and f.name == "layernorm_fwd_row")
    loaded = [ast.unparse(c.args[0]) for c in ast.walk(fn) if isinstance(c, ast.Call)
              and isinstance(c.func, ast.Attribute) and c.func.attr == "load"]
    assert sorted(loaded) == ["b_blk", "w_blk", "x_blk"], loaded
    assert not any(isinstance(n, ast.For) for n in ast.walk(fn))
    assert "advance" not in cand.split("def layernorm_fwd_row")[1].split("class ModelNew")[0]


@pytest.mark.filterwarnings("ignore:Conversion of an array:DeprecationWarning")  # the interpreter's own loop
def test_row_single_block_shapes(tmp_path, recorded):
    """The single-block kernel handles other row lengths, and rows longer than max_row take
    the original kernel (in-process, interpreter)."""
    import torch
    launch_rec.install()
    name = "row_single_block_softmax"
    cand = apply(fixture(name)[1], "row_single_block", {"max_row": 512}, recorded[name])
    mod = import_source(tmp_path / "cand.py", cand, "kopt_struct_row_cand")
    ref = import_source(tmp_path / "ref.py", fixture(name)[0], "kopt_struct_row_ref")
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
    ref = import_source(tmp_path / "ref.py", fixture(name)[0], "kopt_struct_lsm_ref")
    for text, tag in ((cand, "dead"), (cand_live, "live")):
        mod = import_source(tmp_path / f"cand_{tag}.py", text, f"kopt_struct_lsm_cand_{tag}")
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


def test_l2_reuse_hints_reach_the_ptx(harness, recorded):
    """l2_reuse's hints become L2 cache policies in the offline cuda:90 compile of log_softmax
    (createpolicy, loads and stores qualified with L2::cache_hint), and the loads and stores
    are the kernel's own, counted at the same widths as before."""
    name = "l2_reuse_logsoftmax"
    before = compile_cuda90(harness, name, fixture(name)[1])["ptx_stats"]
    after = compile_cuda90(harness, name, apply(fixture(name)[1], "l2_reuse", {"keep": 1, "stream": 1, "stores": 1},
                                    recorded[name]))["ptx_stats"]
    assert before["createpolicy"] == 0 and after["createpolicy"] > 0
    widths = {k: v for k, v in before.items() if k.startswith(("ld.global", "st.global"))}
    assert widths and widths == {k: v for k, v in after.items() if k.startswith(("ld.global", "st.global"))}


def test_row_single_block_reuse_other_cuda90(harness, recorded):
    """The online log-softmax's single-block copy (its output pass's load, of another
    ``other``, reused through tl.where) compiles offline for cuda:90 with one tt.load, where
    the loop version has two; first_pass's fold leaves one exponential per element (the final
    combine's) of the three the unrolled online update computes, and the survey offers the
    unfolded copy as one more configuration."""
    name = "l2_reuse_logsoftmax"
    cand = apply(fixture(name)[1], "row_single_block", {}, recorded[name])
    k = compile_cuda90(harness, name, cand)
    assert k["kernel"] == "log_softmax_kernel_row"
    assert tl_loads(fixture(name)[1], "log_softmax_kernel") == 2
    ttir = read(k["files"]["ttir"]["path"])
    assert ttir.count("tt.load") == 1
    assert ttir.count("math.exp") == 1, ttir
    unfolded = apply(fixture(name)[1], "row_single_block", {"fold": 0}, recorded[name])
    assert read(compile_cuda90(harness, name, unfolded)["files"]["ttir"]["path"]).count("math.exp") == 3
    (fit,) = [f for f in survey(fixture(name)[1], recorded[name]) if f.name == "row_single_block"]
    folds = [c["fold"] for c in fit.domain["configs"]]
    assert folds.count(0) == 1 and folds[-1] == 0 and "first_pass" in fit.why, (folds, fit.why)
    # the three-pass softmax folds nothing a finite-only rule decides: no unfolded twin
    other = "row_single_block_softmax"
    (fit,) = [f for f in survey(fixture(other)[1], recorded[other]) if f.name == "row_single_block"]
    assert {c["fold"] for c in fit.domain["configs"]} == {1}


def test_rows_per_program_ir_cuda90(harness, recorded):
    """rows_per_program's point, where the IR shows it (offline compile for cuda:90): RoPE's
    program over a 16-element half head moves one 16-bit element per thread (half of the 128
    threads idle); a [32, 16] tile gives each thread 4 contiguous elements of every row it
    touches: 64-bit accesses of the float16 heads, 128-bit loads of the float32 tables."""
    name = "rows_per_program_rope"
    base = compile_cuda90(harness, name, fixture(name)[1])["ptx_stats"]
    assert base.get("ld.global.16", 0) > 0 and base.get("st.global.16", 0) > 0
    tiled = compile_cuda90(harness, name, apply(fixture(name)[1], "rows_per_program", {"ROWS": 32}, recorded[name]))["ptx_stats"]
    assert tiled.get("ld.global.16", 0) == 0 and tiled.get("st.global.16", 0) == 0, tiled
    assert tiled.get("ld.global.v4.32", 0) > 0 and tiled.get("st.global.v2.32", 0) > 0, tiled


def test_rows_per_program_reductions_ir_cuda90(harness, recorded):
    """rows_per_program on row reductions (MoE gating, offline compile for cuda:90): one
    token's 128 experts over 4 warps reduce across warps through shared memory, with a barrier
    per reduction (11 barriers, 8 shared-memory reads); [8, 128] tiles put whole rows inside a
    warp, so the 8 rounds of top-k reduce with warp shuffles alone (what barriers remain
    convert the stores' layout), and the row loads become 128-bit."""
    name = "rows_per_program_moe"
    base = compile_cuda90(harness, name, fixture(name)[1])["ptx_stats"]
    assert base.get("bar.sync", 0) > 8, base
    cand = apply(fixture(name)[1], "rows_per_program", {"ROWS": 8, "num_warps": 4}, recorded[name])
    assert "vals = tl.where(row_mask, vals, vals)" in cand and "tl.sum(vals, axis=1, keep_dims=True)" in cand
    tiled = compile_cuda90(harness, name, cand)["ptx_stats"]
    assert tiled.get("bar.sync", 0) <= 3 and tiled.get("ld.shared", 0) <= 1, tiled      # the stores' layout only
    assert tiled.get("ld.global.v4.32", 0) > 0 and base.get("ld.global.v4.32", 0) == 0, (base, tiled)


@pytest.mark.parametrize("name", ["fuse_kernels_softmax", "fuse_kernels_layernorm"])
def test_fused_kernel_is_one_row_kernel_that_row_in_registers_takes(harness, recorded, name):
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
    r = harness.request("load", reference_source=ref, kernel_source=fused, workdir=f"f_{name}", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    whole = apply(fused, "row_single_block", {}, r["result"]["kernels"])
    res = load_and_validate(harness, name, whole)
    assert res["passed"], res["failure"]


def test_fuse_kernels_refuses_other_index_forms_and_other_writes_of_the_scratch(harness):
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
        r = harness.request("load", reference_source=ref, kernel_source=src, workdir="fuse_refuse", seed=0,
                      correctness_cases=1, benchmark_cases=1)
        assert r["ok"], r
        with pytest.raises(RewriteRefused, match=words):
            apply(src, "fuse_kernels", {}, r["result"]["kernels"])
