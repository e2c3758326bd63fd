"""Protocol round trips: framing, ids, errors, limits."""
import json
import os
import subprocess
import sys

import pytest
from conftest import HARNESS_DIR, ROOT, vector_add


def test_hello_reports_versions_and_backend(harness):
    r = harness.request("hello")
    assert r["ok"], r
    res = r["result"]
    for k in ("python", "torch", "triton", "numpy", "backend", "device", "driver", "clocks", "sandbox"):
        assert k in res
    assert res["backend"] == "interp"
    assert res["triton"] == "3.6.0"
    assert res["interpreter"] is True
    assert "cpu" in res["device"]["name"]


def test_ids_are_echoed_and_malformed_json_answered(harness):
    r = harness.raw('{"id": 77, "op": "hello"}')
    assert r["id"] == 77 and r["ok"]
    r = harness.raw("{not json")
    assert r["ok"] is False and r["id"] is None
    assert r["error"]["kind"] == "bad-request" and "not valid JSON" in r["error"]["message"]


def test_unknown_op_and_missing_id(harness):
    r = harness.raw(json.dumps({"id": 5, "op": "frobnicate"}))
    assert r["id"] == 5 and r["error"]["kind"] == "unknown-op"
    assert "hello" in r["error"]["message"]
    r = harness.raw(json.dumps({"op": "hello"}))
    assert r["error"]["kind"] == "bad-request" and '"id"' in r["error"]["message"]


def test_limits(harness):
    big = "x = 1\n" * 60000  # > 256 KiB
    r = harness.request("load", kernel_source=big)
    assert r["error"]["kind"] == "bad-request" and "limit" in r["error"]["message"]
    r = harness.request("hello", timeout_s=-1)
    assert r["error"]["kind"] == "bad-request"
    r = harness.request("load", kernel_source="class ModelNew: pass", cases={"not": "a list"})
    assert r["error"]["kind"] == "bad-request"
    deep = {"a": 1}
    for _ in range(40):
        deep = {"a": deep}
    r = harness.request("hello", extra=deep)
    assert r["error"]["kind"] == "bad-request" and "deeper" in r["error"]["message"]


def test_not_loaded_and_load_errors(tmp_path):
    from conftest import start_harness
    with start_harness(tmp_path) as h:
        r = h.request("validate")
        assert r["error"]["kind"] == "not-loaded"
        r = h.request("load", kernel_source="import nonexistent_module_xyz\n", workdir="x")
        assert r["error"]["kind"] == "load-failed"
        assert "ModuleNotFoundError" in r["error"]["message"] and "nonexistent_module_xyz" in r["error"]["message"]
        r = h.request("load", kernel_source="class ModelNew: pass\n", workdir="../../escape")
        assert r["error"]["kind"] == "bad-request" and "outside" in r["error"]["message"]
        ref, ker = vector_add()
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir="va", correctness_cases=1)
        assert r["ok"], r
        r = h.request("shutdown")
        assert r["ok"] and r["result"]["bye"]
        assert h.proc.wait(timeout=30) == 0


def test_trace_puts_progress_in_the_log(tmp_path, monkeypatch):
    """KOPT_HARNESS_TRACE=1: each progress line also reaches the harness's log with the time
    of day (what showed a sweep waiting minutes on ptxas); without it, none does."""
    import re

    from conftest import start_harness
    from launch import PASS_ENV
    ref, ker = vector_add()
    for trace in ("1", ""):
        monkeypatch.setenv("KOPT_HARNESS_TRACE", trace)
        wd = tmp_path / f"t{trace or 0}"
        wd.mkdir()
        with start_harness(wd) as h:
            r = h.request("load", reference_source=ref, kernel_source=ker, workdir="va", correctness_cases=1)
            assert r["ok"], r
            assert h.request("validate")["ok"]
            h.request("shutdown")
            h.proc.wait(timeout=30)
        log = (wd / "harness.log").read_text()
        traced = re.findall(r"^kopt-harness: \d\d:\d\d:\d\d validate case 0", log, re.MULTILINE)
        assert bool(traced) == (trace == "1"), log[-2000:]
    assert "KOPT_HARNESS_TRACE" in PASS_ENV     # and it crosses the launcher's environment allowlist


def _contract_defines() -> dict[str, int]:
    """The integer #defines of common/contract.h ("1024", "(256u << 10)"), as {name: int}."""
    import re
    out = {}
    with open(os.path.join(ROOT, "common", "contract.h")) as f:
        for m in re.finditer(r"^#define (KOPT_\w+) +\(?(\d+)u? *(?:<< *(\d+))?\)?\s", f.read(), re.MULTILINE):
            out[m.group(1)] = int(m.group(2)) << int(m.group(3) or 0)
    return out


def test_limits_match_the_daemons_contract():
    """The harness's defaults are koptd's (common/contract.h): a koptd left at its defaults
    passes nothing and everything it accepted loads."""
    from kharness import protocol
    c = _contract_defines()
    assert protocol.MAX_SOURCE_BYTES == c["KOPT_SOURCE_BYTES_DEFAULT"]
    assert protocol.SOURCE_BYTES_CAP == c["KOPT_SOURCE_BYTES_MAX"]
    assert protocol.MAX_LINE_BYTES == c["KOPT_HARNESS_LINE_MIN"]
    assert protocol.MAX_CASES == c["KOPT_CASES_MAX"]


def test_configured_source_limit():
    """--max-source-bytes (what the worker passes from koptd's max_source_bytes) moves the
    limit; out of range it is refused at start."""
    from kharness import protocol
    src = "x = 1\n" * (300 * 1024 // 6)            # 300 KiB
    req = json.dumps({"id": 1, "op": "load", "kernel_source": src})
    saved = (protocol.LIMITS.source_bytes, protocol.LIMITS.line_bytes)
    try:
        with pytest.raises(protocol.HarnessError, match="the limit is 262144"):
            protocol.parse_request(req)
        protocol.configure_limits(512 * 1024, None)
        assert protocol.parse_request(req)["op"] == "load"
        with pytest.raises(ValueError, match="--max-source-bytes"):
            protocol.configure_limits(17 << 20, None)
    finally:
        protocol.LIMITS.source_bytes, protocol.LIMITS.line_bytes = saved
    r = subprocess.run([sys.executable, os.path.join(HARNESS_DIR, "kopt_harness.py"), "--max-source-bytes", "10"],
                       capture_output=True, text=True, timeout=60, check=False)
    assert r.returncode == 2 and "--max-source-bytes 10 is outside" in r.stderr, r.stderr


def test_worker_rlimit_argument_is_checked():
    """--rlimit (supervisor -> worker) names a resource.RLIMIT_* and a non-negative integer."""
    import argparse

    from kharness import rlimits
    assert rlimits.format_args({"RLIMIT_AS": 1 << 30, "RLIMIT_CPU": None, "RLIMIT_CORE": 0}) == \
        ["--rlimit=RLIMIT_AS=1073741824", "--rlimit=RLIMIT_CORE=0"]
    assert rlimits.parse_arg("RLIMIT_CPU=60") == ("RLIMIT_CPU", 60)
    for bad_arg, says in (("RLIMIT_BOGUS=1", "RLIMIT_<NAME>"), ("RLIMIT_CPU", "RLIMIT_<NAME>"),
                          ("getrlimit=1", "RLIMIT_<NAME>"), ("RLIMIT_CPU=x", "integer"), ("RLIMIT_CPU=-1", ">= 0")):
        with pytest.raises(argparse.ArgumentTypeError, match=says):
            rlimits.parse_arg(bad_arg)
