"""Re-runs tests/ir/gen_fixtures.py into a temporary directory with the pinned Triton and checks
that the facts the C tests (tests/unit/test_ir.c) rely on still hold in fresh compiler output,
and that the committed fixtures still match it. A Triton upgrade that changes the IR shape
(pass names, how loads lower, where the pipeliner acts) fails here first.

Run: .venv/bin/python -m pytest tests/harness/test_ir_fixtures.py -q   (about 20 s, no GPU)"""
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GEN = os.path.join(ROOT, "tests", "ir", "gen_fixtures.py")
COMMITTED = os.path.join(ROOT, "tests", "unit", "data", "ir")
HEADER = re.compile(r"^// -----// IR Dump (Before|After) (\S+) \(([^)]*)\)(?: \('([^']*)' operation)?", re.M)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory):
    pytest.importorskip("triton")
    out = tmp_path_factory.mktemp("ir_fixtures")
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)  # conftest turns the interpreter on; compiling needs it off
    r = subprocess.run([sys.executable, GEN, "--out", str(out)], capture_output=True, text=True, env=env,
                       timeout=900, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-4000:]
    return str(out)


def read(d, fx, name):
    p = os.path.join(d, fx, name)
    return open(p).read() if os.path.exists(p) else None


def meta(d, fx):
    return json.loads(read(d, fx, "meta.json"))


def dumps(text):
    """[(pass name, pass-arg, scope, ir)] from an MLIR_ENABLE_DUMP=1 capture; the IR of a dump
    ends at the next `// -----//` line (pass header or pass-internal dump)."""
    out = []
    marks = [m for m in re.finditer(r"^// -----//.*$", text, re.M)]
    for i, m in enumerate(marks):
        h = HEADER.match(m.group(0))
        if not h:
            continue
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((h.group(2), h.group(3), h.group(4) or "", text[m.end():end]))
    return out


def first_after(seq, arg):
    """(IR before the first run of pass-arg, IR of the next whole-module dump)."""
    for i, (_, a, scope, ir) in enumerate(seq):
        if a == arg:
            for _, _, s2, ir2 in seq[i + 1:]:
                if s2 in ("", "builtin.module"):
                    return ir, ir2
    raise AssertionError(f"pass {arg} not found in the dump")


def op_count(ir, op):
    return len(re.findall(r"^\s*(?:%\S+ = )?\"?" + re.escape(op) + r"\b", ir, re.M))


def resolve_line(ttgir, locname):
    """Follows #locN = loc("name"(#locM)) aliases to loc("file":line:col)."""
    defs = dict(re.findall(r"^(#loc\d*) = loc\((.*)\)$", ttgir, re.M))
    cur = locname
    for _ in range(16):
        e = defs.get(cur)
        if e is None:
            return None
        m = re.match(r'"[^"]*":(\d+):\d+$', e)
        if m:
            return int(m.group(1))
        m = re.match(r'"[^"]*"\((#loc\d*)\)$', e)
        if not m:
            return None
        cur = m.group(1)
    return None


def test_copy_twins_differ_in_load_width(fresh):
    s, v = read(fresh, "copy_scalar", "kernel.ptx"), read(fresh, "copy_vec", "kernel.ptx")
    assert re.search(r"ld\.global\.b32\b", s) and not re.search(r"ld\.global\.v4", s)
    assert re.search(r"ld\.global\.v4\.b32\b", v) and not re.search(r"ld\.global\.b32\b", v)
    # Same bytes per thread: 4x as many scalar loads as vector ones.
    assert len(re.findall(r"ld\.global\.b32\b", s)) == 4 * len(re.findall(r"ld\.global\.v4\.b32\b", v))
    if read(fresh, "copy_vec", "kernel.sass"):
        assert "LDG.E.128" in read(fresh, "copy_vec", "kernel.sass")
        assert "LDG.E.128" not in read(fresh, "copy_scalar", "kernel.sass")
    # The width is decided when TTGIR is lowered to LLVM (the C test's L4 finding).
    before, after = first_after(dumps(read(fresh, "copy_scalar", "passes.mlir")), "convert-triton-gpu-to-llvm")
    assert "ld.global.b32" not in before and "ld.global.b32" in after


def test_pipeliner_makes_async_copies_only_with_stages(fresh):
    p, n = read(fresh, "mm_pipelined", "kernel.ttgir"), read(fresh, "mm_nopipe", "kernel.ttgir")
    assert op_count(p, "ttg.async_copy_global_to_local") > 0
    assert op_count(n, "ttg.async_copy_global_to_local") == 0
    assert op_count(n, "tt.load") == 2
    assert op_count(p, "ttng.warp_group_dot") == 1 and op_count(n, "ttng.warp_group_dot") == 1
    for fx, expect in (("mm_pipelined", True), ("mm_nopipe", False)):
        seq = dumps(read(fresh, fx, "passes.mlir"))
        before, after = first_after(seq, "tritongpu-pipeline")
        assert "ttg.async_copy_global_to_local" not in before
        assert ("ttg.async_copy_global_to_local" in after) is expect
        # No earlier pass introduces the copies.
        for _, arg, scope, ir in seq:
            if arg == "tritongpu-pipeline":
                break
            assert "ttg.async_copy_global_to_local" not in ir


def test_reduction_layout_conversion_on_store_line(fresh):
    t = read(fresh, "row_sum", "kernel.ttgir")
    cvt = re.findall(r"= ttg\.convert_layout .* loc\((#loc\d*)\)$", t, re.M)
    assert len(cvt) == 1
    assert resolve_line(t, cvt[0]) == meta(fresh, "row_sum")["lines"]["store"]


def test_scalar_loop_has_no_tensor_ops(fresh):
    t = read(fresh, "scalar_loop", "kernel.ttgir")
    body = re.search(r"scf\.for .*?\{\n(.*?)\n\s*\} loc", t, re.S)
    assert body and "tt.load" in body.group(1) and "tensor<" not in body.group(1)


def test_every_pass_is_in_the_table(fresh):
    table = {}
    for line in open(os.path.join(ROOT, "workers", "passes.tsv")):
        if line.strip() and not line.startswith("#"):
            arg, name, desc = line.rstrip("\n").split("\t")
            table[arg] = (name, desc)
    for fx in ("copy_scalar", "copy_vec", "row_sum", "mm_pipelined", "mm_nopipe"):
        for name, arg, _, _ in dumps(read(fresh, fx, "passes.mlir")):
            assert arg in table, f"{fx}: {name} ({arg}) missing from workers/passes.tsv"
            assert table[arg][0] == name


@pytest.mark.parametrize("fx", ["copy_scalar", "copy_vec", "row_sum", "mm_pipelined", "mm_nopipe", "scalar_loop"])
def test_committed_fixtures_match_fresh_output(fresh, fx):
    """The committed fixtures are what this Triton produces: same op counts, same PTX memory
    instructions, same pass sequence (regenerate with gen_fixtures.py when this fails)."""
    assert meta(fresh, fx)["lines"] == meta(COMMITTED, fx)["lines"]
    assert meta(fresh, fx)["triton"] == meta(COMMITTED, fx)["triton"]
    ops = ("tt.load", "tt.store", "ttg.convert_layout", "ttg.local_alloc", "ttg.async_copy_global_to_local",
           "ttng.warp_group_dot", "scf.for", "tt.reduce")
    f, c = read(fresh, fx, "kernel.ttgir"), read(COMMITTED, fx, "kernel.ttgir")
    assert {o: op_count(f, o) for o in ops} == {o: op_count(c, o) for o in ops}
    mem = re.compile(r"\b(?:ld|st|cp\.async)\.[a-z0-9.:]+")
    fp, cp = read(fresh, fx, "kernel.ptx"), read(COMMITTED, fx, "kernel.ptx")
    assert sorted(mem.findall(fp)) == sorted(mem.findall(cp))
    fpass, cpass = read(fresh, fx, "passes.mlir"), read(COMMITTED, fx, "passes.mlir")
    if cpass is not None:
        assert [(n, a) for n, a, _, _ in dumps(fpass)] == [(n, a) for n, a, _, _ in dumps(cpass)]
