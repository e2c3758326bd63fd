"""Helpers and fixtures for the worker suites (test_workers, test_bad_kernels, test_crash,
test_sdnotify): koptd with real interp workers, real harnesses (TRITON_INTERPRET=1 on the CPU).

Import with `from worker_fixtures import *` (the fixtures must be in the test module's
namespace). Processes are found only below the pids these fixtures started (never by name):
other koptd instances on this machine are left alone.
"""
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from kopt_helpers import (BIN_DIR, ROOT, Koptd, create_token, parse_metrics, psql)

EXAMPLE = ROOT / "examples" / "vector_add"
BAD = ROOT / "tests" / "harness" / "bad"
VA_KERNEL = (EXAMPLE / "kernel.py").read_text()
VA_REF = (EXAMPLE / "ref.py").read_text()
TERMINAL = ("succeeded", "failed", "cancelled")
# One interp baseline of the example takes 10-40 s on 2 cores; CI boxes may be slower and
# run the ASan build: generous ceilings, the usual case is much faster.
JOB_TIMEOUT = float(os.environ.get("KOPT_TEST_JOB_TIMEOUT", "240"))


def bad_source(name):
    return (BAD / name).read_text()


def va_spec(kernel=None, backend="interp", rounds=0, fast=True, **over):
    """examples/vector_add (or another kernel with its reference), baseline only. fast: one
    correctness case and one benchmark case (the full default is 5 + 5)."""
    spec = {"name": "vector_add", "kernel": {"source": kernel or VA_KERNEL, "filename": "kernel.py"},
            "reference": {"source": VA_REF, "filename": "ref.py"}, "backend": backend,
            "rounds": rounds}
    if fast:
        spec.update(correctness_cases=1, benchmark_cases=1)
    spec.update(over)
    return spec


# examples/vector_add's kernel with lines of its own at the end of forward (before the
# return): for kernels that misbehave in one particular way.
VA_SCAFFOLD = '''
import os
import sys
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask)
    b = tl.load(b_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a + b, mask=mask)


class ModelNew(nn.Module):
    def forward(self, a, b):
        out = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK_SIZE=1024)
{body}
        return out
'''


def va_kernel_with(body):
    """VA_SCAFFOLD with body (unindented Python lines) at the end of forward."""
    return VA_SCAFFOLD.format(body="\n".join("        " + ln for ln in body.strip().splitlines()))


@pytest.fixture
def planted_host_files():
    """World-readable files outside the sandbox's allowlist (in /srv and /etc) holding a
    random secret, for kernels that go looking (tests/harness/bad/read_host_files.py):
    (their names, the secret)."""
    planted = "kopt-host-secret-" + secrets.token_hex(8)
    made = [f"/srv/kopt-test-secret-{secrets.token_hex(4)}", f"/etc/kopt-test-secret-{secrets.token_hex(4)}"]
    for p in made:
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(planted + "\n")
        os.chmod(p, 0o644)
    yield [os.path.basename(p) for p in made], planted
    for p in made:
        os.unlink(p)


def worker_env(work_dir, devices="interp:0", lease_s=6, eval_timeout_s=300, **extra):
    """koptd environment that runs real interp workers with the repository's harness."""
    env = {
        "KOPT_DEVICES": devices,
        "KOPT_HARNESS_PYTHON": str(ROOT / ".venv" / "bin" / "python"),
        "KOPT_HARNESS_DIR": str(ROOT / "harness"),
        "KOPT_WORK_DIR": str(work_dir),
        "KOPT_LEASE_S": str(lease_s),
        "KOPT_EVAL_TIMEOUT_S": str(eval_timeout_s),
        # A host id of its own: workers rows and jobs.worker are "<host_id>/<device>".
        "KOPT_HOST_ID": "t" + secrets.token_hex(4),
    }
    env.update({k: str(v) for k, v in extra.items()})
    return env


def make_work_dir():
    """A work directory the sandbox user can traverse (the launcher chowns the device's
    subdirectory to kopt-sandbox when run as root)."""
    d = tempfile.mkdtemp(prefix="kopt-wtest-", dir="/tmp")
    os.chmod(d, 0o755)
    return d


# ------------------------------------------------------------------------------- waiting

def wait_for(pred, timeout, interval=0.2, what="condition"):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = pred()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what} (last: {last!r})")


def job_state(api, job_id):
    return api.job(job_id)


def log_tail(k, n=5000):
    """The end of a koptd log without the per-request debug lines."""
    text = "\n".join(line for line in k.log().splitlines() if "event=http.request " not in line)
    return text[-n:]


def wait_job(api, job_id, states=TERMINAL, timeout=JOB_TIMEOUT, koptds=()):
    """Polls GET /v1/jobs/{id} until its state is in states; returns the job. On timeout the
    assertion shows the job and the koptd logs' tails."""
    deadline = time.monotonic() + timeout
    j = None
    while time.monotonic() < deadline:
        try:
            j = api.job(job_id)
        except Exception as e:  # a koptd being restarted by the test
            j = {"error": repr(e)}
        if j.get("state") in states:
            return j
        time.sleep(0.3)
    logs = "\n".join(f"--- {k.log_path}\n{log_tail(k)}" for k in koptds)
    raise AssertionError(f"job {job_id} not in {states} after {timeout:.0f} s: "
                         f"{json.dumps(j)[:3000]}\n{logs}")


def job_row(db_url, job_id, cols="state, attempts, lease_owner, lease_expires_at < now(), worker"):
    rows = psql(db_url, f"SELECT {cols} FROM jobs WHERE id = '{job_id}'")
    assert rows, f"job {job_id} not in the database"
    return rows[0]


def job_events_states(db_url, job_id):
    """States of the job's 'state' events, in order."""
    return [r[0] for r in psql(db_url, "SELECT data->>'state' FROM job_events WHERE job_id = "
                                       f"'{job_id}' AND kind = 'state' ORDER BY id")]


def metrics(k):
    import requests
    r = requests.get(k.base + "/metrics", timeout=10)
    assert r.status_code == 200, r.text[:500]
    return parse_metrics(r.text)


def metric(k, name, **labels):
    for n, lab, v in metrics(k):
        if n == name and all(lab.get(a) == b for a, b in labels.items()):
            return v
    return None


# ------------------------------------------------------------------------- PostgreSQL

PG_DIR = Path(os.environ.get("KOPT_TEST_PG_DIR", ROOT / "var" / "test-pg"))


def restart_pg(pg_dir=PG_DIR, down_s=0.0):
    """Restarts the private cluster (fast shutdown: every connection is cut), staying down
    down_s seconds in between; returns the seconds it was unavailable."""
    pg = ["bash", str(ROOT / "scripts" / "pg.sh")]
    t0 = time.monotonic()
    p = subprocess.run(pg + ["stop", str(pg_dir)], capture_output=True, text=True, timeout=120,
                       check=False)
    assert p.returncode == 0, f"pg.sh stop: {p.stderr}"
    time.sleep(down_s)
    p = subprocess.run(pg + ["--fast", "start", str(pg_dir)], capture_output=True, text=True,
                       timeout=120, check=False)
    assert p.returncode == 0, f"pg.sh start: {p.stderr}"
    return time.monotonic() - t0


# ------------------------------------------------------------------------------ /proc

def children(pid):
    out = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/children") as f:
                out += [int(x) for x in f.read().split()]
        except OSError:
            pass
    return out


def descendants(pid):
    out, todo = [], [pid]
    while todo:
        for c in children(todo.pop()):
            if c not in out:
                out.append(c)
                todo.append(c)
    return out


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return []


def alive(pid):
    """True while pid exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            st = f.read()
    except OSError:
        return False
    return st[st.rindex(")") + 2] != "Z"


def worker_pids(koptd_pid):
    """kopt-worker children of one koptd."""
    return [c for c in children(koptd_pid)
            if cmdline(c)[:1] and os.path.basename(cmdline(c)[0]) == "kopt-worker"]


def harness_pid(worker_pid):
    """The harness process of a worker: its direct child (the launcher execs into bwrap or
    python), or None."""
    kids = [c for c in children(worker_pid) if alive(c)]
    return kids[0] if kids else None


def harness_python_pids(worker_pid):
    """Python processes in the worker's tree running kopt_harness.py (supervisor + worker)."""
    return [p for p in descendants(worker_pid)
            if any(a.endswith("kopt_harness.py") for a in cmdline(p))]


def kill9(pid):
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def log_events(text, event):
    """[{field: value}] of the log lines with event=EVENT (key=value, values maybe quoted)."""
    out = []
    for line in text.splitlines():
        if f" event={event} " not in line + " ":
            continue
        fields = {}
        for m in re.finditer(r'(\w+)=("(?:[^"\\]|\\.)*"|\S+)', line):
            v = m.group(2)
            fields[m.group(1)] = v[1:-1] if v.startswith('"') else v
        out.append(fields)
    return out


# ---------------------------------------------------------------------------- fixtures

class WorkerDaemons:
    """Starts koptd with interp workers (via a conftest Launcher); remembers each koptd's
    process tree so teardown can check that nothing it started outlives it."""

    def __init__(self, launcher):
        self.launcher = launcher
        self.started = []
        self.work_dirs = []

    def __call__(self, db_url, wait=True, drop_env=(), name="koptd-w", args=None, **env_over):
        wd = env_over.pop("work_dir", None) or make_work_dir()
        self.work_dirs.append(wd)
        env = worker_env(wd, **env_over)
        if drop_env:
            # The launcher cannot delete variables: start a Koptd by hand, registered with it.
            k = Koptd(db_url, self.launcher.logdir, env=env, name=name, args=args)
            for v in drop_env:
                k.env.pop(v, None)
            self.launcher.procs.append(k)
            k.start(wait=wait)
        else:
            k = self.launcher(db_url, env=env, wait=wait, name=name, args=args)
        k.work_dir = wd
        self.started.append(k)
        return k

    def wait_workers_ready(self, k, n=1, timeout=60):
        """Waits for n 'pool.worker_ready' lines (start-up check passed) in k's log."""
        return wait_for(lambda: len(log_events(k.log(), "pool.worker_ready")) >= n, timeout,
                        what=f"{n} ready worker(s) in {k.log_path}")

    def check_no_orphans(self):
        leftovers = []
        for k in self.started:
            for p in getattr(k, "tree", []):
                if alive(p):
                    leftovers.append((p, " ".join(cmdline(p))[:200]))
        for p, _ in leftovers:
            kill9(p)  # ours: remembered from our koptd's tree
        for d in self.work_dirs:
            shutil.rmtree(d, ignore_errors=True)
        return leftovers


def _remember_trees(wd):
    for k in wd.started:
        if k.proc is not None and k.proc.poll() is None:
            k.tree = descendants(k.proc.pid)


@pytest.fixture
def wkoptd(launch):
    """wkoptd(db_url, **env) -> Koptd with interp workers; stopped (exit 0 asserted) at
    teardown; its workers and harnesses must be gone after it exits."""
    wd = WorkerDaemons(launch)
    yield wd
    _remember_trees(wd)
    launch.stop_all()
    time.sleep(0.5)
    left = wd.check_no_orphans()
    assert not left, f"processes outlived their koptd: {left}"


@pytest.fixture(scope="module")
def module_wkoptd(module_launcher):
    wd = WorkerDaemons(module_launcher)
    yield wd
    _remember_trees(wd)
    module_launcher.stop_all()
    time.sleep(0.5)
    left = wd.check_no_orphans()
    assert not left, f"processes outlived their koptd: {left}"


def submitter(db_url):
    return create_token(db_url, "submitter", "t-sub")


def viewer_and_submitter(db_url):
    return create_token(db_url, "viewer", "t-view"), create_token(db_url, "submitter", "t-sub")


__all__ = ["EXAMPLE", "BAD", "VA_KERNEL", "VA_REF", "TERMINAL", "JOB_TIMEOUT", "bad_source", "va_kernel_with",
           "va_spec", "worker_env", "make_work_dir", "wait_for", "wait_job", "job_row",
           "job_events_states", "metrics", "metric", "children", "descendants", "cmdline",
           "alive", "log_tail", "worker_pids", "harness_pid", "harness_python_pids", "kill9", "log_events",
           "WorkerDaemons", "wkoptd", "module_wkoptd", "submitter", "viewer_and_submitter",
           "PG_DIR", "restart_pg",
           "BIN_DIR", "psql", "planted_host_files"]
