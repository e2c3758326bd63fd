"""Auth matrix: every route x {no token, bad token, viewer, submitter, admin}."""
import json
import secrets

import pytest
import requests

from kopt_helpers import assert_problem, describe, job_spec, psql

AUTHS = ["none", "bad", "viewer", "submitter", "admin"]
V = {"none": 401, "bad": 401, "viewer": 200, "submitter": 200, "admin": 200}
OPEN = {a: 200 for a in AUTHS}
# route name -> (method, path template, expected status per auth)
MATRIX = {
    "create": ("POST", "/v1/jobs", {"none": 401, "bad": 401, "viewer": 403, "submitter": 201, "admin": 201}),
    "list": ("GET", "/v1/jobs", V),
    "get": ("GET", "/v1/jobs/{id}", V),
    "cancel-own": ("POST", "/v1/jobs/{id}/cancel", {"none": 401, "bad": 401, "viewer": 403, "submitter": 200, "admin": 200}),
    "cancel-other": ("POST", "/v1/jobs/{other}/cancel", {"none": 401, "bad": 401, "viewer": 403, "submitter": 403, "admin": 200}),
    "rounds": ("GET", "/v1/jobs/{id}/rounds", V),
    "events": ("GET", "/v1/jobs/{done}/events", V),
    "openapi": ("GET", "/v1/openapi.json", V),
    "healthz": ("GET", "/healthz", OPEN),
    "readyz": ("GET", "/readyz", OPEN),
    "metrics": ("GET", "/metrics", OPEN),
}


def bad_token():
    return "kopt_" + secrets.token_urlsafe(32)[:43]


@pytest.fixture(scope="module")
def done_job(api):
    job = api.create()
    api.cancel(job["id"])
    return job["id"]


@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize("route", list(MATRIX))
def test_auth_matrix(koptd, tokens, api, done_job, route, auth):
    method, tmpl, expect = MATRIX[route]
    # own job = the submitter's; other = submitter2's
    own = api.create()["id"]
    other = api.create(token=tokens["submitter2"])["id"]
    path = tmpl.format(id=own, other=other, done=done_job)
    headers = {}
    if auth == "bad":
        headers["Authorization"] = f"Bearer {bad_token()}"
    elif auth != "none":
        headers["Authorization"] = f"Bearer {tokens[auth]}"
    data = None
    if route == "create":
        headers["Content-Type"] = "application/json"
        data = json.dumps(job_spec(name=f"auth-{auth}"))
    r = requests.request(method, koptd.base + path, headers=headers, data=data, timeout=15)
    want = expect[auth]
    if want == 401:
        assert_problem(r, 401, "unauthorized")
        assert r.headers.get("WWW-Authenticate", "").startswith("Bearer"), \
            "401 needs WWW-Authenticate: Bearer" + describe(r)
    elif want == 403:
        assert_problem(r, 403, "forbidden")
    else:
        assert r.status_code == want, f"{route} as {auth}" + describe(r)
    # a refused cancel changes nothing
    if route.startswith("cancel"):
        target = own if route == "cancel-own" else other
        st = api.job(target, token=tokens["admin"])["state"]
        assert st == ("cancelled" if want == 200 else "queued"), f"state after {r.status_code}: {st}"


@pytest.mark.parametrize("header", [
    "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token kopt_x", "bearer-less",
    "Bearer kopt_", "Bearer " + "A" * 5000, "Bearer kopt_\x01\x02",
])
def test_malformed_authorization_401(koptd, header):
    r = requests.get(koptd.base + "/v1/jobs", headers={"Authorization": header}, timeout=10)
    assert_problem(r, 401, "unauthorized")
    assert r.headers.get("WWW-Authenticate", "").startswith("Bearer"), describe(r)


def test_token_with_trailing_garbage_401(koptd, tokens):
    r = requests.get(koptd.base + "/v1/jobs",
                     headers={"Authorization": f"Bearer {tokens['admin']}x"}, timeout=10)
    assert_problem(r, 401, "unauthorized")
    r = requests.get(koptd.base + "/v1/jobs",
                     headers={"Authorization": f"Bearer {tokens['admin'][:-1]}"}, timeout=10)
    assert_problem(r, 401, "unauthorized")


def test_revoked_token_401(koptd, api):
    """A token revoked before its first use is refused at once."""
    from kopt_helpers import create_token
    tok = create_token(koptd.db_url, "viewer", "to-revoke")
    psql(koptd.db_url, "UPDATE api_tokens SET revoked_at = now() WHERE name = 'to-revoke'")
    assert_problem(koptd.api(tok).get("/v1/jobs"), 401, "unauthorized")


def test_tokens_stored_hashed(koptd, tokens):
    rows = psql(koptd.db_url, "SELECT encode(token_sha256, 'hex'), role FROM api_tokens")
    import hashlib
    hashes = {h for h, _ in rows}
    for role, tok in tokens.items():
        assert hashlib.sha256(tok.encode()).hexdigest() in hashes, f"{role} token not stored as its sha256"
    dump = json.dumps(rows)
    for tok in tokens.values():
        assert tok not in dump


def test_token_create_rejects_bad_role(koptd):
    from kopt_helpers import run_koptd_cli
    p = run_koptd_cli(["token", "create", "--role", "root"], koptd.db_url, check=False)
    assert p.returncode != 0, "token create --role root must fail"
    assert "kopt_" not in p.stdout


def test_admin_can_cancel_anyone(api, tokens):
    job = api.create(token=tokens["submitter2"])
    r = api.cancel(job["id"], token=tokens["admin"])
    assert r.json()["state"] == "cancelled"


def test_submitter_cannot_cancel_admins_job(api, tokens):
    job = api.create(token=tokens["admin"])
    assert_problem(api.post(f"/v1/jobs/{job['id']}/cancel"), 403, "forbidden")
