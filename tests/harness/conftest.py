"""Shared fixtures for the harness tests. Run: .venv/bin/python -m pytest tests/harness -q

The harness runs as a subprocess (backend interp, TRITON_INTERPRET=1) exactly as the C
worker runs it; the unit tests import harness/kharness directly."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS_DIR = os.path.join(ROOT, "harness")
EXAMPLES = os.path.join(ROOT, "examples")
BAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
GPU_DIR = os.path.join(ROOT, "bench", "gpu")      # the GPU probes, importable as siblings from there

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, HARNESS_DIR)

from kharness.client import HarnessClient


def read(*parts):
    with open(os.path.join(*parts)) as f:
        return f.read()


def vector_add():
    return read(EXAMPLES, "vector_add", "ref.py"), read(EXAMPLES, "vector_add", "kernel.py")


def bad(name):
    return read(BAD, name)


def start_harness(workdir, *extra, log_name="harness.log"):
    env = dict(os.environ)
    env["TRITON_INTERPRET"] = "1"
    env["KOPT_VECTOR_ADD_N"] = "4096"      # keep the interpreter fast in tests
    return HarnessClient(["--backend", "interp", "--workdir", str(workdir), *extra],
                         env=env, stderr_path=os.path.join(str(workdir), log_name) if os.path.isdir(str(workdir)) else None)


@pytest.fixture(scope="module")
def harness(tmp_path_factory):
    wd = tmp_path_factory.mktemp("harness")
    h = start_harness(wd)
    yield h
    h.close()


@pytest.fixture(scope="module")
def recorded(harness):
    """The launches the module's harness records for each structural fixture, by name, on
    first use (structural_cases.Recorded): what the structural tests' surveys and rewrites get."""
    from structural_cases import Recorded  # here: structural_cases imports this module
    return Recorded(harness)


@pytest.fixture(scope="module")
def loaded(harness):
    ref, ker = vector_add()
    r = harness.request("load", reference_source=ref, kernel_source=ker, workdir="va", seed=0, correctness_cases=2,
                        benchmark_cases=2)
    assert r["ok"], r
    return harness, r["result"]


def run_probe(probe, *args, interp=True, timeout=300):
    """A bench/gpu probe as a script; under the interpreter unless interp is False (an offline
    compile needs the real @triton.jit functions)."""
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    if interp:
        env["TRITON_INTERPRET"] = "1"
    return subprocess.run([sys.executable, os.path.join(GPU_DIR, probe), *args], check=False, capture_output=True,
                          text=True, env=env, timeout=timeout)


@pytest.fixture(scope="module")
def cpu_allocator():
    """Tensor descriptors' scratch memory on the CPU (the interpreter's device), for tests that
    launch descriptor kernels in-process."""
    import torch
    import triton
    triton.set_allocator(lambda size, align, stream: torch.empty(size, dtype=torch.int8))
    yield
