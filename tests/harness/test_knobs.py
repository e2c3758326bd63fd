"""Knob discovery and change sets (docs/SEARCH.md: the `knobs` and `rewrite` ops).

One fixture per coupling (tests/harness/knobs_fixtures/README.md). For each: the discovered
knobs (ids, kinds, values, where they live, couplings); a change set applied by the real
harness; the candidate (a) parses, (b) re-discovered on its own recorded launches reports the
new values, (c) passes `validate` against the PyTorch reference under the Triton interpreter;
(d) a change that would break a coupling or leave the domain is refused with the reason."""
import ast
import difflib
import hashlib
import importlib.util
import os
import re

import pytest
import torch
from conftest import ROOT, read, vector_add
from kharness import normalize, pyflow
from kharness.client import HarnessClient
from kharness.knobrec import Discovery, Knob, Site, Where
from kharness.knobs import discover
from kharness.rewrite import apply_changes
from kharness.srcedit import RewriteRefused

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "knobs_fixtures")
HAS_STRUCTURAL = importlib.util.find_spec("kharness.structural") is not None


def fx(name):
    return read(FIX, name)


@pytest.fixture(scope="module")
def h(harness):
    return harness


def load(h, kernel, ref):
    r = h.request("load", kernel_source=fx(kernel), reference_source=fx(ref), workdir=kernel[:-3], seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    return r["result"]


def knobs(h, **kw):
    r = h.request("knobs", **kw)
    assert r["ok"], r
    return r["result"]


def by_id(res):
    return {k["id"]: k for k in res["knobs"]}


def rewrite(h, **kw):
    r = h.request("rewrite", **kw)
    assert r["ok"], r
    return r["result"]


def refused(h, **kw):
    r = h.request("rewrite", **kw)
    assert not r["ok"] and r["error"]["kind"] == "rewrite-refused", r
    return r["error"]["message"]


def changed_lines(old, new):
    """{old line number: new text} of the lines a rewrite replaced."""
    out = {}
    sm = difflib.SequenceMatcher(a=old.splitlines(), b=new.splitlines(), autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag != "equal":
            assert tag == "replace" and i2 - i1 == j2 - j1, (tag, old.splitlines()[i1:i2], new.splitlines()[j1:j2])
            for k in range(i2 - i1):
                out[i1 + 1 + k] = new.splitlines()[j1 + k]
    return out


def check_candidate(h, res, expect):
    """(a) parses, (b) re-discovers with the new values, (c) correct against the reference."""
    src = res["source"]
    ast.parse(src)
    again = knobs(h, source=src, tunables=res["tunables"])
    got = by_id(again)
    for kid, v in expect.items():
        assert got[kid]["value"] == v, (kid, got[kid])
    r = h.request("validate", candidate_source=src, tunables=res["tunables"])
    assert r["ok"] and r["result"]["passed"], r
    return again


def coupled(knob, what="grid"):
    return [c for c in knob["coupled"] if c["what"] == what]


# ---------------------------------------------------------------------------- constructor defaults


def test_vector_add_constructor_defaults(h):
    ref, ker = vector_add()
    r = h.request("load", kernel_source=ker, reference_source=ref, workdir="va", correctness_cases=1,
                  benchmark_cases=1)
    assert r["ok"], r
    res = knobs(h)
    k = by_id(res)
    assert list(k) == ["BLOCK_SIZE", "num_warps", "num_stages"]
    b = k["BLOCK_SIZE"]
    assert (b["kind"], b["role"], b["value"], b["pow2"], b["min"], b["max"]) == ("block", "block", 128, True, 16, 65536)
    assert b["where"] == {"via": "ctor_default", "line": 20, "function": "ModelNew.__init__", "text": "BLOCK_SIZE=128"}
    assert b["bound"] == {"arg": "n_elements", "value": 4096, "max_useful": 4096}
    assert coupled(b) == [{"line": 30, "what": "grid", "text": "(triton.cdiv(n, self.BLOCK_SIZE),)",
                           "how": "shared variable"}]
    assert k["num_warps"]["where"]["via"] == "ctor_default" and k["num_warps"]["value"] == 4
    assert k["num_stages"]["where"]["via"] == "launch_missing" and k["num_stages"]["value"] == 3
    assert res["frozen"] == []
    assert res["kernels"] == [{"name": "add_kernel", "launches": 1, "constexprs": {"BLOCK_SIZE": 128},
                               "options": {"num_warps": 4, "num_stages": 3}, "grid": [32], "uses_dot": False,
                               "loops": 0, "reductions": 0, "atomics": False, "autotune": False}]
    if not HAS_STRUCTURAL:
        assert res["structural"] == []
        msg = refused(h, structural={"name": "row_single_block", "params": {}})
        assert "kharness.structural is not installed" in msg

    out = rewrite(h, changes={"BLOCK_SIZE": 512, "num_warps": 2})
    assert out["source"] == ker                      # constructor knobs leave the source as it is
    assert out["tunables"] == {"BLOCK_SIZE": 512, "num_warps": 2}
    assert [(a["id"], a["from"], a["to"]) for a in out["applied"]] == [("BLOCK_SIZE", 128, 512), ("num_warps", 4, 2)]
    again = check_candidate(h, out, {"BLOCK_SIZE": 512, "num_warps": 2})
    assert again["kernels"][0]["grid"] == [8]

    assert "not a power of two" in refused(h, changes={"BLOCK_SIZE": 100})
    assert "outside its domain [16, 65536]" in refused(h, changes={"BLOCK_SIZE": 8})
    msg = refused(h, changes={"BLOCK": 64})
    assert "unknown knob 'BLOCK'" in msg and "BLOCK_SIZE, num_warps, num_stages" in msg
    assert "not an integer" in refused(h, changes={"num_warps": "8"})
    r = h.request("rewrite")
    assert not r["ok"] and r["error"]["kind"] == "bad-request" and "needs changes" in r["error"]["message"]
    r = h.request("knobs", source="import no_such_module_kopt\n")
    assert not r["ok"] and r["error"]["kind"] == "kernel-error" and "no_such_module_kopt" in r["error"]["message"]


# ---------------------------------------------------------------------------- local variable -> kwarg and grid


def test_local_variable_kwarg_and_grid(h):
    src = fx("gelu_local.py")
    loaded = load(h, "gelu_local.py", "ref_gelu.py")
    k = by_id(knobs(h))
    b = k["BLOCK"]
    assert b["where"] == {"via": "local_var", "line": 24, "function": "ModelNew.forward",
                          "text": "BLOCK = 128"}
    assert (b["kind"], b["value"]) == ("block", 128)
    assert coupled(b) == [{"line": 25, "what": "grid", "text": "(triton.cdiv(n, BLOCK),)", "how": "shared variable"}]
    assert k["num_warps"]["where"]["via"] == "launch_missing"

    out = rewrite(h, changes={"BLOCK": 1024, "num_warps": 8})
    assert changed_lines(src, out["source"]) == {
        24: "        BLOCK = 1024  # elements per program",
        26: "        gelu_kernel[grid](x, out, n, BLOCK=BLOCK, num_warps=8)   # one program per block"}
    again = check_candidate(h, out, {"BLOCK": 1024, "num_warps": 8})
    assert again["kernels"][0]["grid"] == [3]
    assert by_id(again)["num_warps"]["where"]["via"] == "launch_literal"

    # the same change computed in this process from the launches `load` recorded
    d = discover(src, loaded["kernels"])
    assert apply_changes(src, d, {"BLOCK": 1024, "num_warps": 8}).source == out["source"]


def test_declared_tunables(h):
    load(h, "gelu_local.py", "ref_gelu.py")
    declared = {"BLOCK": [256, 64, 128], "UNROLL": [1, 2]}
    k = by_id(knobs(h, declared=declared))
    assert k["BLOCK"]["choices"] == [64, 128, 256] and k["BLOCK"]["where"]["via"] == "local_var"
    assert k["UNROLL"]["where"]["via"] == "declared" and k["UNROLL"]["choices"] == [1, 2]
    msg = refused(h, changes={"BLOCK": 512}, declared=declared)
    assert "512 is not one of its declared values [64, 128, 256]" in msg
    out = rewrite(h, changes={"BLOCK": 256, "UNROLL": 2}, declared=declared)
    assert out["tunables"] == {"UNROLL": 2}
    bad = h.request("knobs", declared={"BLOCK": "big"})
    assert not bad["ok"] and bad["error"]["kind"] == "bad-request" and "declared.BLOCK" in bad["error"]["message"]


# ---------------------------------------------------------------------------- grid from literal tile sizes


def test_grid_literal_tile_sizes(h):
    src = fx("matmul_literal.py")
    load(h, "matmul_literal.py", "ref_matmul.py")
    res = knobs(h)
    k = by_id(res)
    assert [(x["id"], x["role"], x["value"]) for x in res["knobs"][:3]] == [
        ("BLOCK_M", "block_m", 32), ("BLOCK_N", "block_n", 64), ("BLOCK_K", "block_k", 32)]
    assert k["BLOCK_M"]["where"]["via"] == "launch_literal" and k["BLOCK_M"]["where"]["text"] == "BLOCK_M=32"
    assert (k["BLOCK_M"]["min"], k["BLOCK_M"]["max"]) == (16, 256)
    assert k["BLOCK_M"]["bound"] == {"arg": "M", "value": 64, "max_useful": 64}
    # BLOCK_K is 32 too, but it does not tile a grid axis and the literal divides M, BLOCK_M's bound
    for kid, lit in (("BLOCK_M", 32), ("BLOCK_N", 64)):
        (c,) = coupled(k[kid])
        assert c["line"] == 32 and c["how"].startswith(f"grid literal {lit} tied to the knob")
    assert coupled(k["BLOCK_K"]) == []
    assert res["kernels"][0]["uses_dot"] is True and res["kernels"][0]["loops"] == 1

    out = rewrite(h, changes={"BLOCK_M": 64, "BLOCK_K": 64})
    assert changed_lines(src, out["source"]) == {
        32: "        grid = (triton.cdiv(M, 64), triton.cdiv(N, 64))",
        34: "                            c.stride(0), c.stride(1), BLOCK_M=64, BLOCK_N=64, BLOCK_K=64)"}
    again = by_id(check_candidate(h, out, {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64}))
    assert coupled(again["BLOCK_M"])[0]["how"].startswith("grid literal 64 tied")   # still told apart
    assert "outside its domain [16, 256]" in refused(h, changes={"BLOCK_M": 512})


def test_block_pointer_shapes(h):
    """A block constexpr that sizes only block pointers (make_block_ptr's block_shape, given
    positionally) is a block; the one stepping the K loop is block_k; a change rewrites the
    local they come from, and the candidate is correct."""
    load(h, "matmul_block_ptr.py", "ref_matmul.py")
    res = knobs(h)
    k = by_id(res)
    assert {kid: (k[kid]["kind"], k[kid]["role"]) for kid in ("BM", "BN", "BK")} == {
        "BM": ("block", "block_m"), "BN": ("block", "block_n"), "BK": ("block", "block_k")}
    assert all(k[kid]["where"]["via"] == "local_var" for kid in ("BM", "BN", "BK"))
    assert res["kernels"][0]["uses_dot"] is True
    out = rewrite(h, changes={"BK": 16, "BM": 64})
    check_candidate(h, out, {"BM": 64, "BN": 32, "BK": 16})


def test_equal_tile_literals_tied_by_axis(h):
    """Two tile sizes of 16 and a grid `(cdiv(M, 16), cdiv(N, 16))`: each literal goes with the
    block whose mask bound is its dividend, so a change of BLOCK_N rewrites the N axis only
    and the candidate is correct (it used to take the M axis's literal: rows left unwritten)."""
    src = fx("transpose_2d.py")
    load(h, "transpose_2d.py", "ref_transpose.py")
    k = by_id(knobs(h))
    for kid, lit in (("BLOCK_M", "M"), ("BLOCK_N", "N")):
        (c,) = coupled(k[kid])
        assert c["how"].startswith("grid literal 16 tied to the knob"), c
    out = rewrite(h, changes={"BLOCK_N": 32})
    grid_line = next(n for n, t in changed_lines(src, out["source"]).items() if "grid =" in t)
    assert changed_lines(src, out["source"])[grid_line].strip() == "grid = (triton.cdiv(M, 16), triton.cdiv(N, 32))"
    check_candidate(h, out, {"BLOCK_M": 16, "BLOCK_N": 32})


def test_tile_named_block_without_dot(h):
    """BLOCK_N on a kernel without tl.dot keeps the 1-D block domain (16..65536), not a dot
    tile's 16..256: the row split of a 2-D grid may need a block of thousands."""
    load(h, "rowsplit_2d.py", "ref_bias_gelu_2d.py")
    k = by_id(knobs(h))["BLOCK_N"]
    assert (k["kind"], k["role"], k["min"], k["max"]) == ("block", "block_n", 16, 65536), k
    assert k["bound"]["max_useful"] == 1024
    check_candidate(h, rewrite(h, changes={"BLOCK_N": 1024}), {"BLOCK_N": 1024})


def test_double_star_launch_is_left_alone(h: HarnessClient) -> None:
    """`k[grid](..., **cfg)` where cfg changes after it is built: what the launch does not name
    may be among cfg's keys, so neither a knob nor a structural rewrite adds a keyword there
    (each candidate used to fail with "got multiple values for keyword argument"); the frozen
    list says why."""
    load(h, "kwargs_launch_opaque.py", "ref_absmax.py")
    res = knobs(h)
    assert res["knobs"] == []
    frozen = {f["name"]: f["why"] for f in res["frozen"]}
    assert set(frozen) == {"BLOCK", "num_warps", "num_stages"}
    assert all("the launch passes **cfg" in why for why in frozen.values()), frozen
    fits = {s["name"]: s for s in res["structural"]}
    assert not any(s["fits"] for s in fits.values())
    assert "passes **cfg" in fits["row_single_block"]["why"], fits["row_single_block"]


def test_double_star_dict_display_is_read(h: HarnessClient) -> None:
    """`cfg = {"BLOCK": 128, "num_warps": 2}` read only at `k[grid](..., **cfg)`: its entries are
    the launch's keywords. BLOCK and num_warps are knobs whose changes edit the entries (and
    nothing else), num_stages is added beside `**cfg`, and the structural rewrites see the
    launch's BLOCK (row_single_block fits and its candidate is correct)."""
    load(h, "kwargs_launch.py", "ref_absmax.py")
    res = knobs(h)
    ks = by_id(res)
    assert set(ks) == {"BLOCK", "num_warps", "num_stages"}, res["frozen"]
    assert (ks["BLOCK"]["value"], ks["num_warps"]["value"]) == (128, 2)
    assert ks["BLOCK"]["where"]["text"] == '"BLOCK": 128'
    out = rewrite(h, changes={"BLOCK": 256, "num_warps": 4, "num_stages": 2})
    src = fx("kwargs_launch.py")
    assert changed_lines(src, out["source"]) == {
        27: '        cfg = {"BLOCK": 256, "num_warps": 4}',
        28: "        absmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), **cfg, num_stages=2)"}
    check_candidate(h, out, {"BLOCK": 256, "num_warps": 4, "num_stages": 2})
    if HAS_STRUCTURAL:
        fits = {s["name"]: s for s in res["structural"]}
        assert fits["row_single_block"]["fits"], fits["row_single_block"]
        r = h.request("rewrite", structural={"name": "row_single_block", "params": {}})
        assert r["ok"], r
        out_src = r["result"]["source"]
        # the rewrite sees the launch with cfg's entries inlined (normalize.inline_spreads)
        assert "cfg = {" not in out_src and "BLOCK=row_block, num_warps=min(" in out_src, out_src
        assert "x.stride(0), BLOCK=128, num_warps=2)" in out_src, out_src
        v = h.request("validate", candidate_source=out_src, tunables=r["result"]["tunables"])
        assert v["ok"] and v["result"]["passed"], v


def test_autograd_function_launch(h: HarnessClient) -> None:
    """A launch in a torch.autograd.Function's forward, reached through `Fn.apply(x)`: its
    block (a local there, shared by the kwarg and the grid) is a knob, a change rewrites both
    in that function, and the candidate is correct."""
    load(h, "autograd_function.py", "ref_gelu.py")
    ks = by_id(knobs(h))
    assert ks["BLOCK"]["where"]["function"] == "GeluFn.forward" and ks["BLOCK"]["value"] == 128, ks["BLOCK"]
    assert coupled(ks["BLOCK"]), ks["BLOCK"]
    out = rewrite(h, changes={"BLOCK": 512, "num_warps": 2})
    assert changed_lines(fx("autograd_function.py"), out["source"]) == {
        26: "        BLOCK = 512",
        27: "        gelu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK, num_warps=2)"}
    check_candidate(h, out, {"BLOCK": 512, "num_warps": 2})


def test_module_constexpr_global(h: HarnessClient) -> None:
    """A block held in a module-level `tl.constexpr` global that the kernel reads: a knob at the
    global's literal, tied to the grid's 128. The candidate passes it as a parameter (the
    module lifted) and changes the global and the grid together; a change set that changes
    nothing returns the source as written."""
    load(h, "module_constexpr.py", "ref_gelu.py")
    ks = by_id(knobs(h))
    assert ks["BLOCK"]["where"]["via"] == "module_constant" and ks["BLOCK"]["value"] == 128, ks["BLOCK"]
    assert [c["text"] for c in coupled(ks["BLOCK"])] == ["(triton.cdiv(n, 128),)"], ks["BLOCK"]
    src = fx("module_constexpr.py")
    out = rewrite(h, changes={"BLOCK": 512})
    assert changed_lines(src, out["source"]) == {
        8: "BLOCK = tl.constexpr(512)",
        12: "def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):",
        27: "        gelu_kernel[(triton.cdiv(n, 512),)](x, out, n, BLOCK=BLOCK)"}
    check_candidate(h, out, {"BLOCK": 512})
    assert rewrite(h, changes={"BLOCK": 128})["source"] == src


def test_64bit_program_offsets_tile_their_axis():
    """`pid.to(tl.int64) * BLOCK` tiles pid's axis like `pid * BLOCK` (kernelinfo)."""
    from kharness.kernelinfo import analyse
    tree = ast.parse(fx("transpose_2d.py"))
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "tr_kernel")
    assert analyse(fn).axis_blocks == {0: ["BLOCK_M"], 1: ["BLOCK_N"]}


def test_ambiguous_grid_literal_resolved_by_axis(h):
    """Square sizes and equal tiles: both grid literals are 32 and both masks bound by n, but
    grid element i sizes program_id(i), which pid_m * BLOCK_M (axis 0) and pid_n * BLOCK_N
    (axis 1) tile: each literal is tied to its own block, and a change rewrites only its own."""
    load(h, "matmul_ambiguous.py", "ref_matmul_square.py")
    k = by_id(knobs(h))
    for kid in ("BLOCK_M", "BLOCK_N"):
        (c,) = coupled(k[kid])
        assert c["how"].startswith("grid literal 32 tied to the knob"), c
    assert coupled(k["BLOCK_K"]) == []
    out = rewrite(h, changes={"BLOCK_N": 64})
    assert "matmul_kernel[(triton.cdiv(n, 32), triton.cdiv(n, 64))](" in out["source"]
    assert "BLOCK_M=32, BLOCK_N=64, BLOCK_K=32" in out["source"]
    check_candidate(h, out, {"BLOCK_M": 32, "BLOCK_N": 64})


def test_block_pointer_grid_literals_by_axis(h):
    """A block-pointer matmul has no masks to say which extent a grid literal divides; the
    program axis its block tiles (pm * BM in make_block_ptr's offsets) does."""
    load(h, "matmul_block_ptr_literal.py", "ref_matmul.py")
    res = knobs(h)
    k = by_id(res)
    assert {"BM", "BN", "BK"} <= set(k) and res["frozen"] == [], res["frozen"]
    out = rewrite(h, changes={"BN": 64})
    assert "grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))" in out["source"]
    check_candidate(h, out, {"BM": 32, "BN": 64})


def test_frozen_values_are_refused_with_the_reason(h):
    load(h, "matmul_frozen.py", "ref_matmul_square.py")
    res = knobs(h)
    k = by_id(res)
    assert list(k) == ["BLOCK_K", "GROUP_M", "num_warps", "num_stages"]
    assert k["GROUP_M"]["kind"] == "group" and k["GROUP_M"]["value"] == 8
    # num_warps=warps, warps computed at run time: a launch option sizes nothing else, so it
    # is a knob holding the recorded value, and a change replaces the expression
    w = k["num_warps"]
    assert (w["value"], w["where"]["via"], w["where"]["line"]) == (2, "launch_computed", 43)
    assert w["where"]["text"] == "num_warps=warps" and coupled(w, "computed")
    frozen = {f["name"]: f["why"] for f in res["frozen"]}
    assert frozen == {
        "BLOCK_M": "line 39: grid literal 32 matches BLOCK_M and BLOCK_N; cannot tell which",
        "BLOCK_N": "line 39: grid literal 32 matches BLOCK_M and BLOCK_N; cannot tell which"}
    assert refused(h, changes={"BLOCK_M": 64}) == \
        "knob BLOCK_M is frozen: line 39: grid literal 32 matches BLOCK_M and BLOCK_N; cannot tell which"
    out = rewrite(h, changes={"BLOCK_K": 64, "GROUP_M": 4, "num_warps": 8})
    assert "num_warps=8)" in out["source"].splitlines()[42]
    again = check_candidate(h, out, {"BLOCK_K": 64, "GROUP_M": 4, "num_warps": 8})
    assert by_id(again)["num_warps"]["where"]["via"] == "launch_literal"


# ---------------------------------------------------------------------------- autotune, defaults, constants


def test_autotune_configs(h):
    load(h, "autotune_scale.py", "ref_scale.py")
    k = by_id(knobs(h))
    assert [(x, k[x]["value"], k[x]["where"]["via"]) for x in k] == [
        ("BLOCK", 64, "autotune"), ("num_warps", 2, "autotune"), ("num_stages", 3, "autotune")]
    assert k["BLOCK"]["where"]["line"] == 15
    assert [c["how"] for c in coupled(k["BLOCK"])] == ["the grid reads meta['BLOCK']"]
    out = rewrite(h, changes={"BLOCK": 256, "num_warps": 8})
    tree = ast.parse(out["source"])
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "scale_kernel")
    configs = fn.decorator_list[0].keywords[0].value
    assert ast.unparse(configs) == "[triton.Config({'BLOCK': 256}, num_warps=8)]"
    assert 'configs=[triton.Config({"BLOCK": 256}, num_warps=8)],' in out["source"]   # the chosen config, edited
    check_candidate(h, out, {"BLOCK": 256, "num_warps": 8, "num_stages": 3})


def test_constructor_default_with_grid_literal(h):
    src = fx("ctor_grid.py")
    load(h, "ctor_grid.py", "ref_scale.py")
    b = by_id(knobs(h))["BLOCK"]
    assert (b["where"]["via"], b["value"]) == ("ctor_default", 256)
    assert coupled(b)[0]["how"].startswith("grid literal 256 tied to the knob")
    out = rewrite(h, changes={"BLOCK": 512})
    assert out["tunables"] == {"BLOCK": 512}
    assert changed_lines(src, out["source"]) == {
        24: "        scale_kernel[(triton.cdiv(n, self.BLOCK),)](x, out, n, BLOCK=self.BLOCK, num_warps=4)"}
    again = by_id(check_candidate(h, out, {"BLOCK": 512}))
    assert coupled(again["BLOCK"])[0]["how"] == "shared variable"
    assert "not a power of two" in refused(h, changes={"BLOCK": 300})


def test_class_attribute(h):
    """A class attribute read as self.BLOCK (no __init__) is a knob whose value lives in the
    class body; the user's lambda grid reads meta['BLOCK'], so nothing else changes with it."""
    src = fx("class_attr_block.py")
    load(h, "class_attr_block.py", "ref_scale.py")
    b = by_id(knobs(h))["BLOCK"]
    assert (b["where"]["via"], b["value"], b["where"]["line"]) == ("attr_literal", 256, 18)
    assert coupled(b)[0]["how"] == "the grid reads meta['BLOCK']"
    out = rewrite(h, changes={"BLOCK": 1024})
    assert changed_lines(src, out["source"]) == {18: "    BLOCK = 1024"}
    check_candidate(h, out, {"BLOCK": 1024})


def test_loop_stages(h):
    """`tl.range(..., num_stages=1)` in the kernel (the unseen rowmax_tl_range, at its
    interpreter size): the loop's own pipeline depth (it overrides the launch's num_stages for
    that loop) is a knob at the literal, beside the launch option; changing it edits that
    literal only, and the candidate is correct. Offline for cuda:90 the loop pipelines its
    loads (cp.async) at depth 3 and not at depth 1, whatever the launch's num_stages."""
    op = os.path.join(ROOT, "bench", "suite", "unseen", "rowmax_tl_range")
    src = read(op, "kernel.py")
    r = h.request("load", kernel_source=src, reference_source=read(op, "ref.py"), workdir="loop_stages",
                  seed=0, correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r
    ks = by_id(knobs(h))
    b = ks["loop_num_stages"]
    assert (b["kind"], b["role"], b["value"], b["min"], b["max"]) == ("num_stages", "loop_stages", 1, 1, 8)
    assert b["where"] == {"via": "loop_literal", "line": 14, "function": "row_max_kernel",
                          "text": "tl.range(0, n_cols, BLOCK, num_stages=1)"}
    assert b["coupled"] == [] and b["kernels"] == ["row_max_kernel"]
    assert ks["num_stages"]["where"]["via"] == "launch_missing"        # the launch's option: its own knob
    out = rewrite(h, changes={"loop_num_stages": 3})
    assert changed_lines(src, out["source"]) == {
        14: "    for start in tl.range(0, n_cols, BLOCK, num_stages=3):"}
    check_candidate(h, out, {"loop_num_stages": 3})

    def ptx(source):
        c = h.request("compile", target="cuda:90", candidate_source=source)
        assert c["ok"], c
        (k,) = c["result"]["kernels"]
        return k["ptx_stats"]

    deep = ptx(out["source"])
    shallow = ptx(rewrite(h, changes={"num_stages": 4})["source"])      # the launch's option only
    assert deep.get("cp.async", 0) > 0, deep
    assert shallow.get("cp.async", 0) == 0, shallow


def test_kernel_parameter_default(h):
    src = fx("kernel_default.py")
    load(h, "kernel_default.py", "ref_scale.py")
    b = by_id(knobs(h))["BLOCK"]
    assert b["where"] == {"via": "kernel_default", "line": 9, "function": "scale_kernel",
                          "text": "BLOCK: tl.constexpr = 64"}
    assert coupled(b)[0]["text"] == "((n + 63) // 64,)"
    out = rewrite(h, changes={"BLOCK": 256, "num_warps": 8})
    assert changed_lines(src, out["source"]) == {
        20: "        scale_kernel[((n + 255) // 256,)](x, out, n, BLOCK=256, num_warps=8)"}
    again = by_id(check_candidate(h, out, {"BLOCK": 256, "num_warps": 8}))
    assert again["BLOCK"]["where"]["via"] == "launch_literal"


def test_module_constant(h):
    src = fx("module_const.py")
    load(h, "module_const.py", "ref_scale.py")
    b = by_id(knobs(h))["BLOCK"]
    assert b["where"] == {"via": "module_constant", "line": 7, "function": "<module>",
                          "text": "BLOCK_SIZE = 512"}
    assert coupled(b)[0]["how"] == "shared variable"
    out = rewrite(h, changes={"BLOCK": 1024})
    assert changed_lines(src, out["source"]) == {7: "BLOCK_SIZE = 1024  # elements per program"}
    check_candidate(h, out, {"BLOCK": 1024})


def test_two_kernels_in_one_forward(h):
    load(h, "two_kernels.py", "ref_two.py")
    res = knobs(h)
    assert [x["id"] for x in res["knobs"]] == [
        "scale_kernel.BLOCK", "scale_kernel.num_warps", "scale_kernel.num_stages",
        "add_kernel.BLOCK", "add_kernel.num_warps", "add_kernel.num_stages"]
    k = by_id(res)
    assert k["add_kernel.BLOCK"]["where"]["function"] == "ModelNew._add"     # followed into the helper
    assert k["add_kernel.BLOCK"]["kernels"] == ["add_kernel"]
    assert [x["name"] for x in res["kernels"]] == ["scale_kernel", "add_kernel"]
    out = rewrite(h, changes={"scale_kernel.BLOCK": 512, "add_kernel.BLOCK": 64, "add_kernel.num_stages": 2})
    assert "add_kernel[(triton.cdiv(n, 64),)](a, b, out, n, BLOCK=64, num_stages=2)" in out["source"]
    check_candidate(h, out, {"scale_kernel.BLOCK": 512, "add_kernel.BLOCK": 64, "add_kernel.num_stages": 2})


# ---------------------------------------------------------------------------- in process
# The launches these tests discover from are recorded here, in this process, by running the
# module under the Triton interpreter with kharness.launches (what the harness does on `load`).


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """run(src, *inputs, **tunables) -> (launch records, output) of ModelNew(**tunables)(*inputs)."""
    from kharness import launches
    launches.install()
    where = tmp_path_factory.mktemp("modules")

    def go(src, *inputs, **tunables):
        tag = hashlib.sha256(src.encode()).hexdigest()[:12]
        path = where / f"knobs_{tag}.py"
        path.write_text(src, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(f"kopt_knobs_test_{tag}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        with launches.recording() as recs:
            out = mod.ModelNew(**tunables)(*inputs)
        return launches.summarize(recs), out

    return go


def test_layout_outside_the_edited_spans_is_kept_byte_for_byte(run):
    """Comments (non-ASCII too), blank lines and odd spacing survive; only the literal changes."""
    src = fx("gelu_local.py").replace("        BLOCK = 128  # elements per program\n",
                                      "        # Blöcke: 128 × fp32 ≈ ½ KiB\n        BLOCK  =  128   # élan\n\n")
    x = torch.randn(3000)
    recs, want = run(src, x)
    out = apply_changes(src, discover(src, recs), {"BLOCK": 4096}).source
    assert out == src.replace("BLOCK  =  128   # élan", "BLOCK  =  4096   # élan")
    recs2, got = run(out, x)
    assert torch.equal(got, want) and recs2[0]["last"]["grid"] == [1]


def test_refusals_in_process(run):
    src = fx("gelu_local.py")
    recs, _ = run(src, torch.randn(3000))
    d = discover(src, recs)
    with pytest.raises(RewriteRefused, match="discovered on another source"):
        apply_changes(src + "\n", d, {"BLOCK": 256})
    with pytest.raises(RewriteRefused, match="changes must be an object"):
        apply_changes(src, d, [("BLOCK", 256)])
    with pytest.raises(RewriteRefused, match="does not parse: line 1"):
        discover("def (:\n", recs)
    # the module received another value than its source says (a constructor took it
    # positionally, a branch not seen...): the knob is frozen, not guessed
    lied = src.replace("BLOCK = 128", "BLOCK = 64")
    d2 = discover(lied, recs)
    assert d2.knob("BLOCK") is None
    assert d2.frozen[0].why == "line 24: the source gives BLOCK = 64 but the launch received 128"
    assert discover(src, []).knobs == []          # nothing launched: nothing to tune


COPY = """import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def copy_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def persistent_copy_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    for start in range(tl.program_id(0) * BLOCK, n, tl.num_programs(0) * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        tl.store(o_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


"""


def _changed(src, discovery, changes):
    out = apply_changes(src, discovery, changes).source
    return [ln for ln in difflib.unified_diff(src.splitlines(), out.splitlines(), n=0, lineterm="")
            if ln[:1] in "+-" and ln[:3] not in ("+++", "---")], out


@pytest.mark.parametrize("body, changes, where, diff", [
    ("""def launch(x, out, BLOCK=256):
    n = x.numel()
    copy_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        launch(x, out)
        return out
""", {"BLOCK": 512}, ("BLOCK", "param_default"), ["-def launch(x, out, BLOCK=256):", "+def launch(x, out, BLOCK=512):"]),
    ("""def launch(x, out, BLOCK):
    n = x.numel()
    copy_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        launch(x, out, 128)
        return out
""", {"BLOCK": 64}, ("BLOCK", "call_literal"), ["-        launch(x, out, 128)", "+        launch(x, out, 64)"]),
    ("""class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK, warps = 256, 8
        for _ in range(2):
            copy_kernel[(n + BLOCK - 1) // BLOCK, 1](x, out, n, BLOCK, num_warps=warps)
        return out
""", {"BLOCK": 1024, "num_warps": 4}, ("BLOCK", "local_var"), ["-        BLOCK, warps = 256, 8",
                                                     "+        BLOCK, warps = 1024, 4"]),
    ("""class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = 128

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda META: (triton.cdiv(n, META["BLOCK"]),)  # noqa: E731
        copy_kernel[grid](x, out, n, BLOCK=self.block)
        return out
""", {"BLOCK": 64}, ("BLOCK", "attr_literal"), ["-        self.block = 128", "+        self.block = 64"]),
    # the grid cannot be recomputed (strides are not recorded): rewritten from the kernel instead
    ("""class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        copy_kernel[(triton.cdiv(x.stride(0) * x.shape[0], 128),)](x, out, x.numel(), BLOCK=128)
        return out
""", {"BLOCK": 256}, ("BLOCK", "launch_literal"), [
        "-        copy_kernel[(triton.cdiv(x.stride(0) * x.shape[0], 128),)](x, out, x.numel(), BLOCK=128)",
        "+        copy_kernel[lambda meta: (triton.cdiv(x.numel(), meta['BLOCK']),)](x, out, x.numel(), BLOCK=256)"]),
    # a persistent kernel: the number of programs is a knob of its own (kind int, not swept unless declared)
    ("""class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        NUM_PROGS = 3
        persistent_copy_kernel[(NUM_PROGS,)](x, out, x.numel(), BLOCK=128)
        return out
""", {"NUM_PROGS": 5}, ("NUM_PROGS", "local_var"), ["-        NUM_PROGS = 3", "+        NUM_PROGS = 5"]),
], ids=["helper-default", "helper-call-literal", "tuple-positional-loop", "init-attribute-meta-grid",
        "unverifiable-grid-to-lambda", "persistent-program-count"])
def test_launcher_data_flow(run, body, changes, where, diff):
    src = COPY + body
    x = torch.randn(1000)
    recs, want = run(src, x)
    d = discover(src, recs)
    kid, via = where
    assert d.knob(kid).where.via == via
    lines, out = _changed(src, d, changes)
    assert lines == diff
    recs2, got = run(out, x)
    assert torch.equal(got, want)
    again = discover(out, recs2)
    assert {k: again.knob(k).value for k in changes} == changes


@pytest.mark.parametrize("assign, why", [
    ("""        if n > 4096:
            BLOCK = 1024
        else:
            BLOCK = 256
""", "line 24: BLOCK is assigned in a branch (line 24)"),
    ("        BLOCK = min(triton.next_power_of_2(n), 1024)\n",
     "line 24: `BLOCK = min(triton.next_power_of_2(n), 1024)` computed at run time"),
], ids=["branch", "computed"])
def test_values_the_source_does_not_fix_are_frozen(run, assign, why):
    src = COPY + """class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
""" + assign + """        copy_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out
"""
    recs, _ = run(src, torch.randn(1000))
    d = discover(src, recs)
    assert d.knob("BLOCK") is None and [(f.name, f.why) for f in d.frozen] == [("BLOCK", why)]
    with pytest.raises(RewriteRefused, match="knob BLOCK is frozen: " + re.escape(why)):
        apply_changes(src, d, {"BLOCK": 512})


def test_edits_that_collide_are_refused():
    """Two knobs whose edits would rewrite overlapping text are refused together (a coupling
    the discovery did not record); each alone is applied."""
    src = "x = f(32, 64)\n"
    lit = Site("literal", 6, 8)                        # the 32
    whole = Site("fixed", 4, 13, text="g(1)")          # f(32, 64)
    where = Where("local_var", 1, "<module>", src.strip())
    a = Knob("A", "A", "int", "int", 32, False, 1, 128, None, [], None, where, [], ("a",), [lit])
    b = Knob("B", "B", "int", "int", 64, False, 1, 128, None, [], None, where, [], ("b",), [whole])
    d = Discovery(src, {}, [a, b], [], [])
    assert apply_changes(src, d, {"A": 16}).source == "x = f(16, 64)\n"
    assert apply_changes(src, d, {"B": 1}).source == "x = g(1)\n"
    with pytest.raises(RewriteRefused, match="line 1: A and B would rewrite the same source text differently"):
        apply_changes(src, d, {"A": 16, "B": 1})


SPREAD_BODY = '''
import triton
CFG = {"BLOCK": 64}

@triton.jit
def k(x, BLOCK: tl.constexpr):
    pass

def launch(x, g):
%s
'''


@pytest.mark.parametrize("body,keys", [
    ('    k[(1,)](x, **{"BLOCK": 32, "num_warps": 2})', ["BLOCK", "num_warps"]),
    ('    cfg = {"BLOCK": 32}\n    k[(1,)](x, **cfg)', ["BLOCK"]),
    ("    k[(1,)](x, **CFG)", ["BLOCK"]),                                   # module constant
    ("    k[(1,)](x)", None),                                               # no **
    ('    cfg = {"BLOCK": 32}\n    cfg["num_warps"] = 4\n    k[(1,)](x, **cfg)', None),   # changed
    ('    cfg = {"BLOCK": 32}\n    print(cfg)\n    k[(1,)](x, **cfg)', None),  # read elsewhere
    ('    if g:\n        cfg = {"BLOCK": 32}\n    else:\n        cfg = {"BLOCK": 64}\n    k[(1,)](x, **cfg)', None),
    ('    cfg = {"BLOCK": g}\n    k[(1,)](x, **cfg)', None),                # a value not constant
    ('    cfg = {"BLOCK": 32}\n    k[(1,)](x, BLOCK=16, **cfg)', None),     # a key named beside
    ('    cfg = dict(BLOCK=32)\n    k[(1,)](x, **cfg)', None),               # not a display
    ('    k[(1,)](x, **g)', None),                                           # a parameter
    ('    k[(1,)](x, **CFG, **{"num_warps": 2})', None),                      # two **
])
def test_spread_keywords(body: str, keys: list[str] | None) -> None:
    """pyflow.spread_keywords reads a `**cfg` only when the source shows every key it can
    hold at the launch; normalize.inline_spreads writes those keys out."""
    src = SPREAD_BODY % body
    tree = ast.parse(src)
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript))
    got = pyflow.spread_keywords(tree, call)
    assert (None if got is None else [kw.arg for kw in got]) == keys
    out = normalize.inline_spreads(src)
    assert (out != src) == (keys is not None)
    if keys is not None:
        assert "**" not in out and "cfg =" not in out
        ast.parse(out)


def test_triton_op_launch(h: HarnessClient) -> None:
    """A kernel behind torch.library.triton_op, launched as wrap_triton(k)[grid] and called
    through torch.ops: its block (a literal the lambda grid reads through meta) and options
    are knobs; the candidate changes the launch's keywords and keeps wrap_triton, and is
    correct (on the interpreter the harness lets wrap_triton take the interpreted kernel)."""
    load(h, "triton_op_launch.py", "ref_gelu.py")
    ks = by_id(knobs(h))
    assert set(ks) == {"BLOCK", "num_warps", "num_stages"}, ks
    assert (ks["BLOCK"]["where"]["via"], ks["BLOCK"]["where"]["function"]) == ("launch_literal", "gelu"), ks["BLOCK"]
    out = rewrite(h, changes={"BLOCK": 512, "num_warps": 2})
    assert changed_lines(fx("triton_op_launch.py"), out["source"]) == {
        25: "    wrap_triton(gelu_kernel)[lambda meta: (triton.cdiv(n, meta[\"BLOCK\"]),)](x, out, n, BLOCK=512, "
            "num_warps=2)"}
    check_candidate(h, out, {"BLOCK": 512, "num_warps": 2})


def test_kernel_held_in_an_attribute(h: HarnessClient) -> None:
    """`self.kernel = gelu_kernel` in __init__, launched `self.kernel[grid](...)`: the launch
    is read as gelu_kernel's (normalize.name_kernel_attributes, which the candidate carries)
    and its block, `self.block`, is a knob shared with the grid."""
    load(h, "kernel_attr.py", "ref_gelu.py")
    ks = by_id(knobs(h))
    assert ks["BLOCK"]["where"]["via"] == "attr_literal" and ks["BLOCK"]["value"] == 128, ks["BLOCK"]
    assert coupled(ks["BLOCK"]), ks["BLOCK"]
    out = rewrite(h, changes={"BLOCK": 512})
    assert changed_lines(fx("kernel_attr.py"), out["source"]) == {
        22: "        self.block = 512",
        27: "        gelu_kernel[(triton.cdiv(n, self.block),)](x, out, n, BLOCK=self.block)"}
    check_candidate(h, out, {"BLOCK": 512})


def test_forward_keyword_default(h: HarnessClient) -> None:
    """`def forward(self, x, block=128)`: the harness passes the inputs only, so the default is
    the launch's block: a knob (param_default) whose change edits the default."""
    load(h, "forward_default.py", "ref_gelu.py")
    ks = by_id(knobs(h))
    where = ks["BLOCK"]["where"]
    assert (where["via"], where["function"], ks["BLOCK"]["value"]) == ("param_default", "ModelNew.forward", 128), ks
    assert coupled(ks["BLOCK"]), ks["BLOCK"]
    out = rewrite(h, changes={"BLOCK": 1024})
    assert changed_lines(fx("forward_default.py"), out["source"]) == {20: "    def forward(self, x, block=1024):"}
    check_candidate(h, out, {"BLOCK": 1024})


GRID_MODULE = '''
import triton
import triton.language as tl

@triton.jit%s
def k(x_ptr, n, B: tl.constexpr):
    pass

def launch(x, n, blk):
%s
'''


@pytest.mark.parametrize("deco,body,expect", [
    ("", '    grid = lambda meta: (triton.cdiv(n, meta["B"]),)\n    k[grid](x, n, B=128)', "k[(triton.cdiv(n, 128),)](x, n, B=128)"),
    ("", "    k[lambda META: (triton.cdiv(n, META['B']), 4)](x, n, B=blk)", "k[(triton.cdiv(n, blk), 4,)](x, n, B=blk)"),
    ("", "    def grid(meta):\n        return (n // meta['B'],)\n    k[grid](x, n, B=blk * 2)", "k[(n // (blk * 2),)](x, n, B=blk * 2)"),
    ("", "    def grid(meta):\n        return (n,)\n    k[grid](x, n, B=64)", "k[(n,)](x, n, B=64)"),
    ("", '    k[lambda meta: (triton.cdiv(n, meta["C"]),)](x, n, B=128)', None),       # C not passed
    # heuristics may set what meta holds: left as written even where the launch passes B
    ("\n@triton.heuristics({'B': lambda a: 64})", '    k[lambda meta: (meta["B"],)](x, n, B=1)', None),
    ("", '    grid = lambda meta: (meta["B"],)\n    k[grid](x, n, B=1)\n    k[grid](x, n, B=2)', None),   # read twice
    ("", '    k[lambda meta, m=n: (m // meta["B"],)](x, n, B=1)', None),               # a default
    ("", '    k[lambda meta: (n // meta.get("B"),)](x, n, B=1)', None),                # meta read otherwise
    ("", '    cfg = {"B": 1}\n    k[lambda meta: (n // meta["B"],)](x, n, **cfg)', None),
    ("", '    k[lambda meta: n // meta["B"]](x, n, B=1)', None),                        # not a tuple
])
def test_tuple_grids(deco: str, body: str, expect: str | None) -> None:
    """normalize.tuple_grids writes a grid function of meta as the tuple it returns at the
    launch, only where meta holds exactly the launch's keywords."""
    src = GRID_MODULE % (deco, body)
    out = normalize.tuple_grids(src)
    assert (out != src) == (expect is not None), out
    if expect is not None:
        assert f"    {expect}\n" in out and "lambda" not in out and "def grid" not in out, out
        ast.parse(out)


KERNEL_ATTR_MODULE = '''
import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pass

def other():
    pass

class M:
%s
    def run(self, x):
        self.fn[(1,)](x)
'''


@pytest.mark.parametrize("body,named", [
    ("    def __init__(self):\n        self.fn = k", True),
    ("    fn = k", True),                                                          # class attribute
    ("    def __init__(self):\n        self.fn = other", False),                  # not a kernel
    ("    def __init__(self, f):\n        self.fn = f", False),                    # a parameter
    ("    def __init__(self):\n        self.fn = k\n    def swap(self):\n        self.fn = other", False),
    ("    def __init__(self):\n        if x:\n            self.fn = k", False),      # in a branch
    ("    fn = k\n    def __init__(self):\n        self.fn = k", False),             # bound twice
    ("    def __init__(self):\n        self.fn = k\n        setattr(self, 'fn', other)", False),
    ("    def __init__(self, a):\n        self.fn = k\n        setattr(self, a, other)", False),
    ("    def __init__(self):\n        self.fn = k\n    def g(self):\n        k = other", False),  # k shadowed
])
def test_name_kernel_attributes(body: str, named: bool) -> None:
    """normalize.name_kernel_attributes writes `self.fn[grid](...)` as `k[grid](...)` only
    where the attribute always holds the kernel k."""
    src = KERNEL_ATTR_MODULE % body
    out = normalize.name_kernel_attributes(src)
    assert (out != src) == named, out
    if named:
        assert "        k[(1,)](x)" in out and "self.fn[" not in out, out
        ast.parse(out)


LIFT_MODULE = '''
import triton
import triton.language as tl
%s

@triton.jit%s
def k(%s):
    x = tl.arange(0, B)

def launch(x):
    %s
'''


@pytest.mark.parametrize("glob,deco,params,body,lifted", [
    ("B = tl.constexpr(64)", "", "x_ptr", "k[(1,)](x)", True),
    ("B: tl.constexpr = 64", "", "x_ptr", "k[(1,)](x)", True),
    ("B = tl.constexpr(64)", "", "", "k[(1,)]()", True),                    # no parameter yet
    ("B = 64", "", "x_ptr", "k[(1,)](x)", False),                           # not a constexpr
    ("B = tl.constexpr(64)\nB = tl.constexpr(32)", "", "x_ptr", "k[(1,)](x)", False),   # bound twice
    ("B = tl.constexpr(64)", "", "x_ptr, n=1", "k[(1,)](x)", False),        # a default
    ("B = tl.constexpr(64)", "\n@triton.heuristics({})", "x_ptr", "k[(1,)](x)", False),
    ("B = tl.constexpr(64)", "", "x_ptr", "k[(1,)](x, **{'num_warps': 2})", False),
    ("B = tl.constexpr(64)", "", "x_ptr", "k[(1,)](x, B=B)", False),        # named already
    ("B = tl.constexpr(64)", "", "x_ptr", "f = k\n    k[(1,)](x)", False),  # k used otherwise
    ("B = tl.constexpr(64)", "", "x_ptr", "pass", False),                   # never launched
    ("B = tl.constexpr(64)", "", "x_ptr, B: tl.constexpr", "k[(1,)](x, B=B)", False),   # a parameter
])
def test_lift_constexpr_globals(glob: str, deco: str, params: str, body: str, lifted: bool) -> None:
    """normalize.lift_constexpr_globals makes a constexpr global the kernel reads a parameter
    passed at every launch, and leaves the module as written where that could change what it
    computes or how it is called."""
    src = LIFT_MODULE % (glob, deco, params, body)
    out = normalize.lift_constexpr_globals(src)
    assert (out != src) == lifted, out
    if lifted:
        tree = ast.parse(out)
        fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "k")
        assert fn.args.args[-1].arg == "B" and ast.unparse(fn.args.args[-1].annotation) == "tl.constexpr"
        call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript))
        assert [(kw.arg, ast.unparse(kw.value)) for kw in call.keywords] == [("B", "B")]
