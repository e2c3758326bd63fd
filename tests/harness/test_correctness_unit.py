"""The structural helpers of the correctness check (formatting, mutation, aliasing); the
rounding budget is tested in test_judge_unit.py."""
import torch
from kharness.correctness import fmt_e, fmt_idx, inputs_mutated, overlaps, storages


def test_fmt():
    assert fmt_e(0.32) == "3.2e-1" and fmt_e(1e-3) == "1.0e-3" and fmt_e(1500.0) == "1.5e+3"
    assert fmt_idx(3 * 20 + 17, (5, 20)) == "(3, 17)" and fmt_idx(5, (10,)) == "(5,)"


def test_mutation_and_alias_helpers():
    a = torch.randn(10)
    p = a.clone()
    assert inputs_mutated([a], [p]) is None
    a[4] += 1
    k, body = inputs_mutated([a], [p])
    assert k == 0 and "(4,)" in body
    assert overlaps(a[2:5], storages([a])) and not overlaps(torch.empty(3), storages([a]))
