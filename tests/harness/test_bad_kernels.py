"""Every bad kernel fails its evaluation with the right reason, and the harness survives."""
import pytest

from conftest import bad, vector_add

# name -> (where the verdict is, kind, substring of the message)
CASES = {
    "wrong_result.py": ("result", "wrong-result", "candidate wrong on case 0: output 0 at ("),
    "raises.py": ("result", "exception", "ValueError: \"deliberate failure in forward"),
    "oom.py": ("result", "oom", "ran out of memory"),
    "forkbomb.py": ("result", "sandbox-violation", "kernel tried to start a process (os.fork())"),
    "socket_open.py": ("result", "sandbox-violation", "network access is not allowed"),
    "write_outside.py": ("result", "sandbox-violation", "write outside its work directory: /tmp/outside"),
    "write_home.py": ("result", "sandbox-violation", "write outside its work directory"),
    "torch_compute.py": ("result", "static-check", "torch.add computes in torch"),
    "torch_operator.py": ("result", "static-check", "tensor arithmetic"),
    "torch_hidden.py": ("result", "static-check", "runtime trace on case 0): torch compute torch.Tensor.add"),
    "mutates_input.py": ("result", "mutated-input", "candidate mutated input 0 on case 0"),
    "alias_input.py": ("result", "aliased-output", "shares memory with an input"),
    "segfault.py": ("error", "crashed", "killed by SIGSEGV (segmentation fault)"),
    "hang.py": ("error", "timeout", "did not finish within 8 s"),
    "autotune_interp.py": ("result", "exception", "the Triton interpreter has no device to measure on"),
}


@pytest.fixture(scope="module")
def h(tmp_path_factory):
    from conftest import start_harness
    wd = tmp_path_factory.mktemp("bad")
    # 6 GiB address space: the oom kernel's 64 GiB allocation fails fast and cleanly; the CPU
    # and file limits are far above what the tests use (test_worker_rlimits_survive_restarts)
    client = start_harness(wd, "--mem-mb", "6144", "--cpu-s", "3600", "--nofile", "4096")
    ref, ker = vector_add()
    r = client.request("load", reference_source=ref, kernel_source=ker, workdir="va", correctness_cases=1)
    assert r["ok"], r
    yield client
    client.close()


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_kernel(h, name):
    where, kind, text = CASES[name]
    r = h.request("validate", candidate_source=bad(name), timeout_s=8)
    if where == "result":
        assert r["ok"], r
        f = r["result"]["failure"]
        assert r["result"]["passed"] is False
        assert f["kind"] == kind, f
        assert text in f["message"], f["message"]
    else:
        assert r["ok"] is False, r
        assert r["error"]["kind"] == kind, r["error"]
        assert text in r["error"]["message"], r["error"]["message"]
        assert r["error"].get("restarted") is True
    # the harness still answers, and the loaded problem is still there (replayed after a restart)
    ok = h.request("validate", timeout_s=60)
    assert ok["ok"] and ok["result"]["passed"], ok


def test_crash_message_names_the_case_and_shows_the_traceback(h):
    r = h.request("validate", candidate_source=bad("segfault.py"), timeout_s=30)
    msg = r["error"]["message"]
    assert "during validate case 0 candidate" in msg
    assert "string_at" in msg          # faulthandler's traceback of the worker


def test_worker_rlimits_survive_restarts(h):
    """The worker applies the supervisor's limits itself at its start (kharness/rlimits.py):
    the worker started after the crashes above has them too."""
    before = h.request("hello")["result"]["pid"]
    r = h.request("validate", candidate_source=bad("segfault.py"), timeout_s=30)
    assert r["error"]["kind"] == "crashed", r
    hello = h.request("hello")
    assert hello["ok"], hello
    lim = hello["result"]["sandbox"]["rlimits"]
    assert lim["RLIMIT_AS"] == 6144 << 20
    assert lim["RLIMIT_CPU"] == 3600
    assert lim["RLIMIT_NOFILE"] == 4096
    assert hello["result"]["pid"] != before          # a new worker


def test_nothing_escaped():
    import os
    assert not os.path.exists(os.path.join(os.path.expanduser("~"), ".kopt_escape"))
    assert not os.path.exists("/tmp/outside")


def test_sweep_timeout_names_the_phase(h):
    """A sweep cut off by its time limit says which of its phases it was in (the supervisor
    keeps the harness's last progress line): here a candidate whose constructor never returns."""
    _, ker = vector_add()
    hang = ker + "\n\nclass ModelNew(ModelNew):\n    def __init__(self, *a, **k):\n        while True:\n            pass\n"
    r = h.request("sweep", candidates=[{"id": "slow", "source": hang}], timeout_s=6)
    assert r["ok"] is False and r["error"]["kind"] == "timeout", r
    assert "(last progress: sweep: preparing 1 candidates)" in r["error"]["message"], r["error"]["message"]
    ok = h.request("validate", timeout_s=60)
    assert ok["ok"] and ok["result"]["passed"], ok
