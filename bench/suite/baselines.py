"""Times each operator's initial kernel, PyTorch eager (the reference Model, or its Peer where
ref.py has one: opspec's docstring) and torch.compile of the same, side by side on one device,
without koptd, with the harness's own method (kharness.timing.Timer: device events, a 256 MiB
L2 flush before every repetition, inputs rotated when they fit in L2, warm-up then
repetitions sized to the kernel, median and spread), interleaved: every implementation is
timed once per pass (--passes, 3 on a GPU), each pass in another order, and its figure pools
the passes' samples, so a GPU that slows as it heats favours none of them. Also measures the device-to-device copy bandwidth (1 GiB) and, when a matmul-class
operator is chosen, the peak tensor throughput of a large torch.matmul in its dtype: the two
ceilings of the roofline bound.

    python3 bench/suite/baselines.py --ops all --runs 3 --out results/ [--kopt results/]

With --kopt DIR the best kernel of each kopt-<op>-run<r>.json found there (run.py's output) is
timed in the same process, so kopt's figure is measured side by side with the others. Each
--also RECORD (another kopt record of a chosen operator, e.g. of an older tree) adds its best
kernel to that operator's side-by-side timing, under "also:<record's file name>".

Every output is checked against the reference Model first (the harness's tolerances and
float64 check): a torch.compile or kernel result that differs is reported as a mismatch and
not timed. The one exception is a Peer (what users run) that misses the judge: it and its
torch.compile are timed anyway and marked "off_judge", so kopt's kernel is still compared with
what PyTorch gives; report.py marks those figures.

Writes OUT/baselines-<op>-run<r>.json per operator and run. Each run is a child process
running the operators in turn (so a crash or a hang costs one operator, which is recorded
with its reason, and the rest go on in a new child). On a CPU (`--backend interp`, for
testing) the kernels run in the Triton interpreter at the small sizes and torch.compile is
skipped unless --cpu-compile is given.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

SUITE = Path(__file__).resolve().parent
ROOT = SUITE.parents[1]
sys.path.insert(0, str(SUITE))
import gpustate
from opspec import TRUTH_CLASS, OpSpec, current_scale, ops_arg, scale_of
from results import FORMAT, RecordError, read_record, write_record

GPU_COPY_BYTES = 1 << 30            # the harness's bandwidth probe: a 1 GiB copy
CPU_COPY_BYTES = 64 << 20           # on the CPU (tests) a smaller one
GPU_PEAK_DIM = 8192                 # square matmul for the peak tensor throughput
CPU_PEAK_DIM = 512
PROBE_REPS = 10
DEFAULT_OP_TIMEOUT_S = 1200.0       # one operator in the child: compile + checks + timings
STARTUP_TIMEOUT_S = 600.0           # the child's start: imports, device, bandwidth probe
MARK = "baselines-child:"           # the child's progress lines on stdout
MAX_PASSES = 20                     # interleaved timing passes (--passes)
MAX_ALSO = 8                        # other kopt records timed beside (--also)
ALSO_PREFIX = "also:"               # their keys in the baselines record


def log(msg: str) -> None:
    print(f"baselines.py: {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------- the parent

def _reader(stream: Any, q: queue.Queue[str | None]) -> None:
    for line in stream:
        q.put(line)
    q.put(None)


def failure_record(op: OpSpec, run: int, stage: str, reason: str) -> dict[str, Any]:
    return {"kind": "baselines", "format": FORMAT, "operator": op.name, "class": op.op_class, "run": run,
            "ok": False, "failure": {"stage": stage, "reason": reason}}


def run_parent(args: argparse.Namespace, ops: list[OpSpec], out: Path) -> int:
    failed = 0
    for run in range(args.first_run, args.first_run + args.runs):
        todo = list(ops)
        while todo:
            cmd = [sys.executable, __file__, "--child", "--ops", ",".join(o.name for o in todo),
                   "--first-run", str(run), "--runs", "1", "--out", str(out), "--backend", args.backend,
                   "--seed", str(args.seed), "--warmup-ms", str(args.warmup_ms), "--rep-ms", str(args.rep_ms),
                   "--min-reps", str(args.min_reps), "--max-reps", str(args.max_reps), "--passes", str(args.passes)]
            if args.kopt:
                cmd += ["--kopt", args.kopt]
            for path in args.also:
                cmd += ["--also", path]
            if args.cpu_compile:
                cmd.append("--cpu-compile")
            if args.no_compile:
                cmd.append("--no-compile")
            child = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, start_new_session=True)
            q: queue.Queue[str | None] = queue.Queue()
            threading.Thread(target=_reader, args=(child.stdout, q), daemon=True).start()
            current: str | None = None
            why = None
            ready = False
            deadline = time.monotonic() + max(args.op_timeout, STARTUP_TIMEOUT_S)
            while True:
                try:
                    line = q.get(timeout=max(0.05, deadline - time.monotonic()))
                except queue.Empty:
                    line = ""
                if line is None:
                    break
                if time.monotonic() >= deadline:      # output that is not a mark does not extend it
                    why = (f"no result within --op-timeout {args.op_timeout:g} s (killed)" if ready
                           else "the measuring process did not start in time (killed)")
                    os.killpg(child.pid, signal.SIGKILL)
                    break
                if line.startswith(MARK):
                    word, _, name = line[len(MARK):].strip().partition(" ")
                    deadline = time.monotonic() + args.op_timeout
                    if word == "ready":
                        ready = True
                    elif word == "begin":
                        current = name
                    elif word == "end" and name == current:
                        todo = [o for o in todo if o.name != name]
                        current = None
            rc = child.wait()
            if why is None and rc == 0 and current is None:
                for o in todo:              # the child stopped without measuring these
                    write_record(out, failure_record(o, run, "child", "not measured: the child ended early"))
                    failed += 1
                break
            stage = "timeout" if why else "crash"
            if why is None:
                why = (f"the measuring process was killed by signal {-rc}" if rc < 0
                       else f"the measuring process exited with status {rc}")
            op = next((o for o in todo if o.name == current), todo[0])
            write_record(out, failure_record(op, run, stage, why))
            log(f"{op.name} run {run}: {why}")
            failed += 1
            todo = [o for o in todo if o is not op]
    return failed


# -------------------------------------------------------------------------- the child

class Measurer:
    """Everything measured in one process: the device, the timer, the two ceilings."""

    def __init__(self, args: argparse.Namespace) -> None:
        sys.path.insert(0, str(ROOT / "harness"))
        from kharness import backend as bk
        self.backend = bk.choose_backend(args.backend)      # sets TRITON_INTERPRET before triton
        import torch
        from kharness.cases import (
            case_seed,
            clone_tree,
            map_float_tensors,
            seed_all,
            to_device,
        )
        from kharness.correctness import flatten_outputs
        from kharness.inplace import with_updated
        from kharness.judge import Float64Mode, Tolerances, Truth, judge_output
        from kharness.timing import Timer, pass_order, retake_if_noisy, stats
        self.torch, self.bk = torch, bk
        self.case_seed, self.clone_tree, self.seed_all, self.to_device = case_seed, clone_tree, seed_all, to_device
        self.judge, self.flatten, self.tol = judge_output, flatten_outputs, Tolerances()
        self.with_updated = with_updated
        self.updates: tuple[int, ...] = ()    # the operator's inputs updated in place (op.json), judged too
        self.Tolerances = Tolerances
        self.Float64Mode, self.Truth, self.map_float = Float64Mode, Truth, map_float_tensors
        self.stats, self.retake_if_noisy, self.pass_order = stats, retake_if_noisy, pass_order
        self.args = args
        self.device = bk.device_for(self.backend)
        self.timer = Timer(self.backend)
        self.gpu = self.backend != "interp"
        self.env = bk.environment(self.backend)
        self.copy_gbps = self._copy_bandwidth()
        self.peak: dict[str, float | None] = {}

    # ---------------------------------------------------------------- ceilings
    def _copy_bandwidth(self) -> float:
        torch = self.torch
        n = (GPU_COPY_BYTES if self.gpu else CPU_COPY_BYTES) // 4
        a = torch.empty(n, dtype=torch.float32, device=self.device)
        b = torch.empty_like(a)
        b.copy_(a)
        times = sorted(self.timer.measure(lambda k: b.copy_(a), PROBE_REPS, flush=False))
        t = times[len(times) // 2]
        return 2 * n * 4 / (t * 1e-3) / 1e9

    def copy_same_ms(self, nbytes: int) -> float | None:
        """Median time of a device copy that moves `nbytes` (half read, half written), timed as
        the kernels are (the harness's bench: L2 flushed, inputs rotated when they fit in L2).
        A kernel of 30 us pays launch and ramp costs a 1 GiB copy does not: this is the copy
        bound at the operator's own size."""
        torch = self.torch
        half = max(1, nbytes // 2)
        try:
            src = torch.empty(half, dtype=torch.uint8, device=self.device)
            dst = torch.empty_like(src)
            st = self._time(lambda a, b: b.copy_(a), [src, dst])
        except torch.OutOfMemoryError as e:
            log(f"same-size copy of {nbytes} bytes: {e}")
            return None
        return float(st["median_ms"])

    def peak_tflops(self, dtype_name: str) -> float | None:
        """Throughput of a large square torch.matmul in this dtype (tensor cores on a GPU)."""
        if dtype_name not in self.peak:
            torch = self.torch
            dim = GPU_PEAK_DIM if self.gpu else CPU_PEAK_DIM
            dt = getattr(torch, dtype_name)
            a = torch.randn(dim, dim, device=self.device).to(dt)
            b = torch.randn(dim, dim, device=self.device).to(dt)
            torch.matmul(a, b)
            self.timer.sync()
            times = sorted(self.timer.measure(lambda k: torch.matmul(a, b), PROBE_REPS, flush=False))
            t = times[len(times) // 2]
            self.peak[dtype_name] = 2 * dim ** 3 / (t * 1e-3) / 1e12
        return self.peak[dtype_name]

    # ---------------------------------------------------------------- pieces
    def _import(self, path: Path, name: str) -> Any:
        # with the harness's loader: the initial kernel and kopt's kernels, imported side by
        # side, keep their custom operators apart (kharness.opns) as in the harness
        from kharness.opns import IsolatingLoader, install_interpreter_wrap_triton
        if self.backend == "interp":
            install_interpreter_wrap_triton()
        spec = importlib.util.spec_from_file_location(name, path, loader=IsolatingLoader(name, str(path)))
        assert spec is not None and spec.loader is not None
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    def _build(self, module: Any, cls: str, init: list[Any], tunables: dict[str, Any] | None = None,
               dtype: Any = None) -> Any:
        self.seed_all(self.args.seed)          # as the harness: identical weights for Model and ModelNew
        m = getattr(module, cls)(*init, **(tunables or {}))
        m = m.to(self.device)
        if dtype is not None:
            m = m.to(dtype)
        return m.eval()

    def _truths(self, ref: Any, init: list[Any], cpu_inputs: list[Any], gold: list[Any]) -> list[Any]:
        """The harness judge's truth per output leaf: the reference in float64 (under
        Float64Mode, as the worker evaluates it) and on |inputs| and 2|inputs| with
        |parameters| (the magnitudes of its sums)."""
        torch = self.torch
        in64 = self.to_device(cpu_inputs, self.device, dtype64=True)
        m64 = self._build(ref, "Model", init, dtype=torch.float64)
        with self.Float64Mode():
            f64 = self.flatten(self.with_updated(m64(*in64), in64, self.updates))
        with torch.no_grad():   # |parameters|, as the worker's magnitude model
            for t in list(m64.parameters()) + list(m64.buffers()):
                if t.is_floating_point():
                    t.copy_(t.abs())
        mags = []
        for scale in (1.0, 2.0):
            x = self.map_float(in64, lambda t, s=scale: t.abs() * s)
            with self.Float64Mode():
                mags.append(self.flatten(self.with_updated(m64(*x), x, self.updates)))
        return [self.Truth(reference=g, float64=f64[k], magnitude=mags[0][k], magnitude2=mags[1][k])
                for k, g in enumerate(gold)]

    def _run_judged(self, fn: Any, inputs: list[Any]) -> list[Any]:
        """The leaves the judge checks of one run of fn on a copy of the inputs: its outputs,
        then the inputs the operator updates in place (kharness/inplace.py)."""
        x = self.clone_tree(inputs)
        return self.flatten(self.with_updated(fn(*x), x, self.updates))

    def _check(self, out: Any, truths: list[Any]) -> dict[str, Any]:
        c = self.flatten(out)
        if len(c) != len(truths):
            return {"passed": False, "message": f"{len(c)} outputs, the reference has {len(truths)}"}
        worst = 0.0
        for k, (ci, t) in enumerate(zip(c, truths)):
            d = self.judge(ci, t, self.tol)
            worst = max(worst, d.get("error_units") or 0.0)
            if not d["passed"]:
                return {"passed": False, "message": f"output {k}: {d['problem']}"}
        return {"passed": True, "worst_in_budget_units": worst}

    def _copies(self, inputs: list[Any]) -> list[list[Any]]:
        """The inputs, and copies of them to rotate over when they fit in L2 (the harness's bench)."""
        torch = self.torch
        nbytes = sum(t.numel() * t.element_size() for t in self.flatten(inputs) if isinstance(t, torch.Tensor))
        copies = [inputs]
        if self.backend == "cuda":
            l2 = getattr(torch.cuda.get_device_properties(self.device), "L2_cache_size", None) or (50 << 20)
            if 0 < nbytes <= l2:
                n = max(2, min(8, (2 * l2) // max(nbytes, 1)))
                copies += [self.clone_tree(inputs) for _ in range(int(n) - 1)]
        return copies

    def _take(self, fn: Any, copies: list[list[Any]]) -> dict[str, Any]:
        """One timing of fn (the harness's bench), taken again when disturbed: its stats, and
        its samples under "_times" (pooled by _time_side_by_side)."""
        torch, a = self.torch, self.args

        def take() -> dict[str, Any]:
            with torch.no_grad():
                times, meta = self.timer.bench(lambda k: fn(*copies[k % len(copies)]), a.warmup_ms, a.rep_ms,
                                               a.min_reps, a.max_reps)
            st = self.stats(times)
            st.update(meta)
            st["_times"] = times
            return st

        return self.retake_if_noisy(take, self.gpu)     # a disturbed timing: the steadier of two

    def _time(self, fn: Any, inputs: list[Any]) -> dict[str, Any]:
        """One implementation alone (the same-size copy)."""
        st = self._take(fn, self._copies(inputs))
        st.pop("_times", None)
        return st

    def _time_side_by_side(self, timed: dict[str, Any], inputs: list[Any]) -> dict[str, dict[str, Any]]:
        """Every implementation in `timed` (name -> callable) timed in args.passes passes, pass p
        in the order rotated by p (kharness.timing.pass_order), so no implementation is always
        timed first or last: a GPU that slows as it heats (a large matmul meets its power limit)
        would otherwise favour whichever ran first. Each implementation's figure pools its
        samples over the passes; "passes" keeps each pass's median, its place in the order and,
        on a GPU, its clock, power and temperature when it ended. A timing that raises is that
        implementation's failure, the rest go on."""
        names = list(timed)
        copies = self._copies(inputs)
        pooled: dict[str, list[float]] = {n: [] for n in names}
        per_pass: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
        failed: dict[str, str] = {}
        for p in range(self.args.passes):
            for place, n in enumerate(self.pass_order(names, p)):
                if n in failed:
                    continue
                try:
                    st = self._take(timed[n], copies)
                except Exception as e:  # noqa: BLE001 - user code (kernels, inductor) may raise anything: recorded
                    failed[n] = f"{n}: timing raised {type(e).__name__}: {str(e)[:1500]}"
                    continue
                pooled[n] += st.pop("_times")
                per_pass[n].append({"median_ms": st["median_ms"], "rel_iqr": st.get("rel_iqr"), "place": place,
                                    **({"retaken": st["retaken"]} if "retaken" in st else {}),
                                    **self._gpu_state()})
        out: dict[str, dict[str, Any]] = {}
        for n in names:
            if n in failed:
                out[n] = {"ok": False, "error": failed[n]}
                continue
            st = self.stats(pooled[n])
            st["passes"] = per_pass[n]
            st["input_copies"] = len(copies)
            out[n] = st
        return out

    def _gpu_state(self) -> dict[str, Any]:
        """{"gpu": clock, power, temperature} right after a timing, on a GPU where nvidia-smi
        answers (gpustate.py); {} otherwise."""
        if not self.gpu:
            return {}
        st = gpustate.sample(self.device.index or 0)
        return {"gpu": st.to_json()} if st else {}

    def _stage(self, what: str, fn: Any, inputs: list[Any], truths: list[Any]) -> dict[str, Any]:
        """Check one implementation against the reference (timed later, side by side with
        the others, when it passes); a failure is recorded."""
        torch = self.torch
        try:
            with torch.no_grad():
                out = self._run_judged(fn, inputs)
            self.timer.sync()
            chk = self._check(out, truths)
            del out
            if not chk["passed"]:
                return {"ok": False, "mismatch": chk["message"]}
            return {"ok": True, "check": chk}
        except Exception as e:  # noqa: BLE001 - user code (kernels, models, inductor) may raise anything: recorded
            return {"ok": False, "error": f"{what}: {type(e).__name__}: {str(e)[:1500]}"}

    def _compile_stage(self, model: Any, inputs: list[Any], truths: list[Any]) -> tuple[dict[str, Any], Any]:
        """torch.compile of the eager model, checked: its record and the compiled callable."""
        if self.args.no_compile:
            return {"ok": False, "skipped": "--no-compile"}, None
        if not self.gpu and not self.args.cpu_compile:
            return {"ok": False, "skipped": "torch.compile on the CPU measures inductor's C++ code, not a GPU "
                                            "baseline (give --cpu-compile to run it anyway)"}, None
        torch = self.torch
        try:
            compiled = torch.compile(model)
            t0 = time.monotonic()
            with torch.no_grad():
                compiled(*self.clone_tree(inputs))
            self.timer.sync()
            compile_s = time.monotonic() - t0
        except Exception as e:  # noqa: BLE001 - inductor failures are results to report, not crashes
            return {"ok": False, "error": f"torch.compile: {type(e).__name__}: {str(e)[:1500]}"}, None
        res = self._stage("torch.compile", compiled, inputs, truths)
        res["compile_s"] = round(compile_s, 3)
        return res, compiled

    def _kopt_stage(self, op: OpSpec, run: int, init: list[Any], inputs: list[Any], truths: list[Any],
                    tmp: Path) -> tuple[dict[str, Any] | None, Any]:
        """kopt's best kernel of this run (its record in --kopt), written under tmp (which must
        outlive the timing), built and checked: its record and the model, or (None, None)
        when there is no record."""
        if not self.args.kopt:
            return None, None
        path = Path(self.args.kopt) / f"kopt-{op.name}-run{run}.json"
        if not path.exists():
            return None, None
        return self._record_stage(op, path, f"kopt_best_{op.name}_{run}", init, inputs, truths, tmp)

    def _record_stage(self, op: OpSpec, path: Path, modname: str, init: list[Any], inputs: list[Any],
                      truths: list[Any], tmp: Path) -> tuple[dict[str, Any], Any]:
        """The best kernel of the kopt record at path, written under tmp, built and checked: its
        record and the model (None when it did not build or its job did not succeed)."""
        try:
            rec = read_record(path)
        except RecordError as e:
            return {"ok": False, "error": str(e)}, None
        src = rec.get("best_kernel")
        best = (rec.get("job") or {}).get("best") or {}
        info = {"job_id": rec.get("job_id"), "best_round": best.get("round"), "tunables": best.get("tunables")}
        if not rec.get("ok") or not isinstance(src, str):
            return {"ok": False, "skipped": "the kopt job did not succeed", **info}, None
        f = tmp / f"{modname}.py"
        f.write_text(src)
        try:
            mod = self._import(f, modname)
            model = self._build(mod, "ModelNew", init, best.get("tunables") or {})
        except Exception as e:  # noqa: BLE001 - the job's kernel is user code
            return {"ok": False, "error": f"kopt kernel: {type(e).__name__}: {str(e)[:1500]}", **info}, None
        res = self._stage("kopt kernel", model, inputs, truths)
        return {**res, **info}, model

    # ---------------------------------------------------------------- one operator
    def measure(self, op: OpSpec, run: int) -> dict[str, Any]:
        with tempfile.TemporaryDirectory(prefix="kopt-best-") as d:
            return self._measure(op, run, Path(d))

    def _measure(self, op: OpSpec, run: int, tmp: Path) -> dict[str, Any]:
        torch = self.torch
        ref = self._import(op.directory / "ref.py", f"suite_ref_{op.name}")
        ker = self._import(op.directory / "kernel.py", f"suite_kernel_{op.name}")
        self.tol = self.Tolerances.parse(op.tolerances)       # the operator's own, as its jobs get
        self.updates = op.updates
        init = list(ref.get_init_inputs())
        self.seed_all(self.case_seed(self.args.seed, 0))     # the harness's case 0
        cpu_inputs = list(ref.get_inputs())
        shapes = [list(t.shape) for t in cpu_inputs if isinstance(t, torch.Tensor)]
        scale = scale_of(op, shapes)
        inputs = self.to_device(cpu_inputs, self.device)
        model = self._build(ref, "Model", init)
        with torch.no_grad():
            gold = self._run_judged(model, inputs)
            truths = self._truths(ref, init, cpu_inputs, gold)
        del cpu_inputs
        rec: dict[str, Any] = {
            "kind": "baselines", "format": FORMAT, "operator": op.name, "class": op.op_class, "run": run,
            "backend": self.backend, "scale": scale, "input_shapes": shapes, "env": self.env,
            "timing": {"method": "kharness.timing.Timer.bench (the harness's bench)", "clock": self.timer.clock,
                       "l2_flush": self.timer.l2_flush, "warmup_ms": self.args.warmup_ms,
                       "rep_ms": self.args.rep_ms, "min_reps": self.args.min_reps, "max_reps": self.args.max_reps},
            "copy_gbps": self.copy_gbps,
        }
        new = self._build(ker, "ModelNew", init)
        rec["initial"] = self._stage("initial kernel", new, inputs, truths)
        rec["baseline_class"] = cls = op.baseline_class()     # opspec: Model, or its Peer
        peer = model if cls == TRUTH_CLASS else self._build(ref, cls, init)
        rec["eager"] = self._stage("eager", peer, inputs, truths)
        rec["compile"], compiled = self._compile_stage(peer, inputs, truths)
        if cls != TRUTH_CLASS and "mismatch" in rec["eager"]:
            # what users run (PyTorch's own operator at the operator's dtype) misses the judge's
            # budget: still timed, marked, so kopt is compared with it rather than with nothing;
            # the record stands on the initial kernel (the reference Model, which defines the
            # truth, failing it would be a failure)
            for key in ("eager", "compile"):
                if "mismatch" in rec[key]:
                    rec[key]["off_judge"] = True
        kopt, kopt_model = self._kopt_stage(op, run, init, inputs, truths, tmp)
        if kopt is not None:
            rec["kopt"] = kopt
        # every implementation that passed its check, timed side by side (interleaved passes)
        fns = {"initial": new, "eager": peer, "compile": compiled, "kopt": kopt_model}
        for path in self.args.also_by_op.get(op.name, []):
            key = f"{ALSO_PREFIX}{path.stem}"
            rec[key], fns[key] = self._record_stage(op, path, f"also_{len(fns)}", init, inputs, truths, tmp)
        timed = {k: f for k, f in fns.items() if f is not None and ((rec.get(k) or {}).get("ok")
                                                                   or (rec.get(k) or {}).get("off_judge"))}
        for k, st in self._time_side_by_side(timed, inputs).items():
            ok = rec[k].get("ok")
            rec[k].update(st)
            rec[k]["ok"] = bool(ok and st.get("ok", True))
            if not st.get("ok", True):
                rec[k].pop("check", None)
        rec["timing"]["passes"] = self.args.passes
        del compiled, kopt_model
        peak = self.peak_tflops(op.dtype) if op.op_class == "matmul" and op.dtype in ("float16", "bfloat16") else None
        rec["peak_tflops"] = peak
        if scale is not None:
            nbytes, flops = op.min_bytes(scale), op.flops(scale)
            bound = nbytes / (self.copy_gbps * 1e9)
            if peak and op.op_class == "matmul":
                bound = max(bound, flops / (peak * 1e12))
            rec["roofline"] = {"bytes": nbytes, "flops": flops, "bound_ms": bound * 1e3,
                               "copy_same_ms": self.copy_same_ms(nbytes)}
        rec["ok"] = bool(rec["initial"].get("ok") and (rec["eager"].get("ok") or rec["eager"].get("off_judge")))
        if not rec["ok"]:
            bad = rec["initial"] if not rec["initial"].get("ok") else rec["eager"]
            rec["failure"] = {"stage": "initial" if bad is rec["initial"] else "eager",
                              "reason": bad.get("mismatch") or bad.get("error") or "failed"}
        del model, peer, new, gold, truths, inputs
        if self.gpu:
            torch.cuda.empty_cache()
        return rec


def run_child(args: argparse.Namespace, ops: list[OpSpec], out: Path) -> int:
    m = Measurer(args)
    print(f"{MARK} ready", flush=True)
    log(f"{m.backend} on {m.env.get('device', {}).get('name')}: copy {m.copy_gbps:.1f} GB/s")
    for op in ops:
        print(f"{MARK} begin {op.name}", flush=True)
        t0 = time.monotonic()
        try:
            rec = m.measure(op, args.first_run)
        except Exception as e:  # noqa: BLE001 - ref.py is user code too (inputs, Model): recorded, the next op goes on
            rec = failure_record(op, args.first_run, "reference", f"{type(e).__name__}: {str(e)[:1500]}")
        rec["seconds"] = round(time.monotonic() - t0, 3)
        write_record(out, json.loads(json.dumps(rec, default=str)))
        ini, eag, com = (rec.get(k) or {} for k in ("initial", "eager", "compile"))
        log(f"{op.name} run {args.first_run}: initial {ini.get('median_ms', ini.get('error') or ini.get('mismatch'))} ms, "
            f"eager {eag.get('median_ms')} ms, compile "
            f"{com.get('median_ms', com.get('skipped') or com.get('error') or com.get('mismatch'))}")
        print(f"{MARK} end {op.name}", flush=True)
    return 0


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default="all", type=ops_arg, help="all, or a comma-separated list")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--first-run", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--kopt", default=None, help="directory of run.py's records: also time kopt's best kernels")
    ap.add_argument("--also", action="append", default=[], metavar="RECORD",
                    help="another run.py record (kopt-<op>-run<r>.json, e.g. of an older tree) of a chosen operator: "
                         f"its best kernel is timed beside the others in every run, as {ALSO_PREFIX}<file name>")
    ap.add_argument("--backend", default="cuda", choices=("cuda", "interp"))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--warmup-ms", type=float, default=None, help="default: the harness's (25 GPU, 0 CPU)")
    ap.add_argument("--rep-ms", type=float, default=None, help="default: the harness's (100 GPU, 500 CPU)")
    ap.add_argument("--min-reps", type=int, default=None, help="default: the harness's (10 GPU, 3 CPU)")
    ap.add_argument("--max-reps", type=int, default=None, help="default: the harness's (10000 GPU, 50 CPU)")
    ap.add_argument("--passes", type=int, default=None,
                    help=f"interleaved timing passes over the implementations (default 3 GPU, 1 CPU; 1..{MAX_PASSES})")
    ap.add_argument("--op-timeout", type=float, default=DEFAULT_OP_TIMEOUT_S)
    ap.add_argument("--cpu-compile", action="store_true", help="run torch.compile on the CPU too")
    ap.add_argument("--no-compile", action="store_true", help="skip torch.compile")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    gpu = args.backend != "interp"
    for name, g, c in (("warmup_ms", 25.0, 0.0), ("rep_ms", 100.0, 500.0), ("min_reps", 10, 3),
                       ("max_reps", 10000, 50), ("passes", 3, 1)):
        if getattr(args, name) is None:
            setattr(args, name, g if gpu else c)
    if not 1 <= args.runs <= 100:
        ap.error("--runs: must be 1..100")
    if not 1 <= args.passes <= MAX_PASSES:
        ap.error(f"--passes: must be 1..{MAX_PASSES}")
    if args.min_reps < 1 or args.max_reps < args.min_reps:
        ap.error("--min-reps must be >= 1 and --max-reps >= --min-reps")
    if len(args.also) > MAX_ALSO:
        ap.error(f"--also: at most {MAX_ALSO} records")
    names = {o.name for o in args.ops}
    args.also_by_op = {}        # operator -> the --also records of it, each read once here
    for path in args.also:
        try:
            rec = read_record(Path(path))
        except (OSError, RecordError) as e:
            ap.error(f"--also {path}: {e}")
        op = rec.get("operator")
        if rec["kind"] != "kopt":
            ap.error(f"--also {path}: a {rec['kind']!r} record, not run.py's (kind 'kopt')")
        if op not in names:
            ap.error(f"--also {path}: its operator {op!r} is not among --ops")
        args.also_by_op.setdefault(op, []).append(Path(path))
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.backend == "interp":
        os.environ["TRITON_INTERPRET"] = "1"
    ops = args.ops
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.child:
        return run_child(args, ops, out)
    log(f"{len(ops)} operators x {args.runs} runs, scale {current_scale(args.backend)}, -> {out}")
    failed = run_parent(args, ops, out)
    log(f"done: {failed} operator-run(s) failed to measure")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
