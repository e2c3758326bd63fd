"""even_bounds and fold_exp2 (harness/kharness/structural): the refusals that name what breaks
each precondition, candidates with even_bounds' flag false and with the rewrites composed,
validated by the real harness process (TRITON_INTERPRET=1), and, offline for cuda:90, the IR
each is for. Their survey and default candidates on every fixture run in test_structural.py
(structural_cases.FITS), whose helpers (structural_cases.py) these tests share."""
import re

import pytest
from conftest import read, start_harness
from kharness.structural import apply, survey
from structural_cases import compile_cuda90, fixture, load_and_validate, record

# the fixtures these tests load (structural_fixtures/<name>)
NAMES = ("even_bounds_attention", "even_bounds_lse")


@pytest.fixture(scope="module")
def h(tmp_path_factory):
    client = start_harness(tmp_path_factory.mktemp("masks_exp2"))
    yield client
    client.close()


@pytest.fixture(scope="module")
def recorded(h):
    return record(h, NAMES)


# even_bounds_attention's kernel changed, and what each rewrite's survey says of it: (rewrite,
# replaced text, replacement, whether it still fits, words the reason must contain)
VARIANTS = [
    # even_bounds: the loop no longer fits
    ("even_bounds", "for start in range(0, S, BLOCK_N)", "for start in range(BLOCK_N, S, BLOCK_N)", False,
     ["attn_fwd line 22: the loop is not `for v in range(0, N, B)` with names N and B"]),
    ("even_bounds", "    base = bh * S * D\n", "    base = bh * S * D\n    S = S - 1\n", False,
     ["its bound S is not a parameter (not a constexpr) the kernel leaves as passed"]),
    ("even_bounds", "        m_i = m_new\n", "        m_i = m_new\n        start = start + 1\n", False,
     ["start is assigned inside the loop"]),
    # the column name bound again in the loop: what it holds at a check is not known
    ("even_bounds", "        s = tl.dot(q, tl.trans(k)) * scale\n",
     "        s = tl.dot(q, tl.trans(k)) * scale\n        rn = rn + 1\n", False,
     ["no comparison of the loop's columns `start + tl.arange(0, BLOCK_N)` with S"]),
    # one check fewer: still fits
    ("even_bounds", "< S, other=0.0)\n        v =", "<= S, other=0.0)\n        v =", True, ["2 check(s) against S"]),
    # fold_exp2: base-2 units would change the result, or the rewrite cannot tell. The running
    # maximum leaves the loop as a value (a logsumexp kept for the backward pass)
    ("fold_exp2", "    acc = acc / l_i[:, None]\n", "    acc = acc / l_i[:, None] + tl.max(m_i, axis=0)\n", False,
     ["m_i is used at line 34 other than through maxima"]),
    # scores compared with their maximum: rounding the scaled values may make them equal
    ("fold_exp2", "        p = tl.exp(s - m_new[:, None])",
     "        p = tl.where(s > m_new[:, None], 1.0, tl.exp(s - m_new[:, None]))", False,
     ["s is used at line 29 other than through maxima"]),
    # the scores scaled by a tensor (per-column): no scalar factor to fold into
    ("fold_exp2", "tl.dot(q, tl.trans(k)) * scale", "tl.dot(q, tl.trans(k)) * k", False,
     ["no tl.exp(x - y) of scores"]),
    # exp of the scores themselves, not of a difference
    ("fold_exp2", "        p = tl.exp(s - m_new[:, None])", "        p = tl.exp(s) / tl.exp(m_new[:, None])", False,
     ["is used at line 29 other than through maxima"]),
]


@pytest.mark.parametrize("rewrite,old,new,fits,words", VARIANTS,
                         ids=[f"{v[0]}-{i}" for i, v in enumerate(VARIANTS)])
def test_variants(recorded, rewrite, old, new, fits, words):
    src = fixture("even_bounds_attention")[1]
    assert old in src, old
    src = src.replace(old, new)
    fit = next(f for f in survey(src, recorded["even_bounds_attention"]) if f.name == rewrite)
    assert fit.fits == fits, fit.why
    for w in words:
        assert w in fit.why, fit.why


def test_fold_exp2_defer(h, recorded):
    """defer=1 (the default where it fits): the scores stay raw, the maximum is multiplied
    after it is taken and the exponent's argument is one multiply-add; with even_bounds
    first, and alone, correct; defer=0 is the folded product of test_fold_exp2_candidate_and_ir.
    Offline for cuda:90 the TTIR multiplies the score tile once, inside the exponent."""
    name = "even_bounds_attention"
    src = fixture(name)[1]
    fit = next(f for f in survey(src, recorded[name]) if f.name == "fold_exp2")
    assert fit.params["defer"] == 1 and fit.domain["defer"] == [0, 1], fit
    assert "s can hold raw scores" in fit.why, fit.why
    f = "(scale * 1.4426950408889634)"
    cand = apply(src, "fold_exp2", {}, recorded[name])
    assert "        s = tl.dot(q, tl.trans(k))\n" in cand, cand
    assert f"m_new = tl.maximum(m_i, tl.max(s, axis=1) * {f})" in cand, cand
    assert f"p = tl.exp2(s * {f} - m_new[:, None])" in cand, cand
    assert "alpha = tl.exp2(m_i - m_new)" in cand and "tl.exp(" not in cand
    assert apply(src, "fold_exp2", {"defer": 0}, recorded[name]) != cand
    for one in (cand, apply(apply(src, "even_bounds", {}, recorded[name]), "fold_exp2", {}, recorded[name])):
        res = load_and_validate(h, name, one)
        assert res["passed"], res["failure"]
    ttir = read(compile_cuda90(h, name, apply(src, "fold_exp2", {}, recorded[name]))["files"]["ttir"]["path"])
    assert ttir.count("math.exp2 ") == 2, ttir


@pytest.mark.parametrize("second", ["        s = s * scale\n", "        s *= scale\n"])
def test_fold_exp2_two_step(h, recorded, second):
    """The scale in a statement of its own right after the product (``s = s * scale``, ``s *=
    scale``): the pair stores one scaled product, so fold_exp2 fits, the second statement's
    factor takes log2(e) and the candidate is correct; defer, which would have to remove that
    statement, is not offered. Not right after it (a statement between), it is refused."""
    name = "even_bounds_attention"
    old = "        s = tl.dot(q, tl.trans(k)) * scale\n"
    src = fixture(name)[1]
    assert old in src
    two = src.replace(old, "        s = tl.dot(q, tl.trans(k))\n" + second)
    fit = next(f for f in survey(two, recorded[name]) if f.name == "fold_exp2")
    assert fit.fits and fit.domain["defer"] == [0], fit
    cand = apply(two, "fold_exp2", {}, recorded[name])
    assert second.replace("scale", "(scale * 1.4426950408889634)") in cand, cand
    assert "p = tl.exp2(s - m_new[:, None])" in cand, cand
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]
    apart = src.replace(old, "        s = tl.dot(q, tl.trans(k))\n        q = q + 0\n" + second)
    fit = next(f for f in survey(apart, recorded[name]) if f.name == "fold_exp2")
    assert not fit.fits, fit.why


def test_fold_exp2_defer_refused_two_factors(recorded):
    """Scores stored from products with two factors: no one factor to defer, so defer's domain
    is [0] and the folded form is what the rewrite makes."""
    name = "even_bounds_attention"
    src = fixture(name)[1]
    old = '        s = tl.where(rn[None, :] < S, s, float("-inf"))\n'
    assert old in src
    src = src.replace(old, '        s = tl.where(rn[None, :] < S, s, tl.dot(q, tl.trans(k)) * 2.0)\n')
    fit = next(f for f in survey(src, recorded[name]) if f.name == "fold_exp2")
    assert fit.fits and fit.domain["defer"] == [0] and fit.params["defer"] == 0, fit


def test_fold_exp2_scale_inside_the_exponent(h, recorded):
    """The scale applied where the scores are used (`tl.exp(s * scale - m)`, the maximum of the
    raw scores times the scale): the products inside the exponent and inside the maximum take
    log2(e) too, and the candidate is correct."""
    name = "even_bounds_attention"
    src = fixture(name)[1]
    for old, new in (("        s = tl.dot(q, tl.trans(k)) * scale\n", "        s = tl.dot(q, tl.trans(k))\n"),
                     ("tl.maximum(m_i, tl.max(s, axis=1))", "tl.maximum(m_i, tl.max(s, axis=1) * scale)"),
                     ("tl.exp(s - m_new[:, None])", "tl.exp(s * scale - m_new[:, None])")):
        assert old in src, old
        src = src.replace(old, new)
    cand = apply(src, "fold_exp2", {}, recorded[name])
    assert "tl.max(s, axis=1) * (scale * 1.4426950408889634)" in cand
    assert "tl.exp2(s * (scale * 1.4426950408889634) - m_new[:, None])" in cand
    assert "alpha = tl.exp2(m_i - m_new)" in cand
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]


def test_fold_exp2_compound_factor(h, recorded):
    """A factor written as arithmetic keeps its parentheses when it takes log2(e)."""
    name = "even_bounds_attention"
    src = fixture(name)[1].replace("tl.dot(q, tl.trans(k)) * scale", "tl.dot(q, tl.trans(k)) * (scale - 0.0)")
    cand = apply(src, "fold_exp2", {"defer": 0}, recorded[name])
    assert "tl.dot(q, tl.trans(k)) * ((scale - 0.0) * 1.4426950408889634)" in cand, cand
    res = load_and_validate(h, name, cand)
    assert res["passed"], res["failure"]
    cand = apply(src, "fold_exp2", {"defer": 1}, recorded[name])
    assert "tl.exp2(s * ((scale - 0.0) * 1.4426950408889634) - m_new[:, None])" in cand, cand


def test_fold_exp2_candidate_and_ir(h, recorded):
    """fold_exp2 (defer=0) on the attention kernel: the factor takes log2(e), the two exponentials become
    tl.exp2 of the same differences; offline for cuda:90 the TTIR's math.exp become math.exp2;
    after even_bounds it still fits (the two compose), and the composition is correct."""
    name = "even_bounds_attention"
    src = fixture(name)[1]
    cand = apply(src, "fold_exp2", {"defer": 0}, recorded[name])
    assert "s = tl.dot(q, tl.trans(k)) * (scale * 1.4426950408889634)" in cand
    assert "p = tl.exp2(s - m_new[:, None])" in cand and "alpha = tl.exp2(m_i - m_new)" in cand
    assert "tl.exp(" not in cand
    before = read(compile_cuda90(h, name, src)["files"]["ttir"]["path"])
    after = read(compile_cuda90(h, name, cand)["files"]["ttir"]["path"])
    assert before.count("math.exp ") == 2 and "math.exp2" not in before, before
    assert after.count("math.exp2 ") == 2 and "math.exp " not in after, after
    both = apply(apply(src, "even_bounds", {}, recorded[name]), "fold_exp2", {"defer": 0}, recorded[name])
    assert "| EVEN_S)" in both and "tl.exp2(" in both
    res = load_and_validate(h, name, both)
    assert res["passed"], res["failure"]


def test_even_bounds_flag_false(h, recorded):
    """even_bounds' candidates where the flag is false (the block does not divide the bound):
    the masked kernel, correct at 300 columns in blocks of 128 and at 80 keys in blocks of 32."""
    cand = apply(fixture("even_bounds_lse")[1], "even_bounds", {}, recorded["even_bounds_lse"])
    assert cand.count("| EVEN_N)") == 2
    res = load_and_validate(h, "even_bounds_lse_uneven", cand)
    assert res["passed"], res["failure"]
    cand = apply(fixture("even_bounds_attention")[1], "even_bounds", {}, recorded["even_bounds_attention"])
    assert cand.count("| EVEN_S)") == 3
    res = load_and_validate(h, "tma_loads_attention", cand)
    assert res["passed"], res["failure"]


def test_even_bounds_check_under_an_operator(h, recorded):
    """A bound check under ``~`` (out-of-range lanes): the flag goes inside the inversion's
    parentheses (``~(c < N) | F`` would be ``(~(c < N)) | F``), correct with the flag true and
    false."""
    src = fixture("even_bounds_lse")[1]
    old = "        acc += tl.exp(v - m)\n"
    assert old in src
    src = src.replace(old, '        v = tl.where(~(c < N), float("-inf"), v)\n' + old)
    cand = apply(src, "even_bounds", {}, recorded["even_bounds_lse"])
    assert "tl.where(~((c < N) | EVEN_N), " in cand, cand
    for name in ("even_bounds_lse", "even_bounds_lse_uneven"):
        res = load_and_validate(h, name, cand)
        assert res["passed"], (name, res["failure"])


def test_even_bounds_keeps_the_heuristics(h, recorded):
    """A kernel with an @triton.heuristics of its own: the flag joins its dict (one decorator)."""
    src = fixture("even_bounds_lse")[1]
    src = src.replace("@triton.jit\n", '@triton.heuristics({"HALF": lambda args: args["BLOCK"] // 2})\n@triton.jit\n')
    src = src.replace("BLOCK: tl.constexpr)", "BLOCK: tl.constexpr, HALF: tl.constexpr)")
    cand = apply(src, "even_bounds", {}, recorded["even_bounds_lse"])
    assert cand.count("@triton.heuristics(") == 1
    assert '{"HALF": lambda args: args["BLOCK"] // 2, "EVEN_N": lambda args: args["N"] % args["BLOCK"] == 0}' in cand
    assert "HALF: tl.constexpr, EVEN_N: tl.constexpr)" in cand
    res = load_and_validate(h, "even_bounds_lse", cand)
    assert res["passed"], res["failure"]


def test_even_bounds_cuda90(h, recorded):
    """What the flag is for, offline for cuda:90 at 64 keys in blocks of 32: the attention
    loop's bound masks on K and V and the score tile's select are compiled away."""
    name = "even_bounds_attention"
    before = read(compile_cuda90(h, name, fixture(name)[1])["files"]["ttgir"]["path"])
    cand = apply(fixture(name)[1], "even_bounds", {}, recorded[name])
    after = read(compile_cuda90(h, name, cand)["files"]["ttgir"]["path"])
    # K and V are pipelined as async copies: masked by the bound (with an `other`) before; after,
    # only by the pipeline's own predicate for its prologue's iterations (no `other`)
    copies = re.compile(r"ttg\.async_copy_global_to_local [^:{]*")
    assert copies.findall(before) and all(" other " in c for c in copies.findall(before)), before
    assert copies.findall(after) and not any(" other " in c for c in copies.findall(after)), after
    assert after.count("arith.select") < before.count("arith.select")


@pytest.mark.parametrize("name,flag", [("even_bounds_attention", "EVEN_S"), ("even_bounds_lse", "EVEN_N")])
def test_even_bounds_refuses_its_own_output(recorded, name, flag):
    """Once the checks carry the flag, even_bounds no longer fits: a job's round after the
    rewrite was accepted proposed it again on an H100 (call BU) and spent the round. fold_exp2
    still fits the flagged attention kernel."""
    cand = apply(fixture(name)[1], "even_bounds", {}, recorded[name])
    assert f"| {flag})" in cand
    fits = {f.name: f for f in survey(cand, recorded[name])}
    assert not fits["even_bounds"].fits
    assert "other than those already OR-ed with a constexpr flag" in fits["even_bounds"].why, fits["even_bounds"].why
    if name == "even_bounds_attention":
        assert fits["fold_exp2"].fits, fits["fold_exp2"].why
