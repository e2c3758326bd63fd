"""bench/gpu's copy-relative probes without a GPU: under TRITON_INTERPRET=1 each builds every
variant at a small size and checks it against PyTorch (the probe raises on a wrong variant),
through the shared probe_timing module they import as a sibling."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

GPU_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench", "gpu")


def run_probe(probe: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, os.path.join(GPU_DIR, probe), *args], check=False, capture_output=True,
                          text=True, env={**os.environ, "TRITON_INTERPRET": "1"}, timeout=300)


@pytest.mark.parametrize("probe, variants", [("online_probe.py", 18), ("modulo_probe.py", 21)])
def test_probe_variants_are_correct(probe: str, variants: int) -> None:
    r = run_probe(probe)
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"{variants} variants checked or built at" in r.stdout, r.stdout


@pytest.mark.parametrize("repeat", ["0", "21"])
def test_probe_refuses_bad_repeat(repeat: str) -> None:
    r = run_probe("online_probe.py", "--repeat", repeat)
    assert r.returncode == 2 and "--repeat must be 1..20" in r.stderr, r.stderr
