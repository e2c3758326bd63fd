#!/usr/bin/env python3
"""A scripted stand-in for an OpenAI-compatible chat-completions server, for tests.

Loopback only, standard library only, and it exits by itself after --max-seconds. It speaks
the real wire protocol: POST /v1/chat/completions with a JSON body whose "model" and
"messages" are validated, answered by a chat.completion object (id, object, created, model,
choices[0].message{role, content}, finish_reason, usage) or by an OpenAI-style error object
{"error": {"message", "type", "code"}}.

Each request takes the next step of the script; when the script runs out, the last step
repeats. The first line on stdout is the port; nothing else is written to stdout.

  openai_stub.py --script good,429,500,good [--api-key K] [--model M] [--max-seconds 60]
  openai_stub.py --script-file steps.json

Compact steps (comma separated):
  good           a valid-contract answer: one rewrite of the add kernel (block_size)
  wrong          a valid-contract answer whose kernel computes the wrong thing (a - b)
  fenced         the good answer inside one ```json block
  garbage        content that is not JSON at all
  nousage        the good answer without a usage object
  big:N          content of N bytes (to test the client's body cap)
  429[:S]        HTTP 429 with Retry-After: S (default 1)
  429date[:S]    HTTP 429 with Retry-After as an HTTP date S seconds ahead
  500 | 503     HTTP 5xx
  401            HTTP 401 whose message quotes the key it was sent (as some servers do)
  400            HTTP 400
  stall:S        sleep S seconds before answering (longer than the client's timeout)
  close          drop the connection without an answer

A JSON script file holds a list of objects: {"status": 200, "content": "...", "usage": true,
"finish_reason": "stop", "retry_after": "1", "stall": 0, "message": "..."} (all optional),
or compact step strings.

With --api-key the Authorization header must be "Bearer KEY", else 401. With --log FILE each
request is appended as one JSON line: {"n", "t", "step", "auth_ok", "model", "n_messages"}
(the key itself is never written).
"""
import argparse
import email.utils
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 8 << 20

KERNEL = '''import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x {op} y, mask=mask)


class ModelNew(torch.nn.Module):
    def forward(self, a, b):
        out = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, {block}),)](a, b, out, n, BLOCK={block})
        return out
'''


def answer(op="+", block=1024, family="block_size", hypothesis=None):
    return json.dumps({
        "hypothesis": hypothesis or ("The add is memory-bound with short blocks; BLOCK=%d "
                                     "halves the launch count at the same bandwidth." % block),
        "rewrite_family": family,
        "kernel": KERNEL.replace("{op}", op).replace("{block}", str(block)),
    }, indent=2)


def compact(tok):
    name, _, arg = tok.strip().partition(":")
    if name == "good":
        return {"content": answer()}
    if name == "wrong":
        return {"content": answer(op="-", hypothesis="Reordering the operands saves a load.")}
    if name == "fenced":
        return {"content": "```json\n" + answer() + "\n```\n"}
    if name == "garbage":
        return {"content": "I think you should make the block bigger. Here is the idea: "
                           "def kernel(): pass  # not JSON at all"}
    if name == "nousage":
        return {"content": answer(), "usage": False}
    if name == "big":
        return {"content": "x" * int(arg or 1 << 20)}
    if name == "429":
        return {"status": 429, "retry_after": arg or "1", "message": "Rate limit reached"}
    if name == "429date":
        when = time.time() + float(arg or 2)
        return {"status": 429, "retry_after": email.utils.formatdate(when, usegmt=True),
                "message": "Rate limit reached"}
    if name in ("500", "502", "503"):
        return {"status": int(name), "message": "The server had an error"}
    if name == "401":
        return {"status": 401, "message": "Incorrect API key provided: {key}",
                "code": "invalid_api_key"}
    if name == "400":
        return {"status": 400, "message": "Bad request"}
    if name == "stall":
        return {"stall": float(arg or 30), "content": answer()}
    if name == "close":
        return {"close": True}
    raise SystemExit("openai_stub: unknown step %r" % tok)


class Script:
    def __init__(self, steps):
        self.steps = steps or [compact("good")]
        self.n = 0
        self.lock = threading.Lock()

    def next(self):
        with self.lock:
            i = min(self.n, len(self.steps) - 1)
            self.n += 1
            return self.n, self.steps[i]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "openai-stub/1"

    def log_message(self, fmt, *args):  # quiet unless asked
        if self.server.opts.verbose:
            sys.stderr.write("openai_stub: " + (fmt % args) + "\n")

    def send_json(self, status, obj, headers=()):
        body = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status, message, etype="invalid_request_error", code=None, headers=()):
        self.send_json(status, {"error": {"message": message, "type": etype, "param": None,
                                          "code": code}}, headers)

    def do_GET(self):
        self.error(404, "Unknown request URL: GET %s" % self.path)

    def do_POST(self):
        opts = self.server.opts
        if self.path != "/v1/chat/completions":
            return self.error(404, "Unknown request URL: POST %s" % self.path)
        try:
            length = int(self.headers.get("Content-Length", "-1"))
        except ValueError:
            length = -1
        if length < 0 or length > MAX_BODY:
            return self.error(400, "a Content-Length up to %d bytes is required" % MAX_BODY)
        raw = self.rfile.read(length)
        auth = self.headers.get("Authorization", "")
        sent_key = auth[len("Bearer "):] if auth.startswith("Bearer ") else auth
        auth_ok = opts.api_key is None or auth == "Bearer " + opts.api_key
        try:
            req = json.loads(raw)
        except ValueError:
            req = None
        problem = None
        if not auth_ok:
            problem = (401, "Incorrect API key provided: %s." % sent_key, "invalid_api_key")
        elif "json" not in self.headers.get("Content-Type", ""):
            problem = (400, "Content-Type must be application/json", None)
        else:
            why = validate(req, opts.model)
            if why:
                problem = (400, why, None)
        # Only a request a real server would serve takes a step of the script.
        n, step = self.server.script.next() if problem is None else (None, None)
        self.server.record({"n": n, "t": time.time(),
                            "step": step_name(step) if step else "rejected:%d" % problem[0],
                            "auth_ok": auth_ok,
                            "model": req.get("model") if isinstance(req, dict) else None,
                            "n_messages": len(req.get("messages") or [])
                            if isinstance(req, dict) and isinstance(req.get("messages"), list)
                            else None})
        if problem is not None:
            return self.error(problem[0], problem[1], code=problem[2])
        if step.get("stall"):
            time.sleep(step["stall"])
        if step.get("close"):
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        status = int(step.get("status", 200))
        if status != 200:
            headers = []
            if step.get("retry_after") is not None:
                headers.append(("Retry-After", str(step["retry_after"])))
            message = str(step.get("message", "error")).replace("{key}", sent_key)
            etype = "rate_limit_error" if status == 429 else (
                "server_error" if status >= 500 else "invalid_request_error")
            return self.error(status, message, etype, step.get("code"), headers)
        content = step.get("content", answer())
        prompt_tokens = max(1, sum(len(m["content"]) for m in req["messages"]) // 4)
        resp = {
            "id": "chatcmpl-stub%06d" % n,
            "object": "chat.completion",
            "created": int(time.time()),
            "model": req["model"],
            "choices": [{"index": 0,
                         "message": {"role": "assistant", "content": content},
                         "logprobs": None,
                         "finish_reason": step.get("finish_reason", "stop")}],
            "system_fingerprint": "fp_stub",
        }
        if step.get("usage", True):
            completion_tokens = max(1, len(content) // 4)
            resp["usage"] = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                             "total_tokens": prompt_tokens + completion_tokens}
        self.send_json(200, resp)


def step_name(step):
    if step.get("stall"):
        return "stall"
    if step.get("close"):
        return "close"
    return str(step.get("status", 200))


def validate(req, model):
    """The checks a real endpoint makes before it answers; None when the request is fine."""
    if not isinstance(req, dict):
        return "We could not parse the JSON body of your request."
    m = req.get("model")
    if not isinstance(m, str) or not m:
        return "you must provide a model parameter"
    if model is not None and m != model:
        return "The model `%s` does not exist or you do not have access to it." % m
    msgs = req.get("messages")
    if not isinstance(msgs, list) or not msgs:
        return "'messages' must be a non-empty array"
    for i, msg in enumerate(msgs):
        if not isinstance(msg, dict) or msg.get("role") not in ("system", "user", "assistant",
                                                                  "developer", "tool"):
            return "messages[%d].role must be one of system, user, assistant" % i
        if not isinstance(msg.get("content"), str):
            return "messages[%d].content must be a string" % i
    t = req.get("temperature")
    if t is not None and (not isinstance(t, (int, float)) or not 0 <= t <= 2):
        return "temperature must be a number in [0, 2]"
    mt = req.get("max_tokens")
    if mt is not None and (not isinstance(mt, int) or isinstance(mt, bool) or mt < 1):
        return "max_tokens must be a positive integer"
    extra = set(req) - {"model", "messages", "temperature", "max_tokens", "top_p", "n",
                        "stream", "stop", "seed", "response_format", "user"}
    if extra:
        return "Unrecognized request argument supplied: %s" % ", ".join(sorted(extra))
    if req.get("stream"):
        return "this stub does not stream"
    return None


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, opts, script):
        super().__init__(("127.0.0.1", opts.port), Handler)
        self.opts = opts
        self.script = script
        self.log_lock = threading.Lock()

    def record(self, entry):
        if not self.opts.log:
            return
        with self.log_lock, open(self.opts.log, "a") as f:
            f.write(json.dumps(entry) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--script", default="good", help="comma-separated compact steps")
    ap.add_argument("--script-file", help="JSON list of steps (overrides --script)")
    ap.add_argument("--api-key", help="required bearer key (default: none checked)")
    ap.add_argument("--model", help="the only model name accepted (default: any)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=60.0, help="exit after this long")
    ap.add_argument("--log", help="append one JSON line per request here")
    ap.add_argument("--verbose", action="store_true")
    opts = ap.parse_args()
    if opts.api_key is None and os.environ.get("OPENAI_STUB_API_KEY"):
        opts.api_key = os.environ["OPENAI_STUB_API_KEY"]  # keeps the key off the command line
    if opts.script_file:
        with open(opts.script_file) as f:
            raw = json.load(f)
        steps = [compact(s) if isinstance(s, str) else dict(s) for s in raw]
    else:
        steps = [compact(s) for s in opts.script.split(",") if s.strip()]
    server = Server(opts, Script(steps))
    print(server.server_address[1], flush=True)
    # Bounded: a test that forgets to stop it, or dies, leaves no server behind for long.
    timer = threading.Timer(opts.max_seconds, server.shutdown)
    timer.daemon = True
    timer.start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
