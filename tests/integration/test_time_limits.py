"""A hang costs seconds, not a quarter of an hour (issue 8, item 6).

Each harness call's limit is derived from what the job measured (workers/deadline.c): a
kernel whose forward never returns once the load has measured it fails within that limit,
with the limit and its derivation in the reason, and the timeout is counted once (one step
failure, one attempt, no retry)."""
import datetime
import math
import re
import time

from kopt_helpers import create_token
from worker_fixtures import *

CAP_S = 300    # KOPT_EVAL_TIMEOUT_S: what every call waited before
FLOOR_S = 5    # KOPT_EVAL_TIMEOUT_FLOOR_S, low so that the test is quick

# The load's probe is its first forward; the second (validate's) never returns.
HANG_SECOND = VA_KERNEL.replace(
    "        return out",
    "        global CALLS\n        CALLS += 1\n        while CALLS >= 2:\n            pass\n"
    "        return out", 1) + "\nCALLS = 0\n"


def ts(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%S.%fZ").timestamp()


def test_hang_after_load_fails_within_derived_limit(wkoptd, fresh_db):
    k = wkoptd(fresh_db, eval_timeout_s=CAP_S, KOPT_EVAL_TIMEOUT_FLOOR_S=FLOOR_S)
    api = k.api(create_token(fresh_db, "submitter"))
    t0 = time.monotonic()
    job = api.create(va_spec(kernel=HANG_SECOND, name="hang-second-call"))
    j = wait_job(api, job["id"], koptds=[k], timeout=CAP_S)
    took = time.monotonic() - t0
    assert j["state"] == "failed", (j["state"], j["error"])
    err = j["error"] or ""
    m = re.match(r"^initial kernel validate timed out after (\d+) s \(limit (\d+) s: "
                 r"5 x ([0-9.]+) s expected \(1 case x ([0-9.]+) s per case \(the load's probe\)\)", err)
    assert m, f"the reason does not give the derived limit: {err!r}"
    after, limit, expected = int(m.group(1)), int(m.group(2)), float(m.group(3))
    assert after == limit and FLOOR_S <= limit < CAP_S / 4, err
    # limit = max(floor, ceil(5 x expected)); expected is printed rounded to 0.1 s
    assert abs(limit - max(FLOOR_S, math.ceil(5 * expected))) <= 1, err
    # the harness's own words follow: where it was when it was stopped
    assert "validate case" in err, err
    # seconds, not minutes: from the worker's start of the job to its failure
    started, finished = ts(j["started_at"]), ts(j["finished_at"])
    assert finished - started < limit + 60, (finished - started, limit, err)
    assert took < CAP_S / 2, took
    # counted once: one timed-out step, one attempt, nothing retried or requeued
    assert (j["attempts"], j["infra_retries"]) == (1, 0), j
    failed = [e for e in log_events(k.log(), "job.step_failed") if e["job"] == job["id"]]
    assert [(e["step"], e["kind"], e["limit_s"]) for e in failed] == [("validate", "timeout", str(limit))], failed
    assert not [e for e in log_events(k.log(), "harness.killed") if e["job"] == job["id"]]
    # the worker carries on with the next job (a fresh harness worker, the load replayed)
    good = api.create(va_spec(name="good-after-hang"))
    g = wait_job(api, good["id"], koptds=[k])
    assert g["state"] == "succeeded", (g["state"], g["error"])
