"""Real jobs on real workers: koptd + kopt-worker + the sandboxed harness on the Triton
interpreter (TRITON_INTERPRET=1, CPU). Issue 3: end to end, backend matching, two koptd on
one database."""
import json
import threading
import time

import pytest

from kopt_helpers import EventStream, create_token
from worker_fixtures import *  # noqa: F401,F403


def test_vector_add_end_to_end(wkoptd, fresh_db):
    """Submit examples/vector_add over HTTP: queued -> running -> succeeded, baseline
    committed (validate, bench, compile), the worker listed, artifacts stored, events."""
    k = wkoptd(fresh_db)
    viewer, sub = viewer_and_submitter(fresh_db)
    api = k.api(sub)
    wkoptd.wait_workers_ready(k)

    # the worker is listed (the workers table is written with the lease renewal)
    def listed():
        ws = k.api(viewer).get("/v1/workers").json()["workers"]
        return [w for w in ws if w["device"] == "interp:0"]
    ws = wait_for(listed, 15, what="interp:0 in GET /v1/workers")
    assert ws[0]["state"] in ("idle", "starting"), ws
    assert ws[0]["pid"] and ws[0]["pid"] in worker_pids(k.proc.pid), (ws, worker_pids(k.proc.pid))
    assert metric(k, "kopt_workers", state="idle") == 1

    # full default cases: 5 correctness, 5 benchmark
    job = api.create(va_spec(fast=False))
    assert job["state"] == "queued", job
    states_seen = []
    stream = {}

    def follow():
        es = EventStream(k.port, f"/v1/jobs/{job['id']}/events", viewer, timeout=JOB_TIMEOUT)
        stream["es"] = es
        while True:
            ev = es.next_event()
            if ev is None:
                return
            if ev["event"] != "state":
                continue
            st = json.loads(ev["data"]).get("state")
            if st and (not states_seen or states_seen[-1] != st):
                states_seen.append(st)
            if st in TERMINAL:
                return
    t = threading.Thread(target=follow, daemon=True)
    t.start()

    # it runs: GET shows running with the worker as current job
    running = wait_job(api, job["id"], states=("running",) + TERMINAL, timeout=60, koptds=[k])
    done = wait_job(api, job["id"], koptds=[k])
    assert done["state"] == "succeeded", done
    assert done["error"] is None
    assert done["attempts"] == 1, done
    b = done["baseline"]
    assert b, done
    assert b["validate"]["passed"] is True, b["validate"]
    cases = b["bench"].get("cases") or []
    assert len(cases) == 5, b["bench"]           # benchmark_cases defaults to 5
    for c in cases:
        m = c["kernel"].get("median_ms")
        assert isinstance(m, (int, float)) and m > 0, c
    assert b["bench"]["summary"]["geomean_median_ms"] > 0, b["bench"]["summary"]
    comp = b["compile"]
    assert "error" not in comp, comp
    files = {kind for kern in comp["kernels"] for kind in kern["files"]}
    assert {"ttir", "ttgir", "llir", "ptx"} <= files, comp
    assert done["best"]["round"] == 0 and done["best"]["median_ms"] > 0, done["best"]
    assert running["state"] in ("running", "succeeded")

    kinds = {r[0] for r in psql(fresh_db, f"SELECT kind FROM artifacts WHERE job_id = '{job['id']}'")}
    assert any(x.endswith(".ttir") for x in kinds), kinds
    assert any(x.endswith(".ptx") for x in kinds), kinds

    t.join(30)
    stream.get("es") and stream["es"].close()
    assert "running" in states_seen and states_seen[-1] == "succeeded", states_seen
    assert states_seen.index("running") < states_seen.index("succeeded")
    assert job_events_states(fresh_db, job["id"]) == ["queued", "running", "succeeded"]
    # the worker is idle again, no current job
    ws = wait_for(lambda: [w for w in listed() if w["state"] == "idle" and not w["current_job"]],
                  15, what="worker idle again")
    assert ws
