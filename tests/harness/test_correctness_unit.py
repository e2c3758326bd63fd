"""The comparison rules of DESIGN section 7, on synthetic tensors."""
import pytest
import torch

from kharness.correctness import Tolerances, compare, fmt_e, fmt_idx, inputs_mutated, overlaps, storages


def test_fmt():
    assert fmt_e(0.32) == "3.2e-1" and fmt_e(1e-3) == "1.0e-3" and fmt_e(1500.0) == "1.5e+3"
    assert fmt_idx(3 * 20 + 17, (5, 20)) == "(3, 17)" and fmt_idx(5, (10,)) == "(5,)"


def test_defaults():
    t = Tolerances()
    assert t.for_dtype(torch.float32) == (2 ** -13, 1e-5)
    assert t.for_dtype(torch.float16) == (2 ** -10, 1e-3)
    assert t.for_dtype(torch.bfloat16) == (2 ** -7, 1e-2)
    assert t.for_dtype(torch.float64) == (2 ** -13, 1e-5)      # other dtypes: float32's


def test_message_format_exact():
    g = torch.zeros(5, 20)
    c = g.clone()
    c[3, 17] = 0.32
    d = compare(c, g, None, Tolerances())
    assert d["problem"] == "max abs err 3.2e-1 > 1.0e-5 at (3, 17)"


def test_nan_and_inf_positions():
    g = torch.tensor([1.0, float("nan"), float("inf"), 2.0])
    assert compare(g.clone(), g, None, Tolerances())["passed"]
    c = g.clone(); c[0] = float("nan")
    assert "NaN at (0,)" in compare(c, g, None, Tolerances())["problem"]
    c = g.clone(); c[2] = float("-inf")
    assert "Inf position" in compare(c, g, None, Tolerances())["problem"]


def test_shape_dtype_int_exact():
    t = Tolerances()
    assert "shape" in compare(torch.zeros(3), torch.zeros(4), None, t)["problem"]
    assert "dtype" in compare(torch.zeros(3, dtype=torch.float16), torch.zeros(3), None, t)["problem"]
    a = torch.arange(10)
    b = a.clone(); b[7] = 0
    assert "exact match" in compare(b, a, None, t)["problem"]
    assert compare(a.clone(), a, None, t)["passed"]


def _budget_case(n_bad, numel=2_000_000):
    """Reference error 0.9 tol, candidate error 0.6 tol on the other side at n_bad elements:
    those elements are outside the elementwise rule but the candidate is closer to float64
    than the reference is."""
    t = Tolerances()
    rtol, atol = t.for_dtype(torch.float32)
    torch.manual_seed(0)
    g64 = torch.randn(numel, dtype=torch.float64)
    tol = atol + rtol * g64.abs()
    g = g64.clone()
    c = g64.clone()
    idx = torch.arange(n_bad) * 1000
    g[idx] += 0.9 * tol[idx]
    c[idx] -= 0.6 * tol[idx]
    return compare(c.float(), g.float(), g64, t)


def test_mismatch_budget_applies_only_with_float64_pass():
    d = _budget_case(2)
    assert d["mismatch_budget"] == 2 and d["mismatches"] == 2
    assert d["float64"]["passed"] and d["passed"], d
    d = _budget_case(3)
    assert not d["passed"] and d["problem"].startswith("max abs err")
    d = _budget_case(1, numel=100_000)      # budget floor(1e-6 * 1e5) = 0
    assert d["mismatch_budget"] == 0 and not d["passed"]


def test_float64_check_rejects_a_less_accurate_candidate():
    t = Tolerances()
    rtol, atol = t.for_dtype(torch.float32)
    g64 = torch.randn(1000, dtype=torch.float64)
    g = g64.float()
    c = (g64 + 0.5 * (atol + rtol * g64.abs())).float()    # within the elementwise rule
    d = compare(c, g, g64, t)
    assert d["mismatches"] == 0
    assert not d["passed"] and "float64 reference" in d["problem"]
    assert d["float64"]["candidate_err"] == pytest.approx(0.5, rel=0.01)
    assert d["float64"]["reference_err"] < 0.01


def test_mutation_and_alias_helpers():
    a = torch.randn(10)
    p = a.clone()
    assert inputs_mutated([a], [p]) is None
    a[4] += 1
    k, body = inputs_mutated([a], [p])
    assert k == 0 and "(4,)" in body
    assert overlaps(a[2:5], storages([a])) and not overlaps(torch.empty(3), storages([a]))
