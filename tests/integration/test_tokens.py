"""Tokens and tenants: revocation that takes effect at once (the token cache is emptied
through NOTIFY), `koptd token list|revoke`, expiry, the job document naming its submitter,
and a submitter reading only its own jobs while viewers and admins read all."""
import re
import time

import pytest
from kopt_helpers import (
    EventStream,
    assert_problem,
    create_token,
    describe,
    psql,
    run_koptd_cli,
)

TOKEN_LINE = re.compile(r"^kopt_[A-Za-z0-9_-]{43}$")


def token_rows(db_url):
    """`koptd token list` parsed: {id: {prefix, role, state, name}}."""
    p = run_koptd_cli(["token", "list"], db_url)
    lines = p.stdout.splitlines()
    assert lines and lines[0].split()[:4] == ["ID", "PREFIX", "ROLE", "STATE"], p.stdout
    rows = {}
    for line in lines[1:]:
        f = line.split(None, 7)
        rows[int(f[0])] = {"prefix": f[1], "role": f[2], "state": f[3],
                           "name": f[7] if len(f) > 7 else ""}
    return rows


def token_id(db_url, name):
    return int(psql(db_url, f"SELECT id FROM api_tokens WHERE name = '{name}'")[0][0])


# ------------------------------------------------------------------------- revocation

@pytest.mark.parametrize("how", ["id", "prefix", "token"])
def test_revocation_takes_effect_at_once(koptd, api, how):
    """A token in use (so cached by koptd) is refused by the very next request after
    `koptd token revoke` returns."""
    for i in range(3):
        name = f"revoke-{how}-{i}"
        tok = create_token(koptd.db_url, "viewer", name)
        who = koptd.api(tok)
        for _ in range(3):  # in use: its lookup is cached
            assert who.get("/v1/jobs").status_code == 200
        which = {"id": str(token_id(koptd.db_url, name)), "prefix": tok[:12], "token": tok}[how]
        p = run_koptd_cli(["token", "revoke", which], koptd.db_url)
        assert p.stdout.startswith("revoked viewer token"), p.stdout
        assert tok not in p.stdout + p.stderr, "revoke must not print the secret"
        r = who.get("/v1/jobs")
        body = assert_problem(r, 401, "unauthorized")
        assert "revoked" in body["detail"], describe(r)
        # other tokens are unaffected
        assert api.get("/v1/jobs").status_code == 200


def test_revoke_refuses_what_it_cannot_name(koptd):
    a = create_token(koptd.db_url, "viewer", "ambiguous-a")
    b = create_token(koptd.db_url, "viewer", "ambiguous-b")
    # two tokens that share a prefix (forced here; 42 random bits make it rare in life)
    psql(koptd.db_url, "UPDATE api_tokens SET prefix = 'kopt_SAMEabc'"
                       " WHERE name IN ('ambiguous-a', 'ambiguous-b')")
    p = run_koptd_cli(["token", "revoke", "kopt_SAMEabc"], koptd.db_url, check=False)
    assert p.returncode == 1 and "give the id" in p.stderr, p.stderr
    for bad in ("kopt_", "kopt_zz", "nope", "", "12x"):
        p = run_koptd_cli(["token", "revoke", bad], koptd.db_url, check=False)
        assert p.returncode != 0, f"revoke {bad!r} must fail"
    p = run_koptd_cli(["token", "revoke", "999999"], koptd.db_url, check=False)
    assert p.returncode == 1 and "no token matches" in p.stderr, p.stderr
    assert koptd.api(a).get("/v1/jobs").status_code == 200
    assert koptd.api(b).get("/v1/jobs").status_code == 200
    # revoking twice says so and changes nothing
    tid = str(token_id(koptd.db_url, "ambiguous-a"))
    run_koptd_cli(["token", "revoke", tid], koptd.db_url)
    at = psql(koptd.db_url, f"SELECT revoked_at FROM api_tokens WHERE id = {tid}")[0][0]
    p = run_koptd_cli(["token", "revoke", tid], koptd.db_url)
    assert p.stdout.startswith("already revoked"), p.stdout
    assert psql(koptd.db_url, f"SELECT revoked_at FROM api_tokens WHERE id = {tid}")[0][0] == at


def test_token_list(koptd):
    tok = create_token(koptd.db_url, "submitter", "listed one")
    tid = token_id(koptd.db_url, "listed one")
    rows = token_rows(koptd.db_url)
    assert rows[tid] == {"prefix": tok[:12], "role": "submitter", "state": "active",
                         "name": "listed one"}, rows[tid]
    p = run_koptd_cli(["token", "list"], koptd.db_url)
    assert tok not in p.stdout and tok[:13] not in p.stdout, "list shows only the prefix"
    run_koptd_cli(["token", "revoke", str(tid)], koptd.db_url)
    assert token_rows(koptd.db_url)[tid]["state"] == "revoked"


# ----------------------------------------------------------------------------- expiry

def test_token_expiry(koptd):
    p = run_koptd_cli(["token", "create", "--role", "viewer", "--name", "short-lived",
                       "--expires-in", "2s"], koptd.db_url)
    tok = p.stdout.strip().splitlines()[-1]
    assert TOKEN_LINE.match(tok)
    assert "expires in 2s" in p.stdout
    who = koptd.api(tok)
    t0 = time.monotonic()
    assert who.get("/v1/jobs").status_code == 200  # cached from here on
    time.sleep(max(0.0, 2.2 - (time.monotonic() - t0)))
    deadline = time.monotonic() + 3
    while True:  # expiry is checked on every request, cached or not
        r = who.get("/v1/jobs")
        if r.status_code == 401 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    body = assert_problem(r, 401, "unauthorized")
    assert re.search(r"expired at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", body["detail"]), describe(r)
    tid = token_id(koptd.db_url, "short-lived")
    assert token_rows(koptd.db_url)[tid]["state"] == "expired"
    # a long expiry is listed and works
    p = run_koptd_cli(["token", "create", "--role", "viewer", "--expires-in", "30d"], koptd.db_url)
    assert koptd.api(p.stdout.strip().splitlines()[-1]).get("/v1/jobs").status_code == 200


@pytest.mark.parametrize("bad", ["0d", "30x", "-1d", "1.5d", "d", "99999d", "", "30dd"])
def test_token_create_bad_expiry(koptd, bad):
    n = psql(koptd.db_url, "SELECT count(*) FROM api_tokens")[0][0]
    p = run_koptd_cli(["token", "create", "--role", "viewer", "--expires-in", bad],
                      koptd.db_url, check=False)
    assert p.returncode == 2, f"--expires-in {bad!r} must be refused:\n{p.stdout}{p.stderr}"
    assert "--expires-in" in p.stderr
    assert "kopt_" not in p.stdout
    assert psql(koptd.db_url, "SELECT count(*) FROM api_tokens")[0][0] == n


# ---------------------------------------------------------------------------- tenants

@pytest.fixture(scope="module")
def tenants(koptd, tokens, api):
    """Two submitters' jobs, one of them finished (for its event stream)."""
    mine = api.create()
    theirs = api.create(token=tokens["submitter2"])
    done = api.create(token=tokens["submitter2"])
    api.cancel(done["id"], token=tokens["submitter2"])
    return {"mine": mine["id"], "theirs": theirs["id"], "done_theirs": done["id"]}


ROUTES = ["", "/rounds", "/kernel", "/artifacts", "/artifacts/0/ttir"]


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize("who", ["submitter", "submitter2", "viewer", "admin"])
def test_tenant_isolation_matrix(koptd, tokens, tenants, route, who):
    """The job `theirs` belongs to submitter2: submitter cannot see it (404, as if it did
    not exist); its owner, viewers and admins can."""
    r = koptd.api(tokens[who]).get(f"/v1/jobs/{tenants['theirs']}{route}")
    if who == "submitter":
        body = assert_problem(r, 404, "not-found")
        assert "sees only the jobs it submitted" in body["detail"], describe(r)
    elif route == "/artifacts/0/ttir":
        assert_problem(r, 404, "not-found")  # visible job, no such artifact
        assert "no artifact" in r.json()["detail"], describe(r)
    else:
        assert r.status_code == 200, f"{who} reads {route}" + describe(r)


@pytest.mark.parametrize("who", ["submitter", "submitter2", "viewer", "admin"])
def test_tenant_events(koptd, tokens, tenants, who):
    path = f"/v1/jobs/{tenants['done_theirs']}/events"
    if who == "submitter":
        assert_problem(koptd.api(tokens[who]).get(path), 404, "not-found")
        return
    es = EventStream(koptd.port, path, tokens[who])
    try:
        assert es.status == 200
        ev = es.next_event()
        assert ev and '"cancelled"' in ev["data"], ev
    finally:
        es.close()


def test_tenant_list(koptd, tokens, tenants, api):
    ids = {who: {j["id"] for j in koptd.api(tokens[who]).list_all()}
           for who in ("submitter", "submitter2", "viewer", "admin")}
    assert tenants["mine"] in ids["submitter"]
    assert tenants["theirs"] not in ids["submitter"] and tenants["done_theirs"] not in ids["submitter"]
    assert tenants["theirs"] in ids["submitter2"] and tenants["mine"] not in ids["submitter2"]
    assert ids["viewer"] == ids["admin"] >= ids["submitter"] | ids["submitter2"]
    # filters and pages keep to the token's own jobs
    r = koptd.api(tokens["submitter"]).get("/v1/jobs", params={"state": "cancelled", "limit": 1})
    assert all(j["id"] not in (tenants["theirs"], tenants["done_theirs"]) for j in r.json()["jobs"])


def test_tenant_cancel_and_cross_reads_change_nothing(koptd, tokens, tenants, api):
    assert_problem(api.cancel(tenants["theirs"], expect=None), 403, "forbidden")
    assert api.job(tenants["theirs"], token=tokens["admin"])["state"] == "queued"


def test_job_names_its_submitter(koptd, tokens, api):
    job = api.create()
    sid = token_id(koptd.db_url, "test-submitter")
    assert job["submitted_by"] == {"token_id": sid, "token_name": "test-submitter"}, job
    for who in ("viewer", "admin", "submitter"):
        got = api.job(job["id"], token=tokens[who])
        assert got["submitted_by"] == {"token_id": sid, "token_name": "test-submitter"}
    listed = [j for j in api.list_all(token=tokens["viewer"]) if j["id"] == job["id"]]
    assert listed and listed[0]["submitted_by"]["token_id"] == sid
    text = str(api.get(f"/v1/jobs/{job['id']}", token=tokens["viewer"]).text)
    for tok in tokens.values():
        assert tok not in text and tok[:12] not in text, "the job document holds no secret"


def test_batch_jobs_name_their_submitter_and_keep_to_it(koptd, tokens, api):
    """A batch's jobs are submitted jobs like any other: the document names the token, and
    a submitter reads only its own batches' jobs (the job routes, the list, the stream)."""
    from kopt_helpers import job_spec
    r = koptd.api(tokens["submitter2"]).post(
        "/v1/batches", {"name": "tenancy", "jobs": [job_spec(name=f"bj{i}") for i in range(2)]})
    assert r.status_code == 201, describe(r)
    ids = [j["id"] for j in r.json()["jobs"]]
    sid = token_id(koptd.db_url, "test-submitter-2")
    for jid in ids:
        for who in ("submitter2", "viewer", "admin"):
            got = koptd.api(tokens[who]).job(jid)
            assert got["submitted_by"] == {"token_id": sid, "token_name": "test-submitter-2"}, got
        for route in ("", "/rounds", "/kernel", "/events"):
            body = assert_problem(api.get(f"/v1/jobs/{jid}{route}"), 404, "not-found")
            assert "sees only the jobs it submitted" in body["detail"], route
        assert_problem(api.get(f"/v1/batches/{r.json()['id']}"), 404, "not-found")
    assert not set(ids) & {j["id"] for j in api.list_all()}
    assert set(ids) <= {j["id"] for j in koptd.api(tokens["submitter2"]).list_all()}


def test_revoked_submitter_cannot_submit_at_once(koptd):
    """Submissions skip the NOTIFY barrier: the insert statement checks the token again."""
    from kopt_helpers import job_spec
    tok = create_token(koptd.db_url, "submitter", "revoke-submit")
    who = koptd.api(tok)
    first = who.submit(job_spec(name="before"), headers={"Idempotency-Key": "k1"}).json()
    for _ in range(3):  # cached
        who.submit(job_spec(name="again"))
    n = psql(koptd.db_url, "SELECT count(*) FROM jobs")[0][0]
    run_koptd_cli(["token", "revoke", tok[:12]], koptd.db_url)
    r = who.submit(job_spec(name="after"), expect=None)
    body = assert_problem(r, 401, "unauthorized")
    assert "revoked" in body["detail"], describe(r)
    # not even a replay of an earlier Idempotency-Key
    r = who.submit(job_spec(name="before"), headers={"Idempotency-Key": "k1"}, expect=None)
    assert_problem(r, 401, "unauthorized")
    assert first["id"] not in r.text
    assert psql(koptd.db_url, "SELECT count(*) FROM jobs")[0][0] == n
