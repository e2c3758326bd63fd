"""bench/gpu's copy-relative probes without a GPU: under TRITON_INTERPRET=1 each builds every
variant at a small size and checks it against PyTorch (the probe raises on a wrong variant),
through the shared probe_timing module they import as a sibling."""
from __future__ import annotations

import pytest
from conftest import run_probe


@pytest.mark.parametrize("probe, variants", [("online_probe.py", 21), ("modulo_probe.py", 21)])
def test_probe_variants_are_correct(probe: str, variants: int) -> None:
    r = run_probe(probe)
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"{variants} variants checked or built at" in r.stdout, r.stdout


@pytest.mark.parametrize("repeat", ["0", "21"])
def test_probe_refuses_bad_repeat(repeat: str) -> None:
    r = run_probe("online_probe.py", "--repeat", repeat)
    assert r.returncode == 2 and "--repeat must be 1..20" in r.stderr, r.stderr


def test_online_probe_offline_spills() -> None:
    """The unfolded single-block copy spills at a 32768-element row on cuda:90 and the folded
    ones do not; the row's guard (folded_guard, what first_pass writes) takes fewer registers
    and instructions than the per-lane one, and no more instructions than the direct kernel
    (Triton's offline compile, its bundled ptxas and nvdisasm; what bench/results/
    cuda90-offline-rowguard-2026-12-06 reports)."""
    r = run_probe("online_probe.py", "--offline", interp=False)
    assert r.returncode == 0, r.stderr[-2000:]
    got = {}
    for ln in r.stdout.splitlines():
        if "bytes spilled" in ln:
            f = ln.replace(",", "").split()    # form rows x W warps: R registers S bytes spilled N instructions
            got[(f[0], int(f[3]))] = (int(f[5]), int(f[7]), int(f[10]))
    forms = ("unrolled", "folded_where", "folded", "folded_sel", "folded_guard", "direct")
    assert set(got) == {(f, w) for f in forms for w in (16, 32)}, r.stdout
    for w in (16, 32):
        assert got[("unrolled", w)][1] > 0, r.stdout
        assert all(got[(f, w)][1] == 0 for f in forms[1:]), r.stdout
        assert got[("folded_guard", w)][0] < got[("folded_sel", w)][0], r.stdout
        assert got[("folded_guard", w)][2] < got[("folded_sel", w)][2], r.stdout
        assert got[("folded_guard", w)][2] <= got[("direct", w)][2], r.stdout
