"""Crash safety (issue 3, item 7): kill -9 of the harness, of a worker, of koptd mid-job, and
SIGTERM of koptd mid-job, leave no job stuck and lose or duplicate no committed record: the
job resumes from its last committed step once its lease expires (another koptd may take it).

Processes are found below the pid of the koptd the test started (never by name)."""
import datetime
import time

import pytest

from kopt_helpers import create_token
from worker_fixtures import *  # noqa: F401,F403

LEASE_S = 6


def wait_step(api, job_id, steps, timeout=120):
    """Waits until the running job's progress step is one of steps; returns the job."""
    def at():
        j = api.job(job_id)
        if j["state"] != "running" and j["state"] != "queued":
            raise AssertionError(f"job ended before reaching {steps}: {j['state']} {j['error']!r}")
        return j if (j.get("progress") or {}).get("step") in steps else None
    return wait_for(at, timeout, interval=0.05, what=f"job {job_id} at step {steps}")


def log_time(line):
    """Epoch seconds of a log line's timestamp (2026-11-30T11:49:36.147Z ...)."""
    ts = line.split(" ", 1)[0]
    return datetime.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=datetime.timezone.utc).timestamp()


def the_worker(k):
    ws = wait_for(lambda: worker_pids(k.proc.pid), 20, what="a kopt-worker child of koptd")
    assert len(ws) == 1, ws
    return ws[0]


def assert_full_baseline(db, j):
    """A complete baseline: validate passed, timings, compile with IR files, IR artifacts."""
    b = j["baseline"]
    assert b, j
    assert b["validate"]["passed"] is True, b["validate"]
    assert b["bench"]["cases"] and all(c["kernel"]["median_ms"] > 0 for c in b["bench"]["cases"])
    assert "error" not in b["compile"], f"the baseline's compile step failed: {b['compile']}"
    files = {kind for kern in b["compile"]["kernels"] for kind in kern["files"]}
    assert {"ttir", "ptx"} <= files, b["compile"]
    kinds = [r[0] for r in psql(db, f"SELECT kind FROM artifacts WHERE job_id = '{j['id']}'")]
    assert any(x.endswith(".ptx") for x in kinds), kinds
    assert len(kinds) == len(set(kinds)), kinds


def assert_no_duplicates(db, job_id, logs):
    """One terminal state event, at most one committed baseline, one run per attempt."""
    states = job_events_states(db, job_id)
    terminal = [s for s in states if s in TERMINAL]
    assert len(terminal) == 1, f"job_events states: {states}"
    n_rounds = psql(db, f"SELECT count(*), count(DISTINCT round) FROM rounds WHERE job_id = '{job_id}'")[0]
    assert n_rounds[0] == n_rounds[1], n_rounds
    committed = [e for text in logs for e in log_events(text, "job.baseline_committed")
                 if e.get("job") == job_id]
    assert len(committed) == 1, f"baseline committed {len(committed)} times"


# ---------------------------------------------------------------- kill -9 of the harness

@pytest.mark.parametrize("victim,steps", [
    ("launcher", "validate|bench"),    # the worker's child: bwrap (the launcher execs into it)
    ("launcher", "compile"),
    ("supervisor", "validate|bench"),  # the harness's Python supervisor inside the sandbox
])
def test_kill9_harness_mid_baseline(wkoptd, fresh_db, victim, steps):
    """The worker retries the step with a fresh harness; the job still ends succeeded with
    a complete baseline, on its first attempt, by the same worker process."""
    k = wkoptd(fresh_db, lease_s=LEASE_S)
    api = k.api(create_token(fresh_db, "submitter"))
    job = api.create(va_spec(fast=False))
    step = wait_step(api, job["id"], tuple(steps.split("|")))["progress"]["step"]
    w = the_worker(k)
    if victim == "launcher":
        pid = harness_pid(w)
    else:
        sup = [p for p in harness_python_pids(w) if "--worker" not in cmdline(p)]
        assert len(sup) == 1, [(p, cmdline(p)) for p in descendants(w)]
        pid = sup[0]
    assert pid, f"no harness under worker {w}: {[(p, cmdline(p)) for p in descendants(w)]}"
    kill9(pid)
    j = wait_job(api, job["id"], koptds=[k])
    assert j["state"] == "succeeded", (f"kill -9 of the harness {victim} during {step}: "
                                       f"{j['state']}: {j['error']!r}\n{log_tail(k)}")
    assert (j["attempts"], j["infra_retries"]) == (1, 0), j
    assert_full_baseline(fresh_db, j)
    assert w in worker_pids(k.proc.pid), "the worker itself was replaced"
    assert not alive(pid)
    assert_no_duplicates(fresh_db, job["id"], [k.log()])


# ----------------------------------------------------------------- kill -9 of the worker

def test_kill9_worker_mid_job(wkoptd, fresh_db):
    """koptd restarts the worker (counted in /metrics); the job's lease is released, the new
    worker takes it and it ends succeeded with exactly one baseline. The crash was not the
    job's fault: it spent no attempt (still 1), one infra retry."""
    k = wkoptd(fresh_db, lease_s=LEASE_S)
    viewer = create_token(fresh_db, "viewer")
    api = k.api(create_token(fresh_db, "submitter"))
    assert metric(k, "kopt_worker_restarts_total") == 0
    job = api.create(va_spec())
    wait_step(api, job["id"], ("bench", "compile"))
    w = the_worker(k)
    harness = descendants(w)
    assert harness, "the worker has no harness"
    kill9(w)
    # the worker's harness dies with it (PR_SET_PDEATHSIG / bwrap --die-with-parent)
    wait_for(lambda: not any(alive(p) for p in harness), 10,
             what="the killed worker's harness processes to exit")
    w2 = wait_for(lambda: [p for p in worker_pids(k.proc.pid) if p != w and alive(p)], 30,
                  what="a new worker")
    assert metric(k, "kopt_worker_restarts_total") >= 1
    j = wait_job(api, job["id"], koptds=[k])
    assert j["state"] == "succeeded", (j["state"], j["error"], log_tail(k))
    assert (j["attempts"], j["infra_retries"]) == (1, 1), j
    assert_full_baseline(fresh_db, j)
    assert_no_duplicates(fresh_db, job["id"], [k.log()])
    exited = log_events(k.log(), "pool.worker_exited")
    assert exited and exited[0]["signal"] == "9" and exited[0]["job"] == job["id"], exited
    starts = [e for e in log_events(k.log(), "job.start") if e["job"] == job["id"]]
    assert [e["attempt"] for e in starts] == ["1", "1"], starts
    assigned = [e for e in log_events(k.log(), "pool.assigned") if e["job"] == job["id"]]
    assert [e["infra_retries"] for e in assigned] == ["0", "1"], assigned
    # each claim has an owner of its own: the dead worker's claim cannot write any more
    assert len({e["owner"] for e in assigned}) == 2, assigned
    assert metric(k, "kopt_workers", state="idle") == 1
    # GET /v1/workers shows the new pid and the restart
    def listed():
        ws = k.api(viewer).get("/v1/workers").json()["workers"]
        return [x for x in ws if x["device"] == "interp:0" and x["pid"] == w2[0]]
    row = wait_for(listed, 2 * LEASE_S, what="the new worker's pid in GET /v1/workers")[0]
    assert row["restarts"] >= 1, f"GET /v1/workers does not count the restart: {row}"


# ------------------------------------------------------------------- kill -9 of koptd

def test_kill9_koptd_mid_job_second_koptd_resumes(wkoptd, fresh_db):
    """Its worker and harness die with it; a second koptd on the same database takes the job
    over once the lease expires and completes it; no record is duplicated; the crash cost
    the job no attempt (an infra retry)."""
    a = wkoptd(fresh_db, lease_s=LEASE_S, name="koptd-a")
    api = a.api(create_token(fresh_db, "submitter"))
    job = api.create(va_spec())
    wait_step(api, job["id"], ("validate", "bench", "compile"))
    tree = descendants(a.proc.pid)
    assert len(tree) >= 2, tree
    a.kill9()
    killed_at = time.monotonic()
    wait_for(lambda: not any(alive(p) for p in tree), 10,
             what="koptd's worker and harness to die with it")
    row = job_row(fresh_db, job["id"], "state, lease_owner IS NOT NULL, "
                                        "extract(epoch FROM lease_expires_at)")
    assert row[:2] == ["running", "t"], row
    lease_end = float(row[2])

    b = wkoptd(fresh_db, lease_s=LEASE_S, name="koptd-b")
    j = wait_job(b.api(api.token), job["id"], koptds=[a, b])
    assert j["state"] == "succeeded", (j["state"], j["error"])
    assert (j["attempts"], j["infra_retries"]) == (1, 1), j
    took = time.monotonic() - killed_at
    assert took < LEASE_S + 120, took
    started_b = [e for e in log_events(b.log(), "job.start") if e["job"] == job["id"]]
    assert len(started_b) == 1 and started_b[0]["attempt"] == "1", started_b
    # b claimed it only after a's lease had expired: never two runs of one job at once
    claimed = log_time(next(line for line in b.log().splitlines()
                            if "event=pool.assigned" in line and job["id"] in line))
    assert claimed >= lease_end - 0.05, (claimed, lease_end)
    assert_full_baseline(fresh_db, j)
    assert_no_duplicates(fresh_db, job["id"], [a.log(), b.log()])
    owner, worker = job_row(fresh_db, job["id"], "lease_owner, worker")
    assert owner == "" and worker.startswith(b.env["KOPT_HOST_ID"] + "/"), (owner, worker)


# ------------------------------------------------------------------ SIGTERM of koptd

def test_sigterm_while_job_runs_then_new_koptd_completes(wkoptd, fresh_db):
    """koptd exits 0 within 10 s of SIGTERM with a job running; the job stays `running`
    with its lease expired or about to; its worker and harness are gone; a new koptd
    completes it."""
    a = wkoptd(fresh_db, lease_s=LEASE_S, name="koptd-a")
    api = a.api(create_token(fresh_db, "submitter"))
    job = api.create(va_spec())
    wait_step(api, job["id"], ("validate", "bench", "compile"))
    tree = descendants(a.proc.pid)
    rc, took = a.terminate(10.0)
    a.checked = True
    a.logf.close()
    a.check_sanitizer()
    assert rc == 0 and took < 10, f"exit {rc} after {took:.1f} s; log:\n{log_tail(a)}"
    assert not [p for p in tree if alive(p)], "workers/harnesses outlived koptd"
    state, expires_in = job_row(fresh_db, job["id"],
                                "state, extract(epoch FROM lease_expires_at - now())")
    assert state == "running", state
    assert float(expires_in) <= LEASE_S, expires_in

    b = wkoptd(fresh_db, lease_s=LEASE_S, name="koptd-b")
    j = wait_job(b.api(api.token), job["id"], koptds=[a, b])
    assert j["state"] == "succeeded", (j["state"], j["error"])
    assert (j["attempts"], j["infra_retries"]) == (1, 1), j
    assert_full_baseline(fresh_db, j)
    assert_no_duplicates(fresh_db, job["id"], [a.log(), b.log()])
