"""Structural rewrites of tile kernels (harness/kharness/structural): tile_grid's parameters,
tma_loads (shapes, batch axes, persistent loops; offline for cuda:90), the persistent twins and
the batched launches: candidates validated by the real harness process (TRITON_INTERPRET=1),
refusals and their reasons. Shared tables and helpers: structural_cases.py."""
import ast
import re
from typing import Any

import pytest
from conftest import read
from kharness import launches as launch_rec
from kharness.client import HarnessClient
from kharness.static_check import check_source
from kharness.structural import apply, survey
from structural_cases import (
    compile_cuda90,
    descriptor_calls,
    fixture,
    import_source,
    load_and_validate,
)


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
def test_tile_grid_params_name_every_knob(harness, name, params):
    """The worker remembers the tile_grid points a round measured beside the one it took as
    configurations of the kernel that one wrote (search_adopt_siblings, workers/search.h): each
    knob of that kernel is set by the param named as the knob or as its role in capitals (the
    block-pointer kernel calls its tiles BM, BN, BK), with the value the knob has."""
    ref, ker = fixture(name)
    r = harness.request("load", reference_source=ref, kernel_source=ker, workdir=f"n_{name}", seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    rw = harness.request("rewrite", structural={"name": "tile_grid", "params": params})
    assert rw["ok"], rw
    fit = next(f for f in survey(ker, r["result"]["kernels"]) if f.name == "tile_grid")
    point = {**fit.params, **params}
    kn = harness.request("knobs", source=rw["result"]["source"])
    assert kn["ok"], kn
    knobs = kn["result"]["knobs"]
    assert knobs
    for k in knobs:
        key = k["id"] if k["id"] in point else k["role"].upper()
        assert key in point and point[key] == k["value"], (k, point)


def test_tma_loads_shape_and_ir_cuda90(harness: HarnessClient, recorded: dict[str, list[dict[str, Any]]]) -> None:
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
    ttgir = read(compile_cuda90(harness, name, cand)["files"]["ttgir"]["path"])
    assert ttgir.count("ttng.tensormap_create") == 2 and "ttng.async_tma_copy_global_to_local" in ttgir
    base = read(compile_cuda90(harness, name, fixture(name)[1])["files"]["ttgir"]["path"])
    assert "tensormap" not in base

    name = "tile_grid_matmul"
    cand = apply(fixture(name)[1], "tma_loads", {}, recorded[name])
    assert "if stride_ak == 1:" in cand and "if stride_bn == 1:" in cand
    assert cand.count("tl.load(") == 2 and cand.count("_desc.load(") == 2     # each with its fallback
    grid_first = apply(fixture(name)[1], "tile_grid", {}, recorded[name])
    both = apply(grid_first, "tma_loads", {}, recorded[name])
    assert "GROUP_M" in both and "a_ptr_desc" in both
    assert load_and_validate(harness, name, both)["passed"]


def test_tma_loads_attention_cuda90(harness: HarnessClient, recorded: dict[str, list[dict[str, Any]]]) -> None:
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
    ttgir = read(compile_cuda90(harness, name, cand)["files"]["ttgir"]["path"])
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


def test_tma_loads_in_a_persistent_tile_loop(harness, recorded):
    """tile_grid's persistent form, then tma_loads: the loads of the K loop inside the loop
    over the tiles fit, their descriptors (parameters only) are made once per program, before
    the tile loop, and the candidate validates."""
    name = "tma_loads_linear"
    ref, ker = fixture(name)
    pers = apply(ker, "tile_grid", {"PERSISTENT": 1}, recorded[name])
    r = harness.request("load", reference_source=ref, kernel_source=pers, workdir="p_tma", seed=0,
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
    res = load_and_validate(harness, name, cand)
    assert res["passed"], res["failure"]


TILE_BATCHED = {"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": 16, "GROUP_M": 2, "num_warps": 2, "num_stages": 2,
                "PERSISTENT": 1}


def test_tma_loads_batch_axis_in_a_folded_batch_loop(harness, recorded):
    """tile_grid's persistent form of a batched matmul folds the batch into the tile loop (bid =
    tile // num_tiles, the loop up to num_tiles * NUM_BATCH); tma_loads then makes one 3-D
    descriptor per operand before the loop, the batch its leading axis of extent NUM_BATCH,
    instead of a 2-D one per tile; the candidate validates on the interpreter (2 x 2 tiles of 2
    batches over 4 programs) and compiles for cuda:90 with tensor-map copies."""
    name = "tile_grid_batched"
    pers = apply(fixture(name)[1], "tile_grid", TILE_BATCHED, recorded[name])
    cand = apply(pers, "tma_loads", {}, recorded[name])
    tile_loop, descs = descriptor_calls(cand, "bmm_kernel")
    assert len(descs) == 2 and all(d.lineno < tile_loop.lineno for d in descs), cand
    assert all(ast.unparse(next(kw.value for kw in d.keywords if kw.arg == "shape")).startswith("[NUM_BATCH, ")
               for d in descs), cand
    assert "a = tl.reshape(a_ptr_desc.load([bid, pid_m * BLOCK_M, k]), [BLOCK_M, BLOCK_K])" in cand, cand
    fit = {f.name: f for f in survey(pers, recorded[name])}["tma_loads"]
    assert "one 3-D descriptor made before the tile loop" in fit.why, fit.why
    res = load_and_validate(harness, name, cand)
    assert res["passed"], res["failure"]
    ttgir = read(compile_cuda90(harness, name, cand)["files"]["ttgir"]["path"])
    assert ttgir.count("ttng.tensormap_create") == 2 and "ttng.async_tma_copy_global_to_local" in ttgir


@pytest.mark.parametrize("change", [
    # the batch index not the loop's quotient: no bound the leading axis could have
    ("bid = tl.cast(tile // num_tiles, tl.int32)", "bid = tl.cast(tile // num_tiles % NUM_BATCH, tl.int32)"),
    # the loop's stop not written as a product: its quotient's bound is not read off it
    ("range(tl.program_id(0), num_tiles * NUM_BATCH,", "range(tl.program_id(0), num_tiles * NUM_BATCH + 0,"),
], ids=["index", "stop"])
def test_tma_loads_batch_axis_needs_the_loops_bound(harness, recorded, change):
    """Where the loop does not bound the batch index, the descriptors stay 2-D and per tile (as
    before the batch axis), and the candidate still validates."""
    name = "tile_grid_batched"
    pers = apply(fixture(name)[1], "tile_grid", TILE_BATCHED, recorded[name])
    assert change[0] in pers
    cand = apply(pers.replace(change[0], change[1]), "tma_loads", {}, recorded[name])
    tile_loop, descs = descriptor_calls(cand, "bmm_kernel")
    assert len(descs) == 2 and all(d.lineno > tile_loop.lineno for d in descs), cand
    assert "tl.reshape(" not in cand and "a_ptr + (bid * sab)" in cand, cand
    res = load_and_validate(harness, name, cand)
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
def test_batched_persistent_folds_the_batch(harness, recorded, tma):
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
    k = compile_cuda90(harness, name, out)
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
    mod = import_source(tmp_path / "cand.py", cand, "kopt_struct_batch_cand")
    ref = import_source(tmp_path / "ref.py", fixture(name)[0], "kopt_struct_batch_ref")
    x, w = torch.randn(5, 300), torch.randn(300)
    with launch_rec.recording() as recs:
        y = mod.ModelNew()(x, w)
    assert [r["kernel"] for r in recs] == ["scale_kernel_batched"]
    torch.testing.assert_close(y, ref.Model()(x, w))

    # in place: the written slice y[h] also read through x_ptr
    inplace = fixture(name)[1].replace("](x[h], w, y[h]", "](y[h], w, y[h]").replace(
        "y = torch.empty_like(x)", "y = x.clone()")
    cand_in = apply(inplace, "batch_launches", {}, recorded[name])
    mod_in = import_source(tmp_path / "cand_in.py", cand_in, "kopt_struct_batch_inplace")
    with launch_rec.recording() as recs:
        y = mod_in.ModelNew()(x, w)
    assert [r["kernel"] for r in recs] == ["scale_kernel_batched"]
    torch.testing.assert_close(y, ref.Model()(x, w))
    # a 2-D grid gets the batch on axis 2; a read-only operand expanded over the batch (stride
    # 0) still takes the batched launch: its slices are the same rows either way
    bmm = "batch_launches_bmm"
    cand_bmm = apply(fixture(bmm)[1], "batch_launches", {}, recorded[bmm])
    assert "mm_kernel_batched[(triton.cdiv(M, 16), triton.cdiv(N, 16), n_batch)]" in cand_bmm, cand_bmm
    mod_bmm = import_source(tmp_path / "cand_bmm.py", cand_bmm, "kopt_struct_batch_bmm")
    ref_bmm = import_source(tmp_path / "ref_bmm.py", fixture(bmm)[0], "kopt_struct_batch_bmm_ref")
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
    mod_sh = import_source(tmp_path / "cand_sh.py", apply(shared, "batch_launches", {}, recorded[name]),
                     "kopt_struct_batch_shared")
    row = torch.randn(1, 300)
    want = row.clone()
    for _ in range(4):
        want = want * w + 1.0
    with launch_rec.recording() as recs:
        y = mod_sh.ModelNew()(row.expand(4, 300), w)
    assert [r["kernel"] for r in recs] == ["scale_kernel"] * 4
    torch.testing.assert_close(y[0], want[0])
