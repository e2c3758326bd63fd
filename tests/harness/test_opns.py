"""Kernel modules that register PyTorch custom operators (harness/kharness/opns.py): each
imported module's operators are kept apart, so a candidate never runs another module's
kernel; triton_op + wrap_triton runs on the interpreter; the run-time check follows an
operator's body."""
import ast

import pytest
from conftest import start_harness

from kharness.opns import MARK, defined_namespaces, is_own_operator, isolate, isolation_gaps

REF = '''
import torch
from torch import nn
class Model(nn.Module):
    def forward(self, x):
        return x * 2.0 + 1.0
def get_inputs():
    return [torch.randn(1000)]
def get_init_inputs():
    return []
'''

# The way PyTorch documents a Triton kernel behind a custom operator; SCALE is what a
# candidate changes (a wrong candidate: 3.0).
CUSTOM_OP = '''
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def _affine(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * SCALE + 1.0, mask=m)


@torch.library.custom_op("kopttest::affine", mutates_args=())
def affine(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    _affine[(triton.cdiv(x.numel(), 256),)](x, y, x.numel(), BLOCK=256)
    return y


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.ops.kopttest.affine(x)
'''

TRITON_OP = '''
import torch
import triton
import triton.language as tl
from torch import nn
from torch.library import triton_op, wrap_triton


@triton.jit
def _affine(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0 + 1.0, mask=m)


@triton_op("kopttest::affine_t", mutates_args={})
def affine(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    n = x.numel()

    def grid(meta):
        return (triton.cdiv(n, meta["BLOCK"]),)

    wrap_triton(_affine)[grid](x, y, n, BLOCK=256)
    return y


class ModelNew(nn.Module):
    def forward(self, x):
        return affine(x)
'''


def scaled(src: str, scale: str) -> str:
    return src.replace("* SCALE", f"* {scale}")


# ------------------------------------------------------------------ the source transformation

def test_isolate_renames_what_the_module_defines():
    src = '''import torch
lib = torch.library.Library("mine", "DEF")
lib.define("g(Tensor x) -> Tensor")
@torch.library.custom_op("ours::f", mutates_args=())
def f(x: torch.Tensor) -> torch.Tensor:
    return x
def use(x):
    a = torch.ops.ours.f(x)          # the module's own operator
    b = torch.ops.mine.g.default(x)
    c = torch.ops.aten.add(x, x)     # torch's: left alone
    return "ours", "theirs::f", a, b, c
'''
    assert defined_namespaces(ast.parse(src)) == {"mine", "ours"}
    out = isolate(src, "kopt_cand_0123")
    assert out.count("\n") == src.count("\n")
    assert f"""Library('mine{MARK}kopt_cand_0123', "DEF")""" in out
    assert f"'ours{MARK}kopt_cand_0123::f'" in out
    assert f"torch.ops.ours{MARK}kopt_cand_0123.f(x)" in out
    assert f"torch.ops.mine{MARK}kopt_cand_0123.g.default(x)" in out
    assert "torch.ops.aten.add(x, x)" in out
    assert 'return "ours", "theirs::f"' in out      # a bare word, another module's operator
    assert isolate(src.replace("ours::f", "ours::h"), "kopt_cand_0123") != out
    assert isolate("import torch\nx = torch.ops.aten.add\n", "t") == "import torch\nx = torch.ops.aten.add\n"


def test_isolation_gaps_name_computed_registrations():
    src = '''import torch
NS = "mine"
@torch.library.custom_op(f"{NS}::f", mutates_args=())
def f(x: torch.Tensor) -> torch.Tensor:
    return x
@f.register_fake
def _(x):
    return x
torch.library.register_fake(NS + "::g")
torch.library.register_kernel(f, "cuda")
'''
    gaps = isolation_gaps(ast.parse(src))
    assert [g.split(":")[0] for g in gaps] == ["line 3", "line 9"], gaps
    assert "custom_op(...) names its operator with an expression" in gaps[0]
    assert isolation_gaps(ast.parse(CUSTOM_OP)) == []


def test_is_own_operator():
    assert is_own_operator(f"kopttest{MARK}kopt_cand_ab.affine.default")
    assert is_own_operator(f"torch.ops.kopttest{MARK}kopt_cand_ab.affine")
    assert not is_own_operator("kopttest.affine.default")
    assert not is_own_operator("torch.ops.aten.add.Tensor")
    assert not is_own_operator(MARK)


# ------------------------------------------------------------------ through the harness

@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    h = start_harness(tmp_path_factory.mktemp("opns"))
    yield h
    h.close()


def load(h, kernel, workdir):
    r = h.request("load", reference_source=REF, kernel_source=kernel, workdir=workdir, seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    return r["result"]


def validate(h, src):
    v = h.request("validate", candidate_source=src)
    assert v["ok"], v
    return v["result"]


def test_candidates_do_not_replace_each_others_operators(harness):
    """Without isolation the second import re-registers kopttest::affine and PyTorch sends
    every module's call to it: the initial kernel would be judged (and timed) as the wrong
    candidate, and the right candidate as the wrong one's result."""
    initial = scaled(CUSTOM_OP, "2.0")
    load(harness, initial, "ops1")
    assert validate(harness, initial)["passed"]
    wrong = validate(harness, scaled(CUSTOM_OP, "3.0"))
    assert not wrong["passed"] and wrong["failure"]["kind"] == "wrong-result", wrong
    assert validate(harness, initial)["passed"]
    right = validate(harness, scaled(CUSTOM_OP, "2.00"))          # another module, same result
    assert right["passed"], right
    assert not validate(harness, scaled(CUSTOM_OP, "3.0"))["passed"]


def test_triton_op_with_wrap_triton_runs_on_the_interpreter(harness):
    res = load(harness, TRITON_OP, "ops2")
    assert [k["kernel"] for k in res["kernels"]] == ["_affine"], res["kernels"]
    assert validate(harness, TRITON_OP)["passed"]


def test_runtime_check_follows_an_operators_body(harness):
    # the kernel runs, and the body then adds in torch through a name the source check cannot read
    cheat = scaled(CUSTOM_OP, "2.0").replace("    return y\n", '    return getattr(torch, "add")(y, 0.0)\n')
    assert "getattr" in cheat
    load(harness, scaled(CUSTOM_OP, "2.0"), "ops3")
    res = validate(harness, cheat)
    assert not res["passed"] and res["failure"]["kind"] == "static-check", res
    assert "torch compute torch.add" in res["failure"]["message"], res


def test_computed_operator_name_is_refused_with_its_line(harness):
    src = scaled(CUSTOM_OP, "2.0").replace('"kopttest::affine"', '"kopttest" + "::affine"')
    r = harness.request("load", reference_source=REF, kernel_source=src, workdir="ops4", seed=0,
                        correctness_cases=1, benchmark_cases=1)
    assert not r["ok"], r
    msg = r["error"]["message"]
    assert "line 15: custom_op(...) names its operator with an expression" in msg, msg
