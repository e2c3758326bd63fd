"""Operators that update their inputs in place (kharness/inplace.py): a reference that updates
inputs makes them results, judged like outputs; every other input must stay as it was. The
real harness process on the interpreter, a fused SGD-with-momentum step (inplace_fixtures/)."""
import ast
import os

import pytest
from conftest import read, start_harness, vector_add

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inplace_fixtures")


def _variant(source, old, new):
    """The fixture kernel with one statement of sgd_kernel replaced (test input, located by
    its source text through the syntax tree)."""
    tree = ast.parse(source)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "sgd_kernel")
    lines = source.splitlines(keepends=True)
    (stmt,) = [s for s in fn.body if ast.get_source_segment(source, s) == old]
    indent = lines[stmt.lineno - 1][: stmt.col_offset]
    lines[stmt.lineno - 1: stmt.end_lineno] = [indent + new + "\n"] if new else []
    return "".join(lines)


@pytest.fixture(scope="module")
def h(tmp_path_factory):
    client = start_harness(tmp_path_factory.mktemp("inplace"))
    r = client.request("load", reference_source=read(FIX, "ref.py"), kernel_source=read(FIX, "kernel.py"),
                       workdir="sgd", seed=0, correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    assert r["result"]["updated_inputs"] == [0, 2], r["result"]
    yield client
    client.close()


def test_the_in_place_kernel_passes_and_is_timed(h):
    v = h.request("validate")
    assert v["ok"] and v["result"]["passed"], v
    b = h.request("bench", cases=[0], warmup_ms=1, rep_ms=1, min_reps=2, max_reps=3)
    assert b["ok"], b


@pytest.mark.parametrize("old,new,kind,words", [
    # the buffer is not written back: its update is missing
    ("tl.store(b_ptr + offs, b, mask=m)", "", "wrong-result", "input 2 (updated in place)"),
    # the parameters moved twice as far
    ("tl.store(p_ptr + offs, tl.load(p_ptr + offs, mask=m) - lr * b, mask=m)",
     "tl.store(p_ptr + offs, tl.load(p_ptr + offs, mask=m) - 2 * lr * b, mask=m)", "wrong-result", "output 0"),
    # the gradient, which the reference leaves as it was, overwritten
    ("tl.store(b_ptr + offs, b, mask=m)", "tl.store(g_ptr + offs, b, mask=m)", "mutated-input",
     "mutated input 1 on case"),
])
def test_wrong_updates_are_named(h, old, new, kind, words):
    cand = _variant(read(FIX, "kernel.py"), old, new)
    v = h.request("validate", candidate_source=cand)
    assert v["ok"] and not v["result"]["passed"], v
    f = v["result"]["failure"]
    assert f["kind"] == kind and words in f["message"], f
    if kind == "mutated-input":
        assert "the reference updates only input(s) 0, 2 in place" in f["message"], f


def test_a_reference_that_updates_nothing(tmp_path):
    """Outside in-place operators nothing changes: no input is a result, and a kernel writing
    to one is refused as before."""
    client = start_harness(tmp_path)
    try:
        ref, ker = vector_add()
        r = client.request("load", reference_source=ref, kernel_source=ker, workdir="va", correctness_cases=1)
        assert r["ok"] and r["result"]["updated_inputs"] == [], r
    finally:
        client.close()
