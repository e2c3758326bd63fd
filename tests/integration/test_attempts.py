"""Attempts count the job's own faults only (issue 8, item 11).

A PostgreSQL restart mid-job costs the job nothing (its worker waits for the database and
commits the step it was on); a kernel that gets its harness killed over and over spends its
attempts and fails with the reason and the count. kill -9 of a worker or of koptd (an infra
retry, no attempt) is in test_crash.py; a kernel that crashes the harness (SIGSEGV: a
verdict, one attempt) in test_bad_kernels.py."""
import time

from kopt_helpers import create_token
from worker_fixtures import *
from worker_fixtures import restart_pg

LEASE_S = 6

# A kernel that kills its own harness worker process with SIGKILL on every forward: to the
# worker this looks like the OOM killer (or an operator) each time, so it is retried in place
# twice per step, and then the attempt is spent.
SELF_KILL = VA_KERNEL.replace(
    "        return out",
    "        import os, signal\n        os.kill(os.getpid(), signal.SIGKILL)\n        return out", 1)


def wait_step(api, job_id, steps, timeout=120):
    def at():
        j = api.job(job_id)
        assert j["state"] in ("queued", "running"), (j["state"], j["error"])
        return j if (j.get("progress") or {}).get("step") in steps else None
    return wait_for(at, timeout, interval=0.05, what=f"job {job_id} at step {steps}")


def test_postgres_restart_mid_job_costs_no_attempt(wkoptd, fresh_db):
    """PostgreSQL is restarted while the harness works: the worker finds its connection
    dead when it next writes, waits for the database and goes on. The job succeeds on its
    first attempt with one baseline, and koptd keeps serving."""
    assert "return out" in VA_KERNEL
    k = wkoptd(fresh_db, lease_s=LEASE_S)
    api = k.api(create_token(fresh_db, "submitter"))
    job = api.create(va_spec())
    wait_step(api, job["id"], ("load", "validate", "bench"))
    took = restart_pg()
    j = wait_job(api, job["id"], koptds=[k])
    assert j["state"] == "succeeded", (j["state"], j["error"], log_tail(k))
    assert j["attempts"] == 1, j
    # the worker outlived the restart: at most a lapsed lease (a restart slower than the
    # lease), which is an infra retry, never an attempt
    assert j["infra_retries"] <= 1, j
    assert j["baseline"]["validate"]["passed"] is True
    committed = [e for e in log_events(k.log(), "job.baseline_committed") if e["job"] == job["id"]]
    assert len(committed) == 1, committed
    terminal = [s for s in job_events_states(fresh_db, job["id"]) if s in TERMINAL]
    assert terminal == ["succeeded"], terminal
    # the worker did meet the dead connection (its next write failed) and carried on
    assert "event=job.db_lost" in k.log() or "event=job.update_failed" in k.log(), (
        f"PostgreSQL restarted in {took:.1f} s but the worker noticed nothing:\n{log_tail(k)}")
    # and koptd itself serves again
    assert api.job(job["id"])["id"] == job["id"]


def test_kernel_that_gets_its_harness_killed_spends_attempts(wkoptd, fresh_db):
    """SIGKILL of the harness worker at every forward: each step tolerates two, the third
    ends the attempt as the job's fault: the job is queued again (attempt 2) and then fails,
    naming the kills and the attempt count. No infra retry is counted."""
    k = wkoptd(fresh_db, lease_s=LEASE_S, KOPT_MAX_ATTEMPTS=2)
    api = k.api(create_token(fresh_db, "submitter"))
    t0 = time.monotonic()
    job = api.create(va_spec(kernel=SELF_KILL, name="self-kill"))
    j = wait_job(api, job["id"], koptds=[k])
    assert j["state"] == "failed", (j["state"], j["error"], log_tail(k))
    assert (j["attempts"], j["infra_retries"]) == (2, 0), j
    assert "killed by SIGKILL 3 times during load" in j["error"], j["error"]
    assert j["error"].endswith("(attempt 2 of 2)"), j["error"]
    # attempt 1 ended by the job's fault: requeued (a state event back to queued), then run
    states = job_events_states(fresh_db, job["id"])
    assert states.count("queued") == 2 and states[-1] == "failed", states
    requeued = [e for e in log_events(k.log(), "job.requeued") if e["job"] == job["id"]]
    assert len(requeued) == 1 and requeued[0]["cause"] == "job", requeued
    starts = [e["attempt"] for e in log_events(k.log(), "job.start") if e["job"] == job["id"]]
    assert starts == ["1", "2"], starts
    kills = [e for e in log_events(k.log(), "harness.killed") if e["job"] == job["id"]]
    assert len(kills) == 4, kills  # two tolerated per attempt
    print(f"self-killing kernel failed after {time.monotonic() - t0:.0f} s")
    # the worker is fine: a good job runs next
    good = api.create(va_spec(name="good-after-self-kill"))
    g = wait_job(api, good["id"], koptds=[k])
    assert g["state"] == "succeeded" and (g["attempts"], g["infra_retries"]) == (1, 0), g
