"""Process lifecycle: SIGTERM drain, SIGHUP, restarts, crashes, two daemons on one database,
migrations, losing the database."""
import json
import signal
import socket
import threading
import time

import pytest
import requests

from kopt_helpers import (ROOT, Conn, EventStream, create_token, describe, job_spec, psql,
                          run_koptd_cli)


def migration_files():
    files = sorted(p.name for p in (ROOT / "migrations").glob("*.sql"))
    assert files, "no migrations/*.sql"
    return files


# --------------------------------------------------------------------------------- SIGTERM

def test_sigterm_idle_exits_0(launch, fresh_db):
    k = launch(fresh_db)
    rc, took = k.terminate(10)
    assert rc == 0, f"exit {rc}; log:\n{k.log()[-3000:]}"
    assert took < 10


def test_sigterm_drains_inflight_request(launch, fresh_db):
    k = launch(fresh_db)
    tok = create_token(fresh_db, "submitter")
    body = json.dumps(job_spec(name="drained")).encode()
    half = len(body) // 2
    c = Conn(k.port, timeout=15)
    c.send((f"POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {tok}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode())
    c.send(body[:half])
    time.sleep(0.5)
    t0 = time.monotonic()
    k.signal(signal.SIGTERM)
    time.sleep(0.7)
    assert k.alive(), f"koptd exited with a request in flight; log:\n{k.log()[-3000:]}"
    refused = None
    try:
        s = socket.create_connection(("127.0.0.1", k.port), timeout=2)
        # connected: the listener is still open; does it still serve?
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        try:
            got = s.recv(100)
        except OSError:
            got = b""
        refused = f"a new connection was accepted after SIGTERM (answered {got[:40]!r})"
        s.close()
    except ConnectionRefusedError:
        pass
    c.send(body[half:])
    resp = c.read_response()
    c.close()
    assert resp.status == 201, f"in-flight request after SIGTERM: {resp}"
    job_id = resp.json()["id"]
    try:
        rc = k.proc.wait(10 - (time.monotonic() - t0))
    except Exception:
        rc = "still running"
    assert rc == 0, f"koptd exit after drain: {rc}; log:\n{k.log()[-3000:]}"
    assert psql(fresh_db, f"SELECT state FROM jobs WHERE id = '{job_id}'") == [["queued"]]
    assert refused is None, refused


def test_sigterm_with_open_event_stream(launch, fresh_db):
    k = launch(fresh_db)
    tok = create_token(fresh_db, "submitter")
    job = k.api(tok).create()
    es = EventStream(k.port, f"/v1/jobs/{job['id']}/events", tok, timeout=15)
    try:
        assert es.status == 200
        assert es.next_event()["event"] == "state"
        t0 = time.monotonic()
        k.signal(signal.SIGTERM)
        # the stream must end (EOF), not hang the shutdown; a farewell event is fine
        extra = []
        while (ev := es.next_event()) is not None:
            extra.append(ev)
            assert len(extra) < 5 and time.monotonic() - t0 < 10, f"stream goes on: {extra}"
        rc = k.proc.wait(10)
        assert rc == 0, f"exit {rc}"
        assert time.monotonic() - t0 < 10
    finally:
        es.close()


def test_sigterm_under_load(launch, fresh_db):
    """Requests racing SIGTERM either complete or are refused; none gets a 5xx."""
    k = launch(fresh_db)
    api = k.api(create_token(fresh_db, "submitter"))
    stop = threading.Event()
    bad = []
    created = []

    def hammer():
        while not stop.is_set():
            try:
                r = api.post("/v1/jobs", job_spec())
                if r.status_code == 201:
                    created.append(r.json()["id"])
                elif r.status_code >= 500 and r.status_code != 503:
                    bad.append(describe(r))
            except requests.RequestException:
                pass
    ts = [threading.Thread(target=hammer) for _ in range(4)]
    for t in ts:
        t.start()
    time.sleep(1.0)
    k.signal(signal.SIGTERM)
    rc = k.proc.wait(10)
    stop.set()
    for t in ts:
        t.join(20)
    assert rc == 0
    assert not bad, bad[:2]
    rows = {r[0] for r in psql(fresh_db, "SELECT id FROM jobs")}
    assert set(created) <= rows, "a job answered 201 is missing"


# --------------------------------------------------------------------------------- SIGHUP

def test_sighup_reloads_and_survives_bad_config(launch, fresh_db, tmp_path):
    cfg = tmp_path / "koptd.ini"
    cfg.write_text("[log]\nlevel = info\n")
    k = launch(fresh_db, args=["-c", str(cfg)])
    cfg.write_text("[log]\nlevel = debug\n")
    k.signal(signal.SIGHUP)
    time.sleep(0.5)
    assert k.alive(), f"SIGHUP killed koptd; log:\n{k.log()[-3000:]}"
    assert requests.get(k.base + "/healthz", timeout=5).status_code == 200
    cfg.write_text("[log]\nlevel = loud\n[nonsense\n")
    k.signal(signal.SIGHUP)
    time.sleep(0.5)
    assert k.alive(), "an invalid config on SIGHUP must keep the old one, not exit"
    assert requests.get(k.base + "/readyz", timeout=5).status_code == 200


# ------------------------------------------------------------------------------ restarts

def test_restart_keeps_every_job(launch, fresh_db):
    k = launch(fresh_db)
    tok = create_token(fresh_db, "submitter")
    api = k.api(tok)
    ids = [api.create(job_spec(name=f"keep-{i}", priority=i))["id"] for i in range(5)]
    api.cancel(ids[1])
    api.cancel(ids[3])
    before = {i: api.job(i) for i in ids}
    k.stop()
    k2 = launch(fresh_db)
    api2 = k2.api(tok)
    for i in ids:
        after = api2.job(i)
        for key in ("state", "name", "priority", "created_at", "spec", "finished_at"):
            assert after[key] == before[i][key], f"{key} of {i} changed across restart"
    assert {j["id"] for j in api2.list_all()} == set(ids)


def test_kill9_then_restart_keeps_committed_jobs(launch, fresh_db):
    k = launch(fresh_db)
    tok = create_token(fresh_db, "submitter")
    api = k.api(tok)
    ids = [api.create(job_spec(name=f"crash-{i}"))["id"] for i in range(5)]
    api.cancel(ids[0])
    k.kill9()
    k2 = launch(fresh_db)
    api2 = k2.api(tok)
    got = {j["id"]: j["state"] for j in api2.list_all()}
    assert set(got) == set(ids)
    assert got[ids[0]] == "cancelled" and all(got[i] == "queued" for i in ids[1:])
    # and it serves writes again
    api2.create()


# --------------------------------------------------------------------- two daemons, one db

def test_two_koptd_start_together_on_fresh_db(launch, fresh_db):
    a = launch(fresh_db, wait=False, name="koptd-a")
    b = launch(fresh_db, wait=False, name="koptd-b")
    a.wait_ready()
    b.wait_ready()
    rows = psql(fresh_db, "SELECT version, count(*) FROM kopt_schema_migrations GROUP BY version")
    assert len(rows) == len(migration_files()) and all(c == "1" for _, c in rows), rows
    tok = create_token(fresh_db, "submitter")
    job = a.api(tok).create(job_spec(name="shared"))
    got = b.api(tok).job(job["id"])
    assert got["name"] == "shared" and got["state"] == "queued"
    # cancel on b, seen on a
    b.api(tok).cancel(job["id"])
    assert a.api(tok).job(job["id"])["state"] == "cancelled"


def test_event_from_other_daemon(launch, fresh_db):
    """A change made through one koptd reaches an event stream served by another
    (LISTEN/NOTIFY or polling)."""
    a = launch(fresh_db, name="koptd-a")
    b = launch(fresh_db, name="koptd-b")
    tok = create_token(fresh_db, "submitter")
    job = a.api(tok).create()
    es = EventStream(b.port, f"/v1/jobs/{job['id']}/events", tok, timeout=20)
    try:
        assert es.next_event()["event"] == "state"
        a.api(tok).cancel(job["id"])
        deadline = time.monotonic() + 15
        states = []
        while time.monotonic() < deadline:
            ev = es.next_event()
            if ev is None:
                break
            if ev["event"] == "state":
                states.append(json.loads(ev["data"])["state"])
                if states[-1] == "cancelled":
                    break
        assert "cancelled" in states, f"events on b: {states}"
    finally:
        es.close()


# ------------------------------------------------------------------------------ migrations

def test_migrate_twice_is_noop(fresh_db):
    files = migration_files()
    p1 = run_koptd_cli(["migrate"], fresh_db)
    rows1 = psql(fresh_db, "SELECT version, name, applied_at FROM kopt_schema_migrations ORDER BY version")
    assert len(rows1) == len(files), f"{rows1} vs {files}"
    assert [int(r[0]) for r in rows1] == [int(f.split("_")[0]) for f in files]
    tables1 = psql(fresh_db, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
    p2 = run_koptd_cli(["migrate"], fresh_db)
    rows2 = psql(fresh_db, "SELECT version, name, applied_at FROM kopt_schema_migrations ORDER BY version")
    assert rows2 == rows1, "second migrate changed kopt_schema_migrations"
    assert psql(fresh_db, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == tables1
    assert p1.returncode == 0 and p2.returncode == 0


def test_concurrent_migrate(fresh_db):
    import subprocess
    from kopt_helpers import BIN_DIR, koptd_env, scan_sanitizer
    procs = [subprocess.Popen([str(BIN_DIR / "koptd"), "migrate"], env=koptd_env(fresh_db),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for _ in range(4)]
    outs = [p.communicate(timeout=60)[0] for p in procs]
    for p, out in zip(procs, outs):
        scan_sanitizer(out, "koptd migrate")
        assert p.returncode == 0, out
    rows = psql(fresh_db, "SELECT version FROM kopt_schema_migrations")
    assert len(rows) == len(migration_files())


def test_migrate_bad_database_fails(tmp_path):
    p = run_koptd_cli(["migrate"], f"postgresql:///nope?host={tmp_path}&user=kopt&connect_timeout=2",
                      check=False, timeout=30)
    assert p.returncode != 0, "migrate against an unreachable database must fail"


# ---------------------------------------------------------------------- database trouble

@pytest.mark.slow
def test_database_loss_and_recovery(launch, fresh_db, pg_admin_url):
    k = launch(fresh_db)
    api = k.api(create_token(fresh_db, "submitter"))
    api.create()
    dbname = fresh_db.split("///", 1)[1].split("?", 1)[0]
    psql(pg_admin_url, f"ALTER DATABASE {dbname} ALLOW_CONNECTIONS false")
    try:
        psql(pg_admin_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                           f"WHERE datname = '{dbname}' AND pid <> pg_backend_pid()")
        deadline = time.monotonic() + 15
        codes = []
        while time.monotonic() < deadline:
            codes.append(requests.get(k.base + "/readyz", timeout=5).status_code)
            if codes[-1] == 503:
                break
            time.sleep(0.2)
        assert codes[-1] == 503, f"/readyz with the database gone: {codes[-5:]}"
        assert requests.get(k.base + "/healthz", timeout=5).status_code == 200
        r = api.get("/v1/jobs")
        assert r.status_code == 503, "API without a database: 503 unavailable" + describe(r)
        assert r.json()["type"] == "urn:kopt:problem:unavailable"
    finally:
        psql(pg_admin_url, f"ALTER DATABASE {dbname} ALLOW_CONNECTIONS true")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if requests.get(k.base + "/readyz", timeout=5).status_code == 200:
            break
        time.sleep(0.3)
    assert requests.get(k.base + "/readyz", timeout=5).status_code == 200, "did not recover"
    assert api.get("/v1/jobs").status_code == 200
    api.create()
    assert k.alive()
