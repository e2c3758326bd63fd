"""Start-up checks (issue 8, item 2) and one source for every limit (item 3), through a real
koptd with a real interp worker and harness.

A worker takes jobs only once its harness started as the sandbox user and imported torch and
Triton. With an interpreter that cannot (no torch; not readable by the sandbox user) koptd
is not ready, /readyz, GET /v1/workers and its log say why, and a submitted job waits in the
queue instead of failing; once the interpreter is fixed (the configuration pointed at a good
one and SIGHUP, or the permissions restored and the periodic re-check) the job runs. The job
that waits carries a 300 KiB source with max_source_bytes raised to 512 KiB: what the API
accepts, the harness loads."""
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
import requests

from kopt_helpers import ROOT, create_token
from worker_fixtures import *  # noqa: F401,F403

GOOD_PYTHON = ROOT / ".venv" / "bin" / "python"
SOURCE_BYTES = 300 * 1024


def bare_venv(where: Path) -> Path:
    """A virtualenv of the system Python without torch (what `python3 -m venv` gives)."""
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(where)], check=True, timeout=120)
    return where / "bin" / "python"


def big_kernel(size: int) -> str:
    """examples/vector_add's kernel padded with comment lines to exactly size bytes."""
    head = VA_KERNEL.rstrip("\n") + "\n\n"
    line = "# " + "padding " * 12 + "\n"
    body = line * ((size - len(head)) // len(line))
    tail = "#" * (size - len(head) - len(body) - 1) + "\n"
    src = head + body + tail
    assert len(src.encode()) == size
    return src


def readyz(k):
    """(status, document) of /readyz; (0, {}) while koptd is not listening yet."""
    try:
        r = requests.get(k.base + "/readyz", timeout=10)
    except requests.ConnectionError:
        return 0, {}
    return r.status_code, r.json()


def wait_unready(k, *needles, timeout=120):
    """Waits until /readyz answers 503 naming every needle; returns its document."""
    def check():
        code, doc = readyz(k)
        return doc if code == 503 and all(n in doc.get("detail", "") for n in needles) else None
    return wait_for(check, timeout, interval=0.5, what=f"/readyz 503 naming {needles}")


def worker_row(api):
    rows = api.get("/v1/workers").json()["workers"]
    assert len(rows) == 1, rows
    return rows[0]


def check_failures(k):
    return len(log_events(k.log(), "worker.check_failed"))


def assert_waits(k, api, jid):
    """The job stays queued, unclaimed, through a failed re-check of the worker."""
    n = check_failures(k)
    wait_for(lambda: check_failures(k) > n, 60, what="a periodic re-check")
    j = api.job(jid)
    assert j["state"] == "queued" and j["attempts"] == 0, j


def test_no_torch_waits_then_runs_after_sighup(wkoptd, fresh_db, tmp_path):
    bad_python = bare_venv(tmp_path / "venv-without-torch")
    cfg = tmp_path / "koptd.ini"
    cfg.write_text(f"[server]\nmax_source_bytes = 512K\n\n[workers]\nharness_python = {bad_python}\n")
    k = wkoptd(fresh_db, wait=False, drop_env=("KOPT_HARNESS_PYTHON",), args=["-c", str(cfg)])
    doc = wait_unready(k, f"interpreter {bad_python}", "No module named 'torch'")
    assert doc["workers"][0]["device"] == "interp:0" and doc["workers"][0]["state"] == "unready", doc
    api = k.api(create_token(fresh_db, "submitter"))
    row = wait_for(lambda: (lambda r: r if r.get("ready") is False else None)(worker_row(api)), 60,
                   what="the workers row to say ready=false")
    assert "No module named 'torch'" in row["check_error"] and row["state"] == "unready", row
    unready = log_events(k.log(), "pool.worker_unready")
    assert unready and "No module named 'torch'" in unready[0]["reason"], log_tail(k)

    src = big_kernel(SOURCE_BYTES)
    jid = api.create(va_spec(kernel=src, name="waits-for-a-good-interpreter"))["id"]
    time.sleep(3)                   # the scheduler sees it at once (NOTIFY) and claims nothing
    j = api.job(jid)
    assert j["state"] == "queued" and j["attempts"] == 0, j

    cfg.write_text(f"[server]\nmax_source_bytes = 512K\n\n[workers]\nharness_python = {GOOD_PYTHON}\n")
    k.signal(signal.SIGHUP)
    j = wait_job(api, jid, koptds=[k])
    assert j["state"] == "succeeded", (j["state"], j["error"])
    assert j["attempts"] == 1, j
    assert readyz(k)[0] == 200
    row = wait_for(lambda: (lambda r: r if r.get("ready") else None)(worker_row(api)), 60,
                   what="the workers row to say ready=true")
    assert row["check_error"] is None and row["harness"]["torch"] and row["harness"]["triton"], row
    assert row["harness"]["python"] == str(GOOD_PYTHON), row


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root: the harness runs as a sandbox user only then")
def test_unreadable_interpreter_waits_then_runs_when_readable(wkoptd, fresh_db):
    """An interpreter the sandbox user cannot read (its directory is 0700 root): a venv whose
    packages are the good one's (a .pth), so that it works once readable."""
    d = Path(tempfile.mkdtemp(prefix="kopt-unreadable-", dir="/tmp"))
    try:
        os.chmod(d, 0o755)
        python = bare_venv(d / "venv")
        purelib = subprocess.run([str(GOOD_PYTHON), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                 capture_output=True, text=True, check=True, timeout=60).stdout.strip()
        mine = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True, timeout=60).stdout.strip()
        Path(mine, "kopt-good-packages.pth").write_text(os.path.realpath(purelib) + "\n")
        os.chmod(d / "venv", 0o700)
        k = wkoptd(fresh_db, wait=False, KOPT_HARNESS_PYTHON=str(python))
        doc = wait_unready(k, f"interpreter {python}", "cannot be read by user kopt-sb-interp0")
        assert str(d / "venv") in doc["detail"], doc
        api = k.api(create_token(fresh_db, "submitter"))
        jid = api.create(va_spec(name="waits-for-permissions"))["id"]
        assert_waits(k, api, jid)

        # one line per reason, not one per re-check
        assert len(log_events(k.log(), "pool.worker_unready")) == 1, log_tail(k)
        os.chmod(d / "venv", 0o755)   # fixed: the next periodic re-check passes, no SIGHUP
        j = wait_job(api, jid, koptds=[k])
        assert j["state"] == "succeeded", (j["state"], j["error"])
        assert readyz(k)[0] == 200
    finally:
        shutil.rmtree(d, ignore_errors=True)
