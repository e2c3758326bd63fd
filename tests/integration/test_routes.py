"""Every route of docs/API.md, as the contract describes it."""
import json
import re
import threading
import time
import uuid

import pytest
import requests

from kopt_helpers import (ROOT, EventStream, assert_problem, describe, job_spec, parse_metrics,
                          REFERENCE_SRC, source_matches)

JOB_KEYS = {"id", "name", "state", "backend", "priority", "rounds", "policy", "proposer",
            "attempts", "error", "cancel_requested", "created_at", "updated_at", "started_at",
            "finished_at", "baseline", "best", "progress", "worker"}
TS_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def api_md_routes():
    """(method, path) of each row of the routes table of docs/API.md."""
    text = (ROOT / "docs" / "API.md").read_text()
    out = []
    for m in re.finditer(r"^\| `(GET|POST|PUT|DELETE|PATCH) ([^`?]+)(\?[^`]*)?` \|", text, re.M):
        out.append((m.group(1), m.group(2).strip()))
    return out


def norm(path):
    return re.sub(r"\{[^}]*\}", "{}", path)


def test_api_md_lists_routes():
    routes = api_md_routes()
    assert ("POST", "/v1/jobs") in routes and ("GET", "/metrics") in routes, routes


# ------------------------------------------------------------------------- POST /v1/jobs

def test_create_job_201(koptd, api):
    r = api.post("/v1/jobs", job_spec(name="create-201"))
    assert r.status_code == 201, describe(r)
    assert r.headers.get("Content-Type", "").startswith("application/json"), describe(r)
    job = r.json()
    assert JOB_KEYS <= set(job), f"missing keys {JOB_KEYS - set(job)}" + describe(r)
    uuid.UUID(job["id"])
    assert job["state"] == "queued"
    assert job["name"] == "create-201"
    assert job["attempts"] == 0 and job["error"] is None and job["cancel_requested"] is False
    assert job["started_at"] is None and job["finished_at"] is None
    assert TS_RE.match(job["created_at"]), job["created_at"]
    loc = r.headers.get("Location", "")
    assert loc.endswith(f"/v1/jobs/{job['id']}"), "Location header" + describe(r)
    # Location resolves
    target = loc if loc.startswith("http") else koptd.base + loc
    r2 = requests.get(target, headers=api.headers(), timeout=10)
    assert r2.status_code == 200 and r2.json()["id"] == job["id"], describe(r2)


def test_create_job_full_spec_roundtrip(api):
    spec = job_spec(name="full", reference={"source": REFERENCE_SRC, "filename": "ref.py"},
                    backend="interp", rounds=3, policy="profile_only", proposer="rules",
                    priority=7, benchmark_cases=2, correctness_cases=4, seed=1234,
                    tunables={"BLOCK_SIZE": [256, 512, 1024], "num_warps": [4, 8]},
                    tolerances={"float32": {"rtol": 0.0001, "atol": 1e-05},
                                "int8": {"atol": 1, "max_fraction": 0.001}},
                    pattern_index=3, exclude_same_operator=True, operator="vector_add",
                    ir_target="ascend", cases=[{"inputs": [{"name": "x", "type": "tensor", "dtype": "float32",
                                        "shape": [1024]}]}])
    job = api.create(spec)
    assert job["backend"] == "interp" and job["rounds"] == 3 and job["priority"] == 7
    assert job["policy"] == "profile_only"
    got = api.job(job["id"])["spec"]
    for k, v in spec.items():
        if k in ("kernel", "reference"):
            assert source_matches(got[k], v["source"]), f"spec.{k} changed: {got[k]}"
        elif k == "tolerances":  # the other dtypes get their defaults
            assert {d: got[k].get(d) for d in v} == v, f"spec.{k}: sent {v!r}, got {got[k]!r}"
        else:
            assert got[k] == v, f"spec.{k}: sent {v!r}, got {got[k]!r}"


# ---------------------------------------------------------------------- GET /v1/jobs/{id}

def test_get_job_with_defaults(api):
    job = api.create({"kernel": {"source": job_spec()["kernel"]["source"]}})
    r = api.get(f"/v1/jobs/{job['id']}")
    assert r.status_code == 200, describe(r)
    got = r.json()
    assert got["id"] == job["id"] and got["state"] == "queued"
    assert JOB_KEYS <= set(got)
    spec = got.get("spec")
    assert isinstance(spec, dict), "GET /v1/jobs/{id} must include spec" + describe(r)
    defaults = {"rounds": 15, "policy": "hierarchy", "proposer": "rules", "backend": "any",
                "priority": 0, "benchmark_cases": 5, "correctness_cases": "all", "seed": 0,
                "pattern_index": "latest", "exclude_same_operator": False, "ir_target": "auto"}
    for k, v in defaults.items():
        assert spec.get(k) == v, f"spec.{k} default: expected {v!r}, got {spec.get(k)!r}" + describe(r)
    assert got["rounds"] == 15 and got["policy"] == "hierarchy" and got["backend"] == "any"
    assert got["proposer"] == "rules" and got["priority"] == 0


def test_get_unknown_job_404(api):
    r = api.get(f"/v1/jobs/{uuid.uuid4()}")
    assert_problem(r, 404, "not-found")


@pytest.mark.parametrize("bad", ["not-a-uuid", "123", "00000000-0000-0000-0000-00000000000g",
                                 "%27%20OR%201%3D1", "x" * 300])
def test_get_malformed_job_id_not_500(api, bad):
    r = api.get(f"/v1/jobs/{bad}")
    assert r.status_code in (400, 404), describe(r)
    assert r.headers.get("Content-Type", "").startswith("application/problem+json"), describe(r)


# --------------------------------------------------------------------------- GET /v1/jobs

def test_list_newest_first(api):
    ids = [api.create(job_spec(name=f"list-{i}"))["id"] for i in range(3)]
    r = api.get("/v1/jobs", params={"limit": 100})
    assert r.status_code == 200, describe(r)
    body = r.json()
    assert "jobs" in body and "next_cursor" in body, describe(r)
    listed = [j["id"] for j in body["jobs"]]
    pos = [listed.index(i) for i in ids]
    assert pos == sorted(pos, reverse=True), "list must be newest first"
    assert listed[0] == ids[-1], "the newest job comes first"
    for j in body["jobs"]:
        assert JOB_KEYS <= set(j), f"list item lacks {JOB_KEYS - set(j)}"
    created = [j["created_at"] for j in body["jobs"]]
    assert created == sorted(created, reverse=True)


# ----------------------------------------------------------------------------- cancel

def test_cancel_queued_then_again_409(api):
    job = api.create(job_spec(name="cancel-me"))
    r = api.post(f"/v1/jobs/{job['id']}/cancel")
    assert r.status_code == 200, describe(r)
    got = r.json()
    assert got["id"] == job["id"] and got["state"] == "cancelled", describe(r)
    assert got["finished_at"] is not None, "a cancelled job has finished_at" + describe(r)
    assert api.job(job["id"])["state"] == "cancelled"
    r = api.post(f"/v1/jobs/{job['id']}/cancel")
    assert_problem(r, 409, "conflict")
    assert api.job(job["id"])["state"] == "cancelled"


def test_cancel_unknown_404(api):
    r = api.post(f"/v1/jobs/{uuid.uuid4()}/cancel")
    assert_problem(r, 404, "not-found")


def test_cancel_with_empty_json_body(api):
    job = api.create()
    r = api.post(f"/v1/jobs/{job['id']}/cancel", json_body={})
    assert r.status_code == 200 and r.json()["state"] == "cancelled", describe(r)


# ----------------------------------------------------------------------------- rounds

def test_rounds_empty(api):
    job = api.create()
    r = api.get(f"/v1/jobs/{job['id']}/rounds")
    assert r.status_code == 200, describe(r)
    assert r.json() == {"rounds": []}, describe(r)


def test_rounds_unknown_404(api):
    assert_problem(api.get(f"/v1/jobs/{uuid.uuid4()}/rounds"), 404, "not-found")


# ----------------------------------------------------------------------------- events

def test_events_first_state_then_cancel_ends_stream(koptd, api, tokens):
    job = api.create(job_spec(name="events"))
    es = EventStream(koptd.port, f"/v1/jobs/{job['id']}/events", tokens["viewer"], timeout=15)
    try:
        assert es.status == 200, f"events status {es.status} {es.headers}"
        assert es.headers.get("content-type", "").startswith("text/event-stream"), es.headers
        ev = es.next_event()
        assert ev is not None, "stream ended before the first event"
        assert ev["event"] == "state", ev
        data = json.loads(ev["data"])
        assert data["id"] == job["id"] and data["state"] == "queued", data

        def cancel_later():
            time.sleep(0.3)
            api.cancel(job["id"])
        t = threading.Thread(target=cancel_later)
        t.start()
        seen = []
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ev = es.next_event()
            if ev is None:
                break
            seen.append(ev)
            if ev["event"] == "state" and json.loads(ev["data"])["state"] == "cancelled":
                break
        t.join()
        assert seen and seen[-1]["event"] == "state", f"no cancelled state event; got {seen}"
        assert json.loads(seen[-1]["data"])["state"] == "cancelled", seen
        # after a terminal state the stream ends
        t0 = time.monotonic()
        tail = es.next_event()
        assert tail is None, f"stream should end after the terminal state, got {tail}"
        assert time.monotonic() - t0 < 5
    finally:
        es.close()


def test_events_terminal_job_one_event_then_end(koptd, api, tokens):
    job = api.create()
    api.cancel(job["id"])
    es = EventStream(koptd.port, f"/v1/jobs/{job['id']}/events", tokens["viewer"], timeout=10)
    try:
        assert es.status == 200
        ev = es.next_event()
        assert ev and ev["event"] == "state" and json.loads(ev["data"])["state"] == "cancelled", ev
        assert es.next_event() is None, "stream of a terminal job ends after its state"
    finally:
        es.close()


@pytest.mark.slow
def test_events_keepalive(koptd, api, tokens):
    """An idle stream gets a `: keepalive` comment every 15 s."""
    job = api.create()
    es = EventStream(koptd.port, f"/v1/jobs/{job['id']}/events", tokens["viewer"], timeout=20)
    try:
        assert es.next_event()["event"] == "state"
        t0 = time.monotonic()
        assert es.wait_comment("keepalive", 18), f"no keepalive within 18 s: {es.text!r}"
        assert time.monotonic() - t0 > 5, "keepalive far too early"
    finally:
        es.close()
        api.cancel(job["id"])


def test_events_unknown_job_404(api):
    assert_problem(api.get(f"/v1/jobs/{uuid.uuid4()}/events"), 404, "not-found")


# ---------------------------------------------------------------------------- openapi

def test_openapi_document(api):
    r = api.get("/v1/openapi.json")
    assert r.status_code == 200, describe(r)
    assert "json" in r.headers.get("Content-Type", ""), describe(r)
    doc = r.json()
    assert str(doc.get("openapi", "")).startswith("3."), doc.get("openapi")
    assert "info" in doc and "paths" in doc
    paths = {norm(p): {m.lower() for m in ops} for p, ops in doc["paths"].items()}
    missing = [(m, p) for m, p in api_md_routes() if m.lower() not in paths.get(norm(p), set())]
    assert not missing, f"openapi.json lacks routes of docs/API.md: {missing}"


def test_openapi_matches_repo_copy(api):
    repo = ROOT / "api" / "openapi.json"
    if not repo.exists():
        pytest.skip("api/openapi.json not in the repository")
    assert api.get("/v1/openapi.json").json() == json.loads(repo.read_text())


# ---------------------------------------------------------------------------- probes

def test_healthz(koptd):
    r = requests.get(koptd.base + "/healthz", timeout=5)
    assert r.status_code == 200 and r.json() == {"status": "ok"}, describe(r)


def test_readyz(koptd):
    r = requests.get(koptd.base + "/readyz", timeout=5)
    assert r.status_code == 200, describe(r)


def test_unknown_route_404(koptd, api):
    assert_problem(api.get("/v1/nope"), 404, "not-found")
    assert requests.get(koptd.base + "/nope", timeout=5).status_code == 404


def test_wrong_method_405(api):
    r = api.request("DELETE", "/v1/jobs")
    assert_problem(r, 405, "method-not-allowed")
    assert "POST" in r.headers.get("Allow", "") and "GET" in r.headers.get("Allow", ""), describe(r)
    assert_problem(api.request("PUT", "/healthz"), 405, "method-not-allowed")
    job = api.create()
    assert_problem(api.get(f"/v1/jobs/{job['id']}/cancel"), 405, "method-not-allowed")


def test_every_api_md_route_is_served(koptd, api, tokens):
    """No route of docs/API.md answers 404/405/5xx when called right (as admin)."""
    job = api.create()
    batch = api.post("/v1/batches", {"jobs": [job_spec()]}).json()
    bodies = {"/v1/jobs": job_spec(), "/v1/batches": {"jobs": [job_spec()]}}
    for method, path in api_md_routes():
        p = path.replace("{id}", batch["id"] if path.startswith("/v1/batches/") else job["id"])
        if "{" in p:
            continue  # needs a recorded artifact (test_rounds.py) or a version (test_patterns.py)
        if p.endswith("/events"):
            api.cancel(job["id"], token=tokens["admin"], expect=None)
        r = api.request(method, p, token=tokens["admin"],
                        headers={"Content-Type": "application/json"},
                        data=json.dumps(bodies[p]) if p in bodies and method == "POST" else None)
        assert r.status_code < 300, f"{method} {path}" + describe(r)


# ---------------------------------------------------------------------------- metrics

def test_metrics(fresh):
    k, toks, api = fresh
    jobs = [api.create() for _ in range(3)]
    api.cancel(jobs[0]["id"])
    api.job(jobs[1]["id"])
    api.get("/v1/jobs")
    r = requests.get(k.base + "/metrics", timeout=5)
    assert r.status_code == 200, describe(r)
    assert r.headers.get("Content-Type", "").startswith("text/plain"), describe(r)
    samples = parse_metrics(r.text)
    names = {s[0] for s in samples}

    reqs = [s for s in samples if s[0] == "kopt_http_requests_total"]
    assert reqs, "kopt_http_requests_total missing"
    for _, lab, _ in reqs:
        assert {"route", "method", "code"} <= set(lab), lab
        assert not any(j["id"] in lab["route"] for j in jobs), \
            f"route label must be the template, not the path: {lab}"
    assert any(lab["method"] == "POST" and lab["code"] == "201" and v >= 3 and "jobs" in lab["route"]
               for _, lab, v in reqs), f"no POST 201 count >= 3 on a jobs route: {reqs}"
    routes = {lab["route"] for _, lab, _ in reqs}
    assert len(routes) >= 3, f"expected several route labels, got {routes}"

    assert "kopt_http_request_duration_seconds_bucket" in names, "histogram buckets missing"
    assert "kopt_http_request_duration_seconds_count" in names
    assert "kopt_http_request_duration_seconds_sum" in names
    inf = [s for s in samples if s[0] == "kopt_http_request_duration_seconds_bucket"
           and s[1].get("le") == "+Inf"]
    assert inf and all("route" in s[1] for s in inf), inf

    gauge = {s[1].get("state"): s[2] for s in samples if s[0] == "kopt_jobs"}
    assert gauge.get("queued") == 2, f"kopt_jobs{{state=\"queued\"}} should be 2: {gauge}"
    assert gauge.get("cancelled") == 1, f"kopt_jobs{{state=\"cancelled\"}} should be 1: {gauge}"
    assert gauge.get("running", 0) == 0
    assert "kopt_build_info" in names
    assert "# TYPE kopt_http_request_duration_seconds histogram" in r.text
    assert "# TYPE kopt_http_requests_total counter" in r.text
