"""Secrets never reach submitted kernels or anything a viewer reads, and what a kernel
prints stays out of koptd's log (issue 8, item 8).

One koptd with an interp worker whose environment holds the database URL (always) and an LLM
key; kernels that look for them, that quote them, and that flood their output."""
import re

import pytest
import requests

from kopt_helpers import create_token
from worker_fixtures import *  # noqa: F401,F403

LLM_KEY = "sk-test-DO-NOT-LEAK-0123456789abcdef"

@pytest.fixture(scope="module")
def sk(module_wkoptd, db):
    k = module_wkoptd(db, eval_timeout_s=60, KOPT_LLM_API_KEY=LLM_KEY)
    module_wkoptd.wait_workers_ready(k)
    return k, k.api(create_token(db, "submitter", "secrets")), db


def _leaks(text, db_url):
    found = []
    for name, v in (("database URL", db_url), ("LLM key", LLM_KEY)):
        if v and v in (text or ""):
            found.append(name)
    return found


def test_environment_holds_no_secret(sk):
    """The kernel lists the environment it sees; no secret-bearing variable is in it."""
    k, api, db_url = sk
    src = va_kernel_with('''
names = sorted(n for n in os.environ if n.startswith(("KOPT", "PG", "DATABASE")))
vals = [os.environ.get(n, "") for n in ("KOPT_DATABASE_URL", "KOPT_LLM_API_KEY")]
raise ValueError("env=" + ",".join(names) + " vals=" + "|".join(vals))
''')
    j = wait_job(api, api.create(va_spec(kernel=src, name="env-probe"))["id"], koptds=[k])
    assert j["state"] == "failed", j
    err = j["error"] or ""
    m = re.search(r"env=([A-Z_,]*)", err)
    assert m, err
    names = set(filter(None, m.group(1).split(",")))
    assert not names & {"KOPT_DATABASE_URL", "KOPT_LLM_API_KEY", "KOPT_LLM_API_KEY_FILE", "PGPASSWORD"}, err
    assert "vals=|" in err, err            # both values empty inside the sandbox
    assert not _leaks(err, db_url), err


def test_quoted_secret_is_redacted_everywhere(sk):
    """Even a kernel that knows a secret (here: written into its source) cannot carry it into
    the job document, its events or koptd's log: the worker redacts it."""
    k, api, db_url = sk
    src = va_kernel_with(f'''
print("leaking " + {LLM_KEY!r})
raise ValueError("db=" + {db_url!r} + " key=" + {LLM_KEY!r})
''')
    jid = api.create(va_spec(kernel=src, name="quote-secret"))["id"]
    j = wait_job(api, jid, koptds=[k])
    assert j["state"] == "failed", j
    assert "[redacted]" in (j["error"] or ""), j["error"]
    assert not _leaks(j["error"], db_url), j["error"]
    for path in (f"/v1/jobs/{jid}", f"/v1/jobs/{jid}/rounds", f"/v1/jobs/{jid}/log"):
        body = api.get(path).text
        assert not _leaks(body, db_url), f"{path} leaks: {_leaks(body, db_url)}"
    ev = requests.get(f"{k.base}/v1/jobs/{jid}/events", headers={"Authorization": f"Bearer {api.token}"},
                      timeout=10, stream=True)
    text = b""
    for chunk in ev.iter_content(4096):
        text += chunk
        if b"failed" in text or len(text) > 1 << 20:
            break
    ev.close()
    assert not _leaks(text.decode("utf-8", "replace"), db_url)
    assert not _leaks(k.log(), db_url), "koptd's log holds a secret"


IMPORT_FLOOD_MIB = 256


def test_print_flood_stays_out_of_koptd_log(sk):
    """256 MiB printed while the module is imported, 20 MB more from forward, one line
    imitating koptd's own: the job succeeds, koptd's log grows by almost nothing, and the
    job's own log keeps a capped copy with the true byte count."""
    k, api, _ = sk
    forged = "2026-12-01T00:00:00.000Z level=error comp=koptd pid=1 event=forged.by_kernel"
    src = f'''
import os as _os
_MIB = b"y" * ((1 << 20) - 1) + b"\\n"
for _ in range({IMPORT_FLOOD_MIB}):
    _os.write(1, _MIB)
''' + va_kernel_with(f'''
sys.stdout.write({forged!r} + "\\n")
chunk = "x" * 1023 + "\\n"
for _ in range(20 * 1024):
    sys.stdout.write(chunk)
os.write(2, b"c-level write\\n")
''')
    before = len(k.log())
    jid = api.create(va_spec(kernel=src, name="print-flood"))["id"]
    j = wait_job(api, jid, koptds=[k])
    assert j["state"] == "succeeded", (j["state"], j["error"])
    grown = len(k.log()) - before
    assert grown < 256 * 1024, f"koptd's log grew by {grown} bytes"
    assert "forged.by_kernel" not in k.log()
    log = api.get(f"/v1/jobs/{jid}/log").json()["entries"]
    assert log, "no job log entries"
    big = max(log, key=lambda e: e["bytes"])
    assert big["bytes"] >= IMPORT_FLOOD_MIB << 20, big["bytes"]
    assert big["truncated"] is True
    assert len(big["text"].encode()) <= 64 * 1024
    assert any("forged.by_kernel" in e["text"] for e in log)
    total = sum(len(e["text"].encode()) for e in log)
    assert total <= 1 << 20, total


def test_kernel_reading_files_and_environments_finds_no_secret(sk, planted_host_files):
    """A kernel that reads host files (world-readable ones the test made, koptd's config
    path, the checkout) and the environment of every process it can name (/proc/self,
    /proc/1, its ancestors), prints all of it and raises with it: nothing secret is in what
    it found, so nothing even needed redaction in the job document, its log, its events or
    koptd's log."""
    k, api, db_url = sk
    names, planted = planted_host_files
    jid = api.create(va_spec(kernel=bad_source("read_host_files.py"), name="read-files"))["id"]
    j = wait_job(api, jid, koptds=[k])
    assert j["state"] == "failed" and "raised: ValueError" in (j["error"] or ""), j
    assert "srv=FileNotFoundError" in j["error"] and "home=FileNotFoundError" in j["error"], j["error"]
    log = api.get(f"/v1/jobs/{jid}/log").text
    assert "env" in log and "PATH=" in log, log[:2000]      # it did read environments
    events = api.get(f"/v1/jobs/{jid}/rounds").text
    for where, text in (("error", j["error"]), ("job log", log), ("rounds", events), ("koptd log", k.log())):
        assert not _leaks(text, db_url), f"{where} leaks {_leaks(text, db_url)}"
        assert planted not in text and not any(n in text for n in names), f"{where} names a planted file"
    assert "[redacted]" not in j["error"] and "[redacted]" not in log, "a secret reached the kernel"
