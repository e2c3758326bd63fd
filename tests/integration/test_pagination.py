"""GET /v1/jobs: cursor pagination, state filter, page caps."""
import pytest

from kopt_helpers import assert_problem, describe, job_spec

N = 25


@pytest.fixture(scope="module")
def jobs(api):
    """25 jobs on this module's fresh database, oldest first; the first 3 cancelled."""
    ids = [api.create(job_spec(name=f"page-{i}"))["id"] for i in range(N)]
    for i in ids[:3]:
        api.cancel(i)
    return ids


def pages(api, params):
    out, cur = [], None
    for _ in range(20):
        p = dict(params)
        if cur:
            p["cursor"] = cur
        r = api.get("/v1/jobs", params=p)
        assert r.status_code == 200, describe(r)
        body = r.json()
        out.append([j["id"] for j in body["jobs"]])
        cur = body.get("next_cursor")
        if not cur:
            return out
    raise AssertionError("more than 20 pages")


def test_limit_10_pages(api, jobs):
    got = pages(api, {"limit": 10})
    assert [len(p) for p in got] == [10, 10, 5], [len(p) for p in got]
    flat = [i for p in got for i in p]
    assert len(set(flat)) == len(flat), "duplicates across pages"
    assert flat == list(reversed(jobs)), "pages, concatenated, are every job newest first"


def test_default_limit_20(api, jobs):
    r = api.get("/v1/jobs")
    body = r.json()
    assert len(body["jobs"]) == 20, len(body["jobs"])
    assert body["next_cursor"], "a full page has a next_cursor"


def test_last_page_cursor_null(api, jobs):
    r = api.get("/v1/jobs", params={"limit": 100})
    body = r.json()
    assert len(body["jobs"]) == N and body["next_cursor"] is None, describe(r)


def test_exact_fit_page_has_no_phantom_page(api, jobs):
    got = pages(api, {"limit": 5})
    sizes = [len(p) for p in got]
    # 25 = 5 x 5; an empty sixth page (a cursor on the full last page) is allowed
    assert sizes in ([5] * 5, [5] * 5 + [0]), sizes


def test_cursor_stable_under_inserts(api, jobs):
    r = api.get("/v1/jobs", params={"limit": 10})
    first = r.json()
    new = api.create(job_spec(name="late"))["id"]
    try:
        r2 = api.get("/v1/jobs", params={"limit": 10, "cursor": first["next_cursor"]})
        assert r2.status_code == 200, describe(r2)
        second = [j["id"] for j in r2.json()["jobs"]]
        assert new not in second
        assert not set(second) & {j["id"] for j in first["jobs"]}, "duplicates after an insert"
        assert second == list(reversed(jobs))[10:20]
    finally:
        api.cancel(new)
        jobs_late.append(new)


jobs_late = []


def test_state_filter(api, jobs):
    cancelled = api.list_all({"state": "cancelled"})
    want = set(jobs[:3]) | set(jobs_late)
    assert {j["id"] for j in cancelled} == want, "state=cancelled"
    assert all(j["state"] == "cancelled" for j in cancelled)
    queued = api.list_all({"state": "queued"})
    assert {j["id"] for j in queued} == set(jobs[3:])
    both = api.list_all({"state": "queued,cancelled"})
    assert len(both) == N + len(jobs_late)
    r = api.get("/v1/jobs", params=[("state", "queued"), ("state", "cancelled"), ("limit", "100")])
    assert r.status_code == 200 and len(r.json()["jobs"]) == N + len(jobs_late), describe(r)
    assert api.list_all({"state": "running"}) == []
    assert api.list_all({"state": "succeeded,failed"}) == []


def test_state_filter_pages(api, jobs):
    got = pages(api, {"state": "queued", "limit": 10})
    flat = [i for p in got for i in p]
    assert [len(p) for p in got] == [10, 10, 2], [len(p) for p in got]
    assert flat == list(reversed(jobs[3:]))


@pytest.mark.parametrize("params,field", [
    ({"limit": "101"}, "limit"),
    ({"limit": "0"}, "limit"),
    ({"limit": "-1"}, "limit"),
    ({"limit": "abc"}, "limit"),
    ({"limit": "10abc"}, "limit"),
    ({"limit": "99999999999999999999"}, "limit"),
    ({"cursor": "garbage"}, "cursor"),
    ({"cursor": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}, "cursor"),
    ({"cursor": "%00"}, "cursor"),
    ({"state": "bogus"}, "state"),
    ({"state": "queued,bogus"}, "state"),
])
def test_bad_params_400(api, jobs, params, field):
    r = api.get("/v1/jobs", params=params)
    assert_problem(r, 400, "validation", field=field)


def test_limit_100_ok(api, jobs):
    r = api.get("/v1/jobs", params={"limit": 100})
    assert r.status_code == 200, describe(r)
