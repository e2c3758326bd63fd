"""Clients cannot starve koptd: absolute header/body deadlines that trickling cannot extend,
a per-address connection cap, probes on their own listener while the API's connection table
is full, event streams capped per token and ended on finished jobs, and integer inputs out
of range answered 400 naming the field (never a database error)."""
import socket
import time
import uuid

import pytest
import requests
from kopt_helpers import (
    Conn,
    EventStream,
    assert_problem,
    create_token,
    describe,
    free_port,
    parse_metrics,
    psql,
)

TRICKLERS = 1000


def open_trickler(port, host="127.0.0.1", source=None):
    """A connection that has sent half a request head and will send more, byte by byte."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if source:
        s.bind((source, 0))
    s.settimeout(5)
    s.connect((host, port))
    s.sendall(b"GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    s.setblocking(False)
    return s


def closed_by_server(s):
    """True when the server has closed (or reset) s; False while it is still open."""
    try:
        d = s.recv(4096)
        return d == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def trickle(socks):
    """One byte on each still-open connection: it resets any idle timer."""
    for s in socks:
        try:
            s.send(b"a")
        except BlockingIOError:
            pass
        except OSError:
            pass


def probe_ok(port, path="/healthz", timeout=2.0):
    try:
        return requests.get(f"http://127.0.0.1:{port}{path}", timeout=timeout).status_code == 200
    except requests.RequestException:
        return False


def metric(base, name, **labels):
    text = requests.get(base + "/metrics", timeout=5).text
    for n, lab, v in parse_metrics(text):
        if n == name and all(lab.get(k) == want for k, want in labels.items()):
            return v
    return None


@pytest.fixture
def guarded(launch, fresh_db):
    """koptd with a probe listener, short deadlines and a table that one address can fill."""
    probe = free_port()
    k = launch(fresh_db, env={
        "KOPT_MAX_CONNECTIONS": str(TRICKLERS), "KOPT_MAX_CONNECTIONS_PER_IP": str(TRICKLERS + 50),
        "KOPT_HEADER_TIMEOUT_S": "4", "KOPT_BODY_TIMEOUT_S": "3",
        # an idle limit shorter than the gap between trickled bytes would not help either:
        "KOPT_CONNECTION_TIMEOUT_S": "2",
        "KOPT_PROBE_LISTEN": f"127.0.0.1:{probe}", "KOPT_LOG_LEVEL": "info"})
    k.probe_port = probe
    return k


def test_trickling_clients_cannot_starve_probes(guarded):
    k = guarded
    socks = []
    try:
        for _ in range(TRICKLERS):
            socks.append(open_trickler(k.port))
        t_full = time.monotonic()
        # The table is full: a newcomer on the API port waits in the kernel's backlog.
        assert not probe_ok(k.port, timeout=1.0), "the API listener should be full"
        # Probes answer on their own listener all the while, /readyz and /metrics included.
        answered = 0
        while time.monotonic() - t_full < 2.5:
            trickle(socks)
            assert probe_ok(k.probe_port), "/healthz on probe_listen must answer while full"
            answered += 1
            time.sleep(0.2)
        assert probe_ok(k.probe_port, "/readyz") and probe_ok(k.probe_port, "/metrics")
        # Trickling a byte every 0.2 s keeps MHD's idle timer (2 s) from ever firing; the
        # head deadline (4 s) ends every one of them all the same.
        deadline = t_full + 4 + 3
        open_left = len(socks)
        while time.monotonic() < deadline:
            trickle(socks)
            open_left = sum(not closed_by_server(s) for s in socks)
            if open_left == 0:
                break
            time.sleep(0.2)
        assert open_left == 0, f"{open_left} trickling connections still open past the deadline"
        assert probe_ok(k.port), "the API listener serves again once the tricklers are gone"
        assert metric(k.base, "kopt_http_deadline_closed_total", part="header") >= TRICKLERS
        # Probes never go through the API's table: other routes are not served there.
        r = requests.get(f"http://127.0.0.1:{k.probe_port}/v1/jobs", timeout=5)
        assert_problem(r, 404, "not-found")
        assert answered >= 5
    finally:
        for s in socks:
            s.close()


def test_per_address_connection_cap(launch, fresh_db):
    k = launch(fresh_db, env={"KOPT_MAX_CONNECTIONS_PER_IP": "8"})
    held = [open_trickler(k.port) for _ in range(8)]
    try:
        time.sleep(0.3)
        # the ninth from the same address is closed at once, unanswered
        with Conn(k.port, timeout=5) as c:
            try:
                c.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                resp = c.read_response()
            except (EOFError, ConnectionResetError, BrokenPipeError):
                resp = None
        if resp is not None:
            # koptd had not yet accepted every held connection (a loaded machine: the kernel
            # completes connect() before koptd's accept): the cap then refuses the trickler it
            # accepts last instead. Either way, of nine from one address one is refused.
            deadline = time.monotonic() + 3
            refused = []
            while time.monotonic() < deadline and not refused:
                refused = [s for s in held if closed_by_server(s)]
                time.sleep(0.05)
            assert len(refused) == 1, f"a ninth connection from one address was served: {resp}, " \
                                      f"and {len(refused)} of the eight held were refused"
            held.remove(refused[0])
            refused[0].close()
        # another client address is still served
        s = socket.create_connection(("127.0.0.1", k.port), timeout=5, source_address=("127.0.0.2", 0))
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert s.recv(100).startswith(b"HTTP/1.1 200"), "another address must be served"
        s.close()
    finally:
        for s in held:
            s.close()
    time.sleep(0.3)
    assert probe_ok(k.port), "the address is served again once it holds fewer connections"


def test_body_deadline(guarded):
    k = guarded
    tok = create_token(k.db_url, "submitter")
    head = (f"POST /v1/jobs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {tok}\r\n"
            f"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n").encode()
    s = socket.create_connection(("127.0.0.1", k.port), timeout=5)
    s.sendall(head)
    s.setblocking(False)
    t0 = time.monotonic()
    closed = False
    while time.monotonic() - t0 < 3 + 3:
        try:
            s.send(b" ")
        except OSError:
            closed = True
            break
        if closed_by_server(s):
            closed = True
            break
        time.sleep(0.2)
    took = time.monotonic() - t0
    s.close()
    assert closed, "a body trickled past body_timeout_s must end the connection"
    assert took >= 2.5, f"closed after {took:.1f}s, before the 3 s body deadline"
    assert metric(k.base, "kopt_http_deadline_closed_total", part="body") >= 1
    assert psql(k.db_url, "SELECT count(*) FROM jobs")[0][0] == "0"


# -------------------------------------------------------------------------- event streams

def test_events_last_event_id_past_end_of_finished_job_ends(koptd, api, tokens):
    job = api.create()
    api.cancel(job["id"])
    last = int(psql(koptd.db_url, f"SELECT max(id) FROM job_events WHERE job_id = '{job['id']}'")[0][0])
    for lei in (str(last), str(last + 1), str(last + 10 ** 9), str(2 ** 63 - 1)):
        t0 = time.monotonic()
        es = EventStream(koptd.port, f"/v1/jobs/{job['id']}/events", tokens["viewer"], timeout=10,
                         last_event_id=lei)
        try:
            assert es.status == 200, es.headers
            evs = []
            while (ev := es.next_event()) is not None:
                if ev["id"] is not None or ev["data"]:  # not the bare "retry:" block
                    evs.append(ev)
            assert es.ended and time.monotonic() - t0 < 5, f"stream with Last-Event-ID {lei} did not end"
            if lei == str(last):
                assert evs == [], f"nothing after the last event: {evs}"
            else:
                # past the end: the job as it is now, then the end
                assert [e["event"] for e in evs] == ["state"], evs
                assert '"cancelled"' in evs[0]["data"]
        finally:
            es.close()


def test_events_last_event_id_past_end_of_live_job_gets_state(koptd, api, tokens):
    job = api.create()
    es = EventStream(koptd.port, f"/v1/jobs/{job['id']}/events", tokens["viewer"], timeout=10,
                     last_event_id=str(10 ** 12))
    try:
        first = es.next_event()
        while first and first["id"] is None:
            first = es.next_event()
        assert first and first["event"] == "state" and '"queued"' in first["data"], first
        api.cancel(job["id"])
        ev = es.next_event()
        assert ev and '"cancelled"' in ev["data"], ev
        assert es.next_event() is None and es.ended
    finally:
        es.close()


@pytest.mark.parametrize("lei", ["abc", "-1", "1.5", "99999999999999999999", "9" * 30])
def test_events_bad_last_event_id_400(koptd, api, tokens, lei):
    job = api.create()
    r = api.get(f"/v1/jobs/{job['id']}/events", headers={"Last-Event-ID": lei},
                token=tokens["viewer"], stream=True)
    assert_problem(r, 400, "validation", field="Last-Event-ID")


def test_streams_capped_per_token(launch, fresh_db):
    k = launch(fresh_db, env={"KOPT_MAX_STREAMS_PER_TOKEN": "3"})
    viewer = create_token(fresh_db, "viewer")
    other = create_token(fresh_db, "viewer")
    sub = k.api(create_token(fresh_db, "submitter"))
    job = sub.create()
    path = f"/v1/jobs/{job['id']}/events"
    streams = [EventStream(k.port, path, viewer) for _ in range(3)]
    try:
        assert all(s.status == 200 for s in streams)
        r = k.api(viewer).get(path, stream=True)
        body = assert_problem(r, 429, "too-many-streams", field="Authorization")
        assert body["errors"][0]["limit"] == 3, describe(r)
        assert "3" in body["detail"], describe(r)
        # another token is not affected
        o = EventStream(k.port, path, other)
        assert o.status == 200
        o.close()
        # closing one frees a place
        streams.pop().close()
        deadline = time.monotonic() + 5
        while True:
            s = EventStream(k.port, path, viewer)
            if s.status == 200:
                streams.append(s)
                break
            s.close()
            assert time.monotonic() < deadline, "a closed stream must free its place"
            time.sleep(0.1)
    finally:
        for s in streams:
            s.close()


# ------------------------------------------------------------------- integers in range

@pytest.mark.parametrize("path,field", [
    ("/v1/jobs?cursor=c9999999999999999999", "cursor"),
    ("/v1/jobs?cursor=c99999999999999999999999", "cursor"),
    ("/v1/jobs?cursor=c-1", "cursor"),
    ("/v1/jobs?limit=99999999999999999999", "limit"),
    ("/v1/jobs?limit=2147483648", "limit"),
    ("/v1/jobs?limit=-1", "limit"),
    ("/v1/jobs/{id}/kernel?round=2147483648", "round"),
    ("/v1/jobs/{id}/kernel?round=99999999999999999999", "round"),
    ("/v1/jobs/{id}/artifacts/2147483648/ttir", "round"),
    ("/v1/jobs/{id}/artifacts/99999999999/ttir", "round"),
    ("/v1/jobs/{id}/artifacts/101/ttir", "round"),
    ("/v1/batches?cursor=b9999999999999999999", "cursor"),
    ("/v1/batches?limit=2147483648", "limit"),
    ("/v1/patterns/versions?cursor=v99999999999999999999", "cursor"),
    ("/v1/patterns/versions?limit=101", "limit"),
    ("/v1/patterns?version=10000000", "version"),
    ("/v1/patterns?version=0", "version"),
    ("/v1/patterns/versions/1/diff?against=99999999", "against"),
])
def test_integer_out_of_range_400(api, path, field):
    job = api.create()
    r = api.get(path.format(id=job["id"]))
    assert_problem(r, 400, "validation", field=field)


def test_integer_at_bounds_not_an_error(api):
    job = api.create()
    assert api.get("/v1/jobs?cursor=c9223372036854775807").status_code == 200
    assert api.get("/v1/jobs?limit=100").status_code == 200
    assert_problem(api.get(f"/v1/jobs/{job['id']}/kernel?round=100"), 404, "not-found")
    assert_problem(api.get(f"/v1/jobs/{job['id']}/artifacts/100/ttir"), 404, "not-found")
    assert_problem(api.get(f"/v1/jobs/{uuid.uuid4()}/artifacts/0/ttir"), 404, "not-found")
