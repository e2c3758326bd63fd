"""The static check refuses torch compute in ModelNew.forward (AST part)."""
import pytest

from kharness.static_check import check_source

HEAD = """
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

@triton.jit
def k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pass
"""


def src(forward_body, extra=""):
    body = "\n".join("        " + l for l in forward_body.strip().splitlines())
    return HEAD + extra + "\nclass ModelNew(nn.Module):\n    def forward(self, x, dim=-1):\n" + body + "\n"


GOOD = """
x = x.contiguous().view(-1, x.shape[-1])
out = torch.empty_like(x)
n = x.numel()
rows, cols = x.shape
grid = (triton.cdiv(n, 128) * 2 + rows - 1,)
k[grid](x, out, n, BLOCK=128)
return out.view(x.shape)
"""


def test_good_forward_passes():
    r = check_source(src(GOOD))
    assert r["ok"], r
    assert r["launches"] == ["k"] and r["jit_kernels"] == ["k"]


def test_helper_function_reachable():
    extra = "\ndef launch(x, out):\n    k[(1,)](x, out, x.numel(), BLOCK=128)\n"
    r = check_source(src("out = torch.empty_like(x)\nlaunch(x, out)\nreturn out", extra))
    assert r["ok"], r


AUTOGRAD = """
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = torch.empty_like(x)
        k[(1,)](x, out, x.numel(), BLOCK=128)
        ctx.save_for_backward(x)
        return out%s
"""


def test_autograd_function_reachable():
    """`Fn.apply(x)` runs Fn.forward(ctx, x): its launch counts, and its torch compute is refused
    as forward's would be."""
    r = check_source(src("return Fn.apply(x)", AUTOGRAD % ""))
    assert r["ok"] and r["launches"] == ["k"], r
    r = check_source(src("return Fn.apply(x)", AUTOGRAD % " * 2"))
    assert not r["ok"] and any(v["function"] == "Fn.forward" and "tensor arithmetic" in v["reason"]
                               for v in r["violations"]), r
    r = check_source(src("return Fn.forward(None, x)", AUTOGRAD % ""))     # not through apply
    assert not r["ok"] and "does not launch" in r["violations"][-1]["reason"], r


@pytest.mark.parametrize("body,needle", [
    ("return torch.matmul(x, x)", "torch.matmul computes in torch"),
    ("return F.relu(x)", "torch.nn.functional"),
    ("return torch.nn.functional.softmax(x, -1)", "torch.nn.functional.softmax"),
    ("out = torch.empty_like(x)\nk[(1,)](x, out, 1, BLOCK=1)\nreturn out + x", "tensor arithmetic (Add)"),
    ("out = torch.empty_like(x)\nk[(1,)](x, out, 1, BLOCK=1)\nreturn out.sum()", "tensor method .sum()"),
    ("out = torch.empty_like(x)\nk[(1,)](x, out, 1, BLOCK=1)\nreturn x @ out", "matrix multiply"),
    ("out = torch.empty_like(x)\nk[(1,)](x, out, 1, BLOCK=1)\nout += x\nreturn out", "in-place arithmetic"),
    ("out = torch.empty_like(x)\nk[(1,)](x, out, 1, BLOCK=1)\nreturn x.exp()", ".exp()"),
    ("return x", "does not launch a Triton kernel"),
])
def test_refused(body, needle):
    r = check_source(src(body))
    assert not r["ok"]
    assert any(needle in v["reason"] for v in r["violations"]), r["violations"]


def test_int_arithmetic_and_list_methods_are_fine():
    body = """
n = x.numel()
sizes = [n // 2, n - n // 2]
sizes.sort()
out = torch.empty_like(x)
k[(max(1, (n + 127) // 128),)](x, out, n, BLOCK=128)
return out
"""
    assert check_source(src(body))["ok"]


def test_casts_are_warnings():
    body = "y = x.float()\nout = torch.empty_like(y)\nk[(1,)](y, out, 1, BLOCK=1)\nreturn out.half()"
    r = check_source(src(body))
    assert r["ok"] and len(r["warnings"]) == 2


def test_missing_class_and_syntax_error():
    assert "no class ModelNew" in check_source("x = 1\n")["violations"][0]["reason"]
    assert "syntax error" in check_source("def (:\n")["violations"][0]["reason"]
