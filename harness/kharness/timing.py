"""Timing: do_bench-style repetition with device events, L2 flush between repetitions,
input rotation, robust statistics, and ABBA interleaved comparison."""
import math
import statistics
import time

L2_FLUSH_BYTES = 256 * 1024 * 1024
# Timer.prequeue: before a measurement, hold the device with a spin for about as long as the
# host takes to enqueue it (PREQUEUE_MARGIN times the last measured host time per call), at
# most prequeue_max_ms, so that the calls run back to back whatever the host does meanwhile.
# Off by default (PREQUEUE_MAX_MS 0): on the H200 (bench/gpu/timing_prequeue.py, results in
# bench/results/h200-suite-2026-12-01/logs/callU/) a host loaded on every core did not move the
# timings of 4.5-37 us kernels without it (the 256 MiB L2 flush already keeps the device busy
# while the host launches), and with it kernels of 4-7 us read about 0.2 us (3%) longer. Kept
# as an instrument for a host that is slower than the flush.
PREQUEUE_MAX_MS = 0.0
PREQUEUE_MARGIN = 1.5
PREQUEUE_CALIBRATION_CYCLES = 2_000_000


def quantile(sorted_vals, q):
    n = len(sorted_vals)
    if n == 0:
        return float("nan")
    p = q * (n - 1)
    lo, hi = math.floor(p), math.ceil(p)
    t = p - lo
    return (1 - t) * sorted_vals[lo] + t * sorted_vals[hi]


def stats(times_ms):
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


class Timer:
    """Backend-specific timing. kind: "cuda" / "ascend" use device events and an L2 flush;
    "interp" uses time.perf_counter on the CPU (and says so: clock "cpu")."""

    def __init__(self, backend):
        self.backend = backend
        self._flush = None
        self._cycles_per_ms = None       # the device spin's rate, measured on first use
        self._host_ms_per_call = None    # host time to enqueue one flush + call, last measured
        self.prequeue_max_ms = PREQUEUE_MAX_MS   # > 0: the spin on (bench/gpu/timing_prequeue.py)
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
    def l2_flush(self):
        return self.dev is not None

    def sync(self):
        if self.dev is not None:
            self.dev.synchronize()

    def flush(self):
        if self.dev is None:
            return
        if self._flush is None:
            dev = "cuda" if self.backend == "cuda" else "npu"
            self._flush = self.torch.empty(L2_FLUSH_BYTES, dtype=self.torch.int8, device=dev)
        self._flush.zero_()

    def measure(self, fn, n, flush=True):
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
        self.prequeue(n)
        t0 = time.perf_counter()
        for k in range(n):
            if flush:
                self.flush()
            starts[k].record()
            fn(k)
            ends[k].record()
        self._host_ms_per_call = (time.perf_counter() - t0) * 1e3 / n
        self.dev.synchronize()
        return [s.elapsed_time(e) for s, e in zip(starts, ends)]

    def prequeue(self, n):
        """Holds the device (a spin kernel) for about the host time of n calls, so that the n
        calls queued behind it run back to back whatever the host does meanwhile. Returns the
        ms asked for (0: none, e.g. on a backend without a spin or before any host time is
        known)."""
        spin = getattr(self.dev, "_sleep", None) if self.dev is not None else None
        if spin is None or not self._host_ms_per_call or n <= 0 or self.prequeue_max_ms <= 0:
            return 0.0
        if self._cycles_per_ms is None:
            self._cycles_per_ms = self._calibrate(spin)
        ms = min(self.prequeue_max_ms, self._host_ms_per_call * n * PREQUEUE_MARGIN)
        spin(max(1, int(ms * self._cycles_per_ms)))
        return ms

    def _calibrate(self, spin):
        """Device cycles per ms of the spin (the second of two timings: the first loads it)."""
        rate = 0.0
        for _ in range(2):
            s = self.dev.Event(enable_timing=True)
            e = self.dev.Event(enable_timing=True)
            s.record()
            spin(PREQUEUE_CALIBRATION_CYCLES)
            e.record()
            self.dev.synchronize()
            rate = PREQUEUE_CALIBRATION_CYCLES / max(s.elapsed_time(e), 1e-3)
        return rate

    def estimate(self, fn, n=5):
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
        self._host_ms_per_call = (time.perf_counter() - t0) * 1e3 / n
        self.dev.synchronize()
        return max(s.elapsed_time(e) / n, 1e-4)

    def bench(self, fn, warmup_ms, rep_ms, min_reps, max_reps):
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


def abba_decision(a1, b1, b2, a2, min_improvement=0.01):
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
