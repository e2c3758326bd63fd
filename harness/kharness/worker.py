"""The worker: the process that imports torch/Triton once, holds the device, and runs user
code for the supervisor (kharness.supervisor). It speaks the same JSON Lines protocol on its
stdin and on a private copy of its original stdout; its fd 1 is redirected to stderr so that
prints from user code can never corrupt the protocol stream.

It may die (segfault, OOM kill, CPU limit) or be killed (timeout): the supervisor restarts it
and replays the last `load`."""
from __future__ import annotations

import argparse
import faulthandler
import functools
import json
import os
import sys
import time
import traceback
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from . import backend as bk
from . import rlimits
from .protocol import HarnessError, encode, error, int_field, ok
from .structural_survey import structural_module, structural_survey, tma_refusal

if TYPE_CHECKING:
    from .cases import CaseSet
    from .judge import Tolerances
    from .precompile import CompilePool

_T = TypeVar("_T")

PROGRESS_PREFIX = "\x1ekopt-progress "


# The harness's own log stream: stderr until main() hands fds 1 and 2 to the capture of
# user output (kout.KernelOutput), then a private copy of the original stderr.
_LOG = sys.stderr


def progress(text: str) -> None:
    _LOG.write(f"{PROGRESS_PREFIX}{text}\n")
    _LOG.flush()


def log(text: str) -> None:
    _LOG.write(f"kopt-harness[worker {os.getpid()}]: {text}\n")
    _LOG.flush()


# Device memory the inputs of a problem's cases may keep between requests (per backend).
# validate's `phases_s`: inputs (made or copied on the device), the candidate's forward, the
# alias and mutation checks, the reference and its float64 evaluations, the judge; device
# work is counted in the phase that waits for it (each forward synchronises)
VALIDATE_PHASES = ("inputs", "candidate", "checks", "reference", "judge")
CASE_CACHE_MAX_BYTES = {"cuda": 24 << 30, "ascend": 8 << 30, "interp": 1 << 30}


class Problem:
    """The loaded problem (attributes set by Worker.op_load)."""

    jobdir: str
    case_cache: dict[int, Any]                          # case index -> device inputs
    ref_cache: dict[int, tuple[Any, _Evaluations]]      # case index -> reference outputs
    case_cache_bytes: int
    seed: int
    tol: Tolerances
    tunables: dict[str, Any]
    module_names: list[str]
    kernel_src: str
    ref_src: str | None
    has_reference: bool
    kernel_path: str
    ref_path: str | None
    kernel_mod: ModuleType
    ref_mod: ModuleType | None
    cases: CaseSet
    init_inputs: list[Any]
    correctness: list[int]
    bench: list[int]
    static: dict[str, Any]
    kernel_model: Any
    ref_model: Any
    ref64_model: Any
    mag_model: Any
    launches: list[dict[str, Any]]
    probe_case: int
    runtime_check: dict[str, Any]
    golden: dict[int, Any] | None
    updated: list[int]                                  # inputs the reference updates in place (kharness/inplace.py)


class Worker:
    def __init__(self, backend: str, root: str | None) -> None:
        import torch

        from . import guard, launches
        self.torch = torch
        self.backend = backend
        self.root = root
        self.device = bk.device_for(backend)
        self.problem: Problem | None = None
        self.poisoned = False
        self._peak_bw: float | None = None
        self._compile_pool: CompilePool | None = None
        from .timing import Timer
        self.timer = Timer(backend)
        launches.install()
        guard.install()
        if backend == "interp":
            from .opns import install_interpreter_wrap_triton
            install_interpreter_wrap_triton()
        self._set_roots()

    # ------------------------------------------------------------------ helpers
    def _set_roots(self, extra: tuple[str, ...] = ()) -> None:
        from . import guard
        roots = [self.root, os.environ.get("TMPDIR"), os.environ.get("TRITON_CACHE_DIR"),
                 os.environ.get("TRITON_DUMP_DIR"), os.environ.get("TRITON_OVERRIDE_DIR")]
        guard.set_roots([r for r in list(roots) + list(extra) if r])

    def _need_problem(self) -> Problem:
        if self.problem is None:
            raise HarnessError("not-loaded", "no problem is loaded: send `load` first")
        return self.problem

    def _user_dirs(self) -> list[str]:
        """Where user code lives: the job's directory, else the harness's root (none when it
        has neither: then no frame is the user's)."""
        d = self.problem.jobdir if self.problem else self.root
        return [d] if d else []

    def _resolve_workdir(self, wd: Any) -> str:
        if wd is None or wd == "":
            wd = "job"
        if not isinstance(wd, str):
            raise HarnessError("bad-request", "workdir must be a string")
        if self.root is None:
            if not os.path.isabs(wd):
                raise HarnessError("bad-request", "workdir must be absolute when the harness has no --workdir")
            path = os.path.realpath(wd)
            self.root = path
            self._set_roots()
        else:
            path = os.path.realpath(os.path.join(self.root, wd))
            if not (path == self.root or path.startswith(self.root + os.sep)):
                raise HarnessError("bad-request", f"workdir {wd!r} is outside the harness work directory {self.root}")
        os.makedirs(path, exist_ok=True)
        return path

    def _fail(self, e: Exception, what_kind: str | None = None) -> Exception:
        from .usercode import UserCodeFailure
        if isinstance(e, UserCodeFailure):
            if e.kind == "device-fault":
                self.poisoned = True
            return HarnessError(e.kind if e.kind != "exception" else (what_kind or "kernel-error"), e.message)
        return e

    def _import_kernel(self, source: str | None, who: str) -> tuple[ModuleType, str, str]:
        """Module for `source` (None: the loaded initial kernel)."""
        from .usercode import import_module, write_source
        p = self._need_problem()
        if source is None:
            return p.kernel_mod, p.kernel_src, p.kernel_path
        if source == p.kernel_src:
            return p.kernel_mod, p.kernel_src, p.kernel_path
        path, h = write_source(os.path.join(p.jobdir, "candidates"), "cand", source)
        name = f"kopt_cand_{h}"
        if name in sys.modules and getattr(sys.modules[name], "__file__", None) == path:
            return sys.modules[name], source, path
        return import_module(path, name, who, self._user_dirs()), source, path

    def _tunables(self, req: dict[str, Any], key: str = "tunables") -> dict[str, Any]:
        t = req.get(key)
        if t is None:
            return dict(self.problem.tunables) if self.problem else {}
        if not isinstance(t, dict) or not all(isinstance(k, str) and k.isidentifier() for k in t):
            raise HarnessError("bad-request", f"{key} must be an object of identifier -> value")
        return t

    def _device_inputs(self, i: int, dtype64: bool = False) -> list[Any]:
        """Fresh inputs of case i on the device (a private copy each call). The case's
        tensors are generated once per problem and kept on the device up to
        CASE_CACHE_MAX_BYTES: generating large random inputs on the CPU and copying them
        over is what made each validation take seconds; a device-side clone takes
        milliseconds."""
        from .cases import clone_tree, to_device
        from .correctness import storages
        p = cast(Problem, self.problem)
        base = p.case_cache.get(i)
        if base is None:
            base = to_device(p.cases.inputs(i), self.device)
            nbytes = sum(b1 - b0 for (b0, b1, _) in storages(base))
            if p.case_cache_bytes + nbytes > CASE_CACHE_MAX_BYTES.get(self.backend, 0):
                return to_device(base, self.device, dtype64=dtype64)   # too big to keep: use it once
            p.case_cache[i] = base
            p.case_cache_bytes += nbytes
        return to_device(clone_tree(base), self.device, dtype64=dtype64)

    # ------------------------------------------------------------------ ops
    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        op: Any = req.get("op")
        rid = req.get("id")
        t0 = time.time()
        try:
            fn = getattr(self, "op_" + op, None)
            if fn is None:
                raise HarnessError("unknown-op", f"unknown op {op!r}")
            res = fn(req)
            if isinstance(res, dict):
                res.setdefault("elapsed_s", round(time.time() - t0, 3))
            resp = ok(rid, res)
        except HarnessError as e:
            resp = error(rid, e.kind, e.message, **e.extra)
        except Exception as e:  # noqa: BLE001 - a harness bug or user code escaping run_user: answered as internal
            from .usercode import UserCodeFailure
            if isinstance(e, UserCodeFailure):
                e2 = cast(HarnessError, self._fail(e))   # a UserCodeFailure becomes a HarnessError
                resp = error(rid, e2.kind, e2.message)
            else:
                log("internal error:\n" + traceback.format_exc())
                resp = error(rid, "internal", f"harness internal error in {op}: {type(e).__name__}: {e}")
        if self.poisoned:
            resp.setdefault("error" if not resp["ok"] else "result", {})
            if resp["ok"]:
                resp["result"]["worker_restarting"] = True
            else:
                resp["error"]["worker_restarting"] = True
        return resp

    def op_hello(self, req: dict[str, Any]) -> dict[str, Any]:
        env = bk.environment(self.backend)
        env["pid"] = os.getpid()
        env["workdir"] = self.root
        env["loaded"] = self.problem is not None
        return env

    def op_shutdown(self, req: dict[str, Any]) -> dict[str, Any]:
        return {"bye": True}

    def op_load(self, req: dict[str, Any]) -> dict[str, Any]:
        from . import launches
        from .cases import (
            CaseSet,
            case_seed,
            describe_value,
            parse_jsonl_cases,
            sample_indices,
        )
        from .judge import Tolerances
        from .static_check import check_source
        from .usercode import (
            UserCodeFailure,
            build_model,
            call_forward,
            forget_module,
            import_module,
            run_user,
            write_source,
        )
        ksrc = req.get("kernel_source")
        if not isinstance(ksrc, str) or not ksrc.strip():
            raise HarnessError("bad-request", "load needs kernel_source (a Python module with class ModelNew)")
        rsrc = req.get("reference_source")
        seed = int_field(req, "seed", 0, 0, 2 ** 31 - 1)
        nbench = int_field(req, "benchmark_cases", 5, 1, 1024)
        ncorr = req.get("correctness_cases", "all")
        if ncorr is None:
            ncorr = "all"
        if not (ncorr == "all" or (isinstance(ncorr, int) and not isinstance(ncorr, bool) and 1 <= ncorr <= 1024)):
            raise HarnessError("bad-request", 'correctness_cases must be "all" or an integer in [1, 1024]')
        try:
            tol = Tolerances.parse(req.get("tolerances"))
        except (TypeError, ValueError) as e:
            raise HarnessError("bad-request", str(e))
        cases = req.get("cases")
        if cases is None and isinstance(req.get("cases_jsonl"), str):
            cases = parse_jsonl_cases(req["cases_jsonl"])
        tunables = req.get("tunables") or {}
        if not isinstance(tunables, dict):
            raise HarnessError("bad-request", "tunables must be an object")

        # forget the previous problem
        if self.problem is not None:
            for n in self.problem.module_names:
                forget_module(n)
            self.problem = None

        jobdir = self._resolve_workdir(req.get("workdir"))
        p = Problem()
        p.jobdir = jobdir
        p.case_cache = {}
        p.ref_cache = {}
        p.case_cache_bytes = 0
        p.seed = seed
        p.tol = tol
        p.tunables = tunables
        p.module_names = []
        p.kernel_src = ksrc
        p.ref_src = rsrc
        p.has_reference = bool(rsrc)
        udirs = [jobdir]
        pdir = os.path.join(jobdir, "problem")
        try:
            p.kernel_path, kh = write_source(pdir, "kernel", ksrc)
            p.ref_path = None
            p.ref_mod = None
            if rsrc:
                p.ref_path, rh = write_source(pdir, "ref", rsrc)
                p.ref_mod = import_module(p.ref_path, f"kopt_ref_{rh}", "reference", udirs, variant=False)
                p.module_names.append(f"kopt_ref_{rh}")
            p.kernel_mod = import_module(p.kernel_path, f"kopt_kernel_{kh}", "initial kernel", udirs)
            p.module_names.append(f"kopt_kernel_{kh}")
            src_mod = p.ref_mod if p.ref_mod is not None else p.kernel_mod
            p.cases = run_user("building the cases", lambda: CaseSet.build(src_mod, cases, seed, ncorr), udirs,
                               verb="failed")
            init = []
            if hasattr(src_mod, "get_init_inputs"):
                init = run_user("get_init_inputs()", lambda: list(src_mod.get_init_inputs()), udirs, verb="failed")
            p.init_inputs = init
            p.correctness = sample_indices(p.cases.count, ncorr if p.cases.form != "kernelbench" else "all",
                                           seed, salt=1_000_001)
            p.bench = sample_indices(p.cases.count, nbench, seed, salt=1_000_003)
            self.problem = p
            p.static = check_source(ksrc, filename=p.kernel_path)
            p.kernel_model = build_model(p.kernel_mod, "ModelNew", init, tunables, self.device, seed, udirs,
                                         "initial kernel")
            p.ref_model = None
            p.ref64_model = None
            p.mag_model = None
            p.updated = []
            if p.ref_mod is not None:
                p.ref_model = build_model(p.ref_mod, "Model", init, {}, self.device, seed, udirs, "reference")
                p.updated = self._updated_by_reference(p.bench[0], udirs)
            # probe run of the initial kernel on the first benchmark case: records launches
            from .static_check import RuntimeTrace
            first = p.bench[0]
            progress(f"load probe case {first}")
            inputs = self._device_inputs(first)
            with launches.recording() as recs, RuntimeTrace(tuple(udirs)) as trace:
                run_user(f"initial kernel on case {first}",
                         functools.partial(_forward_synced, p.kernel_model, inputs, self.backend), udirs)
            p.launches = launches.summarize(recs)
            p.probe_case = first
            p.runtime_check = {"ok": not trace.violations and bool(recs), "violations": trace.violations,
                               "warnings": trace.warnings, "kernels_launched": len(recs)}
            if not recs:
                p.runtime_check["violations"].append({"op": None, "where": None,
                                                      "reason": "forward launched no Triton kernel"})
            # golden outputs when there is no reference
            p.golden = None
            if not p.has_reference:
                p.golden = {}
                for i in p.correctness:
                    progress(f"load golden case {i}")
                    inp = self._device_inputs(i)
                    out = run_user(f"initial kernel on case {i}", functools.partial(call_forward, p.kernel_model, inp), udirs)
                    p.golden[i] = _to_cpu(out)
        except UserCodeFailure as e:
            self.problem = None
            if e.kind == "device-fault":
                self.poisoned = True
            raise HarnessError("load-failed" if e.kind == "exception" else e.kind, e.message)
        except HarnessError:
            self.problem = None
            raise
        if self.backend == "cuda":
            why = self.compile_pool().warm()      # ready before the first sweep
            if why:
                log(why)
        static = dict(p.static)
        static["runtime"] = p.runtime_check
        static["ok"] = bool(p.static["ok"] and p.runtime_check["ok"])
        return {
            "workdir": jobdir, "files": {"kernel": p.kernel_path, "reference": p.ref_path},
            "form": p.cases.form, "cases": p.cases.count,
            "correctness_cases": p.correctness, "benchmark_cases": p.bench,
            "seed": seed, "case_seeds": {str(i): case_seed(seed, i) for i in p.bench},
            "has_reference": p.has_reference, "updated_inputs": p.updated,
            "golden": "reference" if p.has_reference else "initial kernel outputs (computed at load)",
            "tolerances": tol.to_json(), "static_check": static, "kernels": p.launches,
            "probe_case": p.probe_case, "inputs_of_probe_case": [describe_value(v) for v in inputs],
            "backend": self.backend, "device": str(self.device),
        }

    # ------------------------------------------------------------------ validate
    def op_validate(self, req: dict[str, Any], built: tuple[Any, Any] | None = None) -> dict[str, Any]:
        """The `validate` op. `built` (the sweep's screen, not the protocol): the candidate's
        module and model, imported and constructed already from req's source and tunables, so
        that a model of a large layer is not constructed twice per candidate (linear_bias's
        nn.Linear 4096 -> 14336 took 0.3 s to construct on the development host; its screen
        phase, which constructed each of 32 candidates again, took 15-23 s a round on the H200)."""
        from . import launches
        from .cases import clone_tree
        from .correctness import flatten_outputs, inputs_mutated, overlaps, storages
        from .inplace import result_names, with_updated
        from .judge import judge_outputs
        from .static_check import RuntimeTrace, check_source
        from .usercode import UserCodeFailure, build_model, run_user
        p = self._need_problem()
        csrc = req.get("candidate_source")
        who = "candidate" if csrc is not None and csrc != p.kernel_src else "initial kernel"
        udirs = self._user_dirs()
        res: dict[str, Any] = {"who": who, "passed": False, "failure": None, "cases": [], "backend": self.backend}
        # static check first
        static = check_source(csrc if csrc is not None else p.kernel_src)
        res["static_check"] = static
        if not static["ok"]:
            v = static["violations"][0]
            more = f" (and {len(static['violations']) - 1} more)" if len(static["violations"]) > 1 else ""
            res["failure"] = {"kind": "static-check", "case": None,
                              "message": f"{who} rejected by the static check: line {v['line']}: "
                                         f"{v['code'] + ': ' if v['code'] else ''}{v['reason']}{more}"}
            return res
        try:
            if built is not None:
                mod, model = built
            else:
                mod, _src, _path = self._import_kernel(csrc, who)
                model = p.kernel_model if mod is p.kernel_mod and not req.get("tunables") else build_model(
                    mod, "ModelNew", p.init_inputs, self._tunables(req), self.device, p.seed, udirs, who)
        except UserCodeFailure as e:
            if e.kind == "device-fault":
                self.poisoned = True
            res["failure"] = {"kind": e.kind if e.kind != "exception" else "import-error", "case": None,
                              "message": e.message}
            return res
        cases = req.get("cases")
        if cases is None:
            cases = p.correctness
        if not isinstance(cases, list) or not all(isinstance(i, int) for i in cases):
            raise HarnessError("bad-request", "cases must be a list of case indices")
        trace = RuntimeTrace(tuple(udirs))
        per_output: dict[int, dict] = {}
        unavailable = None
        all_recs = []
        # seconds per phase over all cases: where a validation's time goes (on the H200 a
        # baseline's validation took 1-32 s, against 0.3 s for its timing)
        phases = dict.fromkeys(VALIDATE_PHASES, 0.0)
        mark = time.perf_counter()

        def lap(phase: str) -> None:
            nonlocal mark
            now = time.perf_counter()
            phases[phase] += now - mark
            mark = now

        res["phases_s"] = phases
        for i in cases:
            progress(f"validate case {i} {who}")
            entry = {"case": i, "passed": False}
            res["cases"].append(entry)
            cin = self._device_inputs(i)
            pristine = clone_tree(cin)
            lap("inputs")
            # 1. candidate first
            try:
                with launches.recording() as recs, trace:
                    out_c = run_user(f"{who} on case {i}", functools.partial(_forward_synced, model, cin, self.backend),
                                     udirs)
                all_recs.extend(recs)
                lap("candidate")
            except UserCodeFailure as e:
                if e.kind == "device-fault":
                    self.poisoned = True
                kind = {"exception": "exception"}.get(e.kind, e.kind)
                res["failure"] = {"kind": kind, "case": i, "message": e.message}
                entry["error"] = e.message
                break
            if trace.violations or not recs:
                v = trace.violations[0] if trace.violations else {"op": None, "where": None,
                                                                  "reason": "forward launched no Triton kernel"}
                res["failure"] = {"kind": "static-check", "case": i,
                                  "message": f"{who} rejected by the static check (runtime trace on case {i}): "
                                             f"{v['reason']}" + (f" at {v['where']}" if v.get("where") else "")}
                break
            leaves_c = flatten_outputs(with_updated(out_c, cin, p.updated))
            names = result_names(out_c, cin, p.updated)
            # an output may be an input the reference updates in place (returned after the update)
            in_ranges = storages([x for k, x in enumerate(cin) if k not in p.updated])
            alias_k = next((k for k, t in enumerate(leaves_c) if overlaps(t, in_ranges)), None)
            if alias_k is not None:
                res["failure"] = {"kind": "aliased-output", "case": i,
                                  "message": f"{who} output {alias_k} on case {i} shares memory with an input; "
                                             f"outputs must be freshly allocated tensors"}
                break
            mut = inputs_mutated(cin, pristine, skip=p.updated)
            if mut is not None:
                k, body = mut
                allowed = (f"the reference updates only input(s) {', '.join(map(str, p.updated))} in place"
                           if p.updated else "kernels must not write to their inputs")
                res["failure"] = {"kind": "mutated-input", "case": i,
                                  "message": f"{who} mutated input {k} on case {i}: {body}; {allowed}"}
                break
            lap("checks")
            # 2. the reference (after the candidate) and its float64 evaluations
            if p.has_reference:
                out_g, extra = self._reference_outputs(i, udirs)
                if extra.note and not unavailable:
                    unavailable = extra.note
            else:
                golden = cast("dict[int, Any]", p.golden)     # set at load when there is no reference
                out_g = _to_device_tree(golden[i], self.device) if i in golden else None
                if out_g is None:
                    raise HarnessError("bad-request", f"case {i} has no golden output (not a correctness case)")
                extra = _Evaluations(note="no reference: the initial kernel's outputs are the golden",
                                     truth_name="initial kernel outputs (no reference)")
                unavailable = extra.note
            leaves_g = flatten_outputs(out_g)
            lap("reference")
            # 3. outputs must not alias the reference's outputs either
            g_ranges = storages(out_g)
            alias_k = next((k for k, t in enumerate(leaves_c) if overlaps(t, g_ranges)), None)
            if alias_k is not None:
                res["failure"] = {"kind": "aliased-output", "case": i,
                                  "message": f"{who} output {alias_k} on case {i} shares memory with the reference's "
                                             f"output; outputs must be freshly written"}
                break
            if len(leaves_c) != len(leaves_g):
                res["failure"] = {"kind": "wrong-result", "case": i,
                                  "message": f"{who} wrong on case {i}: {len(leaves_c)} outputs, expected {len(leaves_g)}"}
                break
            problem = None
            outs = judge_outputs(leaves_c, leaves_g, [extra.truth(k, g) for k, g in enumerate(leaves_g)], p.tol)
            for k, d in enumerate(outs):
                d["output"] = k
                _summarize_output(per_output, k, i, d)
                if not d["passed"] and problem is None:
                    problem = f"{who} wrong on case {i}: {names[k]} {d['problem']}"
            entry["outputs"] = outs
            lap("judge")
            if problem:
                res["failure"] = {"kind": "wrong-result", "case": i, "message": problem}
                break
            entry["passed"] = True
            del cin, pristine, out_c, out_g
        for phase in VALIDATE_PHASES:
            phases[phase] = round(phases[phase], 3)
        res["runtime_check"] = {"violations": trace.violations, "warnings": trace.warnings, "calls": trace.calls}
        res["kernels"] = launches.summarize(all_recs)
        res["summary"] = {"error_units": max((o["error_units"] for o in per_output.values()
                                              if o["error_units"] is not None), default=None),
                          "reference_error_units": max((o["reference_error_units"] for o in per_output.values()
                                                        if o["reference_error_units"] is not None), default=None),
                          "outputs": [per_output[k] for k in sorted(per_output)],
                          "float64_unavailable": unavailable}
        res["cases_checked"] = len(res["cases"])
        res["passed"] = res["failure"] is None and all(c["passed"] for c in res["cases"])
        return res

    def _updated_by_reference(self, case: int, udirs: list[str]) -> list[int]:
        """The inputs the reference changes on a private copy of the case's (kharness/inplace.py).
        A reference that fails here fails again, reported, when validation runs it; a device
        fault is fatal at once."""
        from .cases import clone_tree
        from .inplace import updated_inputs
        from .usercode import UserCodeFailure, run_user
        p = cast(Problem, self.problem)
        inputs = self._device_inputs(case)
        pristine = clone_tree(inputs)
        try:
            run_user(f"reference on case {case}", functools.partial(_forward_synced, p.ref_model, inputs, self.backend),
                     udirs)
        except UserCodeFailure as e:
            if e.kind == "device-fault":
                raise
            return []
        return updated_inputs(inputs, pristine)

    def _reference_outputs(self, i: int, udirs: list[str]) -> tuple[Any, _Evaluations]:
        """(outputs, evaluations) of the reference on case i: its outputs in its own dtypes,
        then in float64 on the upcast inputs, and in float64 on |inputs| and on 2|inputs|
        with |parameters| (the magnitudes of the judge's budget, kharness/judge.py). They
        depend only on the case, so they are computed once per problem and kept (up to
        CASE_CACHE_MAX_BYTES with the inputs): a sweep screens dozens of candidates on one
        case."""
        from .correctness import storages
        p = cast(Problem, self.problem)
        hit = p.ref_cache.get(i)
        if hit is not None:
            return hit
        out = self._reference_outputs_uncached(i, udirs)
        ev = out[1]
        nbytes = sum(b1 - b0 for leaves in ([out[0]], ev.float64, ev.magnitude, ev.magnitude2) if leaves
                     for (b0, b1, _) in storages(leaves))
        if p.case_cache_bytes + nbytes <= CASE_CACHE_MAX_BYTES.get(self.backend, 0):
            p.ref_cache[i] = out
            p.case_cache_bytes += nbytes
        return out

    def _reference_outputs_uncached(self, i: int, udirs: list[str]) -> tuple[Any, _Evaluations]:
        from .cases import map_float_tensors
        from .correctness import flatten_outputs
        from .inplace import with_updated
        from .judge import Float64Mode
        from .usercode import UserCodeFailure, build_model, run_user
        p = cast(Problem, self.problem)
        assert p.ref_mod is not None, "reference outputs asked of a problem without a reference"
        torch = self.torch

        def run(model: Any, inputs: Any, what: str) -> Any:
            def go() -> Any:
                if model is p.ref_model:
                    return _forward_synced(model, inputs, self.backend)
                with Float64Mode():
                    return _forward_synced(model, inputs, self.backend)
            return run_user(f"{what} on case {i}", go, udirs)

        def run_judged(model: Any, inputs: Any, what: str) -> Any:
            return with_updated(run(model, inputs, what), inputs, p.updated)

        try:
            out_g = run_judged(p.ref_model, self._device_inputs(i), "reference")
        except UserCodeFailure as e:
            raise HarnessError("reference-error", e.message)
        ev = _Evaluations()
        try:
            if p.ref64_model is None:
                p.ref64_model = build_model(p.ref_mod, "Model", p.init_inputs, {}, self.device, p.seed, udirs,
                                            "reference (float64)", dtype=torch.float64)
            ev.float64 = flatten_outputs(run_judged(p.ref64_model, self._device_inputs(i, dtype64=True),
                                                    "float64 reference"))
        except UserCodeFailure as e:
            ev.note = f"the float64 reference failed: {e.message}"
            ev.truth_name = "reference in its own dtype (its float64 evaluation failed)"
            return out_g, ev
        try:
            if p.mag_model is None:
                p.mag_model = build_model(p.ref_mod, "Model", p.init_inputs, {}, self.device, p.seed, udirs,
                                          "reference (float64, |parameters|)", dtype=torch.float64)
                _abs_parameters(p.mag_model)
            for scale, attr in ((1.0, "magnitude"), (2.0, "magnitude2")):
                inputs = map_float_tensors(self._device_inputs(i, dtype64=True), lambda t, s=scale: t.abs() * s)
                setattr(ev, attr, flatten_outputs(run_judged(p.mag_model, inputs, "float64 reference on |inputs|")))
        except UserCodeFailure as e:
            ev.magnitude = ev.magnitude2 = None
            ev.mag_note = f"the float64 reference on |inputs| failed: {e.message}"
        return out_g, ev

    # ------------------------------------------------------------------ bench / compare (kharness.measure)
    def op_bench(self, req: dict[str, Any]) -> dict[str, Any]:
        from .measure import bench
        return bench(self, req)

    def op_compare(self, req: dict[str, Any]) -> dict[str, Any]:
        from .measure import compare
        return compare(self, req)

    # ------------------------------------------------------------------ compile / profile
    def probe_launches(self, mod: ModuleType, who: str, req: dict[str, Any]) -> tuple[list[dict[str, Any]], int]:
        """(launch summary, case) of one forward of `mod`'s ModelNew on the first benchmark case."""
        from . import launches
        from .usercode import UserCodeFailure, build_model, run_user
        p = cast(Problem, self.problem)
        if mod is p.kernel_mod and not req.get("tunables"):
            return p.launches, p.probe_case
        case = p.bench[0]
        udirs = self._user_dirs()
        try:
            model = build_model(mod, "ModelNew", p.init_inputs, self._tunables(req), self.device, p.seed, udirs, who)
            inputs = self._device_inputs(case)
            with launches.recording() as recs:
                run_user(f"{who} on case {case}", functools.partial(_forward_synced, model, inputs, self.backend), udirs)
        except UserCodeFailure as e:
            raise self._fail(e)
        return launches.summarize(recs), case

    def op_sweep(self, req: dict[str, Any]) -> dict[str, Any]:
        from .sweep import sweep_op
        return sweep_op(self, req)

    def compile_pool(self) -> CompilePool:
        """The process pool that compiles sweep candidates in parallel (started lazily, kept
        for this worker's life)."""
        if self._compile_pool is None:
            from .precompile import CompilePool
            self._compile_pool = CompilePool()
        return self._compile_pool

    # ------------------------------------------------------------------ knobs / rewrite
    def _source_launches(self, src: str | None, req: dict[str, Any]) -> tuple[str, list[dict[str, Any]], int]:
        """(source, launch summary, case) of `src` (None: the loaded kernel); the launches of a
        source other than the loaded kernel are recorded on one forward of the first benchmark case."""
        from .usercode import UserCodeFailure
        p = self._need_problem()
        if src is not None and (not isinstance(src, str) or not src.strip()):
            raise HarnessError("bad-request", "source must be a non-empty string (a Python module with class ModelNew)")
        who = "candidate" if src is not None and src != p.kernel_src else "initial kernel"
        try:
            mod, src, _ = self._import_kernel(src, who)
        except UserCodeFailure as e:
            raise self._fail(e)
        launches_, case = self.probe_launches(mod, who, req)
        return src, launches_, case

    def op_knobs(self, req: dict[str, Any]) -> dict[str, Any]:
        from .knobs import discover
        from .srcedit import RewriteRefused
        declared = _declared(req)
        src, recs, case = self._source_launches(req.get("source"), req)
        try:
            d = discover(src, recs, self._tunables(req), declared)
        except RewriteRefused as e:
            raise HarnessError("rewrite-refused", str(e))
        res = d.to_json()
        res["structural"] = structural_survey(src, recs, tma_refusal(self.backend, self.device), self.backend)
        res["probe_case"] = case
        return res

    def op_rewrite(self, req: dict[str, Any]) -> dict[str, Any]:
        from .knobs import discover
        from .rewrite import apply_changes
        from .srcedit import RewriteRefused, check_parses
        changes = req.get("changes")
        structural = req.get("structural")
        if changes is None and structural is None:
            raise HarnessError("bad-request", "rewrite needs changes ({knob id: value}) and/or structural "
                                              "({name, params})")
        if structural is not None and (not isinstance(structural, dict) or not isinstance(structural.get("name"), str)
                                       or not isinstance(structural.get("params", {}), dict)):
            raise HarnessError("bad-request", "structural must be an object {name: string, params: object}")
        declared = _declared(req)
        src, recs, _ = self._source_launches(req.get("source"), req)
        tunables = self._tunables(req)
        res = {"source": src, "tunables": dict(tunables), "applied": []}
        try:
            if structural is not None:
                mod = structural_module()
                if mod is None:
                    raise RewriteRefused("structural rewrites are not available in this harness "
                                         "(the package kharness.structural is not installed)")
                name, params = structural["name"], structural.get("params") or {}
                src = mod.apply(src, name, params, recs)
                check_parses(src, f"structural rewrite {name}")
                res["source"] = src
                res["structural"] = {"name": name, "params": params}
                if changes:
                    src, recs, _ = self._source_launches(src, req)
            if changes:
                r = apply_changes(src, discover(src, recs, tunables, declared), changes)
                res.update(r.to_json())
        except RewriteRefused as e:
            raise HarnessError("rewrite-refused", str(e))
        return res

    def op_compile(self, req: dict[str, Any]) -> dict[str, Any]:
        from .compile import compile_op
        return compile_op(self, req)

    def op_profile(self, req: dict[str, Any]) -> dict[str, Any]:
        from .profile import profile_op
        return profile_op(self, req)


def _declared(req: dict[str, Any]) -> dict[str, list[int]]:
    from .knobs import check_declared
    try:
        return check_declared(req.get("declared") or {})
    except (TypeError, ValueError) as e:
        raise HarnessError("bad-request", str(e))


@dataclass
class _Evaluations:
    """The reference's float64 evaluations on one case (output leaves), for the judge."""

    float64: list | None = None
    magnitude: list | None = None
    magnitude2: list | None = None
    truth_name: str = "float64 reference"
    note: str | None = None         # why there is no float64 truth
    mag_note: str | None = None     # why there are no magnitudes

    def truth(self, k: int, g: Any) -> Any:
        """The judge's Truth for output leaf k (g: the reference's or golden leaf)."""
        from .judge import Truth

        def leaf(v: list | None) -> Any:
            return v[k] if v is not None and k < len(v) else None

        return Truth(reference=g, float64=leaf(self.float64), magnitude=leaf(self.magnitude),
                     magnitude2=leaf(self.magnitude2), truth_name=self.truth_name,
                     note=self.mag_note or self.note)


def _abs_parameters(model: Any) -> None:
    """|.| of every floating parameter and buffer of an nn.Module, in place."""
    import torch
    if isinstance(model, torch.nn.Module):
        with torch.no_grad():
            for t in list(model.parameters()) + list(model.buffers()):
                if t.is_floating_point() or t.is_complex():
                    t.copy_(t.abs().to(t.dtype))


def _summarize_output(per_output: dict[int, dict], k: int, case: int, d: dict) -> None:
    """Fold output k's record on one case into the validate summary (worst over cases)."""
    o = per_output.setdefault(k, {"output": k, "error_units": None, "worst_case": None, "max_abs_err": None,
                                  "worst": None, "reference_error_units": None, "reference_max_abs_err": None,
                                  "magnitude": None, "absolute_scale": 1.0, "relative_scale": 1.0, "passed": True})
    o["passed"] = o["passed"] and bool(d["passed"])
    eu = d.get("error_units")
    if eu is not None and (o["error_units"] is None or eu > o["error_units"]):
        o.update(error_units=eu, worst_case=case, max_abs_err=d.get("max_abs_err"), worst=d.get("worst"))
    ru = d.get("reference_error_units")
    if ru is not None and (o["reference_error_units"] is None or ru > o["reference_error_units"]):
        o.update(reference_error_units=ru, reference_max_abs_err=d.get("reference_max_abs_err"))
    b = d.get("budget")
    if b:
        o["magnitude"] = b["magnitude"]
        o["absolute_scale"] = max(o["absolute_scale"], b["absolute_scale"])
        o["relative_scale"] = max(o["relative_scale"], b["relative_scale"])


def _sync_ret(x: _T, backend: str) -> _T:
    bk.sync(backend)
    return x


def _forward_synced(model: Any, inputs: Any, backend: str) -> Any:
    """model's forward on inputs, the device synchronized before it returns (a kernel's
    asynchronous fault then surfaces inside run_user, attributed to it)."""
    from .usercode import call_forward
    return _sync_ret(call_forward(model, inputs), backend)


def _to_cpu(v: Any) -> Any:
    import torch
    if isinstance(v, torch.Tensor):
        return v.detach().to("cpu", copy=True)
    if isinstance(v, (list, tuple)):
        return type(v)(_to_cpu(x) for x in v)
    if isinstance(v, dict):
        return {k: _to_cpu(x) for k, x in v.items()}
    return v


def _to_device_tree(v: Any, device: Any) -> Any:
    import torch
    if isinstance(v, torch.Tensor):
        return v.to(device, copy=True)
    if isinstance(v, (list, tuple)):
        return type(v)(_to_device_tree(x, device) for x in v)
    if isinstance(v, dict):
        return {k: _to_device_tree(x, device) for k, x in v.items()}
    return v


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--workdir", default=None)
    ap.add_argument(rlimits.ARG, action="append", default=[], type=rlimits.parse_arg)
    args, _ = ap.parse_known_args(argv)
    # first of all, before torch or any user code is imported: the limits the supervisor chose
    for msg in rlimits.apply(args.rlimit):
        log(msg)
    # the protocol stream is a private copy of fd 1; fd 1 itself goes to stderr
    global _LOG
    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    # fds 1 and 2 now belong to user code's output (captured, capped, returned per request
    # as kernel_output); the harness logs on a private copy of stderr.
    from .kout import KernelOutput
    kout = KernelOutput()
    _LOG = kout.log
    faulthandler.enable(file=kout.log, all_threads=True)
    try:
        backend = bk.choose_backend(args.backend)
        root = os.path.realpath(args.workdir) if args.workdir else None
        w = Worker(backend, root)
    except Exception as e:  # noqa: BLE001 - any start-up failure is told to the supervisor
        proto.write(encode({"ready": False, "error": f"{type(e).__name__}: {e}",
                            "traceback": traceback.format_exc()[-4000:]}))
        proto.flush()
        return 2
    proto.write(encode({"ready": True, "pid": os.getpid(), "backend": backend}))
    proto.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            continue
        resp = w.handle(req)
        said = kout.take()
        if said:
            resp["kernel_output"] = said
        proto.write(encode(resp))
        proto.flush()
        if req.get("op") == "shutdown":
            return 0
        if w.poisoned:
            log("device context is unusable after a device fault; exiting so that the supervisor restarts me")
            return 3
    return 0
