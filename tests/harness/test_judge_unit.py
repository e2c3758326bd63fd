"""The judge's rounding budget (kharness/judge.py) on synthetic tensors: every rule of the
module docstring, each with a case it must accept and one it must reject."""
import json

import pytest
import torch
from kharness.judge import (
    DEFAULT_TOLERANCES,
    Tolerances,
    Truth,
    calibrate,
    judge_output,
    judge_outputs,
    magnitude_status,
    smallest_subnormal,
)


def _sum_truth(x, dim=0):
    """Truth of x.sum(dim) for a float32/16 x: reference, float64, magnitudes."""
    x64 = x.double()
    return Truth(x.sum(dim), x64.sum(dim), x64.abs().sum(dim), (2 * x64.abs()).sum(dim))


def _cancelling(rows=4096, cols=16, seed=0):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(rows, cols, dtype=torch.float64, generator=g) * 10
    return (x - x.mean(0)).float()


def _blocked_sum(x, block):
    acc = torch.zeros(x.shape[1])
    for b in x.view(-1, block, x.shape[1]).sum(1):
        acc = acc + b
    return acc


def test_defaults_and_overrides():
    t = Tolerances()
    assert t.for_dtype(torch.float32) == (2 ** -13, 1e-5)
    assert t.for_dtype(torch.float16) == (2 ** -10, 1e-3)
    assert t.for_dtype(torch.bfloat16) == (2 ** -7, 1e-2)
    assert t.for_dtype(torch.float64) == (2 ** -13, 1e-5)      # other dtypes: float32's
    t = Tolerances.parse({"fp16": {"rtol": 0.01}, "magnitude_factor": 2, "f64_factor": 8, "f64_slack": 0.05,
                          "mismatch_max": 8})
    assert t.for_dtype(torch.float16) == (0.01, 1e-3)
    assert t.magnitude_factor == 2 and t.reference_factor == 8     # f64_factor is read as reference_factor
    assert set(t.to_json()["ignored"]) == {"f64_slack", "mismatch_max"}
    for bad, field in (({"float32": {"rtol": -1}}, "tolerances.float32.rtol"), ({"reference_factor": 0.5},
                       "tolerances.reference_factor"), ({"float32": [1]}, "tolerances.float32")):
        with pytest.raises((TypeError, ValueError), match=field.replace(".", r"\.")):
            Tolerances.parse(bad)
    assert DEFAULT_TOLERANCES["float32"] == {"rtol": 2 ** -13, "atol": 1e-5}


def test_message_names_element_and_units():
    g = torch.linspace(1, 2, 100).reshape(5, 20)
    c = g.clone()
    c[3, 17] += 0.32
    d = judge_output(c, Truth(g, truth_name="golden"), Tolerances())
    assert not d["passed"] and d["outside_budget"] == 1
    b = 1e-5 + (2 ** -13 + 2 ** -24) * float(g[3, 17]) + smallest_subnormal(torch.float32)
    assert d["worst"]["budget"] == pytest.approx(b)
    assert d["problem"].startswith(f"at (3, 17): error 3.2e-1 is {0.32 / b:.0f} x its budget 2.")
    assert "1 of 100 elements outside their budget" in d["problem"]


def test_nan_inf_positions_both_ways():
    g = torch.tensor([1.0, float("nan"), float("inf"), 2.0])
    assert judge_output(g.clone(), Truth(g), Tolerances())["passed"]
    c = g.clone()
    c[0] = float("nan")
    assert judge_output(c, Truth(g), Tolerances())["problem"].startswith("at (0,): NaN where the reference has 1")
    c = g.clone()
    c[1] = 0.0
    assert judge_output(c, Truth(g), Tolerances())["problem"].startswith("at (1,): 0 where the reference has NaN")
    c = g.clone()
    c[2] = float("-inf")
    assert "Inf position" in judge_output(c, Truth(g), Tolerances())["problem"]


def test_structure_and_exact_dtypes():
    t = Tolerances()
    assert judge_output(torch.zeros(3), Truth(torch.zeros(4)), t)["problem"] == "has shape (3,), expected (4,)"
    assert "dtype float16" in judge_output(torch.zeros(3, dtype=torch.float16), Truth(torch.zeros(3)), t)["problem"]
    a = torch.arange(10)
    b = a.clone()
    b[7] = 0
    assert "exact match required for int64" in judge_output(b, Truth(a), t)["problem"]
    assert judge_output(a.clone(), Truth(a), t)["passed"]
    assert judge_output(3, Truth(4), t)["problem"] == "is 3, expected 4"


def test_cancelling_column_sum_accepts_other_orders_rejects_dropped_and_duplicated_rows():
    """The issue's case at 4096 x 16: true sums ~1e-5, sum of |terms| ~3e4."""
    x = _cancelling()
    tr = _sum_truth(x)
    tol = Tolerances()
    for block in (1, 16, 256):
        d = judge_output(_blocked_sum(x, block), tr, tol)
        assert d["passed"] and d["budget"]["magnitude"] == "used", d
        assert d["error_units"] < 0.5
    for wrong in (x[1:].sum(0), x.sum(0) + x[0]):
        d = judge_output(wrong, tr, tol)
        assert not d["passed"] and d["error_units"] > 20, d
    # the old rule (NPUKernelBench's elementwise tolerance) refused the reordered sums
    old = (_blocked_sum(x, 16).double() - tr.float64).abs() > 1e-5 + 2 ** -13 * tr.float64.abs()
    assert bool(old.any())


def test_lower_precision_accumulation_is_rejected():
    x = _cancelling()
    tr = _sum_truth(x)
    acc = torch.zeros(16, dtype=torch.float16)
    for row in x.half():
        acc = acc + row
    d = judge_output(acc.float(), tr, Tolerances())
    assert not d["passed"] and d["error_units"] > 5


def test_magnitude_is_used_only_for_sums_of_products():
    x = torch.randn(64, 128, dtype=torch.float64) * 3

    def status(f):
        t = f(x)
        return magnitude_status(t.reshape(-1), f(x.abs()).reshape(-1), f(2 * x.abs()).reshape(-1), None)[1]

    assert status(lambda v: v.sum(-1)) == "used"
    assert status(lambda v: v @ v.T) == "used"
    assert "does not bound" in status(lambda v: torch.softmax(v, -1))
    assert "does not bound" in status(lambda v: v[:, :64] - v[:, 64:])
    assert "grows faster" in status(torch.exp)
    assert "not used: " in magnitude_status(x.reshape(-1), None, None, "it raised")[1]


def test_atol_cannot_let_small_outputs_pass_as_zeros():
    x = torch.randn(8, 4096).half()
    tr = Truth(torch.softmax(x, -1), torch.softmax(x.double(), -1))
    tol = Tolerances()
    assert judge_output(torch.softmax(x.float(), -1).half(), tr, tol)["passed"]
    d = judge_output(torch.zeros_like(x), tr, tol)
    assert not d["passed"] and "the output is constant 0 where the reference varies" in d["problem"]
    assert d["budget"]["atol_effective"] < 1e-4 < d["budget"]["atol"]


def test_calibration_follows_the_shape_of_the_reference_error():
    n = 10000
    t = torch.linspace(-3, 3, n, dtype=torch.float64)
    absolute = torch.full((n,), 1e-5, dtype=torch.float64)
    relative = 2 ** -13 * t.abs()
    assert calibrate(absolute, relative, 0.5 * (absolute + relative)) == (1.0, 1.0)
    s_a, s_r = calibrate(absolute, relative, torch.full((n,), 4e-4, dtype=torch.float64))
    assert s_r == 1.0 and s_a == pytest.approx(40, rel=0.01)          # absolute-looking error
    s_a, s_r = calibrate(absolute, relative, 4 * 2 ** -11 * t.abs())
    assert s_a <= 1.5 and s_r == pytest.approx(16.0, rel=0.02)         # relative-looking error


def test_budget_never_falls_below_the_references_own_error():
    torch.manual_seed(1)
    t64 = torch.randn(5000, dtype=torch.float64)
    g = (t64 * (1 + 1e-3 * torch.randn(5000, dtype=torch.float64))).float()    # a sloppy reference
    tol = Tolerances()
    d = judge_output(g.clone(), Truth(g, t64), tol)
    assert d["passed"] and d["reference_error_units"] <= 1 / tol.reference_factor + 1e-9
    assert d["budget"]["relative_scale"] > 1
    c = (t64 * (1 + 2e-2 * torch.randn(5000, dtype=torch.float64))).float()    # 20x sloppier
    assert not judge_output(c, Truth(g, t64), tol)["passed"]


def test_float64_mode_keeps_mixed_precision_references_in_float64():
    from kharness.judge import Float64Mode
    x = torch.randn(8, dtype=torch.float64)
    with Float64Mode():
        outs = [x.float(), x.half(), x.to(torch.float32), x.to("cpu", torch.bfloat16), x.sum(dtype=torch.float32),
                torch.zeros(2, dtype=torch.float16), torch.softmax(x, -1, dtype=torch.float32)]
        assert torch.arange(3).float().dtype == torch.float64     # integer tensors widen to float64 too
    assert all(o.dtype == torch.float64 for o in outs)
    assert x.float().dtype == torch.float32                        # only while active


def test_calibration_stays_finite_for_an_all_zero_float64_truth():
    t64 = torch.zeros(4, dtype=torch.float64)
    g = torch.tensor([0.0, 1e-12, 0.0, 0.0], dtype=torch.float64)      # the reference's own error
    d = judge_output(g.clone(), Truth(g, t64), Tolerances())
    assert d["passed"] and d["worst"]["budget"] >= 4e-12
    c = torch.tensor([0.0, 0.0, 1.0, 0.0], dtype=torch.float64)
    assert not judge_output(c, Truth(g, t64), Tolerances())["passed"]


def _topk_case(p, k):
    """(candidate leaves, reference leaves, judged outs) of a top-k (values, ids) pair: the
    reference is torch.topk of p (float32), judged against the float64 top-k values."""
    w, idx = torch.topk(p, k, dim=-1)
    w64 = torch.topk(p.double(), k, dim=-1).values
    return w, idx, Truth(w, w64, w64.abs(), 2 * w64.abs()), Truth(idx)


def _judge_pair(cw, cidx, tw, tidx):
    outs = judge_outputs([cw, cidx], [tw.reference, tidx.reference], [tw, tidx], Tolerances())
    json.dumps(outs)                                  # the records stay JSON
    return outs


def test_index_outputs_tolerate_swaps_of_near_ties_only():
    g = torch.Generator().manual_seed(3)
    p = torch.softmax(torch.randn(64, 32, generator=g), dim=-1)
    p[5, 3] = p[5, 11] = float(p[5].max()) * 0.99          # an exact tie, ranked 2nd/3rd or so
    w, idx, tw, tidx = _topk_case(p, 4)
    row = idx[5].tolist()
    a, b = row.index(3), row.index(11)
    # the candidate orders the tie the other way: accepted, and the record says why
    cidx = idx.clone()
    cidx[5, a], cidx[5, b] = idx[5, b], idx[5, a]
    outs = _judge_pair(w.clone(), cidx, tw, tidx)
    assert outs[1]["passed"] and outs[1]["ties"] == {"companion": 0, "elements": 2}, outs[1]
    # a swap of two values the budget tells apart stays wrong
    cidx = idx.clone()
    cidx[7, 0], cidx[7, 1] = idx[7, 1], idx[7, 0]
    outs = _judge_pair(w.clone(), cidx, tw, tidx)
    assert not outs[1]["passed"] and "exact match required for int64" in outs[1]["problem"]
    # an id the reference did not select, or a duplicate, stays wrong
    for bad in (31 if 31 not in row else 30, row[0]):
        cidx = idx.clone()
        cidx[5, b] = bad
        outs = _judge_pair(w.clone(), cidx, tw, tidx)
        assert not outs[1]["passed"], bad
    # so does a tie swap when the values themselves are wrong (no companion passed)
    cidx = idx.clone()
    cidx[5, a], cidx[5, b] = idx[5, b], idx[5, a]
    outs = _judge_pair(torch.zeros_like(w), cidx, tw, tidx)
    assert not outs[0]["passed"] and not outs[1]["passed"]


def test_integer_tolerance_is_declared_bounded_and_counted():
    """A quantised output (round(x / s) to int8) computed with an approximate division lands on
    the neighbouring integer at rounding ties: exact by default, within the job's declared
    {atol, max_fraction} when it gives one, and never further or more often."""
    g = torch.arange(-100, 100, dtype=torch.int8).repeat(50)          # 10000 elements
    c = g.clone()
    c[[3, 700, 9001]] += 1                                            # three ties rounded the other way
    assert "exact match required for int8" in judge_output(c, Truth(g), Tolerances())["problem"]
    t = Tolerances.parse({"int8": {"atol": 1, "max_fraction": 1e-3}})
    d = judge_output(c, Truth(g), t)
    assert d["passed"] and d["integer_tolerance"] == {"atol": 1, "max_fraction": 1e-3, "differing": 3}, d
    far = c.clone()
    far[5] += 2
    assert "differs by 2, more than tolerances.int8.atol 1" in judge_output(far, Truth(g), t)["problem"]
    often = g.clone()
    often[:11] += 1                                                   # 11 > 1e-3 * 10000
    assert "11 of 10000 elements differ, more than tolerances.int8.max_fraction 0.001" in \
        judge_output(often, Truth(g), t)["problem"]
    # a truncating kernel (about half the elements one lower) is refused, not tolerated
    trunc = torch.where(torch.arange(g.numel()) % 2 == 0, g - 1, g).to(torch.int8)
    assert not judge_output(trunc, Truth(g), t)["passed"]
    # the tolerance belongs to its dtype: int64 outputs stay exact
    i64 = g.to(torch.int64)
    assert "exact match required for int64" in judge_output(c.to(torch.int64), Truth(i64), t)["problem"]
    assert t.to_json()["integers"] == {"int8": {"atol": 1, "max_fraction": 1e-3}}
    for bad, field in (({"int8": {"atol": 1}}, "tolerances.int8"),
                       ({"int8": {"atol": 0.5, "max_fraction": 0}}, "tolerances.int8.atol"),
                       ({"int8": {"atol": 1, "max_fraction": 2}}, "tolerances.int8.max_fraction"),
                       ({"int8": {"atol": True, "max_fraction": 0}}, "tolerances.int8.atol")):
        with pytest.raises((TypeError, ValueError), match=field.replace(".", r"\.")):
            Tolerances.parse(bad)
