"""Structural rewrites (harness/kharness/structural): survey on every fixture, each rewrite
applied and its candidate validated against the reference by the real harness process
(TRITON_INTERPRET=1), the refusals and their reasons, the static check of every candidate,
and, offline for cuda:90, the IR property each rewrite is for.

Fixtures: tests/harness/structural_fixtures/<rewrite>_<case>/{ref.py,kernel.py}."""
import ast
import json
import re

import pytest
from conftest import read
from kharness.srcedit import RewriteRefused
from kharness.static_check import check_source
from kharness.structural import REWRITES, apply, survey
from structural_cases import (
    APPLIED,
    FITS,
    REFUSED,
    altered,
    compile_cuda90,
    fixture,
    load_and_validate,
    tl_loads,
)


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
def test_apply_is_correct(harness, recorded, name, rewrite, params):
    cand = apply(fixture(name)[1], rewrite, params, recorded[name])
    assert cand != fixture(name)[1]
    st = check_source(cand)
    assert st["ok"], st["violations"]
    res = load_and_validate(harness, name, cand)
    assert res["passed"], res["failure"]
    assert res["who"] == "candidate" and res["cases_checked"] == 2


@pytest.mark.parametrize("name,rewrite,params,words", REFUSED, ids=[f"{r[1]}-{r[0]}" for r in REFUSED])
def test_refusals(recorded, name, rewrite, params, words):
    with pytest.raises(RewriteRefused) as e:
        apply(fixture(name)[1], rewrite, params, recorded[name])
    for w in words:
        assert w in str(e.value), str(e.value)


def test_survey_without_launches_and_bad_source():
    fits = survey(fixture("elementwise_vector_gelu")[1], [])
    assert not any(f.fits for f in fits)
    assert "not launched on the recorded forward" in {f.name: f.why for f in fits}["elementwise_vector"]
    fits = survey("def broken(:\n", [])
    assert all(not f.fits and "does not parse" in f.why for f in fits)


def test_ir_properties_cuda90(harness, recorded):
    """What each rewrite is for, where the IR shows it (offline compile, no GPU; the initial
    kernels have one element per thread or one column per program: 32-bit loads only).
    elementwise_vector and strided_reduction_tiles give 128-bit global loads;
    row_single_block loads each row once (fewer tt.load ops than the loop version's loads)."""
    name = "elementwise_vector_gelu"
    k = compile_cuda90(harness, name, apply(fixture(name)[1], "elementwise_vector", {}, recorded[name]))
    assert k["ptx_stats"].get("ld.global.v4.32", 0) > 0 and k["ptx_stats"].get("st.global.v4.32", 0) > 0
    assert k["ptx_stats"].get("ld.global.32", 0) == 0
    assert k["metadata"]["num_warps"] == 4 and k["constexprs"] == {"(3,)": "1024"}

    name = "strided_reduction_tiles_colsum"
    k = compile_cuda90(harness, name, apply(fixture(name)[1], "strided_reduction_tiles", {}, recorded[name]))
    assert k["ptx_stats"].get("ld.global.v4.32", 0) > 0

    # float16 pairs at stride 2: 16-bit loads and stores before; after, as wide as the tile
    # allows: 128-bit on the rows kernel's [4, 128] tile at 2 warps, 64-bit on one row of 128
    # (4 elements per thread at 1 warp)
    name = "deinterleave_pairs_rows"
    k = compile_cuda90(harness, name, fixture(name)[1])
    assert k["ptx_stats"].get("ld.global.16", 0) > 0 and k["ptx_stats"].get("st.global.16", 0) > 0
    k = compile_cuda90(harness, name, apply(fixture(name)[1], "deinterleave_pairs", {"num_warps": 2}, recorded[name]))
    stats = k["ptx_stats"]
    assert stats.get("ld.global.16", 0) == 0 and stats.get("st.global.16", 0) == 0
    assert stats.get("ld.global.v4.32", 0) > 0 and stats.get("st.global.v4.32", 0) > 0
    assert stats.get("ld.shared", 0) == 0               # no layout conversion through shared memory
    name = "deinterleave_pairs_rope"
    k = compile_cuda90(harness, name, apply(fixture(name)[1], "deinterleave_pairs", {"num_warps": 1}, recorded[name]))
    assert k["ptx_stats"].get("ld.global.16", 0) == 0 and k["ptx_stats"].get("st.global.v2.32", 0) > 0

    name = "row_single_block_rmsnorm"
    cand = apply(fixture(name)[1], "row_single_block", {}, recorded[name])
    k = compile_cuda90(harness, name, cand)
    assert k["kernel"] == "add_rmsnorm_kernel_row"
    ttir = read(k["files"]["ttir"]["path"])
    assert tl_loads(fixture(name)[1], "add_rmsnorm_kernel") == 5
    assert tl_loads(cand, "add_rmsnorm_kernel_row") == 3 == ttir.count("tt.load")


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


def test_recorded_sizes_decide(recorded):
    """The recorded launch is part of the precondition: a grid that does not match the
    kernel's mapping, or a row longer than max_row, is refused."""
    name = "elementwise_vector_gelu"
    recs = recorded[name]
    grid = recs[0]["last"]["grid"]
    with pytest.raises(RewriteRefused, match=r"recorded grid \[41\] is not cdiv\(n_elements, BLOCK\) = 40"):
        apply(fixture(name)[1], "elementwise_vector", {}, altered(recs, grid=[grid[0] + 1]))
    name = "tile_grid_matmul"
    with pytest.raises(RewriteRefused, match=r"recorded grid \[3, 3\] is not cdiv\(M, BLOCK_M\) x cdiv\(N, BLOCK_N\)"):
        apply(fixture(name)[1], "tile_grid", {}, altered(recorded[name], grid=[3, 3]))
    name = "row_single_block_softmax"
    args = json.loads(json.dumps(recorded[name][0]["last"]["args"]))
    args[4] = {"kind": "int", "value": 40000}
    with pytest.raises(RewriteRefused, match=r"n_cols = 40000 at the recorded launch is outside \(0, max_row=32768\]"):
        apply(fixture(name)[1], "row_single_block", {}, altered(recorded[name], args=args))


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


def test_elementwise_vector_specialized_is_128_bit(harness, recorded):
    """Offline for cuda:90: with the length unspecialised the masked float16 accesses are one
    element wide, whatever the hints; the candidate, with the length specialised (5008 is a
    multiple of 16), loads and stores 128 bits per access."""
    name = "elementwise_vector_unspecialized"
    before = compile_cuda90(harness, name, fixture(name)[1])["ptx_stats"]
    assert before.get("ld.global.16", 0) > 0 and before.get("ld.global.v4.32", 0) == 0, before
    after = compile_cuda90(harness, name, apply(fixture(name)[1], "elementwise_vector", {}, recorded[name]))["ptx_stats"]
    assert after.get("ld.global.16", 0) == 0 and after.get("st.global.16", 0) == 0, after
    assert after.get("ld.global.v4.32", 0) > 0 and after.get("st.global.v4.32", 0) > 0, after


def test_specialize_args(harness, recorded):
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
    before = compile_cuda90(harness, name, ker)["ptx_stats"]
    assert before.get("ld.global.16", 0) > 0 and before.get("ld.global.v4.32", 0) == 0, before
    after = compile_cuda90(harness, name, out)["ptx_stats"]
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
