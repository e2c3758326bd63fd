"""The worker's `validate` request (kharness.worker): a candidate (or the initial kernel) run
on the correctness cases, checked for aliasing and mutated inputs, and judged against the
reference (kharness.judge) in its float64 evaluations; plus the reference's side of it: its
outputs per case (cached with the case's inputs) and the inputs it updates in place
(kharness.inplace). The worker owns the loaded problem; these functions own the request
fields and the record shape, as kharness.measure does for timing."""
from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from .protocol import HarnessError
from .worker import CASE_CACHE_MAX_BYTES, forward_synced, progress

if TYPE_CHECKING:
    from .worker import Problem, Worker

# validate's `phases_s`: inputs (made or copied on the device), the candidate's forward, the
# alias and mutation checks, the reference and its float64 evaluations, the judge; device
# work is counted in the phase that waits for it (each forward synchronises)
VALIDATE_PHASES = ("inputs", "candidate", "checks", "reference", "judge")


@dataclass
class Evaluations:
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


@dataclass
class _Run:
    """One validate request's state across its cases."""

    who: str
    model: Any
    udirs: list[str]
    trace: Any                                          # static_check.RuntimeTrace
    res: dict[str, Any]
    per_output: dict[int, dict] = field(default_factory=dict)
    unavailable: str | None = None
    recs: list = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=lambda: dict.fromkeys(VALIDATE_PHASES, 0.0))
    mark: float = field(default_factory=time.perf_counter)

    def lap(self, phase: str) -> None:
        now = time.perf_counter()
        self.phases[phase] += now - self.mark
        self.mark = now


def validate_op(w: Worker, req: dict[str, Any], built: tuple[Any, Any] | None = None) -> dict[str, Any]:
    """The `validate` op. `built` (the sweep's screen, not the protocol): the candidate's
    module and model, imported and constructed already from req's source and tunables, so
    that a model of a large layer is not constructed twice per candidate (linear_bias's
    nn.Linear 4096 -> 14336 took 0.3 s to construct on the development host; its screen
    phase, which constructed each of 32 candidates again, took 15-23 s a round on the H200)."""
    from . import launches
    from .static_check import RuntimeTrace, check_source
    from .usercode import UserCodeFailure, build_model
    p = w._need_problem()
    csrc = req.get("candidate_source")
    who = "candidate" if csrc is not None and csrc != p.kernel_src else "initial kernel"
    udirs = w._user_dirs()
    res: dict[str, Any] = {"who": who, "passed": False, "failure": None, "cases": [], "backend": w.backend}
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
            mod, _src, _path = w._import_kernel(csrc, who)
            model = p.kernel_model if mod is p.kernel_mod and not req.get("tunables") else build_model(
                mod, "ModelNew", p.init_inputs, w._tunables(req), w.device, p.seed, udirs, who)
    except UserCodeFailure as e:
        if e.kind == "device-fault":
            w.poisoned = True
        res["failure"] = {"kind": e.kind if e.kind != "exception" else "import-error", "case": None,
                          "message": e.message}
        return res
    cases = req.get("cases")
    if cases is None:
        cases = p.correctness
    if not isinstance(cases, list) or not all(isinstance(i, int) for i in cases):
        raise HarnessError("bad-request", "cases must be a list of case indices")
    # seconds per phase over all cases: where a validation's time goes (on the H200 a
    # baseline's validation took 1-32 s, against 0.3 s for its timing)
    run = _Run(who=who, model=model, udirs=udirs, trace=RuntimeTrace(tuple(udirs)), res=res)
    res["phases_s"] = run.phases
    for i in cases:
        failure = _one_case(w, p, run, i)
        if failure is not None:
            res["failure"] = failure
            break
    for phase in VALIDATE_PHASES:
        run.phases[phase] = round(run.phases[phase], 3)
    res["runtime_check"] = {"violations": run.trace.violations, "warnings": run.trace.warnings,
                            "calls": run.trace.calls}
    res["kernels"] = launches.summarize(run.recs)
    res["summary"] = _summary(run)
    res["cases_checked"] = len(res["cases"])
    res["passed"] = res["failure"] is None and all(c["passed"] for c in res["cases"])
    return res


def _one_case(w: Worker, p: Problem, run: _Run, i: int) -> dict[str, Any] | None:
    """Case i of a validation: the candidate, its checks, the reference, the judge. Appends
    the case's entry to run.res["cases"]; returns the failure record, None when it passed."""
    from . import launches
    from .cases import clone_tree
    from .correctness import flatten_outputs, inputs_mutated, overlaps, storages
    from .inplace import result_names, with_updated
    from .judge import judge_outputs
    from .usercode import UserCodeFailure, run_user
    who = run.who
    progress(f"validate case {i} {who}")
    entry: dict[str, Any] = {"case": i, "passed": False}
    run.res["cases"].append(entry)
    cin = w._device_inputs(i)
    pristine = clone_tree(cin)
    run.lap("inputs")
    # 1. candidate first
    try:
        with launches.recording() as recs, run.trace:
            out_c = run_user(f"{who} on case {i}", functools.partial(forward_synced, run.model, cin, w.backend),
                             run.udirs)
        run.recs.extend(recs)
        run.lap("candidate")
    except UserCodeFailure as e:
        if e.kind == "device-fault":
            w.poisoned = True
        entry["error"] = e.message
        return {"kind": e.kind, "case": i, "message": e.message}
    if run.trace.violations or not recs:
        v = run.trace.violations[0] if run.trace.violations else {"op": None, "where": None,
                                                                  "reason": "forward launched no Triton kernel"}
        return {"kind": "static-check", "case": i,
                "message": f"{who} rejected by the static check (runtime trace on case {i}): "
                           f"{v['reason']}" + (f" at {v['where']}" if v.get("where") else "")}
    leaves_c = flatten_outputs(with_updated(out_c, cin, p.updated))
    names = result_names(out_c, cin, p.updated)
    # an output may be an input the reference updates in place (returned after the update)
    in_ranges = storages([x for k, x in enumerate(cin) if k not in p.updated])
    alias_k = next((k for k, t in enumerate(leaves_c) if overlaps(t, in_ranges)), None)
    if alias_k is not None:
        return {"kind": "aliased-output", "case": i,
                "message": f"{who} output {alias_k} on case {i} shares memory with an input; "
                           f"outputs must be freshly allocated tensors"}
    mut = inputs_mutated(cin, pristine, skip=p.updated)
    if mut is not None:
        k, body = mut
        allowed = (f"the reference updates only input(s) {', '.join(map(str, p.updated))} in place"
                   if p.updated else "kernels must not write to their inputs")
        return {"kind": "mutated-input", "case": i,
                "message": f"{who} mutated input {k} on case {i}: {body}; {allowed}"}
    run.lap("checks")
    # 2. the reference (after the candidate) and its float64 evaluations
    out_g, extra = _golden(w, p, run, i)
    leaves_g = flatten_outputs(out_g)
    run.lap("reference")
    # 3. outputs must not alias the reference's outputs either
    g_ranges = storages(out_g)
    alias_k = next((k for k, t in enumerate(leaves_c) if overlaps(t, g_ranges)), None)
    if alias_k is not None:
        return {"kind": "aliased-output", "case": i,
                "message": f"{who} output {alias_k} on case {i} shares memory with the reference's "
                           f"output; outputs must be freshly written"}
    if len(leaves_c) != len(leaves_g):
        return {"kind": "wrong-result", "case": i,
                "message": f"{who} wrong on case {i}: {len(leaves_c)} outputs, expected {len(leaves_g)}"}
    problem = None
    outs = judge_outputs(leaves_c, leaves_g, [extra.truth(k, g) for k, g in enumerate(leaves_g)], p.tol)
    for k, d in enumerate(outs):
        d["output"] = k
        _summarize_output(run.per_output, k, i, d)
        if not d["passed"] and problem is None:
            problem = f"{who} wrong on case {i}: {names[k]} {d['problem']}"
    entry["outputs"] = outs
    run.lap("judge")
    if problem:
        return {"kind": "wrong-result", "case": i, "message": problem}
    entry["passed"] = True
    return None


def _golden(w: Worker, p: Problem, run: _Run, i: int) -> tuple[Any, Evaluations]:
    """(outputs to match, evaluations) on case i: the reference's, else the initial kernel's
    outputs recorded at load. Notes on run why a float64 truth is missing."""
    if p.has_reference:
        out_g, extra = reference_outputs(w, i, run.udirs)
        if extra.note and not run.unavailable:
            run.unavailable = extra.note
        return out_g, extra
    golden = cast("dict[int, Any]", p.golden)     # set at load when there is no reference
    out_g = _to_device_tree(golden[i], w.device) if i in golden else None
    if out_g is None:
        raise HarnessError("bad-request", f"case {i} has no golden output (not a correctness case)")
    extra = Evaluations(note="no reference: the initial kernel's outputs are the golden",
                        truth_name="initial kernel outputs (no reference)")
    run.unavailable = extra.note
    return out_g, extra


def _summary(run: _Run) -> dict[str, Any]:
    """validate's `summary`: the worst of each output over the cases checked."""
    outs = [run.per_output[k] for k in sorted(run.per_output)]

    def worst(key: str) -> Any:
        return max((o[key] for o in outs if o[key] is not None), default=None)

    return {"error_units": worst("error_units"), "reference_error_units": worst("reference_error_units"),
            "outputs": outs, "float64_unavailable": run.unavailable}


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


# ---------------------------------------------------------------------- the reference
def updated_by_reference(w: Worker, case: int, udirs: list[str]) -> list[int]:
    """The inputs the reference changes on a private copy of the case's (kharness/inplace.py).
    A reference that fails here fails again, reported, when validation runs it; a device
    fault is fatal at once."""
    from .cases import clone_tree
    from .inplace import updated_inputs
    from .usercode import UserCodeFailure, run_user
    p = cast("Problem", w.problem)
    inputs = w._device_inputs(case)
    pristine = clone_tree(inputs)
    try:
        run_user(f"reference on case {case}", functools.partial(forward_synced, p.ref_model, inputs, w.backend),
                 udirs)
    except UserCodeFailure as e:
        if e.kind == "device-fault":
            raise
        return []
    return updated_inputs(inputs, pristine)


def reference_outputs(w: Worker, i: int, udirs: list[str]) -> tuple[Any, Evaluations]:
    """(outputs, evaluations) of the reference on case i: its outputs in its own dtypes,
    then in float64 on the upcast inputs, and in float64 on |inputs| and on 2|inputs|
    with |parameters| (the magnitudes of the judge's budget, kharness/judge.py). They
    depend only on the case, so they are computed once per problem and kept (up to
    CASE_CACHE_MAX_BYTES with the inputs): a sweep screens dozens of candidates on one
    case."""
    from .correctness import storages
    p = cast("Problem", w.problem)
    hit = p.ref_cache.get(i)
    if hit is not None:
        return hit
    out = _reference_outputs_uncached(w, p, i, udirs)
    ev = out[1]
    nbytes = sum(b1 - b0 for leaves in ([out[0]], ev.float64, ev.magnitude, ev.magnitude2) if leaves
                 for (b0, b1, _) in storages(leaves))
    if p.case_cache_bytes + nbytes <= CASE_CACHE_MAX_BYTES.get(w.backend, 0):
        p.ref_cache[i] = out
        p.case_cache_bytes += nbytes
    return out


def _reference_outputs_uncached(w: Worker, p: Problem, i: int, udirs: list[str]) -> tuple[Any, Evaluations]:
    from .cases import map_float_tensors
    from .correctness import flatten_outputs
    from .inplace import with_updated
    from .judge import Float64Mode
    from .usercode import UserCodeFailure, build_model, run_user
    assert p.ref_mod is not None, "reference outputs asked of a problem without a reference"
    torch = w.torch

    def run(model: Any, inputs: Any, what: str) -> Any:
        def go() -> Any:
            if model is p.ref_model:
                return forward_synced(model, inputs, w.backend)
            with Float64Mode():
                return forward_synced(model, inputs, w.backend)
        return run_user(f"{what} on case {i}", go, udirs)

    def run_judged(model: Any, inputs: Any, what: str) -> Any:
        return with_updated(run(model, inputs, what), inputs, p.updated)

    try:
        out_g = run_judged(p.ref_model, w._device_inputs(i), "reference")
    except UserCodeFailure as e:
        raise HarnessError("reference-error", e.message)
    ev = Evaluations()
    try:
        if p.ref64_model is None:
            p.ref64_model = build_model(p.ref_mod, "Model", p.init_inputs, {}, w.device, p.seed, udirs,
                                        "reference (float64)", dtype=torch.float64)
        ev.float64 = flatten_outputs(run_judged(p.ref64_model, w._device_inputs(i, dtype64=True),
                                                "float64 reference"))
    except UserCodeFailure as e:
        ev.note = f"the float64 reference failed: {e.message}"
        ev.truth_name = "reference in its own dtype (its float64 evaluation failed)"
        return out_g, ev
    try:
        if p.mag_model is None:
            p.mag_model = build_model(p.ref_mod, "Model", p.init_inputs, {}, w.device, p.seed, udirs,
                                      "reference (float64, |parameters|)", dtype=torch.float64)
            _abs_parameters(p.mag_model)
        for scale, attr in ((1.0, "magnitude"), (2.0, "magnitude2")):
            inputs = map_float_tensors(w._device_inputs(i, dtype64=True), lambda t, s=scale: t.abs() * s)
            setattr(ev, attr, flatten_outputs(run_judged(p.mag_model, inputs, "float64 reference on |inputs|")))
    except UserCodeFailure as e:
        ev.magnitude = ev.magnitude2 = None
        ev.mag_note = f"the float64 reference on |inputs| failed: {e.message}"
    return out_g, ev


def _to_device_tree(v: Any, device: Any) -> Any:
    import torch
    if isinstance(v, torch.Tensor):
        return v.to(device, copy=True)
    if isinstance(v, (list, tuple)):
        return type(v)(_to_device_tree(x, device) for x in v)
    if isinstance(v, dict):
        return {k: _to_device_tree(x, device) for k, x in v.items()}
    return v


def _abs_parameters(model: Any) -> None:
    """|.| of every floating parameter and buffer of an nn.Module, in place."""
    import torch
    if isinstance(model, torch.nn.Module):
        with torch.no_grad():
            for t in list(model.parameters()) + list(model.buffers()):
                if t.is_floating_point() or t.is_complex():
                    t.copy_(t.abs().to(t.dtype))
