"""The exhaustive optimum of an operator's initial kernel: every point of its discovered
launch space (block sizes, num_warps, num_stages, ...) measured, the best kept. It is the
denominator of the report's "fraction of the optimum reached" (issue 7, item 6).

NEEDS the harness ops `knobs`, `rewrite` and `sweep` (docs/SEARCH.md). It drives the harness
directly (no koptd): `load` the operator, `knobs`, enumerate the space, `rewrite` each point
into a source through the syntax tree, `sweep` the sources in batches (compile, one-case
screen, quick timing next to the initial kernel), then `validate` the best few on every case
and `bench` them and the initial kernel with the harness's bench method.

    python3 bench/suite/exhaustive.py --ops all --out results/ [--backend cuda] [--cap 4096]

The space (stated in every record):
  * block / group / split knobs: the powers of two in [min, max], a block capped by
    bound.max_useful (the next power of two of the extent it covers);
  * num_warps: the powers of two in [min, max];
  * num_stages: every value in [min, max], but only for kernels that loop or use tl.dot
    (Triton pipelines loops; elsewhere the value changes nothing);
  * declared choices as given; other integer constexprs and frozen knobs stay as they are;
  * the current value is always in the domain.
When the product is larger than --cap, --cap points are drawn from it with a seeded random
generator (deterministic), always including the initial configuration; the record says so.

Writes OUT/exhaustive-<op>-run<r>.json.
"""
from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opspec import OpSpec, ops_arg
from results import FORMAT, write_record

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CAP = 4096              # points measured at most per operator
MAX_CAP = 65536
SWEEP_BATCH = 32                # candidates per sweep request (the harness takes at most 64)
MAX_SWEEP_BATCH = 64
FINALISTS = 3                   # best points checked on every case and benched
POW2_KINDS = ("block", "group", "split", "num_warps")
TIMEOUTS = {"load": 900, "knobs": 120, "rewrite": 120, "sweep": 1800, "validate": 900, "bench": 900}


class SpaceError(ValueError):
    """A knobs result that cannot be enumerated (names the knob and the rule)."""


@dataclass(frozen=True)
class Space:
    """The enumerated launch space of one kernel module."""
    names: tuple[str, ...]                   # knob ids, in enumeration order
    domains: tuple[tuple[int, ...], ...]     # one per knob, ascending
    initial: dict[str, int]                  # the current configuration
    size: int                                # the full product
    points: list[dict[str, int]]             # what will be measured (all, or the sample)
    sampled: bool
    notes: list[str] = field(default_factory=list)   # how each domain was bounded


def _pow2_between(lo: int, hi: int) -> list[int]:
    out, v = [], 1
    while v <= hi:
        if v >= lo:
            out.append(v)
        v *= 2
    return out


def knob_domain(knob: dict[str, Any], kernels: dict[str, dict[str, Any]]) -> tuple[list[int], str]:
    """(the values to try, how they were chosen) for one knob of a `knobs` result."""
    try:
        kid, kind, value = str(knob["id"]), str(knob["kind"]), int(knob["value"])
        lo, hi = int(knob["min"]), int(knob["max"])
    except (KeyError, TypeError, ValueError) as e:
        raise SpaceError(f"knob {knob.get('id')!r}: needs id, kind, value, min, max ({e})") from None
    if lo > hi:
        raise SpaceError(f"knob {kid}: min {lo} > max {hi}")
    choices = knob.get("choices")
    if choices is not None:
        if not isinstance(choices, list) or not all(isinstance(c, int) for c in choices):
            raise SpaceError(f"knob {kid}: choices must be a list of integers")
        vals, how = list(choices), "declared choices"
    elif kind == "num_stages":
        ks = [kernels.get(n, {}) for n in knob.get("kernels") or []]
        if any((k.get("loops") or 0) > 0 or k.get("uses_dot") for k in ks):
            vals, how = list(range(lo, hi + 1)), f"every value in [{lo}, {hi}]"
        else:
            vals, how = [], "kept: no loop and no tl.dot in its kernels, so nothing to pipeline"
    elif kind in POW2_KINDS:
        bound = knob.get("bound") or {}
        top = min(hi, int(bound["max_useful"])) if kind == "block" and bound.get("max_useful") else hi
        if kind != "num_warps" and not knob.get("pow2", True):
            vals, how = [], "kept: not a power of two"
        else:
            vals = _pow2_between(lo, top)
            how = f"powers of two in [{lo}, {top}]" + (" (max_useful)" if top < hi else "")
    else:
        vals, how = [], f"kept: kind {kind} is not swept"
    return sorted(set(vals) | {value}), how


def enumerate_space(knobs_result: dict[str, Any], cap: int = DEFAULT_CAP, seed: int = 0) -> Space:
    """Every configuration of the knobs (or a deterministic sample of `cap` when larger)."""
    if not 1 <= cap <= MAX_CAP:
        raise SpaceError(f"cap: must be 1..{MAX_CAP}")
    raw = knobs_result.get("knobs")
    if not isinstance(raw, list):
        raise SpaceError("knobs: the result has no list of knobs")
    kernels = {str(k.get("name")): k for k in knobs_result.get("kernels") or [] if isinstance(k, dict)}
    names, domains, notes, initial = [], [], [], {}
    for k in sorted(raw, key=lambda x: str(x.get("id"))):
        vals, how = knob_domain(k, kernels)
        kid = str(k["id"])
        if kid in initial:
            raise SpaceError(f"knob {kid}: listed twice")
        initial[kid] = int(k["value"])
        names.append(kid)
        domains.append(tuple(vals))
        notes.append(f"{kid} ({k['kind']}, now {k['value']}): {how}: {list(vals)}")
    for f in knobs_result.get("frozen") or []:
        notes.append(f"{f.get('name')}: frozen ({f.get('why')})")
    size = math.prod(len(d) for d in domains)
    if size <= cap:
        points = [dict(zip(names, p)) for p in itertools.product(*domains)]
        return Space(tuple(names), tuple(domains), initial, size, points, False, notes)
    # Mixed-radix index -> point; the sample is cap distinct indices, the initial point first.
    radices = [len(d) for d in domains]

    def point(i: int) -> dict[str, int]:
        out = {}
        for n, d, r in zip(reversed(names), reversed(domains), reversed(radices)):
            i, j = divmod(i, r)
            out[n] = d[j]
        return {n: out[n] for n in names}

    init_idx = 0
    for n, d, r in zip(names, domains, radices):
        init_idx = init_idx * r + d.index(initial[n])
    rng = random.Random(seed)
    chosen = {init_idx}
    for i in rng.sample(range(size), min(size, cap + 1)):
        if len(chosen) >= cap:
            break
        chosen.add(i)
    notes.append(f"sampled {cap} of {size} points (random.Random({seed}), the initial point included)")
    return Space(tuple(names), tuple(domains), initial, size, [point(i) for i in sorted(chosen)], True, notes)


def changes_of(point: dict[str, int], initial: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in point.items() if initial.get(k) != v}


# --------------------------------------------------------------------------- the harness

class HarnessFailure(RuntimeError):
    def __init__(self, op: str, resp: dict[str, Any]):
        err = resp.get("error") or {}
        super().__init__(f"{op}: {err.get('kind')}: {str(err.get('message'))[:1500]}")
        self.kind = err.get("kind")


def start_harness(harness_dir: Path, backend: str, workdir: str) -> Any:
    sys.path.insert(0, str(harness_dir))
    from kharness.client import HarnessClient
    env = dict(os.environ)
    if backend == "interp":
        env["TRITON_INTERPRET"] = "1"
    return HarnessClient(cmd=[sys.executable, str(harness_dir / "kopt_harness.py"), "--backend", backend,
                              "--workdir", workdir], env=env, stderr_path=os.path.join(workdir, "harness.log"))


def call(h: Any, op: str, **fields: Any) -> dict[str, Any]:
    r = h.request(op, timeout_s=TIMEOUTS.get(op, 600), **fields)
    if not r.get("ok"):
        raise HarnessFailure(op, r)
    return r["result"]


@dataclass
class Measured:
    id: str
    config: dict[str, int]
    status: str
    reason: str = ""
    time_ms: float | None = None
    rel: float | None = None          # time / the initial kernel's time in the same sweep
    source: str | None = None
    tunables: dict[str, Any] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)

    def row(self) -> dict[str, Any]:
        return {"id": self.id, "config": self.config, "status": self.status, "reason": self.reason[:300],
                "time_ms": self.time_ms, "rel": self.rel, "facts": self.facts}


def sweep_space(h: Any, space: Space, batch: int, log: Any) -> tuple[list[Measured], dict[str, Any]]:
    measured: list[Measured] = []
    # per batch: the harness's phase times (compile, one-case screen, timing), to see where a
    # sweep's seconds go
    stats: dict[str, Any] = {"sweeps": 0, "sweep_s": 0.0, "rewrite_s": 0.0, "incumbent_ms": [], "batches": []}
    todo = [p for p in space.points if changes_of(p, space.initial)]
    for start in range(0, len(todo), batch):
        chunk, cands = [], []
        t = time.monotonic()
        for k, p in enumerate(todo[start:start + batch]):
            m = Measured(f"p{start + k}", p, "pending")
            try:
                rw = call(h, "rewrite", changes=changes_of(p, space.initial))
                m.source, m.tunables = rw["source"], rw.get("tunables") or {}
                cands.append({"id": m.id, "source": m.source, "tunables": m.tunables})
            except HarnessFailure as e:
                if e.kind not in ("rewrite-refused", "bad-request"):
                    raise
                m.status, m.reason = "refused", str(e)
            chunk.append(m)
        stats["rewrite_s"] += time.monotonic() - t
        if cands:
            t = time.monotonic()
            res = call(h, "sweep", candidates=cands, return_sources=False)
            dt = time.monotonic() - t
            stats["sweep_s"] += dt
            stats["sweeps"] += 1
            stats["batches"].append({"candidates": len(cands), "seconds": round(dt, 3), "phases": res.get("phases")})
            inc = (res.get("incumbent") or {}).get("time_ms")
            stats["incumbent_ms"].append(inc)
            by_id = {c["id"]: c for c in res.get("candidates") or []}
            for m in chunk:
                c = by_id.get(m.id)
                if m.status != "pending" or c is None:
                    continue
                m.status, m.reason, m.time_ms = c.get("status", "error"), c.get("reason") or "", c.get("time_ms")
                m.facts = (c.get("compile") or {}).get("facts") or {}
                if m.status == "ok" and m.time_ms and inc:
                    m.rel = m.time_ms / inc
        measured += chunk
        best = min((m for m in measured if m.rel), key=lambda m: m.rel or math.inf, default=None)
        log(f"{len(measured)}/{len(todo)} points, best so far "
            f"{'%.3fx' % (1 / best.rel) if best and best.rel else 'none'}")
    return measured, stats


def finalize(h: Any, finalists: list[Measured], log: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Validate the finalists on every case, bench them and the initial kernel (same method)."""
    initial = call(h, "bench")
    init_ms = (initial.get("summary") or {}).get("geomean_median_ms")
    checked = []
    for m in finalists:
        v = call(h, "validate", candidate_source=m.source, tunables=m.tunables)
        entry: dict[str, Any] = {"id": m.id, "config": m.config, "passed": bool(v.get("passed"))}
        if not v.get("passed"):
            entry["reason"] = (v.get("failure") or {}).get("message")
        else:
            b = call(h, "bench", candidate_source=m.source, tunables=m.tunables, reference=False)
            entry["median_ms"] = (b.get("summary") or {}).get("geomean_median_ms")
        checked.append(entry)
        log(f"finalist {m.id} {m.config}: {'ok' if entry['passed'] else 'refused'} {entry.get('median_ms')}")
    return {"median_ms": init_ms, "bench": initial.get("summary"), "clock": initial.get("clock")}, checked


def run_op(op: OpSpec, run: int, args: argparse.Namespace, harness_dir: Path) -> dict[str, Any]:
    t0 = time.monotonic()
    rec: dict[str, Any] = {"kind": "exhaustive", "format": FORMAT, "operator": op.name, "class": op.op_class,
                           "run": run, "backend": args.backend, "cap": args.cap, "seed": args.seed, "ok": False}

    def log(msg: str) -> None:
        print(f"exhaustive.py: {op.name} run {run}: {msg}", file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory(prefix="kopt-exhaustive-") as wd:
        h = start_harness(harness_dir, args.backend, wd)
        try:
            load = call(h, "load", reference_source=op.ref_source(), kernel_source=op.kernel_source(),
                        workdir=f"exh-{op.name}", seed=args.seed, benchmark_cases=1,
                        correctness_cases=args.correctness_cases, tolerances=op.tolerances)
            rec["input_shapes"] = [d["tensor"] for d in load.get("inputs_of_probe_case") or []
                                   if isinstance(d, dict) and "tensor" in d]
            kn = call(h, "knobs")
            space = enumerate_space(kn, args.cap, args.seed)
            rec["space"] = {"knobs": list(space.names), "domains": [list(d) for d in space.domains],
                            "initial": space.initial, "size": space.size, "measured": len(space.points),
                            "sampled": space.sampled, "notes": space.notes, "frozen": kn.get("frozen") or []}
            log(f"space of {space.size} points, measuring {len(space.points)}")
            measured, stats = sweep_space(h, space, args.batch, log)
            rec["sweep"] = {**stats, "counts": {s: sum(1 for m in measured if m.status == s)
                                                for s in sorted({m.status for m in measured})}}
            rec["points"] = [m.row() for m in measured]
            ranked = sorted((m for m in measured if m.rel), key=lambda m: m.rel or math.inf)
            init, checked = finalize(h, ranked[:FINALISTS], log)
            rec["initial"], rec["finalists"] = init, checked
            good = [c for c in checked if c.get("passed") and c.get("median_ms")]
            best = min(good, key=lambda c: c["median_ms"], default=None)
            if best is None or (init["median_ms"] and best["median_ms"] >= init["median_ms"]):
                best = {"id": "initial", "config": space.initial, "median_ms": init["median_ms"]}
            rec["best"] = {**best, "speedup": init["median_ms"] / best["median_ms"]
                           if init["median_ms"] and best["median_ms"] else None}
            rec["ok"] = True
        except (HarnessFailure, SpaceError, EOFError, OSError) as e:
            rec["failure"] = {"stage": "harness" if not isinstance(e, SpaceError) else "space", "reason": str(e)}
            log(f"failed: {e}")
        finally:
            h.close()
    rec["seconds"] = round(time.monotonic() - t0, 3)
    return rec


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default="all", type=ops_arg, help="all, or a comma-separated list")
    ap.add_argument("--out", required=True)
    ap.add_argument("--run", type=int, default=1, help="run number of the records (default 1)")
    ap.add_argument("--backend", default="cuda", choices=("cuda", "interp"))
    ap.add_argument("--cap", type=int, default=DEFAULT_CAP, help=f"points at most (default {DEFAULT_CAP})")
    ap.add_argument("--batch", type=int, default=SWEEP_BATCH, help=f"candidates per sweep (<= {MAX_SWEEP_BATCH})")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--correctness-cases", type=int, default=5)
    ap.add_argument("--harness", default=str(ROOT / "harness"), help="the harness directory to drive")
    args = ap.parse_args(argv)
    if not 1 <= args.cap <= MAX_CAP:
        ap.error(f"--cap: must be 1..{MAX_CAP}")
    if not 1 <= args.batch <= MAX_SWEEP_BATCH:
        ap.error(f"--batch: must be 1..{MAX_SWEEP_BATCH}")
    ops = args.ops
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for op in ops:
        rec = run_op(op, args.run, args, Path(args.harness))
        write_record(out, rec)
        failed += not rec["ok"]
        best = rec.get("best") or {}
        print(f"exhaustive.py: {op.name}: {'ok' if rec['ok'] else 'FAILED'} best {best.get('config')} "
              f"{best.get('speedup')} in {rec['seconds']} s", file=sys.stderr, flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
