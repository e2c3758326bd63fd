"""persistent_grid's hoist (harness/kharness/structural/hoist_atomics.py): which atomic sums may
leave the tile loop and which may not, what the candidate looks like, and that it compiles
offline for cuda:90. That the candidate is correct on the interpreter (hoist 1 and 0) is
test_structural.py's (structural_cases.APPLIED, fixture persistent_grid_atomics)."""
from __future__ import annotations

import ast

import pytest
from kharness.srcedit import RewriteRefused
from kharness.structural import apply, common, survey
from kharness.structural.hoist_atomics import hoistable
from structural_cases import compile_cuda90, fixture

NAME = "persistent_grid_atomics"


def persistent_fit(source, launches):
    return next(f for f in survey(source, launches) if f.name == "persistent_grid")


def test_hoist_offered_and_applied(recorded):
    fit = persistent_fit(fixture(NAME)[1], recorded[NAME])
    assert fit.fits and fit.params["hoist"] == 1 and fit.domain["hoist"] == [1, 0], fit
    assert "line 17, 18 add into the same addresses from every tile" in fit.why, fit.why
    cand = apply(fixture(NAME)[1], "persistent_grid", {}, recorded[NAME])
    fn = next(f for f in ast.parse(cand).body if isinstance(f, ast.FunctionDef) and f.name == "row_stats_kernel")
    loop = next(s for s in fn.body if isinstance(s, ast.For))
    atomics = [c for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
               and c.func.attr == "atomic_add"]
    assert len(atomics) == 2 and not any(a is n for a in atomics for n in ast.walk(loop))   # both after the loop
    plain = apply(fixture(NAME)[1], "persistent_grid", {"hoist": 0}, recorded[NAME])
    fn0 = next(f for f in ast.parse(plain).body if isinstance(f, ast.FunctionDef) and f.name == "row_stats_kernel")
    loop0 = next(s for s in fn0.body if isinstance(s, ast.For))
    assert sum(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute) and c.func.attr == "atomic_add"
               for c in ast.walk(loop0)) == 2


def test_hoist_through_a_rebinding_by_the_same_expression(recorded):
    """An unrolled second pass binds its columns and mask again by the same expressions (the
    rmsnorm_bwd kernel after row_single_block): still the same for every tile; a rebinding by
    another expression is not."""
    src = fixture(NAME)[1]
    old = "    tl.atomic_add(colsum_ptr + cols, x * x, mask=mask)"
    again = "    cols = tl.arange(0, BLOCK)\n    mask = cols < N\n" + old
    fit = persistent_fit(src.replace(old, again), recorded[NAME])
    assert fit.params.get("hoist") == 1, fit
    other = "    cols = tl.arange(0, BLOCK) + 0\n" + old
    mod = common.Module(src.replace(old, other), recorded[NAME])
    with pytest.raises(RewriteRefused, match="reads cols, bound other than once at the top level"):
        hoistable(mod, mod.kernels["row_stats_kernel"])


@pytest.mark.parametrize("old,new,words", [
    # the address depends on the row: each tile adds into other addresses
    ("tl.atomic_add(colsum_ptr + cols, x * x, mask=mask)",
     "tl.atomic_add(colsum_ptr + (row % 2) * N + cols, x * x, mask=mask)", ["the address of the atomic at line 17 is computed through tl.program_id"]),
    # inside a branch: not every tile runs it
    ("    tl.atomic_add(total_ptr, tl.sum(x, axis=0))",
     "    if N > 0:\n        tl.atomic_add(total_ptr, tl.sum(x, axis=0))", ["line 19: tl.atomic_add is not a statement at the kernel's top level"]),
    # the mask from a load: may differ between tiles
    ("tl.atomic_add(colsum_ptr + cols, x * x, mask=mask)", "tl.atomic_add(colsum_ptr + cols, x * x, mask=x > 0)",
     ["the mask of the atomic at line 17 is computed through"]),
    # the target read in the kernel: the sums' timing could be seen
    ("    w = tl.load(w_ptr + cols, mask=mask, other=0.0)", "    w = tl.load(colsum_ptr + cols, mask=mask, other=0.0)",
     None),
])
def test_hoist_refused(recorded, old, new, words):
    src = fixture(NAME)[1]
    assert src.count(old) == 1, old
    fit = persistent_fit(src.replace(old, new), recorded[NAME])
    assert fit.fits and "hoist" not in fit.params and "hoist" not in fit.domain, fit
    if words:
        mod = common.Module(src.replace(old, new), recorded[NAME])
        with pytest.raises(RewriteRefused) as e:
            hoistable(mod, mod.kernels["row_stats_kernel"])
        for w in words:
            assert w in str(e.value), str(e.value)


def test_no_hoist_where_addresses_come_from_data(recorded):
    """A scatter-add and a histogram address their atomics through loaded indices: no hoist."""
    for name in ("relaxed_atomics_scatter", "relaxed_atomics_histogram"):
        fit = persistent_fit(fixture(name)[1], recorded[name])
        assert fit.fits and "hoist" not in fit.params, (name, fit)


def test_hoisted_sums_compile_cuda90(harness, recorded):
    """The accumulators' shapes and types from the pointer ((P).shape, (P).dtype.element_ty), a
    vector and a scalar, compile for sm_90."""
    k = compile_cuda90(harness, NAME, apply(fixture(NAME)[1], "persistent_grid", {}, recorded[NAME]))
    assert k["metadata"]["num_warps"] == 4 and k["ptx_stats"].get("st.global.32", 0) > 0, k
