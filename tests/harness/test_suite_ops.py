"""The operator suite (bench/suite/ops/): every op.json is valid; the shapes and dtypes it
declares are what ref.py builds and what Model returns, at both scales (on the meta device: no
memory is allocated for the GPU sizes); every initial kernel passes the static check and
`validate` through the real harness on the interpreter (small sizes, all operators: ~20 s), and
so does the candidate of every structural rewrite that fits it, at its defaults (~2 min).
The same harness check runs stand-alone: .venv/bin/python bench/suite/check_ops.py"""
import importlib.util
import json
import os
import sys

import pytest
import torch
from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "bench", "suite"))
import check_ops
from opspec import (
    CLASSES,
    OPS_DIR,
    SCALES,
    UNSEEN_DIR,
    OpSpecError,
    eval_expr,
    list_ops,
    load_op,
    scale_of,
    select_ops,
)

# The suite and the unseen operators (bench/suite/unseen/), checked alike.
OPS = [str(OPS_DIR / n) for n in list_ops(OPS_DIR)] + [str(UNSEEN_DIR / n) for n in list_ops(UNSEEN_DIR)]
MIN_OPS = 24


def test_suite_size_and_classes():
    ops = select_ops("all")
    assert len(ops) >= MIN_OPS, f"{len(ops)} operators, the suite needs at least {MIN_OPS}"
    missing = set(CLASSES) - {o.op_class for o in ops}
    assert not missing, f"no operator of class {missing}"


def _import_ref(op, scale, monkeypatch):
    monkeypatch.setenv("KOPT_SUITE_SCALE", scale)
    spec = importlib.util.spec_from_file_location(f"suite_ref_{op.name}_{scale}", op.directory / "ref.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _leaves(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _dt(t):
    return str(t.dtype).replace("torch.", "")


@pytest.mark.parametrize("scale", SCALES)
@pytest.mark.parametrize("path", OPS, ids=os.path.basename)
def test_declared_shapes_match_ref(path, scale, monkeypatch):
    op = load_op(path)
    ref = _import_ref(op, scale, monkeypatch)
    with torch.device("meta"):
        inputs = ref.get_inputs()
        model = ref.Model(*ref.get_init_inputs())
        outputs = _leaves(model(*inputs))
    outputs += [inputs[k] for k in op.updates]      # judged after the outputs (updated in place)
    tensors = [t for t in inputs if isinstance(t, torch.Tensor)]
    assert [(list(t.shape), _dt(t)) for t in tensors] == [(list(op.shape(s, scale)), s.dtype) for s in op.inputs]
    assert [(list(t.shape), _dt(t)) for t in outputs] == [(list(op.shape(s, scale)), s.dtype) for s in op.judged]
    params = sorted((list(p.shape), _dt(p)) for p in model.parameters())
    assert params == sorted((list(op.shape(s, scale)), s.dtype) for s in op.parameters)
    assert scale_of(op, [list(t.shape) for t in tensors]) == scale
    if op.bytes_expr == "io":
        moved = sum(t.numel() * t.element_size() for t in (*tensors, *model.parameters(), *outputs))
        assert op.min_bytes(scale) == moved
    else:   # a custom count (gathers read a part of an input): never more than io
        moved = sum(t.numel() * t.element_size() for t in (*tensors, *outputs))
        assert 0 < op.min_bytes(scale) <= moved


@pytest.mark.parametrize("path", OPS, ids=os.path.basename)
def test_initial_kernel_validates(path, harness):
    op = load_op(path)
    res = check_ops.check_op(harness, op, "small", correctness_cases=2)
    assert res.passed, f"{op.name}: {res.problems}"


@pytest.mark.parametrize("path", OPS, ids=os.path.basename)
def test_every_fitting_rewrite_validates(path, harness):
    """Each structural rewrite the survey says fits the operator's initial kernel, at its
    default parameters, gives a candidate that validates on the interpreter (check_rewrites)."""
    op = load_op(path)
    res = check_ops.check_rewrites(harness, op)
    assert res.passed, f"{op.name}: {res.problems}"


def test_eval_expr_refuses_what_is_not_integer_arithmetic():
    assert eval_expr("2*M*(N+1)//4", {"M": 3, "N": 5}, "t") == 9
    for bad in ("__import__('os')", "M.real", "M**2", "[M]", "1.5*M", "X*2", ""):
        with pytest.raises(OpSpecError):
            eval_expr(bad, {"M": 3}, "t")


def test_load_op_names_the_bad_field(tmp_path):
    with open(os.path.join(ROOT, "bench", "suite", "ops", "softmax", "op.json")) as f:
        good = json.load(f)
    d = tmp_path / "softmax"
    d.mkdir()
    for f in ("ref.py", "kernel.py"):
        (d / f).write_text("# stub\n")
    cases = [({"class": "convolution"}, "class"), ({"bytes": "M*Q"}, "unknown size 'Q'"),
             ({"sizes": {"full": {"M": 1, "N": 2}}}, "sizes"), ({"extra": 1}, "unknown field"),
             ({"inputs": [{"name": "x", "shape": ["M"], "dtype": "complex32"}]}, "inputs[0].dtype"),
             ({"tolerances": [1]}, "tolerances"), ({"tolerances": {"int8": 1}}, "tolerances"),
             ({"updates": ["y"]}, "updates: y names no input"), ({"updates": "x"}, "updates: must be a list")]
    for change, expect in cases:
        (d / "op.json").write_text(json.dumps({**good, **change}))
        with pytest.raises(OpSpecError, match=expect.replace("[", r"\[").replace("]", r"\]")):
            load_op(d)
    with pytest.raises(OpSpecError, match="unknown operator"):
        select_ops("softmax,nope")


def test_ops_dir_from_environment():
    """KOPT_SUITE_OPS_DIR points every tool at another directory of operators (unseen/)."""
    import subprocess
    code = "import opspec; print(opspec.OPS_DIR); print(','.join(opspec.list_ops()))"
    env = {**os.environ, "KOPT_SUITE_OPS_DIR": str(UNSEEN_DIR)}
    out = subprocess.run([sys.executable, "-c", code], cwd=os.path.join(ROOT, "bench", "suite"), env=env,
                         capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == str(UNSEEN_DIR.resolve())
    names = out[1].split(",")
    assert names == list_ops(UNSEEN_DIR) and "softmax" not in names and "softmax" in list_ops(OPS_DIR)


def test_an_operators_tolerances_reach_its_job_and_its_judge():
    """quant_int8 declares an int8 tolerance (a GPU's approximate division rounds ties to the
    neighbouring integer): run.py puts it in the job, and the judge built from it accepts one
    unit at a tie and refuses two; an operator without one gets the exact default."""
    import argparse

    import run as suite_run
    from kharness.judge import Tolerances, Truth, judge_output
    q = load_op(UNSEEN_DIR / "quant_int8")
    assert q.tolerances == {"int8": {"atol": 1, "max_fraction": 0.001}}
    args = argparse.Namespace(backend="interp", rounds=1, policy="hierarchy", proposer="rules", seed=0,
                              benchmark_cases=1, correctness_cases=1, max_candidates=None)
    assert suite_run.job_spec(q, 1, args)["tolerances"] == q.tolerances
    assert "tolerances" not in suite_run.job_spec(load_op(os.path.join(OPS_DIR, "softmax")), 1, args)
    g = torch.zeros(2000, dtype=torch.int8)
    c = g.clone()
    c[0] = 1
    tol = Tolerances.parse(q.tolerances)
    assert judge_output(c, Truth(g), tol)["passed"]
    c[1] = 2
    assert "more than tolerances.int8.atol 1" in judge_output(c, Truth(g), tol)["problem"]
