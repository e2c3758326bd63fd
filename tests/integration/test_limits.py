"""Request limits and validation of POST /v1/jobs. Nothing refused may leave a row behind.

The module's koptd serves only refused requests (plus one accepted at the exact source
limit, counted), so the last test can count the jobs table."""
import json

import pytest
import requests

from kopt_helpers import (Conn, assert_problem, describe, http_request_bytes, job_spec, psql,
                          raw_exchange, source_matches, KERNEL_SRC)

ACCEPTED = []  # ids of jobs this module created on purpose


def post_raw(api, body, ctype="application/json", headers=None):
    h = dict(api.headers())
    if ctype is not None:
        h["Content-Type"] = ctype
    h.update(headers or {})
    return requests.post(api.base + "/v1/jobs", data=body, headers=h, timeout=30)


# --------------------------------------------------------------------------- body size

def test_body_too_large_413(launch, fresh_db):
    from kopt_helpers import create_token
    k = launch(fresh_db, env={"KOPT_MAX_BODY_BYTES": "65536"})
    tok = create_token(fresh_db, "submitter")
    body = json.dumps(job_spec(name="big", kernel={"source": "x" * 100_000})).encode()
    resp = raw_exchange(k.port, http_request_bytes("POST", "/v1/jobs", body, token=tok, port=k.port))
    assert resp is not None, "koptd closed the connection without a 413"
    assert resp.status == 413, resp
    assert resp.headers.get("content-type", "").startswith("application/problem+json"), resp
    assert resp.json()["type"] == "urn:kopt:problem:body-too-large", resp
    # announced length over the cap, body never sent: refused up front
    head = (f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 10000000\r\n\r\n").encode()
    resp = raw_exchange(k.port, head, timeout=10)
    assert resp is not None and resp.status == 413, resp
    # chunked, no Content-Length, over the cap
    with Conn(k.port, timeout=15) as c:
        c.send((f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n"
                f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n").encode())
        try:
            for _ in range(20):
                c.send(b"2000\r\n" + b" " * 0x2000 + b"\r\n")
            c.send(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            resp = c.read_response()
        except (EOFError, ConnectionResetError):
            resp = None
    assert resp is not None and resp.status == 413, f"chunked body over the cap: {resp}"
    # just under the cap still works
    body = json.dumps(job_spec(name="fits", kernel={"source": KERNEL_SRC + "#" * 30000})).encode()
    assert len(body) < 65536
    r = requests.post(k.base + "/v1/jobs", data=body, timeout=15,
                      headers={"Authorization": f"Bearer {tok}", "Content-Type": "application/json"})
    assert r.status_code == 201, describe(r)
    assert psql(fresh_db, "SELECT count(*) FROM jobs")[0][0] == "1"
    assert requests.get(k.base + "/healthz", timeout=5).status_code == 200


# ---------------------------------------------------------------------------- JSON shape

def test_json_too_deep(api):
    body = "[" * 100 + "]" * 100
    assert_problem(post_raw(api, body), 400, "json-too-deep")
    spec = job_spec()
    inner = json.dumps(spec)[:-1] + ', "cases": ' + "[" * 100 + "]" * 100 + "}"
    assert_problem(post_raw(api, inner), 400, "json-too-deep")
    deep_obj = '{"a":' * 60 + "1" + "}" * 60
    assert_problem(post_raw(api, deep_obj), 400, "json-too-deep")


def test_json_very_deep_does_not_crash(api):
    body = "[" * 200000
    r = post_raw(api, body)
    assert r.status_code == 400, describe(r)


@pytest.mark.parametrize("body", [
    '{"kernel": ', "{", "", "nul\x00l", '{"kernel": {"source": "x"}} trailing',
    '{"kernel": {"source": "x"},}', "{'kernel': 1}", '{"a": 1e999999}',
])
def test_malformed_json_400(api, body):
    assert_problem(post_raw(api, body.encode()), 400, "malformed-json")


def test_invalid_utf8_400(api):
    body = b'{"name": "\xff\xfe", "kernel": {"source": "class ModelNew: pass"}}'
    r = post_raw(api, body)
    assert r.status_code == 400, describe(r)
    assert r.json()["type"] in ("urn:kopt:problem:malformed-json", "urn:kopt:problem:validation")


@pytest.mark.parametrize("body", ["[]", "1", '"x"', "null", "true"])
def test_not_an_object_400(api, body):
    r = post_raw(api, body)
    assert r.status_code == 400, describe(r)
    assert r.json()["type"] in ("urn:kopt:problem:validation", "urn:kopt:problem:malformed-json")


def test_duplicate_keys_refused_or_last_wins(api):
    # either refused (400) or one value chosen; never a 500
    r = post_raw(api, '{"kernel": {"source": "a"}, "kernel": {"source": "b"}, "rounds": 101}')
    assert r.status_code == 400, describe(r)


# --------------------------------------------------------------------------- media type

@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", None, "application/jsonx"])
def test_wrong_content_type_415(api, ctype):
    r = post_raw(api, json.dumps(job_spec(rounds=101)), ctype=ctype)
    assert_problem(r, 415, "unsupported-media-type")


def test_json_with_charset_accepted(api):
    r = post_raw(api, json.dumps(job_spec(name="charset")), ctype="application/json; charset=utf-8")
    assert r.status_code == 201, describe(r)
    ACCEPTED.append(r.json()["id"])


# ------------------------------------------------------------------------------ sources

def test_kernel_source_over_limit_400(api):
    src = KERNEL_SRC + "#" * (256 * 1024)
    r = api.post("/v1/jobs", job_spec(kernel={"source": src}))
    assert_problem(r, 400, "validation", field="kernel.source")


def test_reference_source_over_limit_400(api):
    src = "#" * (256 * 1024 + 1)
    r = api.post("/v1/jobs", job_spec(reference={"source": src}))
    assert_problem(r, 400, "validation", field="reference.source")


def test_kernel_source_at_limit_ok(api):
    src = KERNEL_SRC
    src = src + "#" * (256 * 1024 - len(src.encode()))
    assert len(src.encode()) == 256 * 1024
    r = api.post("/v1/jobs", job_spec(name="at-limit", kernel={"source": src}))
    assert r.status_code == 201, "a source of exactly 256 KiB is allowed" + describe(r)
    ACCEPTED.append(r.json()["id"])
    r = api.get(f"/v1/jobs/{r.json()['id']}")
    assert source_matches(r.json()["spec"]["kernel"], src)


def test_source_limit_configurable(launch, fresh_db):
    from kopt_helpers import create_token
    k = launch(fresh_db, env={"KOPT_MAX_SOURCE_BYTES": "4096"})
    api = k.api(create_token(fresh_db, "submitter"))
    r = api.post("/v1/jobs", job_spec(kernel={"source": KERNEL_SRC + "#" * 4096}))
    assert_problem(r, 400, "validation", field="kernel.source")
    assert api.post("/v1/jobs", job_spec()).status_code == 201


# --------------------------------------------------------------------------- validation

def tun(n_names=1, n_vals=1):
    return {f"T{i}": list(range(1, n_vals + 1)) for i in range(n_names)}


CASES = [
    ("rounds", 101, "rounds"), ("rounds", -1, "rounds"), ("rounds", "15", "rounds"),
    ("rounds", 1.5, "rounds"), ("rounds", [15], "rounds"),
    ("backend", "tpu", "backend"), ("backend", 1, "backend"),
    ("roundz", 3, "roundz"),
    ("kernel", "print(1)", "kernel"), ("kernel", {}, "kernel.source"),
    ("kernel", {"source": ""}, "kernel.source"), ("kernel", {"source": 5}, "kernel.source"),
    ("reference", {"source": ""}, "reference.source"), ("reference", "x", "reference"),
    ("priority", 101, "priority"), ("priority", -101, "priority"), ("priority", True, "priority"),
    ("tunables", {"BLOCK": "x"}, "tunables"), ("tunables", {"1bad": [1]}, "tunables"),
    ("tunables", {"B": [1.5]}, "tunables"), ("tunables", {"B": []}, "tunables"),
    ("tunables", [1, 2], "tunables"), ("tunables", tun(17, 1), "tunables"),
    ("tunables", tun(1, 33), "tunables"), ("tunables", {"bad-name": [1]}, "tunables"),
    ("policy", "bogus", "policy"), ("proposer", "gpt", "proposer"),
    ("benchmark_cases", 0, "benchmark_cases"), ("benchmark_cases", 65, "benchmark_cases"),
    ("correctness_cases", "some", "correctness_cases"), ("correctness_cases", 0, "correctness_cases"),
    ("correctness_cases", 1025, "correctness_cases"),
    ("seed", -1, "seed"), ("seed", 2 ** 31, "seed"), ("seed", "1", "seed"),
    ("name", "", "name"), ("name", "x" * 129, "name"), ("name", 5, "name"),
    ("name", "\u00e9" * 129, "name"),
    ("tolerances", {"float64": {"rtol": 0.1, "atol": 0.1}}, "tolerances"),
    ("tolerances", {"float32": {"rtol": -1, "atol": 0}}, "tolerances"),
    ("tolerances", {"float32": {"rtol": "a", "atol": 0}}, "tolerances"),
    ("tolerances", "tight", "tolerances"),
    ("tolerances", {"int8": {"atol": 2 ** 20 + 1, "max_fraction": 0}}, "tolerances.int8"),
    ("tolerances", {"int8": {"atol": 1}}, "tolerances.int8"),
    ("tolerances", {"bool": {"atol": 1, "max_fraction": 0.5}}, "tolerances.bool"),
    ("pattern_index", "newest", "pattern_index"), ("pattern_index", -1, "pattern_index"),
    ("exclude_same_operator", "yes", "exclude_same_operator"),
    ("ir_target", "npu", "ir_target"),
    ("operator", "", "operator"), ("operator", "o" * 129, "operator"),
    ("cases", "x", "cases"), ("cases", [{"inputs": []}] * 1025, "cases"),
    ("cases", [5], "cases"),
]



@pytest.mark.parametrize("key,value,field", CASES,
                         ids=[f"{c[0]}={json.dumps(c[1])[:20]}" for c in CASES])
def test_validation_400(api, key, value, field):
    r = api.post("/v1/jobs", job_spec(**{key: value}))
    body = assert_problem(r, 400, "validation", field=field)
    assert body["errors"][0].get("detail") or body["errors"][0].get("rule"), describe(r)
    if key == "roundz":
        assert any(e.get("rule") == "unknown-field" for e in body["errors"]), describe(r)


def test_missing_kernel_400(api):
    r = api.post("/v1/jobs", job_spec(kernel=None))
    assert_problem(r, 400, "validation", field="kernel")


def test_several_errors_reported_together(api):
    r = api.post("/v1/jobs", job_spec(rounds=101, backend="tpu", priority=500))
    body = assert_problem(r, 400, "validation")
    fields = {e.get("field") for e in body["errors"]}
    assert {"rounds", "backend", "priority"} <= fields, f"all errors at once, got {fields}"


@pytest.mark.parametrize("key,value", [
    ("rounds", 0), ("rounds", 100), ("priority", -100), ("priority", 100), ("seed", 2 ** 31 - 1),
    ("benchmark_cases", 64), ("correctness_cases", 1024), ("correctness_cases", "all"),
    ("name", "n" * 128), ("tunables", tun(16, 32)),
    # lengths are in characters, not bytes: 128 two-byte and three-byte characters fit
    ("name", "\u00e9" * 128), ("operator", "\u65e5" * 128), ("name", "\U0001F680" * 128),
], ids=lambda v: ascii(v)[:24])
def test_boundaries_accepted(api, key, value):
    r = api.post("/v1/jobs", job_spec(**{key: value}))
    assert r.status_code == 201, f"{key}={value!r} is inside the contract" + describe(r)
    ACCEPTED.append(r.json()["id"])


def test_no_partial_rows_and_alive(koptd, api):
    """After every refused request above: only the accepted jobs exist; koptd still serves."""
    assert koptd.alive(), "koptd died"
    assert requests.get(koptd.base + "/healthz", timeout=5).status_code == 200
    rows = psql(koptd.db_url, "SELECT id FROM jobs")
    assert {r[0] for r in rows} == set(ACCEPTED), \
        f"jobs table: {len(rows)} rows, expected exactly the {len(ACCEPTED)} accepted"
    ev = psql(koptd.db_url, "SELECT count(DISTINCT job_id) FROM job_events")[0][0]
    assert int(ev) == len(ACCEPTED)
    assert {j["id"] for j in api.list_all()} == set(ACCEPTED)
