"""Result records of the suite: one JSON file per (kind, operator, run).

    kopt-<op>-run<r>.json        run.py: the job document, its rounds, the best kernel
    baselines-<op>-run<r>.json   baselines.py: initial kernel, PyTorch eager, torch.compile
                                 (and kopt's best kernel) timed side by side, copy bandwidth,
                                 peak tensor throughput
    exhaustive-<op>-run<r>.json  exhaustive.py: the optimum of the initial kernel's launch space

Every record has `kind`, `format`, `operator`, `run`, `ok` and, when not ok, `failure`
{stage, reason}. `load_records` reads files and directories (several machines' outputs can be
merged: a record is identified by kind, operator, run and the directory it came from).
`kopt_summary` turns a kopt record into the figures the report needs.
"""
from __future__ import annotations

import json
import math
import os
import re
import statistics
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

FORMAT = 1
KINDS = ("kopt", "baselines", "exhaustive")
MAX_RECORD_BYTES = 256 * 1024 * 1024    # one result file (a kopt record holds every round's evidence)


class RecordError(ValueError):
    """A result file that cannot be used; the message names the file and the rule."""


def record_name(rec: dict[str, Any]) -> str:
    return f"{rec['kind']}-{rec['operator']}-run{rec['run']}.json"


def write_record(out: Path, rec: dict[str, Any]) -> Path:
    """Writes atomically (temp file + rename): a reader never sees half a record."""
    path = Path(out) / record_name(rec)
    tmp = path.with_suffix(".json.tmp")
    with open(tmp, "w") as f:
        json.dump(rec, f, indent=1, allow_nan=False, default=str)
        f.write("\n")
    os.replace(tmp, path)
    return path


def read_record(path: Path) -> dict[str, Any]:
    size = path.stat().st_size
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"{path}: {size} bytes, more than the limit of {MAX_RECORD_BYTES}")
    try:
        rec = json.loads(path.read_text())
    except ValueError as e:
        raise RecordError(f"{path}: not JSON ({e})") from None
    if not isinstance(rec, dict):
        raise RecordError(f"{path}: not a JSON object")
    for k in ("kind", "format", "operator", "run", "ok"):
        if k not in rec:
            raise RecordError(f"{path}: field {k!r} is missing")
    if rec["kind"] not in KINDS:
        raise RecordError(f"{path}: kind {rec['kind']!r} is not one of {', '.join(KINDS)}")
    if rec["format"] != FORMAT:
        raise RecordError(f"{path}: format {rec['format']!r}, this reader knows {FORMAT}")
    if not isinstance(rec["run"], int) or rec["run"] < 1:
        raise RecordError(f"{path}: run must be a positive integer")
    rec["_source"] = str(path)
    return rec


RECORD_NAME_RE = re.compile(r"^(?P<kind>kopt|baselines|exhaustive)-(?P<op>[A-Za-z0-9_]+)-run(?P<run>[0-9]+)\.json$")


def load_records(paths: list[str]) -> list[dict[str, Any]]:
    """Records from files and directories (in a directory, the files named like records:
    <kind>-<operator>-run<r>.json, not recursing; a file given by name must be a record)."""
    out = []
    for p in paths:
        path = Path(p)
        files = sorted(f for f in path.iterdir() if RECORD_NAME_RE.match(f.name)) if path.is_dir() else [path]
        if path.is_dir() and not files:
            raise RecordError(f"{path}: no result files (<kind>-<operator>-run<r>.json)")
        for f in files:
            out.append(read_record(f))
    return out


# --------------------------------------------------------------------------- statistics

def median(xs: Iterable[float | None]) -> float | None:
    v = [x for x in xs if x is not None and math.isfinite(x)]
    return statistics.median(v) if v else None


def geomean(xs: Iterable[float | None]) -> float | None:
    v = [x for x in xs if x is not None and math.isfinite(x) and x > 0]
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None


@dataclass(frozen=True)
class Spread:
    """Median and range of one figure over runs."""
    median: float
    low: float
    high: float
    n: int

    @property
    def rel(self) -> float:
        """(high - low) / median."""
        return (self.high - self.low) / self.median if self.median else 0.0


def spread(xs: Iterable[float | None]) -> Spread | None:
    v = [x for x in xs if x is not None and math.isfinite(x)]
    if not v:
        return None
    return Spread(statistics.median(v), min(v), max(v), len(v))


# --------------------------------------------------------------------------- kopt jobs

def _ts(s: Any) -> datetime | None:
    if not isinstance(s, str):
        return None
    try:
        return datetime.fromisoformat(s)
    except ValueError:
        return None


@dataclass(frozen=True)
class KoptRun:
    operator: str
    run: int
    ok: bool
    failure: str | None
    initial_ms: float | None        # the job's baseline (geomean of the benchmark cases' medians)
    best_ms: float | None           # initial_ms / speedup
    speedup: float | None           # product of the accepted rounds' ABBA speedups
    eager_ms: float | None          # PyTorch eager, timed by the job's baseline
    best_round: int | None
    rounds_run: int
    seconds_to_best: float | None   # job start -> the best round's record
    job_seconds: float | None       # job start -> finish
    round_seconds: list[float]      # each round's wall time: from the job's start (round 1, which
                                    # also loads, validates, times and profiles the initial
                                    # kernel) or the previous round's record to its own
    max_level: int | None
    levels: list[int] | None        # rounds that stopped at L1..L4
    best_tunables: dict[str, Any] | None
    input_shapes: list[list[int]] | None


def _baseline_bench(job: dict[str, Any]) -> dict[str, Any]:
    return ((job.get("baseline") or {}).get("bench")) or {}


def kopt_summary(rec: dict[str, Any]) -> KoptRun:
    job = rec.get("job") or {}
    bench = _baseline_bench(job)
    initial = (bench.get("summary") or {}).get("geomean_median_ms")
    refs = [((c.get("reference") or {}).get("median_ms")) for c in bench.get("cases") or []]
    best = job.get("best") or {}
    sp = best.get("speedup")
    best_ms = best.get("median_ms")
    if (best_ms is None or best_ms <= 0) and initial and sp:
        best_ms = initial / sp
    rounds = rec.get("rounds") or []
    started, finished = _ts(job.get("started_at")), _ts(job.get("finished_at"))
    best_round = best.get("round")
    to_best = None
    if started and best_round == 0:
        to_best = 0.0
    elif started and best_round is not None:
        at = next((_ts(r.get("created_at")) for r in rounds if r.get("round") == best_round), None)
        to_best = (at - started).total_seconds() if at else None
    round_s: list[float] = []
    prev = started      # without the job's start no round's time is known for sure
    for r in sorted(rounds, key=lambda r: r.get("round") or 0):
        at = _ts(r.get("created_at"))
        if not (prev and at):
            round_s = []
            break
        round_s.append((at - prev).total_seconds())
        prev = at
    load = (job.get("baseline") or {}).get("load") or {}
    shapes = [d["tensor"] for d in load.get("inputs_of_probe_case") or [] if isinstance(d, dict) and "tensor" in d]
    levels = best.get("levels")
    max_level = best.get("max_level")
    if max_level is None and rounds:
        lv = [r.get("level_reached") for r in rounds if isinstance(r.get("level_reached"), int)]
        max_level = max(lv) if lv else None
    failure = rec.get("failure")
    return KoptRun(
        operator=rec["operator"], run=rec["run"], ok=bool(rec["ok"]),
        failure=f"{failure.get('stage')}: {failure.get('reason')}" if isinstance(failure, dict) else None,
        initial_ms=initial, best_ms=best_ms if rec["ok"] else None, speedup=sp if rec["ok"] else None,
        eager_ms=median([r for r in refs if r]), best_round=best_round, rounds_run=len(rounds),
        seconds_to_best=to_best,
        job_seconds=(finished - started).total_seconds() if started and finished else None,
        round_seconds=round_s, max_level=max_level, levels=levels if isinstance(levels, list) else None,
        best_tunables=best.get("tunables") if isinstance(best.get("tunables"), dict) else None,
        input_shapes=shapes or None)
