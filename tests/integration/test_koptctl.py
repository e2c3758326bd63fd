"""koptctl against a live koptd (skipped while bin/koptctl does not exist)."""
import json
import os
import subprocess

import pytest

from kopt_helpers import (BIN_DIR, KERNEL_SRC, REFERENCE_SRC, SAN_ENV, UUID_RE, scan_sanitizer,
                          source_matches)

KOPTCTL = BIN_DIR / "koptctl"
pytestmark = pytest.mark.skipif(not KOPTCTL.exists(), reason=f"{KOPTCTL} not built yet")


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("koptctl")
    (d / "kernel.py").write_text(KERNEL_SRC)
    (d / "ref.py").write_text(REFERENCE_SRC)
    return d


@pytest.fixture(scope="module")
def ctl(koptd, tokens):
    def run(*args, token="submitter", timeout=30, expect=0):
        env = dict(os.environ, **SAN_ENV, KOPT_URL=koptd.base)
        if token:
            env["KOPT_TOKEN"] = tokens[token]
        else:
            env.pop("KOPT_TOKEN", None)
        p = subprocess.run([str(KOPTCTL), *args], env=env, capture_output=True, text=True,
                           timeout=timeout)
        scan_sanitizer(p.stdout + p.stderr, "koptctl " + " ".join(args))
        if expect is not None:
            assert p.returncode == expect, \
                f"koptctl {' '.join(args)}: exit {p.returncode}, expected {expect}\n{p.stdout}\n{p.stderr}"
        return p
    return run


def submit(ctl, files, *extra):
    p = ctl("submit", "--reference", str(files / "ref.py"), "--kernel", str(files / "kernel.py"),
            "--backend", "any", *extra)
    ids = UUID_RE.findall(p.stdout)
    assert ids, f"submit printed no job id:\n{p.stdout}"
    return ids[-1]


def test_submit_print_emits_spec(ctl, files, api):
    before = len(api.list_all())
    p = ctl("submit", "--reference", str(files / "ref.py"), "--kernel", str(files / "kernel.py"),
            "--backend", "interp", "--rounds", "3", "--print")
    spec = json.loads(p.stdout)
    assert spec["kernel"]["source"] == KERNEL_SRC
    assert spec["reference"]["source"] == REFERENCE_SRC
    assert spec["backend"] == "interp" and spec["rounds"] == 3
    assert len(api.list_all()) == before, "--print must not submit"


def test_submit_status_list_cancel(ctl, files, api):
    job_id = submit(ctl, files, "--name", "ctl-job")
    got = api.job(job_id)
    assert got["state"] == "queued" and got["name"] == "ctl-job"
    assert source_matches(got["spec"]["kernel"], KERNEL_SRC)
    p = ctl("status", job_id, "--json", token="viewer")
    doc = json.loads(p.stdout)
    assert doc["id"] == job_id and doc["state"] == "queued"
    p = ctl("status", job_id, token="viewer")
    assert "queued" in p.stdout
    p = ctl("list", token="viewer")
    assert job_id[:8] in p.stdout, p.stdout
    ctl("cancel", job_id)
    assert api.job(job_id)["state"] == "cancelled"


def test_watch_cancelled_exits_2(ctl, files, api):
    job_id = submit(ctl, files)
    api.cancel(job_id)
    p = ctl("watch", job_id, token="viewer", timeout=30, expect=2)
    assert p.returncode == 2


def test_submit_idempotency_key(ctl, files):
    a = submit(ctl, files, "--idempotency-key", "ctl-key-1")
    b = submit(ctl, files, "--idempotency-key", "ctl-key-1")
    assert a == b


def test_errors_exit_3(ctl, files):
    p = ctl("status", "00000000-0000-0000-0000-000000000000", expect=3)
    assert p.stderr.strip(), "an error says why on stderr"
    p = ctl("list", token=None, expect=3)
    assert "401" in p.stderr or "token" in p.stderr.lower(), p.stderr
    ctl("submit", "--kernel", str(files / "missing.py"), expect=3)
    ctl("frobnicate", expect=3)
    p = ctl("submit", "--kernel", str(files / "kernel.py"), "--rounds", "101", expect=3)
    assert "rounds" in p.stderr, "the server's validation error names the field"
