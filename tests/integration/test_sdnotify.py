"""systemd integration and signals: sd_notify (READY=1, WATCHDOG=1 every WATCHDOG_USEC/2,
STOPPING=1), and SIGHUP reloading the configuration file while koptd keeps serving."""
import os
import shutil
import signal
import socket
import tempfile
import time

import pytest
import requests

from kopt_helpers import READY_TIMEOUT, Koptd, create_token, job_spec
from worker_fixtures import log_events, log_tail


class NotifySocket:
    """A unix datagram socket standing in for systemd's NOTIFY_SOCKET."""

    def __init__(self, abstract=False):
        self.dir = tempfile.mkdtemp(prefix="kopt-sdn-", dir="/tmp")
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        if abstract:
            name = f"kopt-test-notify-{os.getpid()}-{time.monotonic_ns()}"
            self.sock.bind("\0" + name)
            self.address = "@" + name
        else:
            self.address = os.path.join(self.dir, "notify")
            self.sock.bind(self.address)
        self.msgs = []  # (monotonic time, text)

    def recv_until(self, pred, timeout):
        """Receives until pred(text) is true for a message; returns that (time, text)."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no matching notify message within {timeout} s; got {self.msgs}")
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                continue
            m = (time.monotonic(), data.decode())
            self.msgs.append(m)
            if pred(m[1]):
                return m

    def collect(self, seconds):
        """Every message arriving within the next `seconds`."""
        out, deadline = [], time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                break
            m = (time.monotonic(), data.decode())
            self.msgs.append(m)
            out.append(m)
        return out

    def close(self):
        self.sock.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def _states(text):
    return [line for line in text.split("\n") if line]


@pytest.fixture
def notify():
    n = NotifySocket()
    yield n
    n.close()


def _stop_expect_stopping(k, n):
    t0 = time.monotonic()
    k.signal(signal.SIGTERM)
    n.recv_until(lambda t: "STOPPING=1" in _states(t), 10)
    rc = k.proc.wait(10)
    k.checked = True
    k.logf.close()
    k.check_sanitizer()
    assert rc == 0, f"koptd exited {rc}; log:\n{log_tail(k)}"
    assert time.monotonic() - t0 < 10


def test_ready_watchdog_stopping(launch, fresh_db, notify):
    k = launch(fresh_db, env={"NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "2000000"},
               wait=False)
    t_ready, _ = notify.recv_until(lambda t: "READY=1" in _states(t), READY_TIMEOUT)
    # READY=1 only once koptd answers
    assert requests.get(k.base + "/readyz", timeout=5).status_code == 200
    # WATCHDOG_USEC=2 s: a ping at least every second; at least two within 3 s of READY
    more = notify.collect(3.0)
    pings = [t for t, text in notify.msgs if "WATCHDOG=1" in _states(text) and t >= t_ready]
    assert len(pings) >= 2, notify.msgs
    gaps = [b - a for a, b in zip(pings, pings[1:])]
    assert all(g < 2.0 for g in gaps), f"watchdog pings too far apart: {gaps}"
    assert not any("STOPPING=1" in text for _, text in more)
    _stop_expect_stopping(k, notify)


def test_watchdog_pid_of_another_process_means_no_pings(launch, fresh_db, notify):
    """WATCHDOG_PID names the process the watchdog is for; another pid: no WATCHDOG=1."""
    k = launch(fresh_db, env={"NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "1000000",
                              "WATCHDOG_PID": "1"}, wait=False)
    notify.recv_until(lambda t: "READY=1" in _states(t), READY_TIMEOUT)
    notify.collect(1.5)
    assert not [t for _, t in notify.msgs if "WATCHDOG=1" in _states(t)], notify.msgs
    _stop_expect_stopping(k, notify)


def test_abstract_notify_socket(launch, fresh_db):
    n = NotifySocket(abstract=True)
    try:
        k = launch(fresh_db, env={"NOTIFY_SOCKET": n.address}, wait=False)
        n.recv_until(lambda t: "READY=1" in _states(t), READY_TIMEOUT)
        _stop_expect_stopping(k, n)
    finally:
        n.close()


# ------------------------------------------------------------------------------ SIGHUP

CONFIG = """\
[server]
max_body_bytes = {body}

[log]
level = {level}
"""


def _big_spec(nbytes):
    spec = job_spec(name="big")
    pad = "# " + "x" * 98 + "\n"
    spec["kernel"]["source"] += pad * (nbytes // len(pad))
    return spec


def test_sighup_reloads_config(launch, fresh_db, tmp_path):
    """max_body_bytes and the log level change on SIGHUP; a broken file is refused and the
    old settings kept; koptd serves throughout and exits 0."""
    cfg = tmp_path / "koptd.conf"
    cfg.write_text(CONFIG.format(body="1M", level="info"))
    k = Koptd(fresh_db, launch.logdir, args=["-c", str(cfg)], name="koptd-hup")
    for v in ("KOPT_LOG_LEVEL", "KOPT_MAX_BODY_BYTES"):  # the environment overrides the file
        k.env.pop(v, None)
    launch.procs.append(k)
    k.start()
    api = k.api(create_token(fresh_db, "submitter"))
    spec = _big_spec(150 * 1024)  # ~150 KiB body: under 1M, over 64K
    assert api.submit(spec, expect=None).status_code == 201
    assert "level=debug" not in k.log(), "log level info: no debug lines expected"

    cfg.write_text(CONFIG.format(body="64K", level="debug"))
    k.signal(signal.SIGHUP)
    ev = wait_reloaded(k, 1)
    assert ev["max_body_bytes"] == str(64 * 1024), ev
    r = api.submit(spec, expect=None)
    assert r.status_code == 413, (r.status_code, r.text[:300])
    assert api.submit(job_spec(name="small"), expect=None).status_code == 201
    assert requests.get(k.base + "/readyz", timeout=5).status_code == 200
    deadline = time.monotonic() + 5
    while "level=debug" not in k.log() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert "level=debug" in k.log(), "the new log level (debug) does not show"

    # a broken file: refused, the running settings stay
    cfg.write_text("[server]\nmax_body_bytes = lots\n")
    k.signal(signal.SIGHUP)
    deadline = time.monotonic() + 5
    while not log_events(k.log(), "config.reload_failed") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert log_events(k.log(), "config.reload_failed"), log_tail(k)
    assert api.submit(spec, expect=None).status_code == 413
    assert k.alive()
    k.stop()


def wait_reloaded(k, n, timeout=5):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        evs = log_events(k.log(), "config.reloaded")
        if len(evs) >= n:
            return evs[n - 1]
        time.sleep(0.1)
    raise AssertionError(f"no config.reloaded after SIGHUP:\n{log_tail(k)}")
