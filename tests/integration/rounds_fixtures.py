"""Helpers for the round-loop suite (issue 4, tests/integration/test_rounds.py): real koptd +
interp workers + harness (TRITON_INTERPRET=1 on the CPU), the scripted OpenAI-compatible stub
(tests/llm/openai_stub.py) and stand-in agents (tests/llm/agent_*.{py,sh}).

Builds on worker_fixtures (the issue-3 helpers): processes are found only below the pids these
fixtures started, never by name.
"""
import hashlib
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time

from kopt_helpers import ROOT, EventStream
from worker_fixtures import (TERMINAL, VA_KERNEL, alive, cmdline, harness_python_pids, kill9,
                             va_spec, wait_for, worker_pids)

STUB = ROOT / "tests" / "llm" / "openai_stub.py"
AGENT_FASTER = ROOT / "tests" / "llm" / "agent_faster.py"
AGENT_SILENT = ROOT / "tests" / "llm" / "agent_silent.sh"
# All jobs of the module share one koptd with two interp workers; the last job may wait for
# the others. A ceiling, not the usual case (the whole module runs in ~2-3 minutes).
ROUNDS_TIMEOUT = float(os.environ.get("KOPT_TEST_ROUNDS_TIMEOUT", "600"))
SILENT_MARK = "# kopt-test: silent agent (tests/llm/agent_silent.sh answers for this job)\n"


def sha256(text):
    return hashlib.sha256(text.encode()).hexdigest()


def rounds_spec(rounds, policy="hierarchy", proposer="rules", kernel=None, name=None):
    """examples/vector_add on interp with the round loop (fast cases: 1 correctness, 1 bench)."""
    spec = va_spec(kernel=kernel, rounds=rounds, policy=policy, proposer=proposer)
    spec["name"] = name or f"va-{proposer}-{policy}"
    return spec


def va_block_kernel(block):
    """examples/vector_add/kernel.py with the ModelNew BLOCK_SIZE default set to block."""
    src = VA_KERNEL.replace("BLOCK_SIZE=128", f"BLOCK_SIZE={block}", 1)
    assert src != VA_KERNEL or block == 128, "examples/vector_add/kernel.py changed"
    return src


def get_rounds(api, job_id):
    r = api.get(f"/v1/jobs/{job_id}/rounds")
    assert r.status_code == 200, f"GET /rounds: {r.status_code} {r.text[:500]}"
    return r.json()["rounds"]


def get_kernel(api, job_id, round_=None):
    params = {"round": round_} if round_ is not None else None
    return api.get(f"/v1/jobs/{job_id}/kernel", params=params)


def summary(records):
    """Round records in one line each, for assertion messages."""
    out = []
    for rec in records:
        out.append(f"r{rec.get('round')} L{rec.get('level_reached')} "
                   f"{rec.get('rewrite_family')} accepted={rec.get('accepted')} "
                   f"reject={str(rec.get('reject_reason'))[:200]!r}")
    return "\n  ".join(out)


# --------------------------------------------------------------------------- SSE

class EventCollector:
    """Reads GET /v1/jobs/{id}/events from the first event (Last-Event-ID: 0: replay, then
    live) in a thread until the job's terminal state event; .events is [(kind, job dict)]."""

    def __init__(self, port, job_id, token, timeout=ROUNDS_TIMEOUT):
        self.events = []
        self.error = None
        self.done = threading.Event()
        self.t = threading.Thread(target=self._run, args=(port, job_id, token, timeout),
                                  daemon=True)
        self.t.start()

    def _run(self, port, job_id, token, timeout):
        es = None
        try:
            es = EventStream(port, f"/v1/jobs/{job_id}/events", token, timeout=timeout,
                             last_event_id="0")
            if es.status != 200:
                self.error = f"GET /events: {es.status}"
                return
            while True:
                ev = es.next_event()
                if ev is None:
                    return
                try:
                    data = json.loads(ev["data"])
                except ValueError:
                    data = {"unparsed": ev["data"]}
                self.events.append((ev["event"], data))
                if ev["event"] == "state" and data.get("state") in TERMINAL:
                    return
        except Exception as e:  # reported by the test that reads the events
            self.error = repr(e)
        finally:
            if es is not None:
                es.close()
            self.done.set()

    def wait(self, timeout=30):
        self.done.wait(timeout)
        return self.events

    def progress(self):
        return [d.get("progress") or {} for kind, d in self.events if kind == "progress"]


def replay_events(port, job_id, token, timeout=30):
    """Every event of a finished job, replayed from the start."""
    c = EventCollector(port, job_id, token, timeout=timeout)
    c.wait(timeout)
    assert c.error is None, c.error
    return c


# --------------------------------------------------------------------- openai stub

class OpenAIStub:
    """tests/llm/openai_stub.py on a free loopback port, replaying steps (dicts or compact
    strings) from a script file; requires the bearer key (passed by environment, not argv)."""

    def __init__(self, steps, tmpdir, api_key, model, max_seconds=900):
        self.script = os.path.join(tmpdir, "stub-script.json")
        self.log = os.path.join(tmpdir, "stub-requests.jsonl")
        self.err = open(os.path.join(tmpdir, "stub-stderr.txt"), "wb")
        with open(self.script, "w") as f:
            json.dump(steps, f)
        env = dict(os.environ, OPENAI_STUB_API_KEY=api_key)
        self.proc = subprocess.Popen(
            [sys.executable, str(STUB), "--script-file", self.script, "--model", model,
             "--max-seconds", str(max_seconds), "--log", self.log],
            stdout=subprocess.PIPE, stderr=self.err, env=env, text=True)
        line = self.proc.stdout.readline().strip()
        assert line.isdigit(), f"openai_stub did not print its port (got {line!r})"
        self.port = int(line)
        self.base_url = f"http://127.0.0.1:{self.port}"

    def requests(self):
        try:
            with open(self.log) as f:
                return [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.err.close()


def contract_answer(kernel, hypothesis, family="block_size"):
    """A chat answer in the output contract (one JSON object)."""
    return json.dumps({"hypothesis": hypothesis, "rewrite_family": family, "kernel": kernel},
                      indent=2)


def stub_completion_tokens(content):
    """What openai_stub.py reports as usage.completion_tokens for an answer."""
    return max(1, len(content) // 4)


# --------------------------------------------------------------------------- agent

def agent_cmd():
    """KOPT_AGENT_CMD: agent_silent.sh for an incumbent carrying SILENT_MARK, else
    agent_faster.py; both given the round's directory ({dir}). One koptd serves both."""
    q = shlex.quote
    return (f"if grep -q 'kopt-test: silent agent' {{kernel}}; "
            f"then sh {q(str(AGENT_SILENT))} {{dir}}; "
            f"else {q(sys.executable)} {q(str(AGENT_FASTER))} {{dir}}; fi")


# --------------------------------------------------------------------------- resume

def worker_for_job(k, api, job_id):
    """(pid, device) of the kopt-worker of koptd k that holds job_id, from GET /v1/workers
    and the job's worker field ("<host>/<device>"), checked against k's children."""
    j = api.job(job_id)
    w = j.get("worker") or ""
    host, _, device = w.rpartition("/")
    ws = api.get("/v1/workers").json().get("workers", [])
    mine = set(worker_pids(k.proc.pid))
    for x in ws:
        if x.get("device") == device and x.get("host") == host and x.get("pid") in mine:
            return x["pid"], device
    return None, device


class ResumeKiller:
    """Watches a job in a thread: once round `after` is committed (GET /rounds), SIGKILLs the
    kopt-worker (a child of our koptd) that runs it. Records what it saw and did."""

    def __init__(self, k, api, job_id, after=1, timeout=ROUNDS_TIMEOUT):
        self.k, self.api, self.job_id, self.after = k, api, job_id, after
        self.before = None        # the committed records seen just before the kill
        self.after_kill = None    # the records read right after it
        self.killed_pid = None
        self.device = None
        self.harness = []         # harness python pids of the killed worker
        self.error = None
        self.done = threading.Event()
        self.t = threading.Thread(target=self._run, args=(timeout,), daemon=True)
        self.t.start()

    def _run(self, timeout):
        try:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                recs = get_rounds(self.api, self.job_id)
                if any(r["round"] >= self.after for r in recs):
                    pid, dev = worker_for_job(self.k, self.api, self.job_id)
                    if pid is None:
                        self.error = f"no worker of ours holds the job (device {dev!r})"
                        return
                    self.before, self.device = recs, dev
                    self.harness = harness_python_pids(pid)
                    assert "kopt-worker" in os.path.basename((cmdline(pid) or ["?"])[0])
                    os.kill(pid, signal.SIGKILL)
                    self.killed_pid = pid
                    self.after_kill = get_rounds(self.api, self.job_id)
                    return
                j = self.api.job(self.job_id)
                if j.get("state") in TERMINAL:
                    self.error = f"the job ended before round {self.after} was seen: {j['state']}"
                    return
                time.sleep(0.2)
            self.error = f"round {self.after} not committed within {timeout:.0f} s"
        except Exception as e:
            self.error = repr(e)
        finally:
            self.done.set()

    def wait(self, timeout=ROUNDS_TIMEOUT):
        self.done.wait(timeout)

    def reap_harness(self, timeout=15):
        """The killed worker's harness processes must go with it; returns survivors (then
        killed: they are ours)."""
        try:
            wait_for(lambda: not any(alive(p) for p in self.harness), timeout, interval=0.2,
                     what="the killed worker's harness processes to exit")
            return []
        except AssertionError:
            left = [(p, " ".join(cmdline(p))[:200]) for p in self.harness if alive(p)]
            for p, _ in left:
                kill9(p)
            return left


__all__ = ["STUB", "AGENT_FASTER", "AGENT_SILENT", "ROUNDS_TIMEOUT", "SILENT_MARK", "sha256",
           "rounds_spec", "va_block_kernel", "get_rounds", "get_kernel", "summary",
           "EventCollector", "replay_events", "OpenAIStub", "contract_answer",
           "stub_completion_tokens", "agent_cmd", "worker_for_job", "ResumeKiller"]
