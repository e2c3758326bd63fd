"""The suite report: merges result records (run.py's kopt-*, baselines.py's baselines-*,
exhaustive.py's exhaustive-*; any number of files or directories, several runs and machines)
by operator and run, and writes a Markdown report with PNG plots.

    python3 bench/suite/report.py results/ [more/ ...] --out report/ [--title "H200, rules, 5 rounds"]

Writes OUT/report.md, OUT/speedups.png, OUT/roofline.png, OUT/vs_compile.png, OUT/summary.json.

Per operator, over runs (median, and [min-max] with the number of runs):
  initial    the initial kernel: baselines.py's time, else the job's baseline
  kopt       the best kernel: baselines.py's side-by-side time (--kopt), else the job's
             best (baseline / product of the accepted rounds' ABBA speedups)
  speedup    initial / kopt, taken within one process when both come from one record
  eager      PyTorch eager (the reference Model, or ref.py's Peer where it has one: the same
             computation at the operator's dtype, opspec's docstring); compile: torch.compile of it.
             A Peer whose output misses the judge is shown anyway, marked "(off-judge)"
  optimum    exhaustive.py's best speedup over the initial kernel; "% of optimum" is kopt's
             speedup / that speedup (each measured against the initial kernel in its own process)
  roofline   bound / time, bound = max(bytes / copy bandwidth, flops / peak tensor
             throughput (matmul class)), both measured by baselines.py on the same device;
             the copy bandwidth is a 1 GiB copy's. Memory-bound operators also get the time
             of a copy of their own bytes (the bench method, L2 flushed) / their time.
Failures (jobs, measurements) are listed with their reasons and counted in the denominators.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "harness"))
from kharness.timing import (
    NOISY_REL_IQR,  # a timing noisier than this gets a note (no torch needed)
)
from opspec import (
    OPS_DIR,
    TRUTH_CLASS,
    OpSpec,
    OpSpecError,
    find_op,
    load_op,
    scale_of,
)
from results import (
    RecordError,
    Spread,
    geomean,
    kopt_summary,
    load_records,
    median,
    spread,
)

MEMORY_BOUND_TARGET = 0.90      # issue 7: memory-bound operators at >= 90% of copy bandwidth
OFF_JUDGE_MARK = " (off-judge)"  # an eager figure whose output missed the judge (baselines.py)


@dataclass
class OpRow:
    """Everything the report says about one operator."""
    name: str
    op_class: str
    dtype: str
    initial: Spread | None = None
    kopt: Spread | None = None
    speedup: Spread | None = None
    eager: Spread | None = None
    compile: Spread | None = None
    optimum_speedup: float | None = None
    optimum_config: dict[str, int] | None = None
    optimum_space: str | None = None
    frac_optimum: float | None = None
    kopt_vs_compile: float | None = None      # kopt time / torch.compile time
    bound_ms: float | None = None
    copy_same_ms: float | None = None         # a copy of the operator's bytes, bench method
    memory_bound: bool = True
    roofline: dict[str, float | None] = field(default_factory=dict)
    rounds_to_best: Spread | None = None
    seconds_to_best: Spread | None = None
    job_seconds: Spread | None = None
    round_seconds: list[list[float]] = field(default_factory=list)   # per successful run
    max_level: int | None = None
    levels: list[int] | None = None
    runs_ok: int = 0
    runs: int = 0
    off_judge: set[str] = field(default_factory=set)   # stages (eager, compile) that missed the judge, timed anyway
    notes: list[str] = field(default_factory=list)


@dataclass
class Failure:
    operator: str
    run: int
    kind: str
    stage: str
    reason: str


def _op_spec(name: str) -> OpSpec | None:
    """The operator's spec, from OPS_DIR or the suite's other operator directory (a device
    call runs one directory's operators; one report merges both)."""
    where = find_op(name, OPS_DIR)
    try:
        return load_op(where) if where is not None else None
    except OpSpecError:
        return None


def _stage_ms(rec: dict[str, Any], key: str, off_judge: bool = False) -> float | None:
    """The stage's median time where it passed the judge (off_judge: or was timed though it
    missed it, baselines.py's PyTorch peer)."""
    st = rec.get(key) or {}
    return st.get("median_ms") if st.get("ok") or (off_judge and st.get("off_judge")) else None


def build_rows(records: list[dict[str, Any]]) -> tuple[list[OpRow], list[Failure]]:
    by_op: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for r in records:
        by_op.setdefault(r["operator"], {"kopt": [], "baselines": [], "exhaustive": []})[r["kind"]].append(r)
    rows, failures = [], []
    for name in sorted(by_op):
        recs = by_op[name]
        spec = _op_spec(name)
        row = OpRow(name, spec.op_class if spec else "?", spec.dtype if spec else "?")
        if spec is None:
            row.notes.append("not an operator of bench/suite/ops or unseen (no op.json): no roofline")
        for kind, rs in recs.items():
            for r in rs:
                if not r.get("ok"):
                    f = r.get("failure") or {}
                    failures.append(Failure(name, r["run"], kind, str(f.get("stage", "?")),
                                            str(f.get("reason", "no reason recorded"))))
        kopt = {r["run"]: kopt_summary(r) for r in recs["kopt"]}
        base = {r["run"]: r for r in recs["baselines"] if r.get("ok")}
        row.runs, row.runs_ok = len(kopt), sum(k.ok for k in kopt.values())
        initial, best, speed = [], [], []
        for run in sorted(set(kopt) | set(base)):
            k, b = kopt.get(run), base.get(run)
            ini = _stage_ms(b, "initial") if b else None
            kb = _stage_ms(b, "kopt") if b else None
            initial.append(ini if ini is not None else (k.initial_ms if k else None))
            if k is not None and k.ok:
                best.append(kb if kb is not None else k.best_ms)
                speed.append(ini / kb if ini and kb else k.speedup)
        row.initial, row.kopt, row.speedup = spread(initial), spread(best), spread(speed)
        cls = _baseline_class(row, spec)
        peers = _peer_baselines(row, cls, base)
        row.eager = spread([_stage_ms(b, "eager", True) for b in peers]
                           or ([k.eager_ms for k in kopt.values()] if cls == TRUTH_CLASS else []))
        row.compile = spread([_stage_ms(b, "compile", True) for b in peers])
        for stage in ("eager", "compile"):
            off = [b for b in peers if (b.get(stage) or {}).get("off_judge")]
            if off:
                row.off_judge.add(stage)
                row.notes.append(f"{stage} ({cls}) misses the judge in run(s) {', '.join(str(b['run']) for b in off)} "
                                 f"({str(off[0][stage].get('mismatch'))[:200]}): timed anyway, as PyTorch gives it; "
                                 "its figure is marked off-judge")
        for b in peers:
            c = b.get("compile") or {}
            why = c.get("mismatch") or c.get("error") or c.get("skipped")
            if not c.get("ok") and why:
                row.notes.append(f"torch.compile run {b['run']}: {'MISMATCH ' if c.get('mismatch') else ''}{why}"[:300])
                break
        row.notes += _noisy_timings(base.values())
        ok_k = [k for k in kopt.values() if k.ok]
        row.rounds_to_best = spread([float(k.best_round) for k in ok_k if k.best_round is not None])
        row.seconds_to_best = spread([k.seconds_to_best for k in ok_k])
        row.job_seconds = spread([k.job_seconds for k in ok_k])
        row.round_seconds = [k.round_seconds for k in ok_k if k.round_seconds]
        levels = [k.max_level for k in ok_k if k.max_level is not None]
        row.max_level = max(levels) if levels else None
        lv = [k.levels for k in ok_k if k.levels and len(k.levels) == 4]
        row.levels = [sum(x[i] for x in lv) for i in range(4)] if lv else None
        exh = [r for r in recs["exhaustive"] if r.get("ok") and (r.get("best") or {}).get("speedup")]
        if exh:
            top = max(exh, key=lambda r: r["best"]["speedup"])
            row.optimum_speedup = top["best"]["speedup"]
            row.optimum_config = top["best"].get("config")
            sp = top.get("space") or {}
            row.optimum_space = f"{sp.get('measured')} of {sp.get('size')} points" + (" (sampled)" if sp.get("sampled") else "")
            if row.speedup:
                row.frac_optimum = row.speedup.median / row.optimum_speedup
        if row.kopt and row.compile:
            row.kopt_vs_compile = row.kopt.median / row.compile.median
        _roofline(row, spec, list(base.values()), [k for k in kopt.values()])
        devices = {d for rs in recs.values() for r in rs if (d := _device(r))}
        if len(devices) > 1:
            row.notes.append(f"records from {len(devices)} different devices: {'; '.join(sorted(devices))}")
        rows.append(row)
    return rows, failures


def _baseline_class(row: OpRow, spec: OpSpec | None) -> str:
    try:
        return spec.baseline_class() if spec else TRUTH_CLASS
    except OpSpecError as e:
        row.notes.append(f"{e}: eager and torch.compile taken as the reference {TRUTH_CLASS}'s")
        return TRUTH_CLASS


def _peer_baselines(row: OpRow, cls: str, base: dict[int, dict[str, Any]]) -> list[dict[str, Any]]:
    """The baselines records whose eager and torch.compile timed `cls` (opspec's
    baseline_class); a record made before ref.py had its Peer timed the reference Model (a
    wider type than users run) and is named in a note, not compared."""
    kept: list[dict[str, Any]] = []
    left: list[dict[str, Any]] = []
    for b in base.values():
        (kept if b.get("baseline_class", TRUTH_CLASS) == cls else left).append(b)
    for b in left:
        timed = b.get("baseline_class", TRUTH_CLASS)
        what = " (the truth, in a wider type)" if timed == TRUTH_CLASS else ""
        row.notes.append(f"eager and torch.compile of run {b['run']} timed ref.py's {timed}{what}, not its {cls}: "
                         "not compared with kopt")
    return kept


def _noisy_timings(base: Any) -> list[str]:
    """A note per baselines timing whose interquartile range exceeds NOISY_REL_IQR of its
    median: its median still counts, and the note says it is not to be trusted alone."""
    out = []
    for b in sorted(base, key=lambda b: b.get("run") or 0):
        for stage in ("initial", "kopt", "eager", "compile"):
            st = b.get(stage) or {}
            med, iqr = st.get("median_ms"), st.get("iqr_ms")
            if st.get("ok") and med and iqr is not None and iqr / med > NOISY_REL_IQR:
                again = st.get("retaken") or {}
                out.append(f"run {b.get('run')}: the {stage} timing is noisy (interquartile range "
                           f"{100 * iqr / med:.0f}% of its median {med:.4g} ms, p10-p90 "
                           f"{st.get('p10_ms', 0):.4g}-{st.get('p90_ms', 0):.4g} ms"
                           + (f"; taken twice, the other median {again['median_ms']:.4g} ms"
                              if again.get("median_ms") else "") + ")")
    return out


def _memory_bound(spec: OpSpec | None, base: list[dict[str, Any]]) -> bool:
    """True when the bound is set by the bytes moved: no flops counted, or the measured copy
    time of the bytes is at least the measured tensor-throughput time of the flops."""
    if spec is None or spec.flops_expr == "0":
        return spec is not None
    for b in base:
        rf, peak, bw = b.get("roofline") or {}, b.get("peak_tflops"), b.get("copy_gbps")
        if peak and bw and rf.get("flops") is not None:
            return rf["bytes"] / (bw * 1e9) >= rf["flops"] / (peak * 1e12)
    return False


def _roofline(row: OpRow, spec: OpSpec | None, base: list[dict[str, Any]], kopt: list[Any]) -> None:
    bounds = [(b.get("roofline") or {}).get("bound_ms") for b in base]
    row.bound_ms = median([x for x in bounds if x])
    row.memory_bound = _memory_bound(spec, base)
    if spec is not None:
        found = [b.get("scale") for b in base] + [scale_of(spec, k.input_shapes) for k in kopt if k.input_shapes]
        scales = {str(x) for x in found if x}
        if len(scales) > 1:
            row.notes.append(f"records at different sizes ({', '.join(sorted(scales))}): not comparable")
    if row.bound_ms:
        for what, s in (("initial", row.initial), ("kopt", row.kopt), ("eager", row.eager),
                        ("compile", row.compile)):
            row.roofline[what] = row.bound_ms / s.median if s else None
    same = [x for b in base if (x := (b.get("roofline") or {}).get("copy_same_ms"))]
    row.copy_same_ms = median(same) if same else None
    if row.copy_same_ms:
        for what, s in (("kopt", row.kopt), ("compile", row.compile)):
            row.roofline[f"{what}_same_size"] = row.copy_same_ms / s.median if s else None


# ------------------------------------------------------------------------------ summary

def summarize(rows: list[OpRow], failures: list[Failure]) -> dict[str, Any]:
    sp = [r.speedup.median for r in rows if r.speedup]
    vs_c = [x for r in rows if (x := r.kopt_vs_compile) is not None]
    vs_e = [r.kopt.median / r.eager.median for r in rows if r.kopt and r.eager]
    frac = [r.frac_optimum for r in rows if r.frac_optimum]
    mem = [x for r in rows if r.memory_bound and (x := r.roofline.get("kopt")) is not None]
    mem_c = [r.roofline.get("compile") for r in rows if r.memory_bound and r.roofline.get("compile")]
    mem_i = [r.roofline.get("initial") for r in rows if r.memory_bound and r.roofline.get("initial")]
    same = {w: [x for r in rows if r.memory_bound and (x := r.roofline.get(f"{w}_same_size"))]
            for w in ("kopt", "compile")}
    return {
        "operators": len(rows),
        "operators_with_kopt_result": len(sp),
        "kopt_runs": sum(r.runs for r in rows), "kopt_runs_ok": sum(r.runs_ok for r in rows),
        "failures": len(failures),
        "speedup_geomean": geomean(sp), "speedup_median": median(sp),
        "at_least_2x": sum(1 for x in sp if x >= 2.0), "at_least_5x": sum(1 for x in sp if x >= 5.0),
        "kopt_vs_compile_geomean": geomean(vs_c),
        "kopt_at_least_as_fast_as_compile": sum(1 for x in vs_c if x <= 1.0),
        "compared_with_compile": len(vs_c),
        "compared_off_judge": sum(1 for r in rows if "compile" in r.off_judge and r.kopt_vs_compile is not None),
        "kopt_vs_eager_geomean": geomean(vs_e),
        "fraction_of_optimum_geomean": geomean(frac), "compared_with_optimum": len(frac),
        "memory_bound_roofline_geomean": {"kopt": geomean(mem), "compile": geomean(mem_c), "initial": geomean(mem_i)},
        "memory_bound_at_target": sum(1 for x in mem if x >= MEMORY_BOUND_TARGET), "memory_bound_measured": len(mem),
        # against a copy of each operator's own bytes (recorded by newer baselines only)
        "memory_bound_same_size_geomean": {w: geomean(v) for w, v in same.items()},
        "memory_bound_same_size_measured": len(same["kopt"]),
        "rounds_to_best_median": median([r.rounds_to_best.median for r in rows if r.rounds_to_best]),
        "seconds_to_best_median": median([r.seconds_to_best.median for r in rows if r.seconds_to_best]),
        "job_seconds_median": median([r.job_seconds.median for r in rows if r.job_seconds]),
        # issue 7's target (median round <= 15 s, the first profile of a kernel excluded): the
        # first round, which also measures the initial kernel, apart from the later ones
        "round_seconds_first_median": median([rs[0] for r in rows for rs in r.round_seconds]),
        "round_seconds_later_median": median([x for r in rows for rs in r.round_seconds for x in rs[1:]]),
    }


# ------------------------------------------------------------------------------ markdown

def _f(x: float | None, fmt: str = "{:.3g}") -> str:
    return "—" if x is None or (isinstance(x, float) and not math.isfinite(x)) else fmt.format(x)


def _s(s: Spread | None, fmt: str = "{:.4g}") -> str:
    if s is None:
        return "—"
    if s.n == 1:
        return f"{fmt.format(s.median)} (1)"
    return f"{fmt.format(s.median)} [{fmt.format(s.low)}–{fmt.format(s.high)}] ({s.n})"


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.0f}%"


def _device(r: dict[str, Any]) -> str | None:
    """The device a record was measured on, in words (None when it does not say)."""
    env = r.get("env") or ((((r.get("job") or {}).get("baseline") or {}).get("bench") or {}).get("env")) or {}
    d = env.get("device") or {}
    if not d:
        return None
    return f"{d.get('name')} (torch {env.get('torch')}, triton {env.get('triton')}, driver {env.get('driver')})"


def _settings(records: list[dict[str, Any]]) -> list[str]:
    cfgs = {json.dumps({k: v for k, v in (r.get("config") or {}).items() if k != "url"}, sort_keys=True)
            for r in records if r["kind"] == "kopt"}
    devs = {d for r in records if (d := _device(r))}
    return [f"- kopt settings: `{c}`" for c in sorted(cfgs)] + [f"- device: {d}" for d in sorted(devs)]


def _baseline_order(records: list[dict[str, Any]]) -> list[str]:
    """How the baselines records timed their implementations: interleaved passes (each pass in
    another order, baselines.py since 2026-12-04) or once each in a fixed order (before)."""
    base = [r for r in records if r["kind"] == "baselines" and r.get("ok")]
    passes: dict[int, int] = {}
    for r in base:
        n = int((r.get("timing") or {}).get("passes") or 0)
        passes[n] = passes.get(n, 0) + 1
    if not base:
        return []
    parts = [f"{c} in {n} interleaved passes (a pass per order, samples pooled)" for n, c in sorted(passes.items()) if n]
    if passes.get(0):
        parts.append(f"{passes[0]} once each in the order initial, eager, torch.compile, kopt (before interleaving; "
                     "on a GPU at its power limit the last timed can read slower)")
    return [f"- baselines' timing, of {len(base)} records: " + "; ".join(parts)]


def markdown(rows: list[OpRow], failures: list[Failure], summ: dict[str, Any], records: list[dict[str, Any]],
             title: str, plots: list[str], sources: list[str]) -> str:
    L = [f"# {title}", "",
         (f"Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} by bench/suite/report.py from "
         f"{len(records)} records ({', '.join(sources)})."), ""]
    L += _settings(records) + _baseline_order(records) + [""]
    S = summ
    mb = S["memory_bound_roofline_geomean"]
    L += ["## Summary", "",
          (f"- operators: {S['operators']}; kopt jobs {S['kopt_runs_ok']} of {S['kopt_runs']} succeeded; "
          f"{S['failures']} failures in all (listed below)"),
          (f"- kopt speedup over the initial kernel: geometric mean {_f(S['speedup_geomean'], '{:.2f}x')}, "
          f"median {_f(S['speedup_median'], '{:.2f}x')} over {S['operators_with_kopt_result']} operators; "
          f"{S['at_least_2x']} at >= 2x, {S['at_least_5x']} at >= 5x"),
          (f"- kopt vs torch.compile: geometric mean time ratio kopt/compile "
          f"{_f(S['kopt_vs_compile_geomean'], '{:.3f}')} (below 1: kopt faster); kopt at least as fast on "
          f"{S['kopt_at_least_as_fast_as_compile']} of {S['compared_with_compile']} operators"
          + (f" ({S['compared_off_judge']} of them against a torch.compile output that misses the judge: "
             "marked off-judge below)" if S['compared_off_judge'] else "")),
          f"- kopt vs PyTorch eager: geometric mean time ratio {_f(S['kopt_vs_eager_geomean'], '{:.3f}')}",
          (f"- fraction of the exhaustive optimum reached (kopt speedup / optimum speedup): geometric mean "
          f"{_f(S['fraction_of_optimum_geomean'], '{:.3f}')} over {S['compared_with_optimum']} operators"),
          (f"- memory-bound operators, fraction of the copy-bandwidth bound (geometric mean): kopt "
          f"{_pct(mb['kopt'])}, torch.compile {_pct(mb['compile'])}, initial {_pct(mb['initial'])}; "
          f"{S['memory_bound_at_target']} of {S['memory_bound_measured']} at >= {MEMORY_BOUND_TARGET:.0%}"),
          (f"- the same against a copy of each operator's own bytes, timed as the kernels are (the bound at "
           f"its size): kopt {_pct(S['memory_bound_same_size_geomean']['kopt'])}, torch.compile "
           f"{_pct(S['memory_bound_same_size_geomean']['compile'])} over "
           f"{S['memory_bound_same_size_measured']} operators whose baselines measured it"),
          (f"- rounds to the best kernel (median) {_f(S['rounds_to_best_median'], '{:.1f}')}, seconds to it "
          f"{_f(S['seconds_to_best_median'], '{:.0f}')}, seconds per job {_f(S['job_seconds_median'], '{:.0f}')}"),
          (f"- round wall time (median over every round of the successful jobs): round 1 "
           f"{_f(S['round_seconds_first_median'], '{:.1f}')} s (it also loads, validates, times and profiles the "
           f"initial kernel), later rounds {_f(S['round_seconds_later_median'], '{:.1f}')} s"),
          ""]
    L += ["## Per operator", "",
          ("Times in ms: median [min–max] (runs). Speedups over the initial kernel. Roofline: bound / time; "
           "\"same size\": a copy of the operator's own bytes / time, where measured."), "",
          ("| operator | class | dtype | initial | kopt | speedup | eager | torch.compile | kopt/compile | optimum | "
          "% of optimum | roofline initial → kopt (compile) | rounds to best | s to best | levels L1-L4 (max) |"),
          "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        roof = f"{_pct(r.roofline.get('initial'))} → {_pct(r.roofline.get('kopt'))} ({_pct(r.roofline.get('compile'))})"
        if r.memory_bound and r.roofline.get("kopt_same_size"):
            roof += (f"; same size {_pct(r.roofline.get('kopt_same_size'))} "
                     f"({_pct(r.roofline.get('compile_same_size'))})")
        lv = f"{r.levels} (L{r.max_level})" if r.levels else (f"L{r.max_level}" if r.max_level else "—")
        L.append(f"| {r.name} | {r.op_class} | {r.dtype} | {_s(r.initial)} | {_s(r.kopt)} | {_s(r.speedup, '{:.3f}x')} "
                 f"| {_s(r.eager)}{OFF_JUDGE_MARK if 'eager' in r.off_judge else ''} "
                 f"| {_s(r.compile)}{OFF_JUDGE_MARK if 'compile' in r.off_judge else ''} "
                 f"| {_f(r.kopt_vs_compile, '{:.3f}')} "
                 f"| {_f(r.optimum_speedup, '{:.3f}x')} | {_pct(r.frac_optimum)} | {roof} "
                 f"| {_s(r.rounds_to_best, '{:.0f}')} | {_s(r.seconds_to_best, '{:.0f}')} | {lv} |")
    notes = [(r.name, n) for r in rows for n in r.notes]
    opt = [r for r in rows if r.optimum_config is not None]
    if opt:
        L += ["", "Exhaustive optimum of each initial kernel's launch space:", ""]
        L += [f"- {r.name}: {r.optimum_config} ({r.optimum_space}), {_f(r.optimum_speedup, '{:.3f}x')}" for r in opt]
    if notes:
        L += ["", "Notes:", ""] + [f"- {n}: {t}" for n, t in notes]
    L += ["", "## Failures (the denominator)", ""]
    if failures:
        L += ["| operator | run | record | stage | reason |", "|---|---|---|---|---|"]
        L += [f"| {f.operator} | {f.run} | {f.kind} | {f.stage} | {f.reason.replace('|', '/')[:400]} |"
              for f in failures]
    else:
        L.append("None.")
    if plots:
        L += ["", "## Plots", ""] + [f"![{Path(p).stem}]({Path(p).name})" for p in plots]
    L += ["", "## How the figures are made", "", (__doc__ or "").split("\n\n", 2)[-1].strip(), ""]
    return "\n".join(L) + "\n"


# ------------------------------------------------------------------------------ plots

def _figure(plt: Any, n: int, height: float = 4.5) -> tuple[Any, Any]:
    return plt.subplots(figsize=(max(8, 0.55 * n), height))


def _finish(plt: Any, fig: Any, ax: Any, names: list[str], ylabel: str, path: Path, legend: bool = True) -> str:
    ax.set_ylabel(ylabel)
    ax.set_xticks(list(range(len(names))), names, rotation=60, ha="right")
    if legend:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return str(path)


def plots(rows: list[OpRow], out: Path) -> tuple[list[str], str | None]:
    """PNG plots; (paths, None), or ([], why) when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:
        return [], f"matplotlib is not installed ({e}): no plots"
    names = [r.name for r in rows]
    x = list(range(len(rows)))
    paths = []

    fig, ax = _figure(plt, len(rows))
    series = [("kopt", [r.speedup.median if r.speedup else 0 for r in rows]),
              ("eager", [r.initial.median / r.eager.median if r.initial and r.eager else 0 for r in rows]),
              ("torch.compile", [r.initial.median / r.compile.median if r.initial and r.compile else 0 for r in rows]),
              ("exhaustive optimum", [r.optimum_speedup or 0 for r in rows])]
    w = 0.2
    for i, (label, ys) in enumerate(series):
        ax.bar([v + (i - 1.5) * w for v in x], ys, w, label=label)
    errs = [[r.speedup.median - r.speedup.low if r.speedup else 0 for r in rows],
            [r.speedup.high - r.speedup.median if r.speedup else 0 for r in rows]]
    ax.errorbar([v - 1.5 * w for v in x], series[0][1], yerr=errs, fmt="none", ecolor="black", capsize=2)
    ax.set_yscale("log")
    ax.axhline(1.0, color="gray", linewidth=0.8)
    paths.append(_finish(plt, fig, ax, names, "speedup over the initial kernel", out / "speedups.png"))

    fig, ax = _figure(plt, len(rows))
    w = 0.27
    for i, key in enumerate(("initial", "kopt", "compile")):
        ax.bar([v + (i - 1) * w for v in x], [100 * (r.roofline.get(key) or 0) for r in rows], w,
               label=key if key != "compile" else "torch.compile")
    ax.axhline(100 * MEMORY_BOUND_TARGET, color="gray", linestyle="--", linewidth=0.8)
    paths.append(_finish(plt, fig, ax, names, "% of the roofline bound", out / "roofline.png"))

    fig, ax = _figure(plt, len(rows), 4.0)
    ratios = [r.kopt_vs_compile or 0 for r in rows]
    ax.bar(x, ratios, color=["tab:green" if 0 < v <= 1 else "tab:red" for v in ratios])
    ax.axhline(1.0, color="gray", linewidth=0.8)
    paths.append(_finish(plt, fig, ax, names, "kopt time / torch.compile time", out / "vs_compile.png",
                         legend=False))
    return paths, None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="result files or directories")
    ap.add_argument("--out", required=True, help="directory for report.md and the plots")
    ap.add_argument("--title", default="kopt operator suite")
    args = ap.parse_args(argv)
    try:
        records = load_records(args.inputs)
    except (RecordError, OSError) as e:
        print(f"report.py: {e}", file=sys.stderr)
        return 2
    if not records:
        print("report.py: no records", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, failures = build_rows(records)
    summ = summarize(rows, failures)
    paths, why = plots(rows, out)
    if why:
        print(f"report.py: {why}", file=sys.stderr)
    text = markdown(rows, failures, summ, records, args.title, paths, args.inputs)
    (out / "report.md").write_text(text)
    doc = {"summary": summ, "operators": [asdict(r) for r in rows], "failures": [asdict(f) for f in failures]}
    (out / "summary.json").write_text(json.dumps(doc, indent=1, default=str) + "\n")
    print(f"report.py: {len(rows)} operators, {len(failures)} failures -> {out / 'report.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
