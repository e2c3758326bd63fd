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
    from .validate import Evaluations

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
CASE_CACHE_MAX_BYTES = {"cuda": 24 << 30, "ascend": 8 << 30, "interp": 1 << 30}


class Problem:
    """The loaded problem (attributes set by Worker.op_load)."""

    jobdir: str
    case_cache: dict[int, Any]                          # case index -> device inputs
    ref_cache: dict[int, tuple[Any, Evaluations]]       # case index -> reference outputs (kharness.validate)
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
        from .validate import updated_by_reference
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
                p.updated = updated_by_reference(self, p.bench[0], udirs)
            # probe run of the initial kernel on the first benchmark case: records launches
            from .static_check import RuntimeTrace
            first = p.bench[0]
            progress(f"load probe case {first}")
            inputs = self._device_inputs(first)
            with launches.recording() as recs, RuntimeTrace(tuple(udirs)) as trace:
                run_user(f"initial kernel on case {first}",
                         functools.partial(forward_synced, p.kernel_model, inputs, self.backend), udirs)
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

    # ------------------------------------------------------------------ validate (kharness.validate)
    def op_validate(self, req: dict[str, Any], built: tuple[Any, Any] | None = None) -> dict[str, Any]:
        from .validate import validate_op
        return validate_op(self, req, built)

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
                run_user(f"{who} on case {case}", functools.partial(forward_synced, model, inputs, self.backend), udirs)
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


def _sync_ret(x: _T, backend: str) -> _T:
    bk.sync(backend)
    return x


def forward_synced(model: Any, inputs: Any, backend: str) -> Any:
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
