"""first_pass (kharness/structural/first_pass.py): the arithmetic of a row loop's single pass
folded where it reads accumulators still at their starting constants. Snippets of unrolled
kernels; each case says what is folded, what is left and whether a finite-only rule ran."""
from __future__ import annotations

import importlib.util
import pathlib

import pytest
from kharness.srcedit import apply_edits
from kharness.structural.common import Module
from kharness.structural.first_pass import fold_first_pass

HEAD = ("import triton\nimport triton.language as tl\n\n\n@triton.jit\n"
        "def k(x_ptr, y_ptr, n, B: tl.constexpr):\n    cols = tl.arange(0, B)\n")


def fold(body: str) -> tuple[str, bool]:
    src = HEAD + "".join(f"    {ln}\n" for ln in body.strip().splitlines())
    mod = Module(src, [])
    fp = fold_first_pass(mod, mod.kernels["k"])
    out = apply_edits(src, fp.edits)
    compile(out, "<folded>", "exec")
    return out[len(HEAD):], fp.inexact


ONLINE = """
m = tl.full([B], float("-inf"), tl.float32)
s = tl.zeros([B], dtype=tl.float32)
x = tl.load(x_ptr + cols, mask=cols < n, other=float("-inf")).to(tl.float32)
m_new = tl.maximum(m, x)
alive = m_new > float("-inf")
s = s * tl.where(alive, tl.exp(m - m_new), 0.0) + tl.where(alive, tl.exp(x - m_new), 0.0)
m = m_new
row_max = tl.max(m, axis=0)
row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
tl.store(y_ptr + cols, x - row_max - tl.log(row_sum), mask=cols < n)
"""


def test_online_softmax_state_folds_to_one_exponential() -> None:
    out, inexact = fold(ONLINE)
    assert "    m_new = x\n" in out, out                 # maximum(-inf, x): x, already float32
    assert "    s = tl.where(alive, 1.0, 0.0).to(tl.float32)\n" in out, out
    assert out.count("tl.exp(") == 1, out             # the final combine's
    assert inexact                                    # 0 * e and x - x hold for finite values


@pytest.mark.parametrize("body, kept", [
    # a float -inf against a value whose dtype the syntax does not give (an integer would turn
    # float): left as written
    ('m = -float("inf")\nm = tl.maximum(m, tl.max(tl.load(x_ptr + cols), axis=0))',
     "m = tl.maximum(m, tl.max(tl.load(x_ptr + cols), axis=0))"),
    # bound again inside an if: no longer known
    (("acc = tl.zeros([B], dtype=tl.float32)\nif n > 4:\n    acc = tl.load(x_ptr + cols)\n"
      "acc = acc * 2.0 + tl.load(y_ptr + cols)"), "acc = acc * 2.0 + tl.load(y_ptr + cols)"),
    # 0 times a value where the 0 is a number: the product's shape is the value's
    ("z = 0.0\nv = z * tl.load(x_ptr + cols)", "v = z * tl.load(x_ptr + cols)"),
    # a number 1.0 times a value: an integer value would turn float
    ("one = 1.0\nv = one * tl.load(x_ptr + cols)", "v = one * tl.load(x_ptr + cols)"),
    # different names: x - y is not 0
    ("x = tl.load(x_ptr + cols)\ny = tl.load(y_ptr + cols)\nv = tl.exp(x - y)", "v = tl.exp(x - y)"),
])
def test_left_as_written(body: str, kept: str) -> None:
    out, inexact = fold(body)
    assert f"    {kept}\n" in out, out
    assert not inexact


def test_exact_folds_cast_to_the_accumulator_dtype() -> None:
    """A float16 load added to float32 zeros is the load cast to float32; an int 0 added to
    an index vector is the vector; neither needs a finite-only rule."""
    out, inexact = fold("acc = tl.zeros([B], dtype=tl.float32)\nacc += tl.load(x_ptr + cols, mask=cols < n)\n"
                        "start = 0\noffs = start + cols\ntl.store(y_ptr + offs, acc, mask=offs < n)")
    assert "    acc = tl.load(x_ptr + cols, mask=cols < n).to(tl.float32)\n" in out, out
    assert "    offs = cols\n" in out, out
    assert not inexact


def test_constants_bind_and_fold_further() -> None:
    """A value that folds to a constant of known shape is bound as one (tl.full) and folds
    what reads it."""
    out, inexact = fold("a = tl.zeros([B], dtype=tl.float32)\nb = a * tl.load(x_ptr + cols)\n"
                        "d = b + tl.load(y_ptr + cols).to(tl.float32)")
    assert "    b = tl.full([B], 0.0, tl.float32)\n" in out, out
    assert "    d = tl.load(y_ptr + cols).to(tl.float32)\n" in out, out
    assert inexact


def test_base_two_online_state_folds_too() -> None:
    """The same online update written in base 2 (tl.exp2, as flash-attention drafts do)."""
    out, inexact = fold(ONLINE.replace("tl.exp(", "tl.exp2("))
    assert "    s = tl.where(alive, 1.0, 0.0).to(tl.float32)\n" in out, out
    assert out.count("tl.exp2(") == 1 and inexact, out


def test_a_copy_of_a_constant_is_left_as_written() -> None:
    """`c = a` with a a known constant binds c to it without writing the statement again."""
    out, _ = fold("a = tl.zeros([B], dtype=tl.float32)\nc = a\nd = c + tl.load(x_ptr + cols).to(tl.float32)")
    assert "    c = a\n" in out and "    d = tl.load(x_ptr + cols).to(tl.float32)\n" in out, out


def test_selector_of_the_same_comparison_drops_from_the_product() -> None:
    """The online pass's s is where(alive, 1, 0): inside where(m > -inf, ...) (m and alive's
    m_new both x) it is 1, so the final combine is the plain exponential and s is dead; its
    per-lane guard is then the row's (row_max is the maximum of m)."""
    out, _ = fold(ONLINE)
    want = ("    row_sum = tl.sum(tl.where(row_max > float('-inf'), tl.exp(m - row_max).to(tl.float32), 0.0), "
            "axis=0)\n")
    assert want in out, out


GUARD = """
x = tl.load(x_ptr + cols, mask=cols < n, other=float("-inf")).to(tl.float32)
mx = tl.max(x, axis=0)
r = tl.sum(tl.where(x > float("-inf"), tl.exp(x - mx), 0.0), axis=0)
"""


@pytest.mark.parametrize("body, want", [
    (GUARD, "r = tl.sum(tl.where(mx > float('-inf'), tl.exp(x - mx), 0.0), axis=0)"),
    # -inf < v, the axis by position, base 2 with a cast, through a name bound to the guard
    (GUARD.replace("axis=0)\nr", "0)\nr").replace("x > float(\"-inf\")", "ok")
     .replace("r = ", "ok = -float(\"inf\") < x\nr = ").replace("tl.exp(x - mx)", "tl.exp2(x - mx).to(tl.float32)"),
     "r = tl.sum(tl.where(mx > float('-inf'), tl.exp2(x - mx).to(tl.float32), 0.0), axis=0)"),
])
def test_lane_guard_becomes_the_rows(body: str, want: str) -> None:
    """where(v > -inf, exp(v - M), 0) with M the maximum of v: the guard is M's."""
    out, inexact = fold(body)
    assert f"    {want}\n" in out, out
    assert not inexact


@pytest.mark.parametrize("body", [
    GUARD.replace("axis=0)\nr", "axis=1)\nr"),                 # another axis: M is not above v's lanes
    GUARD.replace("0.0), axis=0)", "1.0), axis=0)"),           # -inf lanes give 1, not exp(-inf)
    GUARD.replace("x > float", "x >= float"),                  # not the guard against -inf
    GUARD.replace("x > float(\"-inf\")", "x > 0.0"),
    GUARD.replace("tl.exp(x - mx)", "tl.exp(mx - x)"),          # not exp(v - M)
    GUARD.replace("r = ", "mx = mx + 1.0\nr = "),               # M bound again
    GUARD.replace("r = ", "x = x * 2.0\nr = "),                 # v bound again: M is the old v's
    GUARD.replace("tl.max(x, axis=0)", "tl.max(x, axis=0, keep_dims=True)"),
])
def test_lane_guard_left_as_written(body: str) -> None:
    out, _ = fold(body)
    assert "mx > float" not in out, out


SELECT = """
x = tl.load(x_ptr + cols, mask=cols < n, other=0.0).to(tl.float32)
c = x > 0.5
s = tl.where(c, 1.0, 0.0)
r = tl.where(x > 0.5, s * tl.exp(x), 0.0)
"""


@pytest.mark.parametrize("body, kept", [
    # another comparison: s is not known there
    (SELECT.replace("tl.where(x > 0.5, s", "tl.where(x > 0.25, s"), "r = tl.where(x > 0.25, s * tl.exp(x), 0.0)"),
    # in the false operand s is 0, not 1
    (SELECT.replace("s * tl.exp(x), 0.0)", "0.0, s * tl.exp(x))"), "r = tl.where(x > 0.5, 0.0, s * tl.exp(x))"),
    # x bound again after c: the comparisons read different values
    (SELECT.replace("s = tl.where", "x = x * 2.0\ns = tl.where"), "r = tl.where(x > 0.5, s * tl.exp(x), 0.0)"),
    # s bound again (to an unknown value)
    (SELECT.replace("r = ", "s = tl.load(y_ptr + cols)\nr = "), "r = tl.where(x > 0.5, s * tl.exp(x), 0.0)"),
    # an integer selector without a cast: its dtype (and the product's) is not known
    (SELECT.replace("1.0, 0.0)", "1, 0)"), "r = tl.where(x > 0.5, s * tl.exp(x), 0.0)"),
])
def test_selector_left_as_written(body: str, kept: str) -> None:
    out, inexact = fold(body)
    assert f"    {kept}\n" in out, out
    assert not inexact


def test_selector_of_the_false_operand_and_its_cast() -> None:
    """where(c, 0, 1).to(dtype) is 1 where c is false: dropped from that operand, the value
    cast to its dtype."""
    out, inexact = fold(SELECT.replace("tl.where(c, 1.0, 0.0)", "tl.where(c, 0.0, 1.0).to(tl.float16)")
                        .replace("s * tl.exp(x), 0.0)", "0.0, tl.exp(x) * s)"))
    assert "    r = tl.where(x > 0.5, 0.0, tl.exp(x).to(tl.float16))\n" in out, out
    assert not inexact


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")   # unrolled: -inf - -inf
def test_folded_online_pass_computes_the_same_log_softmax(tmp_path: pathlib.Path) -> None:
    """The unrolled online pass and its fold, run under the interpreter on a row with masked
    lanes: the same log-softmax."""
    torch = pytest.importorskip("torch")
    body = ONLINE.strip().splitlines()
    srcs = {}
    for name, text in (("unrolled", HEAD + "".join(f"    {ln}\n" for ln in body)),
                       ("folded", HEAD + fold(ONLINE)[0])):
        path = tmp_path / f"fp_{name}.py"
        path.write_text(text)
        spec = importlib.util.spec_from_file_location(f"fp_{name}", path)
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        srcs[name] = mod.k
    x = torch.randn(100, dtype=torch.float32)
    x[7] = float("-inf")          # a real -inf lane: 0 under the lane's guard and under the row's
    ys = {}
    for name, k in srcs.items():
        y = torch.zeros(128)
        k[(1,)](x, y, 100, B=128)
        ys[name] = y[:100]
    torch.testing.assert_close(ys["folded"], ys["unrolled"], rtol=1e-6, atol=1e-6)
    torch.testing.assert_close(ys["folded"], torch.log_softmax(x, dim=0), rtol=1e-5, atol=1e-5)
