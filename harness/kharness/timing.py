"""Timing: do_bench-style repetition with device events, L2 flush between repetitions,
input rotation, robust statistics, and ABBA interleaved comparison."""
from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
TimedFn = Callable[[int], Any]      # one call; its argument is the repetition index

L2_FLUSH_BYTES = 256 * 1024 * 1024
# A timing whose interquartile range is over this fraction of its median was disturbed: it is
# taken again, the steadier kept (steadier). On the H200 the suite's 3181 quick timings of sweep
# candidates had a 99th-percentile spread of 0.08; the three above 0.25 (0.84-1.14) came from
# disturbed rounds (bench/results/h200-suite-2026-12-01).
NOISY_REL_IQR = 0.25


def quantile(sorted_vals: Sequence[float], q: float) -> float:
    n = len(sorted_vals)
    if n == 0:
        return float("nan")
    p = q * (n - 1)
    lo, hi = math.floor(p), math.ceil(p)
    t = p - lo
    return (1 - t) * sorted_vals[lo] + t * sorted_vals[hi]


def pass_order(items: Sequence[T], p: int) -> list[T]:
    """The order of interleaved timing pass p: items rotated left by p, so that over
    len(items) passes each item is timed once in each place (first, ..., last). The sweep's
    finals and the suite's baselines both time this way."""
    if not items:
        return []
    k = p % len(items)
    return [*items[k:], *items[:k]]


def stats(times_ms: Sequence[float]) -> dict[str, Any]:
    s = sorted(times_ms)
    n = len(s)
    if n == 0:
        return {"n": 0}
    med = quantile(s, 0.5)
    p25, p75 = quantile(s, 0.25), quantile(s, 0.75)
    return {
        "n": n, "median_ms": med, "mean_ms": statistics.fmean(s), "min_ms": s[0], "max_ms": s[-1],
        "p10_ms": quantile(s, 0.10), "p25_ms": p25, "p75_ms": p75, "p90_ms": quantile(s, 0.90),
        "iqr_ms": p75 - p25, "stdev_ms": statistics.stdev(s) if n > 1 else 0.0,
        "rel_iqr": (p75 - p25) / med if med > 0 else None,
    }


def steadier(first: dict[str, Any], again: dict[str, Any]) -> dict[str, Any]:
    """Of two timings (stats) of one thing, the one with the smaller relative interquartile
    range, with the other's median, spread and percentiles under "retaken"."""
    keep, other = (again, first) if (again.get("rel_iqr") or 0.0) < (first.get("rel_iqr") or 0.0) else (first, again)
    out = dict(keep)
    out["retaken"] = {k: other.get(k) for k in ("median_ms", "rel_iqr", "p10_ms", "p90_ms")}
    return out


def retake_if_noisy(take: Callable[[], dict[str, Any]], device: bool,
                    on_retake: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """take() (a timing's stats), taken once more when it ran on a device and its spread is
    over NOISY_REL_IQR (a disturbed timing), the steadier of the two kept; on_retake gets the
    disturbed one first."""
    st = take()
    if device and (st.get("rel_iqr") or 0.0) > NOISY_REL_IQR:
        if on_retake is not None:
            on_retake(st)
        st = steadier(st, take())
    return st


class Timer:
    """Backend-specific timing. kind: "cuda" / "ascend" use device events and an L2 flush;
    "interp" uses time.perf_counter on the CPU (and says so: clock "cpu")."""

    def __init__(self, backend: str) -> None:
        self.backend = backend
        self._flush: Any = None          # the L2 flush buffer, allocated on first use
        self.dev: Any
        import torch
        self.torch = torch
        if backend == "cuda":
            self.dev = torch.cuda
            self.clock = "cuda-events"
        elif backend == "ascend":
            self.dev = torch.npu  # provided by torch_npu
            self.clock = "npu-events"
        else:
            self.dev = None
            self.clock = "cpu"

    @property
    def l2_flush(self) -> bool:
        return self.dev is not None

    def sync(self) -> None:
        if self.dev is not None:
            self.dev.synchronize()

    def flush(self) -> None:
        if self.dev is None:
            return
        if self._flush is None:
            dev = "cuda" if self.backend == "cuda" else "npu"
            self._flush = self.torch.empty(L2_FLUSH_BYTES, dtype=self.torch.int8, device=dev)
        self._flush.zero_()

    def measure(self, fn: TimedFn, n: int, flush: bool = True) -> list[float]:
        """n timed calls of fn(k) (k = repetition index), each preceded by an L2 flush.
        Returns a list of milliseconds."""
        if n <= 0:
            return []
        if self.dev is None:
            out = []
            for k in range(n):
                t0 = time.perf_counter()
                fn(k)
                out.append((time.perf_counter() - t0) * 1e3)
            return out
        starts = [self.dev.Event(enable_timing=True) for _ in range(n)]
        ends = [self.dev.Event(enable_timing=True) for _ in range(n)]
        for k in range(n):
            if flush:
                self.flush()
            starts[k].record()
            fn(k)
            ends[k].record()
        self.dev.synchronize()
        return [s.elapsed_time(e) for s, e in zip(starts, ends)]

    def estimate(self, fn: TimedFn, n: int = 5) -> float:
        """Mean ms of one call (including the flush, like triton.testing.do_bench)."""
        self.sync()
        t0 = time.perf_counter()
        if self.dev is None:
            for k in range(n):
                fn(k)
            return (time.perf_counter() - t0) * 1e3 / n
        s = self.dev.Event(enable_timing=True)
        e = self.dev.Event(enable_timing=True)
        s.record()
        for k in range(n):
            self.flush()
            fn(k)
        e.record()
        self.dev.synchronize()
        return max(s.elapsed_time(e) / n, 1e-4)

    def bench(self, fn: TimedFn, warmup_ms: float, rep_ms: float, min_reps: int,
              max_reps: int) -> tuple[list[float], dict[str, Any]]:
        fn(0)
        self.sync()
        est = self.estimate(fn, n=1 if self.dev is None else 5)
        n_warm = max(1, int(warmup_ms / est)) if warmup_ms > 0 else 0
        n_rep = int(rep_ms / est) if est > 0 else max_reps
        n_rep = max(min_reps, min(max_reps, n_rep))
        for k in range(n_warm):
            fn(k)
        self.sync()
        times = self.measure(fn, n_rep)
        return times, {"estimate_ms": est, "warmup_reps": n_warm, "reps": n_rep}


def abba_decision(a1: Sequence[float], b1: Sequence[float], b2: Sequence[float], a2: Sequence[float],
                  min_improvement: float = 0.01) -> dict[str, Any]:
    """Decide from per-round slot times (lists of equal length, one value per round, slots in
    A B B A order) whether B is faster than A beyond the noise.

    noise = 90th percentile over rounds of |ln(A_first / A_second)| (spread of A vs A);
    per-round log ratio r = ln(mean(B1,B2) / mean(A1,A2)); improvement = -median(r);
    faster_beyond_noise = improvement > max(noise, ln(1 + min_improvement)) and B was faster
    in at least 75% of rounds."""
    rounds = len(a1)
    lr, aa = [], []
    for i in range(rounds):
        a = (a1[i] + a2[i]) / 2
        b = (b1[i] + b2[i]) / 2
        lr.append(math.log(b / a) if a > 0 and b > 0 else 0.0)
        aa.append(abs(math.log(a1[i] / a2[i])) if a1[i] > 0 and a2[i] > 0 else 0.0)
    s = sorted(aa)
    noise = quantile(s, 0.9) if s else 0.0
    med_lr = statistics.median(lr) if lr else 0.0
    improvement = -med_lr
    wins = sum(1 for x in lr if x < 0)
    threshold = max(noise, math.log1p(min_improvement))
    faster = improvement > threshold and wins >= math.ceil(0.75 * rounds)
    return {
        "rounds": rounds,
        "log_ratio_median": med_lr,
        "ratio": math.exp(med_lr),                 # candidate time / incumbent time
        "speedup": math.exp(-med_lr),              # incumbent time / candidate time
        "noise": noise, "noise_ratio": math.exp(noise) - 1.0,
        "threshold": threshold,
        "candidate_wins": wins,
        "faster_beyond_noise": bool(faster),
        "slower_beyond_noise": bool(med_lr > threshold and (rounds - wins) >= math.ceil(0.75 * rounds)),
    }
