"""Status reads at dashboard scale: GET /v1/jobs/{id} and GET /v1/jobs carry an ETag and
answer If-None-Match with 304; unchanged jobs are served from koptd's cache without the
database; and a read right after a committed change never returns the old document,
whether the change came through the API or straight to the database (as a worker's does),
even when koptd's NOTIFY connection is cut at that moment."""
import json
import subprocess
import threading
import time

import pytest
import requests
from kopt_helpers import (
    PSQL,
    assert_problem,
    create_token,
    describe,
    parse_metrics,
    psql,
)


def metric(k, name, **labels):
    text = requests.get(k.base + "/metrics", timeout=5).text
    return sum(v for n, lab, v in parse_metrics(text)
               if n == name and all(lab.get(a) == b for a, b in labels.items()))


def doc_now(db_url, job_id):
    """The job document as the database renders it now (what GET must answer)."""
    rows = psql(db_url, "SELECT (kopt_job_json(j) || jsonb_build_object('spec', j.spec))::text"
                        f" FROM jobs j WHERE id = '{job_id}'")
    return json.loads(rows[0][0])


# ------------------------------------------------------------------------ ETag and 304

def test_etag_and_304_job(koptd, api, tokens):
    job = api.create()
    r = api.get(f"/v1/jobs/{job['id']}", token=tokens["viewer"])
    assert r.status_code == 200, describe(r)
    etag = r.headers.get("ETag", "")
    assert etag.startswith('"') and etag.endswith('"') and len(etag) == 18, describe(r)
    assert r.headers.get("Cache-Control") == "private, no-cache", describe(r)
    for inm in (etag, "W/" + etag, f'"nope", {etag}', "*"):
        r2 = api.get(f"/v1/jobs/{job['id']}", token=tokens["viewer"],
                     headers={"If-None-Match": inm})
        assert r2.status_code == 304, f"If-None-Match: {inm}" + describe(r2)
        assert r2.content == b"" and r2.headers.get("ETag") == etag, describe(r2)
    r3 = api.get(f"/v1/jobs/{job['id']}", headers={"If-None-Match": '"other"'})
    assert r3.status_code == 200 and r3.headers["ETag"] == etag
    # a change gives a new tag; the old one no longer matches
    api.cancel(job["id"])
    r4 = api.get(f"/v1/jobs/{job['id']}", headers={"If-None-Match": etag})
    assert r4.status_code == 200, describe(r4)
    assert r4.headers["ETag"] != etag and r4.json()["state"] == "cancelled"
    # HEAD: headers only, same tag
    h = requests.head(koptd.base + f"/v1/jobs/{job['id']}", timeout=5,
                      headers={"Authorization": f"Bearer {tokens['viewer']}"})
    assert h.status_code == 200 and h.headers["ETag"] == r4.headers["ETag"], describe(h)


def test_etag_and_304_list(koptd, api, tokens):
    api.create()
    q = {"limit": 5, "state": "queued"}
    r = api.get("/v1/jobs", params=q, token=tokens["viewer"])
    etag = r.headers.get("ETag")
    assert r.status_code == 200 and etag, describe(r)
    r2 = api.get("/v1/jobs", params=q, token=tokens["viewer"], headers={"If-None-Match": etag})
    assert r2.status_code == 304 and r2.content == b"", describe(r2)
    # another page or filter is another document
    r3 = api.get("/v1/jobs", params={"limit": 4}, token=tokens["viewer"],
                 headers={"If-None-Match": etag})
    assert r3.status_code == 200, describe(r3)
    # a new job changes the list
    api.create()
    r4 = api.get("/v1/jobs", params=q, token=tokens["viewer"], headers={"If-None-Match": etag})
    assert r4.status_code == 200 and r4.headers["ETag"] != etag, describe(r4)
    # errors carry no tag
    r5 = api.get("/v1/jobs", params={"limit": 0})
    assert r5.status_code == 400 and "ETag" not in r5.headers


# --------------------------------------------------------------- served from the cache

def test_unchanged_job_served_without_database(koptd, api, tokens):
    """With the jobs table locked by another session, reads of a cached job still answer at
    once (they do not touch the database) while an uncached one waits for the lock."""
    cached, uncached = api.create(), api.create()
    path = f"/v1/jobs/{cached['id']}"
    first = api.get(path, token=tokens["viewer"]).json()
    api.get(path, token=tokens["viewer"])
    hits0 = metric(koptd, "kopt_cache_requests_total", result="hit")
    lock_sql = ("BEGIN; LOCK TABLE jobs, api_tokens IN ACCESS EXCLUSIVE MODE;"
                " SELECT pg_sleep(4); COMMIT;")
    locker = subprocess.Popen([PSQL, "-X", "-q", "-d", koptd.db_url, "-c", lock_sql],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        time.sleep(0.5)  # the lock is taken
        t0 = time.monotonic()
        for _ in range(50):
            r = api.get(path, token=tokens["viewer"], timeout=2)
            assert r.status_code == 200 and r.json() == first, describe(r)
        took = time.monotonic() - t0
        assert took < 2.0, f"50 cached reads took {took:.2f}s while the table was locked"
        with pytest.raises(requests.Timeout):
            api.get(f"/v1/jobs/{uncached['id']}", token=tokens["viewer"], timeout=1)
    finally:
        locker.wait(timeout=15)
    assert metric(koptd, "kopt_cache_requests_total", result="hit") >= hits0 + 50


def test_cache_respects_tenancy(koptd, api, tokens):
    job = api.create()  # the submitter's
    assert api.get(f"/v1/jobs/{job['id']}", token=tokens["viewer"]).status_code == 200  # cached
    r = api.get(f"/v1/jobs/{job['id']}", token=tokens["submitter2"])
    assert_problem(r, 404, "not-found")
    mine = {j["id"] for j in api.get("/v1/jobs", params={"limit": 100}).json()["jobs"]}
    theirs = {j["id"] for j in api.get("/v1/jobs", params={"limit": 100},
                                       token=tokens["submitter2"]).json()["jobs"]}
    assert job["id"] in mine and job["id"] not in theirs


def test_cache_bounded(launch, fresh_db):
    k = launch(fresh_db, env={"KOPT_CACHE_MAX_ENTRIES": "5"})
    api = k.api(create_token(fresh_db, "admin"))
    jobs = [api.create()["id"] for _ in range(12)]
    for _ in range(2):
        for j in jobs:
            r = api.get(f"/v1/jobs/{j}")
            assert r.status_code == 200 and r.json()["id"] == j, describe(r)
    assert metric(k, "kopt_cache_entries") <= 5
    assert metric(k, "kopt_cache_evictions_total") >= 7


# ------------------------------------------------------------------- never stale

def test_read_after_api_change_is_fresh(koptd, api, tokens):
    for i in range(20):
        job = api.create()
        path = f"/v1/jobs/{job['id']}"
        before = api.get(path, token=tokens["viewer"])  # cached now
        assert before.json()["state"] == "queued"
        api.cancel(job["id"])
        after = api.get(path, token=tokens["viewer"])
        assert after.json()["state"] == "cancelled", f"round {i}: stale after cancel" + describe(after)
        assert after.headers["ETag"] != before.headers["ETag"]
        listed = api.get("/v1/jobs", params={"state": "queued", "limit": 100},
                         token=tokens["viewer"]).json()["jobs"]
        assert job["id"] not in {j["id"] for j in listed}, f"round {i}: stale list"


def test_read_after_database_change_is_fresh(koptd, api, tokens):
    """The worker path: another process commits an UPDATE to jobs (as kopt-worker does);
    the first read after the commit returns must show it."""
    job = api.create()
    path = f"/v1/jobs/{job['id']}"
    for i in range(25):
        assert api.get(path, token=tokens["viewer"]).status_code == 200  # cached
        psql(koptd.db_url, "UPDATE jobs SET progress = jsonb_build_object('step', 'round',"
                           f" 'round', {i}, 'rounds', 25) WHERE id = '{job['id']}'")
        got = api.get(path, token=tokens["viewer"]).json()
        assert got["progress"] == {"step": "round", "round": i, "rounds": 25}, \
            f"round {i}: the read after the commit returned {got['progress']}"
        assert got == doc_now(koptd.db_url, job["id"])


def test_read_after_batch_write_is_fresh(koptd, api, tokens):
    """Batches write jobs rows too: a list cached before a batch is created shows its jobs
    right after, and a batch job's document is current after a write to a column that only
    newer migrations added (infra_retries)."""
    from kopt_helpers import job_spec
    view = tokens["viewer"]
    before = api.get("/v1/jobs", params={"limit": 100}, token=view)
    assert api.get("/v1/jobs", params={"limit": 100}, token=view).headers["ETag"] == before.headers["ETag"]
    r = api.post("/v1/batches", {"jobs": [job_spec(name="cached-batch")]}, token=tokens["submitter"])
    assert r.status_code == 201, describe(r)
    jid = r.json()["jobs"][0]["id"]
    after = api.get("/v1/jobs", params={"limit": 100}, token=view,
                    headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and jid in {j["id"] for j in after.json()["jobs"]}, describe(after)
    path = f"/v1/jobs/{jid}"
    first = api.get(path, token=view)  # cached now
    assert first.json()["infra_retries"] == 0 and first.json()["batch_id"] == r.json()["id"]
    psql(koptd.db_url, f"UPDATE jobs SET infra_retries = 2 WHERE id = '{jid}'")
    got = api.get(path, token=view, headers={"If-None-Match": first.headers["ETag"]})
    assert got.status_code == 200 and got.json()["infra_retries"] == 2, describe(got)
    assert got.json() == doc_now(koptd.db_url, jid)


def test_read_after_change_fresh_under_concurrent_readers(koptd, api, tokens):
    """Readers hammer the job (so fills race the changes) while another session updates it:
    every read that starts after an update's commit sees that update or a later one."""
    job = api.create()
    path = koptd.base + f"/v1/jobs/{job['id']}"
    hdr = {"Authorization": f"Bearer {tokens['viewer']}"}
    committed = [-1]  # the last update known committed before a read began
    errors = []
    stop = threading.Event()

    def reader():
        s = requests.Session()
        while not stop.is_set():
            floor = committed[0]
            r = s.get(path, headers=hdr, timeout=10)
            prog = (r.json().get("progress") or {}).get("round", -1)
            if prog < floor:
                errors.append(f"read begun after update {floor} committed saw {prog}")

    threads = [threading.Thread(target=reader) for _ in range(4)]
    for t in threads:
        t.start()
    try:
        for i in range(30):
            psql(koptd.db_url, "UPDATE jobs SET progress = jsonb_build_object('round', "
                               f"{i}) WHERE id = '{job['id']}'")
            committed[0] = i
    finally:
        stop.set()
        for t in threads:
            t.join(timeout=15)
    assert not errors, errors[:5]
    assert api.get(f"/v1/jobs/{job['id']}").json()["progress"] == {"round": 29}


def test_fresh_when_notify_connection_is_cut(koptd, api, tokens):
    """A change committed while koptd's LISTEN connection is being cut is not announced;
    the cache must notice the cut before it answers, and read the database instead."""
    job = api.create()
    path = f"/v1/jobs/{job['id']}"
    for i in range(5):
        assert api.get(path, token=tokens["viewer"]).status_code == 200  # cached
        psql(koptd.db_url,
             "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
             " WHERE datname = current_database() AND pid <> pg_backend_pid()"
             " AND (query LIKE 'LISTEN %' OR query = '');"
             f" UPDATE jobs SET progress = jsonb_build_object('cut', {i}) WHERE id = '{job['id']}'")
        got = api.get(path, token=tokens["viewer"])
        assert got.status_code in (200, 503), describe(got)
        if got.status_code == 200:
            assert got.json()["progress"] == {"cut": i}, f"cut {i}: stale" + describe(got)
        deadline = time.monotonic() + 10  # reconnected: the cache serves again
        while "notify.listening" not in koptd.log().split("notify.lost")[-1]:
            assert time.monotonic() < deadline, "koptd did not listen again"
            time.sleep(0.1)
    assert api.get(path).json()["progress"] == {"cut": 4}


def test_cache_metrics(koptd, api, tokens):
    job = api.create()
    for _ in range(3):
        api.get(f"/v1/jobs/{job['id']}", token=tokens["viewer"])
    assert metric(koptd, "kopt_notify_listening") == 1
    assert metric(koptd, "kopt_notify_barrier_round_trips_total") >= 3
    assert metric(koptd, "kopt_cache_entries") >= 1
    assert metric(koptd, "kopt_cache_fills_total", outcome="kept") >= 1
