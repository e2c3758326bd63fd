"""Parallel ahead-of-time compilation of the kernels a batch of candidates will launch.

A sweep tries many variants of one kernel; compiling them one after another in the harness
(Triton compiles at the first launch) would dominate a round. Instead, one forward of each
candidate runs as a *dry run*: Triton's own `jit_cache_hook` is called with each launch's
full specialization (signature, constexprs, alignment attributes, options) just before it
would compile, and returns True, which makes Triton skip both the compile and the launch.
The captured specializations are compiled in a pool of processes (the same
`triton.compile(ASTSource(...))` call Triton makes itself, for the device's target), which
writes them into the shared Triton cache directory. The real run that follows finds every
binary in that cache and only loads it.

Nothing here is needed for correctness: if a dry run or a pool compile fails, the real run
compiles (or fails) in the harness as it always did, and says why."""
from __future__ import annotations

import concurrent.futures as cf
import importlib.util
import json
import multiprocessing
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

# At most this many compile processes; the pool is sized to the machine's cores, leaving one
# for the harness itself.
PRECOMPILE_MAX_WORKERS = 32
# One specialization's compile may take this long in a pool process. Over 4157 compiles of
# the suite's sweeps on the H200 the longest took 22.6 s; a block-size sweep up from
# rope_interleaved's 4 x 64 rows tile kept ptxas processes busy for up to 103 s (sampled). A
# compile past the limit is recorded as timed out and its candidate is not compiled again
# (workers/deadline.c mirrors the value to size a sweep's limit).
PRECOMPILE_LIMIT_S = 60.0
# Within one batch, once PRECOMPILE_OUTLIER_MIN_DONE of its compiles (and half of them) have
# finished, one still running after PRECOMPILE_OUTLIER_FACTOR times their median, and at least
# PRECOMPILE_OUTLIER_FLOOR_S, is given up too. Why: on the H200 a block-size sweep of a rows
# kernel (rope's ROWS x 64 tile after rows_per_program, in a round whose L1 pattern left no IR
# to bound the tile) compiled 22 candidates in 0.4 s each and waited 60 s for 8 that ptxas
# never finished: 64 s of the round's device time for nothing. The floor stays above the
# longest compile that finished in the suite's sweeps (22.6 s).
PRECOMPILE_OUTLIER_FACTOR = 10.0
PRECOMPILE_OUTLIER_FLOOR_S = 25.0
PRECOMPILE_OUTLIER_MIN_DONE = 3
# How often the pool is looked at while compiles run.
PRECOMPILE_POLL_S = 0.25
TIMED_OUT = "compile exceeded"


@dataclass(frozen=True)
class CompileRequest:
    """One kernel specialization to compile, as Triton's jit_cache_hook described it."""

    module_path: str
    module_name: str
    qualname: str
    specialization: str      # Triton's serialize_specialization_data JSON

    def key(self) -> tuple[str, str, str]:
        return (self.module_path, self.qualname, self.specialization)


@dataclass
class CompileOutcome:
    ok: bool
    seconds: float
    error: str = ""


@dataclass
class Capture:
    requests: list[CompileRequest] = field(default_factory=list)
    error: str = ""


def capture_compiles(run: Callable[[], Any]) -> Capture:
    """Runs `run` (one forward) with Triton's compile step replaced by a recorder: every
    kernel that would be compiled is recorded and neither compiled nor launched. Kernels
    already compiled in this process launch as usual."""
    from triton import knobs

    cap = Capture()

    def hook(*, key: Any, repr: str, fn: Any, compile: dict, is_manual_warmup: bool,
             already_compiled: bool) -> bool:
        jit = fn.jit_function
        code = getattr(getattr(jit, "fn", None), "__code__", None)
        path = getattr(code, "co_filename", None)
        if not path or "<locals>" in fn.name:
            return False            # cannot be re-imported elsewhere: compile here as usual
        cap.requests.append(CompileRequest(path, fn.module, fn.name, compile["specialization_data"]))
        return True

    prev = knobs.runtime.jit_cache_hook
    knobs.runtime.jit_cache_hook = hook
    try:
        run()
    except Exception as e:  # noqa: BLE001 — a dry run of user code may fail any way; the real run will say how
        cap.error = f"{type(e).__name__}: {e}"[:300]
    finally:
        knobs.runtime.jit_cache_hook = prev
    return cap


def _noop() -> None:
    return None


def _child_init() -> None:
    import torch  # noqa: F401  (candidate modules import it; pay the import once per process)
    import triton  # noqa: F401


def _child_compile(req: CompileRequest, target: tuple[str, Any, int]) -> CompileOutcome:
    """In a pool process: import the candidate module under the harness's name for it, and
    compile one specialization exactly as JITFunction.preload would, for `target`."""
    t0 = time.perf_counter()
    try:
        import triton
        import triton.language as tl
        from triton.backends.compiler import GPUTarget
        from triton.compiler.compiler import ASTSource, make_backend
        from triton.runtime.jit import JITFunction

        from .opns import IsolatingLoader

        mod = sys.modules.get(req.module_name)
        if mod is None or getattr(mod, "__file__", None) != req.module_path:
            # as the harness imports it (operator namespaces isolated per module: opns)
            spec = importlib.util.spec_from_file_location(req.module_name, req.module_path,
                                                          loader=IsolatingLoader(req.module_name, req.module_path))
            if spec is None or spec.loader is None:
                return CompileOutcome(False, 0.0, f"cannot import {req.module_path}")
            mod = importlib.util.module_from_spec(spec)
            sys.modules[req.module_name] = mod
            spec.loader.exec_module(mod)
        obj: Any = mod
        for part in req.qualname.split("."):
            obj = getattr(obj, part)
        while not isinstance(obj, JITFunction) and hasattr(obj, "fn"):
            obj = obj.fn                      # autotune / heuristics wrappers
        if not isinstance(obj, JITFunction):
            return CompileOutcome(False, 0.0, f"{req.qualname} is not a @triton.jit function")
        d = json.loads(req.specialization)
        constexprs = {
            tuple(k): (tl.dtype(v) if tl.dtype.is_dtype(v) else
                       tl.constexpr(v["constexpr"]) if isinstance(v, dict) and "constexpr" in v else v)
            for k, v in zip(d["constant_keys"], d["constant_vals"])
        }
        attrs = {tuple(k): v for k, v in zip(d["attrs_keys"], d["attrs_vals"])}
        signature = {k: tuple(v) if isinstance(v, list) else v for k, v in d["signature"].items()}
        options = {k: tuple(v) if isinstance(v, list) else v for k, v in d["options"].items()}
        tgt = GPUTarget(*target)
        opts = make_backend(tgt).parse_options(options)
        src = ASTSource(obj, signature, constexprs, attrs)
        triton.compile(src, target=tgt, options=opts.__dict__)
        return CompileOutcome(True, time.perf_counter() - t0)
    except Exception as e:  # noqa: BLE001 — reported per candidate; the real run compiles again and says why
        return CompileOutcome(False, time.perf_counter() - t0, f"{type(e).__name__}: {e}"[:500])


def _children(pid: int) -> list[int]:
    """Every descendant of pid (Linux /proc; empty elsewhere)."""
    kids: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for e in entries:
        if not e.isdigit():
            continue
        try:
            with open(f"/proc/{e}/stat", encoding="ascii", errors="replace") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue                       # gone since the listing, or unreadable
        kids.setdefault(ppid, []).append(int(e))
    out, todo = [], [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.append(k)
            todo.append(k)
    return out


def _kill_pid(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass                               # already exited


def _outlier_limit(done_s: list[float], total: int, limit_s: float, floor_s: float) -> tuple[float, str]:
    """The seconds a compile of this batch may run, given those that finished (done_s) out of
    total, and why when it is below limit_s (a clause for the outcome's message)."""
    if len(done_s) < PRECOMPILE_OUTLIER_MIN_DONE or 2 * len(done_s) < total:
        return limit_s, ""
    med = statistics.median(done_s)
    lim = max(floor_s, PRECOMPILE_OUTLIER_FACTOR * med)
    if lim >= limit_s:
        return limit_s, ""
    return lim, (f" ({PRECOMPILE_OUTLIER_FACTOR:.0f}x the median of the {len(done_s)} of this batch's "
                 f"{total} compiles that finished, {med:.2f} s)")


class CompilePool:
    """A lazily started pool of compile processes, kept for the harness worker's life."""

    def __init__(self, workers: int | None = None) -> None:
        n = workers or max(1, min(PRECOMPILE_MAX_WORKERS, (os.cpu_count() or 2) - 1))
        self.workers = n
        self._ex: cf.ProcessPoolExecutor | None = None

    def _pool(self) -> cf.ProcessPoolExecutor:
        if self._ex is None:
            ctx = multiprocessing.get_context("spawn")   # the harness holds a device context: never fork
            self._ex = cf.ProcessPoolExecutor(max_workers=self.workers, mp_context=ctx, initializer=_child_init)
        return self._ex

    def warm(self) -> str:
        """Starts every process now, without waiting: each pays its torch/Triton import
        (seconds) while the harness loads the problem and climbs the ladder, not inside the
        first sweep. Returns "" or why the pool could not start."""
        try:
            ex = self._pool()
            for _ in range(self.workers):
                ex.submit(_noop)
        except (OSError, RuntimeError) as e:
            self.close()
            return f"compile pool did not start: {e}"
        return ""

    def compile_all(self, reqs: list[CompileRequest], target: tuple[str, Any, int],
                    limit_s: float = PRECOMPILE_LIMIT_S,
                    outlier_floor_s: float = PRECOMPILE_OUTLIER_FLOOR_S) -> dict[tuple[str, str, str], CompileOutcome]:
        """Compiles each distinct request once, in parallel; outcome per request key. A compile
        running longer than limit_s, or than the batch's outlier limit (_outlier_limit, not
        below outlier_floor_s), is given up (outcome error starting with TIMED_OUT); once
        nothing else is left, the pool's processes are killed with their compilers and the
        pool starts afresh on the next call."""
        uniq = {r.key(): r for r in reqs}
        out: dict[tuple[str, str, str], CompileOutcome] = {}
        if not uniq:
            return out
        try:
            ex = self._pool()
            futs = {ex.submit(_child_compile, r, target): k for k, r in uniq.items()}
            pending = set(futs)
            started: dict[cf.Future, float] = {}
            gave_up = False
            while pending:
                done, pending = cf.wait(pending, timeout=PRECOMPILE_POLL_S, return_when=cf.FIRST_COMPLETED)
                for f in done:
                    try:
                        out[futs[f]] = f.result()
                    except Exception as e:  # noqa: BLE001 — a pool process died (e.g. killed): recorded, the real run compiles
                        out[futs[f]] = CompileOutcome(False, 0.0, f"compile process failed: {type(e).__name__}: {e}"[:300])
                now = time.monotonic()
                # The executor marks a future running when it enters the call queue, one more
                # than its processes take at a time; processes take them in order. So the first
                # `workers` unfinished running futures (those given up included: they still
                # hold their process) are the compiles under way, and their clocks start.
                for f in [f for f in futs if f.running() and not f.done()][:self.workers]:
                    started.setdefault(f, now)
                lim, why = _outlier_limit([o.seconds for o in out.values() if o.ok], len(uniq), limit_s,
                                          outlier_floor_s)
                over = {f for f in pending if now - started.get(f, now) > lim}
                for f in over:
                    out[futs[f]] = CompileOutcome(False, lim, f"{TIMED_OUT} {lim:.0f} s{why}")
                pending -= over
                gave_up |= bool(over)
            if gave_up:            # the compiles given up on still run: stop them now
                self._kill()
        except (OSError, RuntimeError, cf.process.BrokenProcessPool) as e:
            self.close()
            for k in uniq:
                out.setdefault(k, CompileOutcome(False, 0.0, f"compile pool unavailable: {e}"[:300]))
        return out

    def _kill(self) -> None:
        """Kills the pool's processes and what they started (ptxas), then forgets the pool:
        a compile that ran past its limit cannot be cancelled any other way."""
        ex = self._ex
        procs = dict(getattr(ex, "_processes", None) or {})   # no public API lists them
        for pid in procs:
            for child in _children(pid):
                _kill_pid(child)
            _kill_pid(pid)
        self.close()

    def close(self) -> None:
        if self._ex is not None:
            self._ex.shutdown(wait=False, cancel_futures=True)
            self._ex = None
