"""Idempotency-Key on POST /v1/jobs."""
import threading
import uuid

import pytest

from kopt_helpers import assert_problem, describe, job_spec, psql


def key():
    return "it-" + uuid.uuid4().hex


def test_same_key_same_body_200_same_job(api):
    k = key()
    spec = job_spec(name="idem")
    r1 = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k})
    assert r1.status_code == 201, describe(r1)
    r2 = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k})
    assert r2.status_code == 200, "replay must answer 200" + describe(r2)
    assert r2.json()["id"] == r1.json()["id"]
    r3 = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k})
    assert r3.status_code == 200 and r3.json()["id"] == r1.json()["id"], describe(r3)


def test_same_key_other_body_409(api):
    k = key()
    r1 = api.post("/v1/jobs", job_spec(name="idem-a"), headers={"Idempotency-Key": k})
    assert r1.status_code == 201, describe(r1)
    r2 = api.post("/v1/jobs", job_spec(name="idem-b"), headers={"Idempotency-Key": k})
    assert_problem(r2, 409, "idempotency-conflict")
    assert api.job(r1.json()["id"])["name"] == "idem-a"


def test_replay_after_cancel_returns_same_job(api):
    k = key()
    spec = job_spec(name="idem-cancel")
    j = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k}).json()
    api.cancel(j["id"])
    r = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k})
    assert r.status_code == 200 and r.json()["id"] == j["id"], describe(r)
    assert r.json()["state"] == "cancelled"


def test_without_key_two_jobs(api):
    spec = job_spec(name="no-key")
    a = api.create(spec)
    b = api.create(spec)
    assert a["id"] != b["id"]


def test_key_is_per_submitter(api, tokens):
    k = key()
    spec = job_spec(name="idem-per-token")
    a = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k})
    b = api.post("/v1/jobs", spec, headers={"Idempotency-Key": k}, token=tokens["submitter2"])
    assert a.status_code == 201, describe(a)
    # another submitter's key space is its own: never the first submitter's job
    assert b.status_code == 201, describe(b)
    assert b.json()["id"] != a.json()["id"]


@pytest.mark.parametrize("bad", ["a" * 256, "bad\x01key", "tab\tkey"])
def test_bad_key_400(api, bad):
    r = api.post("/v1/jobs", job_spec(), headers={"Idempotency-Key": bad})
    assert_problem(r, 400, "validation", field="Idempotency-Key")


def test_max_length_key_ok(api):
    r = api.post("/v1/jobs", job_spec(), headers={"Idempotency-Key": "k" * 255})
    assert r.status_code == 201, describe(r)


def test_concurrent_same_key_one_job(fresh):
    k, toks, api = fresh
    ikey = key()
    spec = job_spec(name="race")
    n = 12
    barrier = threading.Barrier(n)
    results = [None] * n

    def go(i):
        barrier.wait()
        try:
            results[i] = api.post("/v1/jobs", spec, headers={"Idempotency-Key": ikey})
        except Exception as e:  # report, not hide
            results[i] = e

    threads = [threading.Thread(target=go, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    errs = [r for r in results if not hasattr(r, "status_code")]
    assert not errs, errs
    codes = sorted(r.status_code for r in results)
    assert codes.count(201) == 1, f"exactly one 201 expected, got {codes}: " + \
        "".join(describe(r) for r in results if r.status_code not in (200, 201))[:3000]
    assert set(codes) <= {200, 201}, codes
    ids = {r.json()["id"] for r in results}
    assert len(ids) == 1, ids
    count = psql(k.db_url, "SELECT count(*) FROM jobs")[0][0]
    assert count == "1", f"{count} jobs in the database, expected 1"
    assert len(api.list_all()) == 1
