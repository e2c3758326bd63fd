#!/usr/bin/env python3
"""Run the judge's fixture suite (tests/judge/<name>/{ref.py,kernel.py,expect.json}) through
one real harness process and print a table: fixture, expected, decision, the candidate's
worst error in budget units, the reference's own worst error in budget units.

    .venv/bin/python tests/judge/run_judge.py                       # interp, small sizes
    python3 tests/judge/run_judge.py --backend cuda --scale 64 --cases 3   # on a GPU, bigger sizes
    python3 tests/judge/run_judge.py --json out.json -k softmax     # a subset, JSON record too

expect.json: {"decision": "accept" | "reject", "reason_contains": "text" | ["text", ...],
"load": {extra `load` fields, e.g. "correctness_cases": 2}}. Fixtures with the same ref.py
and load fields share one `load`: the first (an accepted one when there is one) is the
initial kernel, the others are validated as candidates. Exit status 0 iff every fixture
decided as labelled and its reason contains the expected text."""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "harness"))

from kharness.client import HarnessClient

VALIDATE_TIMEOUT_S = 600


@dataclass
class Fixture:
    name: str
    ref: str
    kernel: str
    decision: str
    reason_contains: list[str]
    load: dict[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    name: str
    expected: str
    decision: str                       # accept | reject | error
    reason: str | None
    error_units: float | None
    reference_error_units: float | None
    seconds: float
    ok: bool
    why_not_ok: str | None = None


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


def discover(root: str = HERE, only: str | None = None) -> list[Fixture]:
    """Every fixture directory under root (sorted), optionally those whose name contains only."""
    out = []
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isfile(os.path.join(d, "expect.json")) or (only and only not in name):
            continue
        exp = json.loads(_read(os.path.join(d, "expect.json")))
        if exp.get("decision") not in ("accept", "reject"):
            raise ValueError(f"{name}/expect.json: decision must be accept or reject")
        rc = exp.get("reason_contains") or []
        out.append(Fixture(name, _read(os.path.join(d, "ref.py")), _read(os.path.join(d, "kernel.py")),
                           exp["decision"], [rc] if isinstance(rc, str) else list(rc), exp.get("load") or {}))
    return out


def _groups(fixtures: list[Fixture]) -> list[list[Fixture]]:
    """Fixtures sharing ref.py and load fields, the accepted ones first, in name order."""
    groups: dict[str, list[Fixture]] = {}
    for f in fixtures:
        groups.setdefault(f.ref + json.dumps(f.load, sort_keys=True), []).append(f)
    return [sorted(g, key=lambda f: (f.decision != "accept", f.name)) for g in groups.values()]


def _outcome(f: Fixture, resp: dict[str, Any], seconds: float) -> Outcome:
    if not resp.get("ok"):
        err = resp.get("error") or {}
        return Outcome(f.name, f.decision, "error", f"{err.get('kind')}: {err.get('message')}", None, None, seconds,
                       False, "the harness gave no verdict")
    res = resp["result"]
    s = res.get("summary") or {}
    fail = res.get("failure")
    decision = "accept" if res.get("passed") else "reject"
    reason = fail.get("message") if fail else None
    o = Outcome(f.name, f.decision, decision, reason, s.get("error_units"), s.get("reference_error_units"),
                seconds, True)
    if decision != f.decision:
        o.ok, o.why_not_ok = False, f"expected {f.decision}, got {decision}"
    elif decision == "reject":
        missing = [t for t in f.reason_contains if t not in (reason or "")]
        if missing:
            o.ok, o.why_not_ok = False, f"reason lacks {missing!r}"
    return o


def run_all(h: HarnessClient, fixtures: list[Fixture], log: Callable[[Outcome], None] | None = None,
            cases: int = 1) -> list[Outcome]:
    """Load and validate every fixture on the harness h with `cases` correctness cases
    (seeds) unless its expect.json says otherwise; one Outcome each (name order)."""
    out: list[Outcome] = []
    for g in _groups(fixtures):
        first = g[0]
        t0 = time.time()
        r = h.request("load", reference_source=first.ref, kernel_source=first.kernel,
                      workdir="judge-" + first.name, seed=0, benchmark_cases=1,
                      **{"correctness_cases": cases, **first.load})
        if not r.get("ok"):
            out.extend(_outcome(f, r, time.time() - t0) for f in g)
            continue
        for f in g:
            t1 = time.time()
            fields: dict[str, Any] = {"timeout_s": VALIDATE_TIMEOUT_S}
            if f is not first:
                fields["candidate_source"] = f.kernel
            o = _outcome(f, h.request("validate", **fields), time.time() - (t0 if f is first else t1))
            if log:
                log(o)
            out.append(o)
    return sorted(out, key=lambda o: o.name)


def _units(x: float | str | None) -> str:
    if x is None:
        return "-"
    return x if isinstance(x, str) else f"{x:.3g}"


def format_table(outcomes: list[Outcome]) -> str:
    w = max([len(o.name) for o in outcomes] + [7])
    lines = [f"{'fixture':<{w}}  expected  decision  err/budget  ref/budget  time_s  ok",
             f"{'-' * w}  --------  --------  ----------  ----------  ------  --"]
    for o in outcomes:
        lines.append(f"{o.name:<{w}}  {o.expected:<8}  {o.decision:<8}  {_units(o.error_units):>10}  "
                     f"{_units(o.reference_error_units):>10}  {o.seconds:6.1f}  {'ok' if o.ok else 'NO'}")
    for o in outcomes:
        if o.reason or not o.ok:
            lines.append(f"  {o.name}: {o.reason or ''}" + (f"  <-- {o.why_not_ok}" if not o.ok else ""))
    return "\n".join(lines)


def start(backend: str, workdir: str, scale: int, stderr_path: str | None = None) -> HarnessClient:
    env = dict(os.environ)
    env["KOPT_JUDGE_SCALE"] = str(scale)
    if backend == "interp":
        env["TRITON_INTERPRET"] = "1"
    else:
        env.pop("TRITON_INTERPRET", None)
    return HarnessClient(["--backend", backend, "--workdir", workdir], env=env, stderr_path=stderr_path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="interp", choices=("interp", "cuda", "ascend", "auto"))
    ap.add_argument("--scale", type=int, default=1, help="KOPT_JUDGE_SCALE for the fixtures (default 1)")
    ap.add_argument("--cases", type=int, default=1, help="correctness cases (seeds) per fixture (default 1)")
    ap.add_argument("-k", dest="only", default=None, help="only fixtures whose name contains this")
    ap.add_argument("--workdir", default=None, help="harness work directory (default: a temporary one)")
    ap.add_argument("--json", default=None, help="also write the outcomes as JSON to this path")
    args = ap.parse_args(argv)
    if args.scale < 1:
        ap.error("--scale must be >= 1")
    if not 1 <= args.cases <= 1024:
        ap.error("--cases must be in [1, 1024]")
    fixtures = discover(only=args.only)
    wd = args.workdir or tempfile.mkdtemp(prefix="kopt-judge-")
    os.makedirs(wd, exist_ok=True)
    with start(args.backend, wd, args.scale, os.path.join(wd, "harness.log")) as h:
        hello = h.request("hello")
        dev = (hello.get("result") or {}).get("device")
        print(f"backend {args.backend}, scale {args.scale}, device {dev}, work directory {wd}", flush=True)
        outcomes = run_all(h, fixtures, log=lambda o: print(f"  {o.name}: {o.decision} ({o.seconds:.1f} s)",
                                                          file=sys.stderr, flush=True), cases=args.cases)
    print(format_table(outcomes))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"backend": args.backend, "scale": args.scale, "device": dev,
                       "outcomes": [asdict(o) for o in outcomes]}, f, indent=1)
    return 0 if all(o.ok for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
