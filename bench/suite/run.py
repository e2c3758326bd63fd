"""Submits operators of the suite to a running koptd and records what each job did.

    KOPT_URL=http://127.0.0.1:8470 KOPT_TOKEN=kopt_... \\
    python3 bench/suite/run.py --ops all --runs 3 --rounds 5 --backend cuda --out results/

Every (operator, run) becomes one job (name `suite-<op>-run<r>`, `operator` set for pattern
provenance); all are submitted together as one batch (POST /v1/batches: one policy, one
pattern index version for every job; --pattern-index, --exclude-same-operator,
--synthesize-after), so koptd spreads them over its workers, then polled until each ends.
The batch's report (per-job results, the aggregate with every failure) is written to
OUT/batch-<id>.json. Progress lines go to stderr (operator, run, state, round k/N, level, best
speedup). Each job is written to OUT/kopt-<op>-run<r>.json: the settings, the job document
(baseline, best, error), its round records, the best kernel's source, and a `failure`
(stage and reason) when it did not succeed, so failures stay in the denominator. Run numbers
continue after those already in OUT, so several invocations or machines can write into
directories that report.py merges by operator and run.

Uses only the standard library (urllib), so it runs with the GPU machine's own python3.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opspec import OpSpec, ops_arg
from results import FORMAT, RECORD_NAME_RE, write_record

HTTP_TIMEOUT_S = 30                       # one request
MAX_RESPONSE_BYTES = 64 * 1024 * 1024     # one response body (a job's rounds with evidence)
BATCH_MAX_JOBS = 256                      # POST /v1/batches's limit: more jobs, more batches
SUBMIT_ATTEMPTS = 3                       # a POST retried with the same Idempotency-Key
TERMINAL = ("succeeded", "failed", "cancelled")


class ApiError(Exception):
    """An HTTP request to koptd that failed: status (0 when no answer) and the problem text."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class Koptd:
    """The few routes the runner needs, over urllib with a timeout and a body cap."""

    def __init__(self, base: str, token: str):
        self.base = base.rstrip("/")
        self.token = token

    def _call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None,
              raw: bool = False) -> Any:
        h = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        req = urllib.request.Request(self.base + path, data=data, headers=h, method=method)
        try:
            with urllib.request.urlopen(req, timeout=HTTP_TIMEOUT_S) as r:
                payload = r.read(MAX_RESPONSE_BYTES + 1)
        except urllib.error.HTTPError as e:
            text = e.read(64 * 1024).decode("utf-8", "replace")
            try:
                doc = json.loads(text)
                text = doc.get("detail") or doc.get("title") or text
            except ValueError:
                pass
            raise ApiError(e.code, f"{method} {path}: {e.code} {text}") from None
        except (urllib.error.URLError, OSError) as e:
            raise ApiError(0, f"{method} {path}: no answer ({e})") from None
        if len(payload) > MAX_RESPONSE_BYTES:
            raise ApiError(0, f"{method} {path}: response larger than {MAX_RESPONSE_BYTES} bytes")
        if raw:
            return payload.decode("utf-8", "replace")
        try:
            return json.loads(payload)
        except ValueError:
            raise ApiError(0, f"{method} {path}: answer is not JSON") from None

    def submit(self, spec: dict[str, Any], key: str, path: str = "/v1/jobs") -> dict[str, Any]:
        last: ApiError | None = None
        for attempt in range(SUBMIT_ATTEMPTS):
            try:
                return self._call("POST", path, spec, {"Idempotency-Key": key})
            except ApiError as e:
                if e.status != 0 and e.status < 500:
                    raise
                last = e
                time.sleep(1 + attempt)
        assert last is not None
        raise last

    def job(self, job_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/jobs/{job_id}")

    def rounds(self, job_id: str) -> list[dict[str, Any]]:
        return self._call("GET", f"/v1/jobs/{job_id}/rounds").get("rounds", [])

    def kernel(self, job_id: str) -> str:
        return self._call("GET", f"/v1/jobs/{job_id}/kernel", raw=True)

    def cancel(self, job_id: str) -> None:
        self._call("POST", f"/v1/jobs/{job_id}/cancel")

    def batch(self, batch_id: str) -> dict[str, Any]:
        return self._call("GET", f"/v1/batches/{batch_id}")


@dataclass
class RunJob:
    op: OpSpec
    run: int
    job_id: str | None = None
    state: str = "unsubmitted"
    failure: dict[str, str] | None = None
    submitted: float = 0.0
    running_since: float | None = None
    last_line: str = ""
    doc: dict[str, Any] = field(default_factory=dict)


def now_iso() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def log(msg: str) -> None:
    print(f"run.py: {msg}", file=sys.stderr, flush=True)


def next_run(out: Path, ops: list[OpSpec]) -> int:
    """1 + the highest run number recorded in `out` for any of `ops` (1 when none)."""
    names = {o.name for o in ops}
    runs = [int(m["run"]) for p in out.glob("kopt-*-run*.json")
            if (m := RECORD_NAME_RE.match(p.name)) and m["op"] in names]
    return max(runs, default=0) + 1


def job_spec(op: OpSpec, run: int, args: argparse.Namespace) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "name": f"suite-{op.name}-run{run}", "operator": op.name,
        "kernel": {"source": op.kernel_source(), "filename": "kernel.py"},
        "reference": {"source": op.ref_source(), "filename": "ref.py"},
        "backend": args.backend, "rounds": args.rounds, "policy": args.policy,
        "proposer": args.proposer, "seed": args.seed, "benchmark_cases": args.benchmark_cases,
        "correctness_cases": args.correctness_cases,
    }
    if args.max_candidates is not None:
        spec["max_candidates"] = args.max_candidates
    if op.tolerances:
        spec["tolerances"] = op.tolerances
    return spec


def progress_line(j: RunJob, doc: dict[str, Any]) -> str:
    p = doc.get("progress") or {}
    best = doc.get("best") or {}
    parts = [f"{j.op.name} run {j.run}", doc.get("state", "?")]
    if p.get("round") is not None:
        parts.append(f"round {p.get('round')}/{p.get('rounds')}")
    if p.get("level"):
        parts.append(f"L{p['level']}")
    if p.get("step"):
        parts.append(str(p["step"]))
    sp = best.get("speedup", p.get("best_speedup"))
    if isinstance(sp, (int, float)):
        parts.append(f"best {sp:.3f}x")
    if doc.get("error"):
        parts.append(f"error: {str(doc['error'])[:200]}")
    return ", ".join(parts)


def finish(api: Koptd, j: RunJob, args: argparse.Namespace, t_start: float) -> dict[str, Any]:
    """The record of one job (fetching its rounds and best kernel when it ran)."""
    rounds: list[dict[str, Any]] = []
    kernel: str | None = None
    if j.job_id:
        try:
            j.doc = api.job(j.job_id)
            rounds = api.rounds(j.job_id)
            if (j.doc.get("best") or {}).get("kernel_sha256"):
                kernel = api.kernel(j.job_id)
        except ApiError as e:
            j.failure = j.failure or {"stage": "fetch", "reason": str(e)}
        j.state = j.doc.get("state", j.state)
        if j.failure is None and j.state != "succeeded":
            j.failure = {"stage": "job", "reason": str(j.doc.get("error") or f"job ended {j.state}")}
    return {
        "kind": "kopt", "format": FORMAT, "operator": j.op.name, "class": j.op.op_class, "run": j.run,
        "config": {"url": args.url, "backend": args.backend, "rounds": args.rounds, "policy": args.policy,
                   "proposer": args.proposer, "seed": args.seed, "benchmark_cases": args.benchmark_cases,
                   "correctness_cases": args.correctness_cases, "max_candidates": args.max_candidates},
        "host": socket.gethostname(), "job_id": j.job_id, "state": j.state,
        "ok": j.state == "succeeded" and j.failure is None, "failure": j.failure,
        "recorded_at": now_iso(), "wall_s": round(time.monotonic() - t_start, 3),
        "job": j.doc or None, "rounds": rounds, "best_kernel": kernel,
    }


def poll(api: Koptd, jobs: list[RunJob], args: argparse.Namespace) -> None:
    deadline = time.monotonic() + args.timeout
    live = [j for j in jobs if j.job_id and j.state not in TERMINAL]
    while live:
        for j in live:
            assert j.job_id is not None
            try:
                doc = api.job(j.job_id)
            except ApiError as e:
                log(f"{j.op.name} run {j.run}: {e} (will retry)")
                continue
            j.state = doc.get("state", j.state)
            if j.state == "running" and j.running_since is None:
                j.running_since = time.monotonic()
            line = progress_line(j, doc)
            if line != j.last_line:
                log(line)
                j.last_line = line
            over_job = j.running_since is not None and time.monotonic() - j.running_since > args.job_timeout
            if j.state not in TERMINAL and (over_job or time.monotonic() > deadline):
                why = (f"running for more than --job-timeout {args.job_timeout} s" if over_job
                       else f"not finished within --timeout {args.timeout} s")
                j.failure = {"stage": "timeout", "reason": why}
                log(f"{j.op.name} run {j.run}: {why}: cancelling")
                try:
                    api.cancel(j.job_id)
                except ApiError as e:
                    log(f"{j.op.name} run {j.run}: cancel: {e}")
                j.state = "cancelled"
        live = [j for j in live if j.state not in TERMINAL]
        if live:
            time.sleep(args.poll)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default="all", type=ops_arg, help="all, or a comma-separated list of operators")
    ap.add_argument("--runs", type=int, default=3, help="repetitions of each operator (default 3)")
    ap.add_argument("--first-run", type=int, default=None, help="number of the first run (default: after OUT's)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--policy", default="hierarchy")
    ap.add_argument("--proposer", default="rules")
    ap.add_argument("--backend", default="cuda", choices=("cuda", "ascend", "interp", "any"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--benchmark-cases", type=int, default=1)
    ap.add_argument("--correctness-cases", default="all", help="integer or all")
    ap.add_argument("--max-candidates", type=int, default=None, help="candidates per round (default: koptd's)")
    ap.add_argument("--pattern-index", default="latest",
                    help="the batch's pattern index version: latest, frozen or a number")
    ap.add_argument("--exclude-same-operator", action="store_true",
                    help="jobs leave out patterns whose provenance includes their operator")
    ap.add_argument("--synthesize-after", action="store_true",
                    help="koptd synthesizes a new index version from the batch when it ends")
    ap.add_argument("--out", required=True, help="directory for the result files")
    ap.add_argument("--url", default=os.environ.get("KOPT_URL", "http://127.0.0.1:8470"))
    ap.add_argument("--token", default=os.environ.get("KOPT_TOKEN"), help="default: $KOPT_TOKEN")
    ap.add_argument("--poll", type=float, default=2.0, help="seconds between polls")
    ap.add_argument("--job-timeout", type=float, default=1800.0, help="seconds one job may run")
    ap.add_argument("--timeout", type=float, default=6 * 3600.0, help="seconds for the whole invocation")
    args = ap.parse_args(argv)
    if not args.token:
        ap.error("--token or KOPT_TOKEN is required")
    if not 1 <= args.runs <= 100:
        ap.error("--runs: must be 1..100")
    if args.correctness_cases != "all":
        try:
            args.correctness_cases = int(args.correctness_cases)
        except ValueError:
            ap.error("--correctness-cases: an integer or all")
    if args.pattern_index not in ("latest", "frozen"):
        try:
            args.pattern_index = int(args.pattern_index)
        except ValueError:
            ap.error("--pattern-index: latest, frozen or a version number")
    return args


def submit_batches(api: Koptd, jobs: list[RunJob], args: argparse.Namespace, tag: str) -> list[str]:
    """Submits the jobs as batches of at most BATCH_MAX_JOBS; fills each job's id, or its
    submit failure (a refused batch fails every job in it, with the server's reason).
    Returns the batch ids."""
    ids = []
    for first in range(0, len(jobs), BATCH_MAX_JOBS):
        chunk = jobs[first:first + BATCH_MAX_JOBS]
        body: dict[str, Any] = {"name": f"suite {tag}" + (f" part {first // BATCH_MAX_JOBS + 1}" if len(jobs) > BATCH_MAX_JOBS else ""),
                                "policy": args.policy, "pattern_index": args.pattern_index,
                                "synthesize_after": args.synthesize_after,
                                "jobs": [job_spec(j.op, j.run, args) for j in chunk]}
        if args.exclude_same_operator:
            body["exclude_same_operator"] = True
        try:
            doc = api.submit(body, f"suite-{tag}-{first}", path="/v1/batches")
            got = doc["jobs"]
            if len(got) != len(chunk):
                raise ApiError(0, f"the batch has {len(got)} jobs, {len(chunk)} were sent")
        except (ApiError, KeyError) as e:
            for j in chunk:
                j.failure = {"stage": "submit", "reason": str(e)}
                log(f"{j.op.name} run {j.run}: not submitted: {e}")
            continue
        ids.append(doc["id"])
        log(f"batch {doc['id']}: {len(got)} jobs under pattern index v{doc.get('pattern_index')}")
        for j, rec in zip(chunk, got):
            j.job_id, j.state, j.submitted = rec["id"], rec.get("state", "queued"), time.monotonic()
            log(f"{j.op.name} run {j.run}: submitted job {j.job_id}")
    return ids


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    ops = args.ops
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    first = args.first_run if args.first_run is not None else next_run(out, ops)
    api = Koptd(args.url, args.token)
    t_start = time.monotonic()
    batch = uuid.uuid4().hex[:12]
    jobs = [RunJob(op, first + k) for k in range(args.runs) for op in ops]
    batch_ids = submit_batches(api, jobs, args, batch)
    poll(api, jobs, args)
    n_ok = 0
    for j in jobs:
        rec = finish(api, j, args, t_start)
        path = write_record(out, rec)
        n_ok += rec["ok"]
        why = f": {rec['failure']['stage']}: {rec['failure']['reason'][:300]}" if rec["failure"] else ""
        log(f"{j.op.name} run {j.run}: {rec['state']}{why} -> {path}")
    for bid in batch_ids:
        try:
            doc = api.batch(bid)
        except ApiError as e:
            log(f"batch {bid}: {e}")
            continue
        (out / f"batch-{bid}.json").write_text(json.dumps(doc, indent=1))
        agg = doc.get("aggregate") or {}
        log(f"batch {bid}: geomean {agg.get('geomean_speedup')}, median {agg.get('median_speedup')}, "
            f"{agg.get('succeeded')} of {agg.get('jobs')} succeeded, L1 share {agg.get('l1_share')}")
    log(f"{n_ok} of {len(jobs)} jobs succeeded")
    return 0 if n_ok == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main())
