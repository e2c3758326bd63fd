"""Timing requests of the worker (kharness.worker): `bench` (a kernel, and the reference, on
the benchmark cases, with the copy-bandwidth bound) and `compare` (incumbent against candidate
in ABBA order, adaptively stopped), and the helpers the sweep shares (bench_fn). The timer
itself is kharness.timing; these functions own the request fields and the record shape."""
from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import backend as bk
from .protocol import HarnessError, int_field, num_field
from .worker import log, progress

if TYPE_CHECKING:
    from .worker import Worker


def bench_fn(w: Worker, model: Any, i: int, rotate: bool = True) -> tuple[Callable[[int], Any], dict[str, int]]:
    """(fn(k), info) running model on case i with inputs rotated over copies."""
    from .cases import clone_tree
    from .correctness import storages
    torch = w.torch
    base = w._device_inputs(i)
    nbytes = sum(b1 - b0 for (b0, b1, _) in storages(base))
    copies = [base]
    l2 = None
    if w.backend == "cuda":
        l2 = getattr(torch.cuda.get_device_properties(w.device), "L2_cache_size", None) or (50 << 20)
    if rotate and l2 and 0 < nbytes <= l2:          # inputs fit in L2: rotate copies
        n = max(2, min(8, (2 * l2) // max(nbytes, 1)))
        copies += [clone_tree(base) for _ in range(int(n) - 1)]

    def fn(k: int) -> Any:
        return model(*copies[k % len(copies)])

    return fn, {"input_bytes": nbytes, "input_copies": len(copies)}

def time_model(w: Worker, model: Any, i: int, what: str, warmup_ms: float, rep_ms: float, min_reps: int,
                max_reps: int) -> tuple[dict[str, Any], Callable[[int], Any]]:
    from .timing import stats
    from .usercode import run_user
    torch = w.torch
    fn, info = bench_fn(w, model, i)

    def go() -> tuple[list[float], dict[str, Any]]:
        with torch.no_grad():
            return w.timer.bench(fn, warmup_ms, rep_ms, min_reps, max_reps)

    times, meta = run_user(f"{what} on case {i}", go, w._user_dirs())
    st = stats(times)
    st.update(meta)
    st.update(info)
    return st, fn

def peak_bandwidth(w: Worker) -> float | None:
    """Device-to-device copy bandwidth (GB/s), measured once."""
    if w._peak_bw is not None or w.backend not in ("cuda", "ascend"):
        return w._peak_bw
    torch = w.torch
    n = 1 << 28  # 1 GiB of float32
    try:
        a = torch.empty(n, dtype=torch.float32, device=w.device)
        b = torch.empty_like(a)
        def copy(_k: int, src: Any = a, dst: Any = b) -> None:
            dst.copy_(src)
        times = w.timer.measure(copy, 10, flush=False)
        t = sorted(times)[len(times) // 2]
        w._peak_bw = 2 * a.numel() * 4 / (t * 1e-3) / 1e9
        del a, b
    except Exception as e:  # noqa: BLE001 - best effort: the report omits the bound, says why
        log(f"bandwidth probe failed: {e}")
        w._peak_bw = None
    return w._peak_bw

def bench_defaults(w: Worker, req: dict[str, Any]) -> tuple[float, float, int, int]:
    gpu = w.backend != "interp"
    warmup_ms = num_field(req, "warmup_ms", 25.0 if gpu else 0.0, 0, 60000)
    rep_ms = req.get("rep_ms", req.get("rep"))
    rep_ms = num_field({"rep_ms": rep_ms}, "rep_ms", 100.0 if gpu else 500.0, 0, 600000)
    min_reps = int_field(req, "min_reps", 10 if gpu else 3, 1, 100000)
    max_reps = int_field(req, "max_reps", 10000 if gpu else 50, min_reps, 1000000)
    return warmup_ms, rep_ms, min_reps, max_reps

def bench(w: Worker, req: dict[str, Any]) -> dict[str, Any]:
    from .correctness import storages
    from .usercode import UserCodeFailure, build_model, run_user
    torch = w.torch
    p = w._need_problem()
    warmup_ms, rep_ms, min_reps, max_reps = bench_defaults(w, req)
    cases = req.get("cases") or p.bench
    if not isinstance(cases, list) or not all(isinstance(i, int) and 0 <= i < p.cases.count for i in cases):
        raise HarnessError("bad-request", f"cases must be a list of case indices in [0, {p.cases.count - 1}]")
    with_ref = req.get("reference", True) and p.has_reference
    csrc = req.get("candidate_source")
    who = "candidate" if csrc is not None and csrc != p.kernel_src else "initial kernel"
    try:
        mod, _, _ = w._import_kernel(csrc, who)
        model = p.kernel_model if mod is p.kernel_mod and not req.get("tunables") else build_model(
            mod, "ModelNew", p.init_inputs, w._tunables(req), w.device, p.seed, w._user_dirs(), who)
        out = []
        peak = peak_bandwidth(w) if w.backend != "interp" else None
        for i in cases:
            progress(f"bench case {i} {who}")
            st, fn = time_model(w, model, i, who, warmup_ms, rep_ms, min_reps, max_reps)
            entry: dict[str, Any] = {"case": i, "kernel": st}
            if w.backend != "interp":
                # bytes moved estimate: every input and output storage touched once
                with torch.no_grad():
                    o = run_user(f"{who} on case {i}", functools.partial(fn, 0), w._user_dirs())
                ob = sum(b1 - b0 for (b0, b1, _) in storages(o))
                moved = st["input_bytes"] + ob
                entry["bytes_moved_estimate"] = moved
                entry["achieved_gbps"] = moved / (st["median_ms"] * 1e-3) / 1e9 if st["median_ms"] > 0 else None
                if peak:
                    entry["measured_peak_gbps"] = peak
                    entry["roofline_fraction"] = entry["achieved_gbps"] / peak if entry["achieved_gbps"] else None
            if with_ref:
                progress(f"bench case {i} reference")
                rst, _ = time_model(w, p.ref_model, i, "reference", warmup_ms, rep_ms, min_reps, max_reps)
                entry["reference"] = rst
                entry["speedup_vs_reference"] = rst["median_ms"] / st["median_ms"] if st["median_ms"] > 0 else None
            out.append(entry)
    except UserCodeFailure as e:
        raise w._fail(e)
    med = [e["kernel"]["median_ms"] for e in out if e["kernel"]["median_ms"] > 0]
    summary = {"geomean_median_ms": math.exp(sum(math.log(x) for x in med) / len(med)) if med else None}
    sp = [e["speedup_vs_reference"] for e in out if e.get("speedup_vs_reference")]
    if sp:
        summary["geomean_speedup_vs_reference"] = math.exp(sum(math.log(x) for x in sp) / len(sp))
    return {"who": who, "clock": w.timer.clock, "l2_flush": w.timer.l2_flush,
            "l2_flush_bytes": 256 << 20 if w.timer.l2_flush else 0, "warmup_ms": warmup_ms,
            "rep_ms": rep_ms, "cases": out, "summary": summary, "env": bk.environment(w.backend)}

# ------------------------------------------------------------------ compare
def compare(w: Worker, req: dict[str, Any]) -> dict[str, Any]:
    from .timing import abba_decision, stats
    from .usercode import UserCodeFailure, build_model, run_user
    torch = w.torch
    p = w._need_problem()
    csrc = req.get("candidate_source")
    if not isinstance(csrc, str):
        raise HarnessError("bad-request", "compare needs candidate_source")
    isrc = req.get("incumbent_source")
    gpu = w.backend != "interp"
    rounds = int_field(req, "rounds", 20 if gpu else 3, 1, 1000)
    reps = int_field(req, "reps_per_slot", 10 if gpu else 1, 1, 10000)
    warm = int_field(req, "warmup_reps", 10 if gpu else 1, 0, 10000)
    min_imp = num_field(req, "min_improvement", 0.01, 0.0, 10.0)
    cases = req.get("cases") or p.bench
    if not isinstance(cases, list) or not all(isinstance(i, int) and 0 <= i < p.cases.count for i in cases):
        raise HarnessError("bad-request", f"cases must be a list of case indices in [0, {p.cases.count - 1}]")
    udirs = w._user_dirs()
    try:
        ma, _, _ = w._import_kernel(isrc, "incumbent")
        mb, _, _ = w._import_kernel(csrc, "candidate")
        A = build_model(ma, "ModelNew", p.init_inputs, w._tunables(req, "incumbent_tunables"), w.device,
                        p.seed, udirs, "incumbent")
        B = build_model(mb, "ModelNew", p.init_inputs, w._tunables(req, "candidate_tunables"), w.device,
                        p.seed, udirs, "candidate")
        fa = {i: bench_fn(w, A, i)[0] for i in cases}
        fb = {i: bench_fn(w, B, i)[0] for i in cases}

        def warmup() -> None:
            with torch.no_grad():
                for i in cases:
                    for f in (fa[i], fb[i]):
                        for k in range(max(1, warm)):
                            f(k)
                w.timer.sync()

        progress("compare warmup")
        run_user("warm-up of incumbent/candidate", warmup, udirs)
        samples: dict[str, dict[int, list[float]]] = {"A": {i: [] for i in cases}, "B": {i: [] for i in cases}}
        slots: dict[str, list[float]] = {"A1": [], "B1": [], "B2": [], "A2": []}

        def one_round(r: int) -> None:
            with torch.no_grad():
                for slot in ("A1", "B1", "B2", "A2"):
                    fs = fa if slot[0] == "A" else fb
                    per_case = []
                    for i in cases:
                        t = w.timer.measure(fs[i], reps)
                        samples[slot[0]][i].extend(t)
                        per_case.append(sorted(t)[len(t) // 2])
                    slots[slot].append(math.exp(sum(math.log(max(x, 1e-9)) for x in per_case) / len(per_case)))

        adaptive = bool(req.get("adaptive", False))
        used = 0
        for r in range(rounds):
            progress(f"compare round {r}")
            run_user(f"compare round {r}", functools.partial(one_round, r), udirs)
            used = r + 1
            if adaptive and used >= min(rounds, ADAPTIVE_MIN_ROUNDS) and decided(slots, min_imp):
                break
    except UserCodeFailure as e:
        raise w._fail(e)
    dec = abba_decision(slots["A1"], slots["B1"], slots["B2"], slots["A2"], min_imp)
    per_case = []
    for i in cases:
        sa, sb = stats(samples["A"][i]), stats(samples["B"][i])
        per_case.append({"case": i, "incumbent": sa, "candidate": sb,
                         "ratio": sb["median_ms"] / sa["median_ms"] if sa["median_ms"] > 0 else None})
    return {"clock": w.timer.clock, "l2_flush": w.timer.l2_flush, "order": "ABBA",
            "rounds": used, "rounds_max": rounds, "adaptive": adaptive, "reps_per_slot": reps,
            "incumbent_median_ms": statistics_median(slots["A1"] + slots["A2"]),
            "candidate_median_ms": statistics_median(slots["B1"] + slots["B2"]),
            "ratio": dec["ratio"], "speedup": dec["speedup"], "noise": dec["noise_ratio"],
            "faster_beyond_noise": dec["faster_beyond_noise"], "decision": dec,
            "slots": slots, "cases": per_case, "env": bk.environment(w.backend)}


# Adaptive ABBA: at least this many rounds, then stop as soon as the decision is clear.
ADAPTIVE_MIN_ROUNDS = 6


def decided(slots: dict[str, list[float]], min_imp: float) -> bool:
    """True when more rounds would not change the decision: the median log ratio lies more
    than two standard errors (of a median: 1.2533 sigma / sqrt(n)) away from the decision
    threshold."""
    import statistics

    from .timing import abba_decision
    a1, b1, b2, a2 = slots["A1"], slots["B1"], slots["B2"], slots["A2"]
    dec = abba_decision(a1, b1, b2, a2, min_imp)
    lr = [math.log(((b1[i] + b2[i]) / 2) / ((a1[i] + a2[i]) / 2)) for i in range(len(a1))
          if a1[i] > 0 and a2[i] > 0 and b1[i] > 0 and b2[i] > 0]
    if len(lr) < 3:
        return False
    if outlier_sets_noise(a1, a2, dec, min_imp, len(lr)):
        return False
    se = 1.2533 * statistics.stdev(lr) / math.sqrt(len(lr))
    return abs(-dec["log_ratio_median"] - dec["threshold"]) > 2 * se


def outlier_sets_noise(a1: list[float], a2: list[float], dec: dict[str, Any], min_imp: float, n: int) -> bool:
    """True when a candidate that wins its rounds is held back only by one round whose two
    incumbent slots disagree: over few rounds the noise (the 90th percentile of the A/A
    disagreements) is that round's, and more rounds outvote it. On the H200 a single slot of
    gather_dim1's incumbent read 0.257 ms among 0.038 ms ones and set the noise to 96%, so a
    candidate faster in 6 of 6 rounds by 2.6% was rejected after the minimum 6 rounds."""
    from .timing import quantile
    aa = sorted(abs(math.log(x / y)) for x, y in zip(a1, a2) if x > 0 and y > 0)
    if dec["faster_beyond_noise"] or len(aa) < 2:
        return False
    trimmed = max(quantile(aa[:-1], 0.9), math.log1p(min_imp))
    return -dec["log_ratio_median"] > trimmed and dec["candidate_wins"] >= math.ceil(0.75 * n)


def statistics_median(v: list[float]) -> float | None:
    s = sorted(v)
    if not s:
        return None
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
