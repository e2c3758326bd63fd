"""Shared fixtures for the harness tests. Run: .venv/bin/python -m pytest tests/harness -q

The harness runs as a subprocess (backend interp, TRITON_INTERPRET=1) exactly as the C
worker runs it; the unit tests import harness/kharness directly."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HARNESS_DIR = os.path.join(ROOT, "harness")
EXAMPLES = os.path.join(ROOT, "examples")
BAD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bad")
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")

os.environ["TRITON_INTERPRET"] = "1"
sys.path.insert(0, HARNESS_DIR)

from kharness.client import HarnessClient  # noqa: E402


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
def loaded(harness):
    ref, ker = vector_add()
    r = harness.request("load", reference_source=ref, kernel_source=ker, workdir="va", seed=0, correctness_cases=2,
                        benchmark_cases=2)
    assert r["ok"], r
    return harness, r["result"]
