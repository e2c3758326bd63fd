#!/usr/bin/env python3
"""A stand-in for koptd's HTTP API (docs/API.md), just enough to drive koptctl end to end
without PostgreSQL or workers: auth, problem documents, jobs, cursor pages, cancel and
scripted server-sent events. The job's name picks the script its events follow:

  ok       queued -> running rounds 1..3 (CRLF, comments, split writes) -> succeeded
  drop     queued, running, then the stream is cut; polls then see running, then failed
  cancel   queued -> cancelled
  nosse    the events route answers 404; polls see running, then succeeded
anything else stays queued.

Usage: mock_koptd.py PORTFILE   (listens on 127.0.0.1, an ephemeral port written to PORTFILE)
"""
import json
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

TOKEN = "kopt_test"
LOCK = threading.Lock()
JOBS = []          # newest last
IDEM = {}          # key -> (body, job id)
LAST = {}          # the last POST /v1/jobs: headers and body, for the test to inspect


def now():
    return time.strftime("%Y-%m-%dT%H:%M:%S.000000Z", time.gmtime())


def find(jid):
    for j in JOBS:
        if j["id"] == jid:
            return j
    return None


class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *a):
        pass

    def send_json(self, status, doc, ctype="application/json"):
        body = json.dumps(doc).encode()
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def problem(self, status, kind, title, detail, errors=None):
        doc = {"type": "urn:kopt:problem:" + kind, "title": title, "status": status,
               "detail": detail}
        if errors:
            doc["errors"] = errors
        self.send_json(status, doc, "application/problem+json")

    def authed(self):
        if self.headers.get("Authorization") != "Bearer " + TOKEN:
            self.problem(401, "unauthorized", "Unauthorized", "missing or unknown token")
            return False
        return True

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def do_POST(self):
        u = urlsplit(self.path)
        raw = self.body()
        if not self.authed():
            return
        if u.path == "/v1/jobs":
            return self.submit(raw)
        parts = u.path.split("/")
        if len(parts) == 5 and parts[4] == "cancel":
            with LOCK:
                j = find(parts[3])
                if not j:
                    return self.problem(404, "not-found", "Not found", "no such job")
                if j["state"] in ("succeeded", "failed", "cancelled"):
                    return self.problem(409, "conflict", "Conflict",
                                        "job is already " + j["state"])
                if j["state"] == "queued":
                    j["state"] = "cancelled"
                else:
                    j["cancel_requested"] = True
                return self.send_json(200, j)
        self.problem(404, "not-found", "Not found", "no route")

    def submit(self, raw):
        try:
            spec = json.loads(raw)
        except ValueError as e:
            return self.problem(400, "malformed-json", "Malformed JSON", str(e))
        LAST.clear()
        LAST.update({"body": spec, "idempotency_key": self.headers.get("Idempotency-Key"),
                     "content_type": self.headers.get("Content-Type")})
        rounds = spec.get("rounds", 15)
        if not isinstance(rounds, int) or rounds > 100:
            return self.problem(400, "validation", "Request failed validation",
                                "rounds: must be at most 100",
                                [{"field": "rounds", "rule": "maximum", "limit": 100,
                                  "detail": "must be at most 100"}])
        key = self.headers.get("Idempotency-Key")
        with LOCK:
            if key and key in IDEM:
                old_body, jid = IDEM[key]
                if old_body != raw:
                    return self.problem(409, "idempotency-conflict", "Idempotency conflict",
                                        "this key was used with another body")
                return self.send_json(200, find(jid))
            j = {"id": str(uuid.uuid4()), "name": spec.get("name"), "state": "queued",
                 "backend": spec.get("backend", "any"), "priority": spec.get("priority", 0),
                 "rounds": rounds, "policy": spec.get("policy", "hierarchy"),
                 "proposer": spec.get("proposer", "rules"), "attempts": 0, "error": None,
                 "cancel_requested": False, "created_at": now(), "updated_at": now(),
                 "started_at": None, "finished_at": None, "baseline": None, "best": None,
                 "progress": None, "worker": None, "_polls": 0}
            JOBS.append(j)
            if key:
                IDEM[key] = (raw, j["id"])
        self.send_json(201, self.public(j))

    @staticmethod
    def public(j):
        return {k: v for k, v in j.items() if not k.startswith("_")}

    def do_GET(self):
        u = urlsplit(self.path)
        if u.path == "/_last":
            return self.send_json(200, LAST)
        if not self.authed():
            return
        if u.path == "/v1/jobs":
            return self.list(parse_qs(u.query))
        parts = u.path.split("/")
        if len(parts) == 4 and parts[1:3] == ["v1", "jobs"]:
            with LOCK:
                j = find(parts[3])
                if not j:
                    return self.problem(404, "not-found", "Not found", "no job " + parts[3])
                self.advance_poll(j)
                return self.send_json(200, dict(self.public(j), spec={}))
        if len(parts) == 5 and parts[4] == "events":
            j = find(parts[3])
            if not j:
                return self.problem(404, "not-found", "Not found", "no job " + parts[3])
            if j["name"] == "nosse":
                return self.problem(404, "not-found", "Not found", "no route")
            return self.events(j)
        self.problem(404, "not-found", "Not found", "no route")

    def advance_poll(self, j):
        """What a poll sees after the stream: the drop and nosse scripts move on."""
        j["_polls"] += 1
        if j["name"] in ("drop", "nosse"):
            if j["_polls"] == 1:
                j.update(state="running", progress={"round": 2, "rounds": j["rounds"],
                                                    "level": 3})
            elif j["name"] == "drop":
                j.update(state="failed", error="harness crashed twice: \x1b[31mboom\x1b[0m")
            else:
                j.update(state="succeeded", best={"speedup": 2.5})

    def list(self, q):
        states = ",".join(q.get("state", [])).split(",") if q.get("state") else None
        limit = int(q.get("limit", ["20"])[0])
        if limit > 100:
            return self.problem(400, "validation", "Request failed validation",
                                "limit: must be at most 100",
                                [{"field": "limit", "rule": "maximum", "limit": 100}])
        start = int(q.get("cursor", ["0"])[0])
        with LOCK:
            rows = [self.public(j) for j in reversed(JOBS)
                    if not states or j["state"] in states]
        page = rows[start:start + limit]
        nxt = str(start + limit) if start + limit < len(rows) else None
        self.send_json(200, {"jobs": page, "next_cursor": nxt})

    def events(self, j):
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        w = self.wfile

        def ev(kind, job, crlf=False, split=False):
            nl = "\r\n" if crlf else "\n"
            text = (": keepalive" + nl + nl + "event: " + kind + nl + "id: " +
                    str(int(time.time() * 1000)) + nl + "data: " +
                    json.dumps(self.public(job)) + nl + nl)
            b = text.encode()
            if split:  # cut mid-line, mid-CRLF: the client must reassemble
                for i in range(0, len(b), 7):
                    w.write(b[i:i + 7])
                    w.flush()
            else:
                w.write(b)
                w.flush()
            time.sleep(0.05)

        name = j["name"]
        ev("state", j)
        if name == "ok":
            j.update(state="running", started_at=now())
            ev("state", j, crlf=True)
            for r in (1, 2, 3):
                j["progress"] = {"round": r, "rounds": j["rounds"], "level": r}
                j["best"] = {"speedup": 1.0 + r / 10, "round": r}
                ev("progress", j, crlf=r == 2, split=r == 3)
            j.update(state="succeeded", finished_at=now())
            ev("state", j, split=True)
        elif name == "cancel":
            j.update(state="cancelled")
            ev("state", j)
        elif name == "drop":
            j.update(state="running", progress={"round": 1, "rounds": j["rounds"], "level": 1})
            ev("state", j)
            # Cut the connection mid-event, as a restarting daemon would.
            w.write(b"event: progress\ndata: {\"state\": \"runn")
            w.flush()
        else:
            time.sleep(0.2)
        self.close_connection = True


def main():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    srv.daemon_threads = True
    with open(sys.argv[1], "w") as f:
        f.write(str(srv.server_address[1]))
    srv.serve_forever()


if __name__ == "__main__":
    main()
