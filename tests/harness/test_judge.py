"""The judge's fixture suite (tests/judge/, issue 10) through one real harness process on the
interpreter: every accept/reject pair decides as labelled, with the reason asserted, and
the validate record carries the error-to-budget figures. The same suite runs on a GPU with
`python3 tests/judge/run_judge.py --backend cuda --scale N`."""
import os
import sys

import pytest
from conftest import ROOT, start_harness

sys.path.insert(0, os.path.join(ROOT, "tests", "judge"))

import run_judge

FIXTURES = run_judge.discover()
MIN_FIXTURES = 20


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    wd = tmp_path_factory.mktemp("judge")
    os.environ.pop("KOPT_JUDGE_SCALE", None)          # the interpreter sizes
    with start_harness(wd) as h:
        return {o.name: o for o in run_judge.run_all(h, FIXTURES)}


def test_suite_is_complete():
    names = {f.name for f in FIXTURES}
    assert len(names) >= MIN_FIXTURES
    decisions = {f.decision for f in FIXTURES}
    assert decisions == {"accept", "reject"}
    assert all(f.reason_contains for f in FIXTURES if f.decision == "reject")


@pytest.mark.parametrize("name", [f.name for f in FIXTURES])
def test_fixture_decides_as_labelled(outcomes, name):
    o = outcomes[name]
    assert o.ok, f"{name}: {o.why_not_ok}; reason: {o.reason}"
    if o.decision == "accept":
        assert o.error_units is not None and 0 <= o.error_units <= 1, o
        assert o.reference_error_units is not None and o.reference_error_units <= 1, o
    elif o.error_units is not None and "x its budget" in (o.reason or ""):
        assert o.error_units > 1, o


def test_table_lists_every_fixture(outcomes):
    table = run_judge.format_table(sorted(outcomes.values(), key=lambda o: o.name))
    for name in outcomes:
        assert name in table
