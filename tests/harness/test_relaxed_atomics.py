"""relaxed_atomics (harness/kharness/structural/relaxed_atomics.py): what it refuses and why,
the launch option it sweeps, and, offline for cuda:90, that its candidate's atomics lose their
ordering (PTX `.relaxed` where the original is `.acq_rel`). That each fixture's candidate is
correct on the interpreter, and that the rewrite fits exactly those fixtures, is
test_structural.py's (structural_cases.FITS, APPLIED)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import read, start_harness
from kharness.client import HarnessClient
from kharness.srcedit import RewriteRefused
from kharness.structural import apply, survey
from structural_cases import compile_cuda90, fixture, record

HIST = "relaxed_atomics_histogram"
SCATTER = "relaxed_atomics_scatter"


@pytest.fixture(scope="module")
def h(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HarnessClient]:
    client = start_harness(tmp_path_factory.mktemp("relaxed"))
    yield client
    client.close()


def launches(h: HarnessClient, name: str) -> list[dict[str, Any]]:
    """The launches the harness records when it loads the fixture."""
    return record(h, [name])[name]


def fit_of(source: str, recorded: list[dict[str, Any]]):
    return next(f for f in survey(source, recorded) if f.name == "relaxed_atomics")


@pytest.fixture(scope="module")
def hist_launches(h: HarnessClient) -> list[dict[str, Any]]:
    return launches(h, HIST)


# (replaced text, replacement, words the reason must contain): the histogram changed so that
# its atomics' ordering may matter, or so that the rewrite cannot tell
REFUSED = [
    # the old value returned (a slot allocator's pattern)
    ("    tl.atomic_add(dst, tl.full([BLOCK], 1, tl.int32), mask=mask)",
     ("    old = tl.atomic_add(dst, tl.full([BLOCK], 1, tl.int32), mask=mask)\n"
      "    tl.store(bins_ptr + offs, old, mask=mask)"),
     ["hist_kernel line 16: the old value tl.atomic_add returns is read"]),
    # the target read in the kernel, through a name bound from it
    ("    dst = counts_ptr + b", "    dst = counts_ptr + b\n    b = b + tl.load(dst, mask=mask)",
     ["hist_kernel line 16: dst (the atomics' target counts_ptr) is used other than as an atomic's address"]),
    # an ordering the author chose
    ("val=v, mask=mask)", 'val=v, mask=mask, sem="release")', ["tl.atomic_max names its ordering"]),
    ("val=v, mask=mask)", 'val=v, mask=mask, sem="relaxed")', ["tl.atomic_max names its ordering"]),
    # tools of programs that synchronise through memory
    ("    dst = counts_ptr + b", "    dst = counts_ptr + b\n    tl.atomic_cas(top_ptr, 0, 1)",
     ["line 16: tl.atomic_cas: the kernel synchronises through memory"]),
    ("    dst = counts_ptr + b", "    dst = counts_ptr + b\n    tl.debug_barrier()",
     ["tl.debug_barrier: the kernel synchronises through memory"]),
    # the same tensor passed as a target and as something the kernel loads (the survey reads
    # the launch's syntax: the launches recorded from the fixture serve)
    ("](bins, vals, counts, top, n,", "](bins, top[:8], counts, top, n,",
     ["passes top as top_ptr and top[:8] as vals_ptr"]),
]


@pytest.mark.parametrize("old,new,words", REFUSED, ids=[f"refused-{i}" for i in range(len(REFUSED))])
def test_refusals(hist_launches: list[dict[str, Any]], old: str, new: str, words: list[str]) -> None:
    src = fixture(HIST)[1]
    assert old in src, old
    fit = fit_of(src.replace(old, new), hist_launches)
    assert not fit.fits, fit
    for w in words:
        assert w in fit.why, fit.why


def test_no_atomics_and_helpers(hist_launches: list[dict[str, Any]]) -> None:
    """A kernel with no read-modify-write atomic, and one whose atomics are made in a
    @triton.jit helper's company (the helper's accesses are not followed), are refused."""
    src = fixture(HIST)[1]
    bare = re.sub(r"    tl\.atomic_\w+\(.*\n", "", src)
    fit = fit_of(bare, hist_launches)
    assert not fit.fits and "no read-modify-write atomic" in fit.why, fit.why
    helper = src.replace("@triton.jit\ndef hist_kernel",
                         "@triton.jit\ndef peek(p):\n    return tl.load(p)\n\n\n@triton.jit\ndef hist_kernel")
    helper = helper.replace("    dst = counts_ptr + b", "    dst = counts_ptr + b\n    b = b + peek(vals_ptr)")
    fit = fit_of(helper, hist_launches)
    assert not fit.fits and "calls peek, a @triton.jit function" in fit.why, fit.why


def test_candidate_and_its_warps(h: HarnessClient, hist_launches: list[dict[str, Any]]) -> None:
    """Every atomic of the fitting kernel gets sem="relaxed" and nothing else changes but the
    launch's num_warps, which the rewrite sweeps (the launch's own, Triton's 4, by default)."""
    src = fixture(HIST)[1]
    fit = fit_of(src, hist_launches)
    assert fit.fits and fit.params == {"kernel": "hist_kernel", "num_warps": 4}
    assert fit.domain == {"num_warps": [4, 8, 16]}
    assert "2 atomic(s) at the default acq_rel ordering (line 16, 17)" in fit.why
    assert "counts_ptr, top_ptr" in fit.why
    cand = apply(src, "relaxed_atomics", {}, hist_launches)
    assert cand.count('sem="relaxed"') == 2
    assert cand.replace(', sem="relaxed"', "") == src
    cand8 = apply(src, "relaxed_atomics", {"num_warps": 8}, hist_launches)
    assert "BLOCK=256, num_warps=8)" in cand8
    h.request("load", reference_source=fixture(HIST)[0], kernel_source=src, workdir="w_hist", seed=0,
              correctness_cases=2, benchmark_cases=1)
    v = h.request("validate", candidate_source=cand8)
    assert v["ok"] and v["result"]["passed"], v
    with pytest.raises(RewriteRefused, match="num_warps=3 is outside its domain"):
        apply(src, "relaxed_atomics", {"num_warps": 3}, hist_launches)


def test_atomics_relaxed_in_the_ptx_cuda90(h: HarnessClient) -> None:
    """Offline for cuda:90: the suite's scatter_add adds with `atom.global.gpu.acq_rel.add.f32`;
    its candidate with the same atomics `.relaxed` and none ordered."""
    ker = fixture(SCATTER)[1]
    cand = apply(ker, "relaxed_atomics", {}, launches(h, SCATTER))
    ptx = {label: read(compile_cuda90(h, SCATTER, src)["files"]["ptx"]["path"])
           for label, src in (("before", ker), ("after", cand))}
    atoms = {k: re.findall(r"\batom\.global\.\S+", v) for k, v in ptx.items()}
    assert atoms["before"] and all(".acq_rel." in a for a in atoms["before"]), atoms
    assert len(atoms["after"]) == len(atoms["before"]) and all(".relaxed." in a for a in atoms["after"]), atoms


def test_after_the_row_rewrite(h: HarnessClient) -> None:
    """On the H100 (bench/results/h100-relaxed-atomics-2026-12-07) round 1 of the suite's
    scatter_add took row_in_registers, whose copy computes its launch's warps from the row's
    block; the survey then refused relaxed_atomics (it could not sweep those warps). It fits
    that copy now, its warps left as computed, and the candidate is correct."""
    ref, ker = fixture(SCATTER)
    row = apply(ker, "row_single_block", {}, launches(h, SCATTER))
    r = h.request("load", reference_source=ref, kernel_source=row, workdir="w_row", seed=0,
                  correctness_cases=2, benchmark_cases=1)
    assert r["ok"], r
    recorded = r["result"]["kernels"]
    fit = fit_of(row, recorded)
    assert fit.fits, fit.why
    assert fit.params == {"kernel": "scatter_add_kernel_row"} and fit.domain == {"kernel": ["scatter_add_kernel_row"]}
    cand = apply(row, "relaxed_atomics", fit.params, recorded)
    assert cand.count('sem="relaxed"') == 1 and "num_warps=min(max(" in cand
    v = h.request("validate", candidate_source=cand)
    assert v["ok"] and v["result"]["passed"], v
