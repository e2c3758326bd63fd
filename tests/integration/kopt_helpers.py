"""Helpers for the koptd integration tests: processes, database, HTTP (requests and raw
sockets), server-sent events, problem documents, Prometheus text."""
import json
import os
import re
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[2]
BIN_DIR = (ROOT / os.environ.get("KOPT_BIN_DIR", "bin")).resolve()
PSQL = os.environ.get("KOPT_PSQL", "/usr/lib/postgresql/15/bin/psql")
if not os.path.exists(PSQL):
    PSQL = "psql"
UUID_RE = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TOKEN_RE = re.compile(r"^kopt_[A-Za-z0-9_-]{43}$")
SANITIZER_RE = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
                          r"ERROR: UndefinedBehaviorSanitizer|WARNING: ThreadSanitizer")
READY_TIMEOUT = float(os.environ.get("KOPT_TEST_READY_TIMEOUT", "20"))
# With workers, /readyz waits for their start-up checks (a harness start: torch import).
WORKER_READY_TIMEOUT = float(os.environ.get("KOPT_TEST_WORKER_READY_TIMEOUT", "180"))
HTTP_TIMEOUT = 15
PROBLEM = "urn:kopt:problem:"

SAN_ENV = {
    "ASAN_OPTIONS": os.environ.get("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0"),
    "UBSAN_OPTIONS": os.environ.get("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
}

# ------------------------------------------------------------------------- job sources

KERNEL_SRC = '''\
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


class ModelNew(torch.nn.Module):
    def __init__(self, BLOCK_SIZE=1024):
        super().__init__()
        self.BLOCK_SIZE = BLOCK_SIZE

    def forward(self, x, y):
        out = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, self.BLOCK_SIZE),)
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=self.BLOCK_SIZE)
        return out
'''

REFERENCE_SRC = '''\
import torch


class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y


def get_init_inputs():
    return []


def get_inputs():
    return [torch.randn(65536), torch.randn(65536)]
'''


def job_spec(**over):
    """A valid minimal spec; keyword arguments override or add fields (None deletes)."""
    spec = {"name": "vector_add", "kernel": {"source": KERNEL_SRC, "filename": "kernel.py"}}
    for k, v in over.items():
        if v is None:
            spec.pop(k, None)
        else:
            spec[k] = v
    return spec


# ---------------------------------------------------------------------------- network

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def describe(r):
    """A response (and its request) as text, for assertion messages and bug reports."""
    req = r.request
    body = req.body
    if isinstance(body, bytes):
        body = body[:300].decode("utf-8", "replace")
    elif isinstance(body, str):
        body = body[:300]
    return (f"\n  request:  {req.method} {req.url}\n  req body: {body!r}"
            f"\n  response: {r.status_code} {dict(r.headers)}\n  body:     {r.text[:1500]!r}")


def problem_fields(body):
    return [e.get("field") for e in body.get("errors", []) if isinstance(e, dict)]


def field_matches(actual, expected):
    return actual is not None and (actual == expected or actual.startswith(expected + ".")
                                   or actual.startswith(expected + "["))


def assert_problem(r, status, ptype, field=None):
    """r is a requests.Response: status, problem+json, stable type, optionally a field."""
    assert r.status_code == status, f"expected {status} {ptype}" + describe(r)
    ctype = r.headers.get("Content-Type", "")
    assert ctype.startswith("application/problem+json"), "problem content type" + describe(r)
    body = r.json()
    assert body.get("type") == PROBLEM + ptype, f"problem type {ptype}" + describe(r)
    assert body.get("status") == status, "problem status member" + describe(r)
    assert isinstance(body.get("title"), str) and body["title"], "problem title" + describe(r)
    if field is not None:
        fields = problem_fields(body)
        assert any(field_matches(f, field) for f in fields), \
            f"problem should name field {field!r}, names {fields}" + describe(r)
    return body


class Api:
    """A thin client: base URL + token; every call has a timeout."""

    def __init__(self, base, token=None):
        self.base = base
        self.token = token

    def headers(self, extra=None, token=...):
        h = {}
        tok = self.token if token is ... else token
        if tok is not None:
            h["Authorization"] = f"Bearer {tok}"
        h.update(extra or {})
        return h

    def get(self, path, token=..., headers=None, **kw):
        kw.setdefault("timeout", HTTP_TIMEOUT)
        return requests.get(self.base + path, headers=self.headers(headers, token), **kw)

    def post(self, path, json_body=..., token=..., headers=None, data=None, **kw):
        kw.setdefault("timeout", HTTP_TIMEOUT)
        h = self.headers(headers, token)
        if json_body is not ...:
            data = json.dumps(json_body).encode()
            h.setdefault("Content-Type", "application/json")
        return requests.post(self.base + path, data=data, headers=h, **kw)

    def request(self, method, path, token=..., headers=None, **kw):
        kw.setdefault("timeout", HTTP_TIMEOUT)
        return requests.request(method, self.base + path, headers=self.headers(headers, token), **kw)

    def submit(self, spec=None, token=..., headers=None, expect=201):
        r = self.post("/v1/jobs", spec if spec is not None else job_spec(), token=token,
                      headers=headers)
        if expect is not None:
            assert r.status_code == expect, "submit" + describe(r)
        return r

    def create(self, spec=None, token=...):
        return self.submit(spec, token=token).json()

    def job(self, job_id, token=...):
        r = self.get(f"/v1/jobs/{job_id}", token=token)
        assert r.status_code == 200, describe(r)
        return r.json()

    def cancel(self, job_id, token=..., expect=200):
        r = self.post(f"/v1/jobs/{job_id}/cancel", token=token)
        if expect is not None:
            assert r.status_code == expect, "cancel" + describe(r)
        return r

    def list_all(self, params=None, token=...):
        """Every job, following cursors (limit 100)."""
        params = dict(params or {})
        params.setdefault("limit", 100)
        out, seen_cursors = [], set()
        while True:
            r = self.get("/v1/jobs", params=params, token=token)
            assert r.status_code == 200, describe(r)
            body = r.json()
            out.extend(body["jobs"])
            cur = body.get("next_cursor")
            if not cur:
                return out
            assert cur not in seen_cursors, "cursor loop"
            seen_cursors.add(cur)
            params["cursor"] = cur


# ------------------------------------------------------------------------- raw sockets

class RawResponse:
    def __init__(self, status, reason, headers, body):
        self.status, self.reason, self.headers, self.body = status, reason, headers, body

    def json(self):
        return json.loads(self.body)

    def __repr__(self):
        return f"<{self.status} {self.reason} {self.headers} {self.body[:500]!r}>"


class Conn:
    """An HTTP/1.1 connection over a plain socket, for what requests cannot do: half sent
    bodies, garbage, pipelining, event streams read as they arrive."""

    def __init__(self, port, timeout=10.0, host="127.0.0.1"):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data if isinstance(data, bytes) else data.encode())

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.close()

    def _fill(self):
        d = self.sock.recv(65536)
        if not d:
            raise EOFError("connection closed")
        self.buf += d

    def read_until(self, sep):
        while sep not in self.buf:
            self._fill()
        i = self.buf.index(sep) + len(sep)
        out, self.buf = self.buf[:i], self.buf[i:]
        return out

    def read_exact(self, n):
        while len(self.buf) < n:
            self._fill()
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_head(self):
        head = self.read_until(b"\r\n\r\n").decode("latin-1")
        lines = head.split("\r\n")
        parts = lines[0].split(" ", 2)
        status = int(parts[1])
        reason = parts[2] if len(parts) > 2 else ""
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, v = line.split(":", 1)
                headers[k.strip().lower()] = v.strip()
        return status, reason, headers

    def read_chunk(self):
        """One chunk of a chunked body, b"" at its end."""
        line = self.read_until(b"\r\n")
        size = int(line.split(b";")[0].strip(), 16)
        if size == 0:
            # trailers up to the empty line
            while self.read_until(b"\r\n") != b"\r\n":
                pass
            return b""
        data = self.read_exact(size)
        self.read_exact(2)
        return data

    def read_response(self, method="GET"):
        status, reason, headers = self.read_head()
        if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
            return RawResponse(status, reason, headers, b"")
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while True:
                c = self.read_chunk()
                if not c:
                    break
                body += c
        elif "content-length" in headers:
            body = self.read_exact(int(headers["content-length"]))
        else:
            body = self.buf
            self.buf = b""
            while True:
                try:
                    d = self.sock.recv(65536)
                except OSError:
                    break
                if not d:
                    break
                body += d
        return RawResponse(status, reason, headers, body)


def raw_exchange(port, data, timeout=10.0, half_close=False):
    """Sends data (then, with half_close, shuts the sending side: the server sees EOF);
    returns the first response, or None if the server closed/reset without answering."""
    with Conn(port, timeout=timeout) as c:
        try:
            c.send(data)
            if half_close:
                c.sock.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the server has closed already (broken pipe, reset, not connected)
        try:
            return c.read_response()
        except (EOFError, ConnectionResetError, BrokenPipeError):
            return None


def http_request_bytes(method, path, body=b"", headers=None, token=None, port=0):
    h = {"Host": f"127.0.0.1:{port}", "Connection": "close"}
    if token:
        h["Authorization"] = f"Bearer {token}"
    if body or method in ("POST", "PUT"):
        h["Content-Type"] = "application/json"
        h["Content-Length"] = str(len(body))
    h.update(headers or {})
    head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items()) + "\r\n"
    return head.encode() + body


class EventStream:
    """GET /v1/jobs/{id}/events over a raw socket; events() yields dicts as they arrive."""

    def __init__(self, port, path, token, timeout=10.0, last_event_id=None):
        self.conn = Conn(port, timeout=timeout)
        extra = f"Last-Event-ID: {last_event_id}\r\n" if last_event_id else ""
        self.conn.send(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                       f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n{extra}\r\n")
        self.status, _, self.headers = self.conn.read_head()
        self.chunked = self.headers.get("transfer-encoding", "").lower() == "chunked"
        self.text = ""
        self.ended = False

    def _more(self):
        if self.chunked:
            d = self.conn.read_chunk()
            if not d:
                self.ended = True
                return False
        else:
            if self.conn.buf:
                d, self.conn.buf = self.conn.buf, b""
            else:
                d = self.conn.sock.recv(65536)
                if not d:
                    self.ended = True
                    return False
        self.text += d.decode("utf-8")
        return True

    def next_event(self):
        """The next event (comments skipped), or None when the stream ended."""
        while True:
            t = self.text.replace("\r\n", "\n")
            if "\n\n" in t:
                block, rest = t.split("\n\n", 1)
                self.text = rest
                ev = {"event": "message", "data": [], "id": None}
                comment_only = True
                for line in block.split("\n"):
                    if line.startswith(":") or not line:
                        continue
                    comment_only = False
                    k, _, v = line.partition(":")
                    v = v[1:] if v.startswith(" ") else v
                    if k == "data":
                        ev["data"].append(v)
                    elif k in ("event", "id", "retry"):
                        ev[k] = v
                if comment_only:
                    continue
                ev["data"] = "\n".join(ev["data"])
                return ev
            try:
                if not self._more():
                    return None
            except (EOFError, ConnectionResetError):
                self.ended = True
                return None

    def wait_comment(self, comment, timeout):
        """True once a comment line (": keepalive") arrives within timeout seconds."""
        deadline = time.monotonic() + timeout
        self.conn.sock.settimeout(timeout)
        while time.monotonic() < deadline:
            t = "\n" + self.text.replace("\r\n", "\n")
            if "\n: " + comment in t or "\n:" + comment in t:
                return True
            try:
                if not self._more():
                    return False
            except (EOFError, OSError):
                return False
        return False

    def close(self):
        self.conn.close()


# ------------------------------------------------------------------------------ metrics

METRIC_RE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)(\s+\d+)?$')
LABEL_RE = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def parse_metrics(text):
    """[(name, {labels}, value)] from Prometheus text format; raises on a bad line."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        m = METRIC_RE.match(line)
        assert m, f"not a Prometheus sample line: {line!r}"
        labels = dict(LABEL_RE.findall(m.group(3) or ""))
        out.append((m.group(1), labels, float(m.group(4))))
    return out


# ----------------------------------------------------------------------------- database

def psql(url, sql, db=None):
    """Runs sql, returns rows as lists of strings (unaligned, tab separated)."""
    if db is not None:
        url = re.sub(r"^(postgresql://[^/]*/)[^?]*", lambda m: m.group(1) + db, url)
    p = subprocess.run([PSQL, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-tA", "-F", "\t", "-d", url,
                        "-c", sql], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        raise RuntimeError(f"psql failed: {sql}\n{p.stderr}")
    return [line.split("\t") for line in p.stdout.splitlines() if line != ""]


# ------------------------------------------------------------------------------ koptd

def scan_sanitizer(text, what):
    m = SANITIZER_RE.search(text)
    assert not m, f"sanitizer report from {what}:\n" + text[max(0, m.start() - 2000):m.start() + 6000]


def koptd_env(db_url, extra=None):
    env = dict(os.environ)
    env.update(SAN_ENV)
    env["KOPT_DATABASE_URL"] = db_url
    env.setdefault("KOPT_LOG_LEVEL", "debug")
    # No workers in API tests: a worker would claim the queued jobs the tests look at.
    env["KOPT_DEVICES"] = os.environ.get("KOPT_TEST_DEVICES", "none")
    env.update(extra or {})
    return env


def run_koptd_cli(args, db_url, env=None, timeout=60, check=True):
    """Runs `koptd ARGS` (migrate, token create); returns CompletedProcess."""
    p = subprocess.run([str(BIN_DIR / "koptd")] + list(args), env=koptd_env(db_url, env),
                       capture_output=True, text=True, timeout=timeout)
    scan_sanitizer(p.stderr + p.stdout, "koptd " + " ".join(args))
    if check:
        assert p.returncode == 0, f"koptd {' '.join(args)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}"
    return p


def create_token(db_url, role, name=None):
    args = ["token", "create", "--role", role]
    if name:
        args += ["--name", name]
    p = run_koptd_cli(args, db_url)
    lines = [line.strip() for line in p.stdout.splitlines() if line.strip()]
    assert lines, f"koptd token create printed nothing:\n{p.stderr}"
    tok = lines[-1]
    assert TOKEN_RE.match(tok), f"token {tok!r} does not look like kopt_ + 43 base64url chars"
    return tok


class Koptd:
    """One koptd process on a free port, its stderr in a file."""

    def __init__(self, db_url, logdir, env=None, args=None, name="koptd", port=None):
        self.db_url = db_url
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = koptd_env(db_url, {"KOPT_LISTEN": f"127.0.0.1:{self.port}", **(env or {})})
        self.args = list(args or [])
        self.log_path = Path(logdir) / f"{name}-{self.port}-{secrets.token_hex(3)}.log"
        self.proc = None
        self.checked = False

    def start(self, wait=True):
        self.logf = open(self.log_path, "ab")
        self.proc = subprocess.Popen([str(BIN_DIR / "koptd")] + self.args, env=self.env,
                                     stdout=self.logf, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, cwd=str(ROOT))
        if wait:
            self.wait_ready()
        return self

    def log(self):
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def wait_ready(self, timeout=None):
        if timeout is None:
            timeout = READY_TIMEOUT if self.env.get("KOPT_DEVICES", "none") == "none" else WORKER_READY_TIMEOUT
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            rc = self.proc.poll()
            if rc is not None:
                raise AssertionError(f"koptd exited {rc} before it was ready; log:\n{self.log()[-6000:]}")
            try:
                r = requests.get(self.base + "/readyz", timeout=2)
                last = f"{r.status_code} {r.text[:500]}"
                if r.status_code == 200:
                    return
            except requests.RequestException as e:
                last = repr(e)
            time.sleep(0.05)
        raise AssertionError(f"koptd not ready within {timeout}s (last /readyz: {last}); "
                             f"log:\n{self.log()[-6000:]}")

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def signal(self, sig):
        self.proc.send_signal(sig)

    def terminate(self, timeout=10.0):
        """SIGTERM; returns (exit code, seconds taken); kills it after timeout (code None)."""
        t0 = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = None
        return rc, time.monotonic() - t0

    def kill9(self):
        """SIGKILL (no exit status to check); a sanitizer report logged before still fails."""
        self.proc.kill()
        self.proc.wait()
        self.checked = True
        self.logf.close()
        self.check_sanitizer()

    def check_sanitizer(self):
        scan_sanitizer(self.log(), f"koptd (log {self.log_path})")

    def stop(self):
        """SIGTERM, assert exit 0 within 10 s and no sanitizer report."""
        if self.proc is None or self.checked:
            return
        self.checked = True
        rc, took = self.terminate(10.0)
        self.logf.close()
        self.check_sanitizer()
        assert rc is not None, f"koptd did not exit within 10 s of SIGTERM; log:\n{self.log()[-4000:]}"
        assert rc == 0, f"koptd exited {rc} after SIGTERM; log:\n{self.log()[-4000:]}"

    def api(self, token=None):
        return Api(self.base, token)


def source_matches(part, src):
    """A source inside a returned spec: either the text itself or, where koptd stores sources
    content-addressed, {sha256, bytes} of it."""
    import hashlib
    if not isinstance(part, dict):
        return False
    if "source" in part:
        return part["source"] == src
    return (part.get("sha256") == hashlib.sha256(src.encode()).hexdigest()
            and part.get("bytes", len(src.encode())) == len(src.encode()))
