"""The correctness judge (DESIGN section 7): a rounding budget per output element.
harness/PROTOCOL.md (validate, "The judge") states the rules, why they are sound and where
they are not; in short, with t the reference evaluated in float64 (the truth), g the
reference in its own dtypes and c the candidate, every element must satisfy

    |c - t| <= s_a * (atol_eff + tiny + K_m * u_acc * M) + s_r * (rtol + u_out) * |t|

- rtol, atol: NPUKernelBench's per-dtype rule; atol_eff = min(atol, rtol * max|t|), so an
  output whose values all lie below atol cannot pass as zeros (KernelBench #165);
- u_out * |t|: the rounding of the result to the output dtype (NPUKernelBench compares
  against a reference that already carries it); tiny: the dtype's smallest subnormal;
- M = f(|x|), the float64 reference on |inputs| and |parameters|: for a sum of products it
  is the sum of |terms| of every element, and K_m * u_acc * M (K_m = 8, u_acc = float32's
  unit roundoff for float32/float16/bfloat16) covers every summation order; it is used
  only when M passes necessary conditions of a sum of terms (magnitude_status);
- s_a, s_r >= 1: the smallest scales that put K_r = 4 times the reference's own error
  |g - t| inside the budget at every element (calibrate): the budget never falls below
  what the reference shows against float64.

Without a reference (the initial kernel's outputs are the golden) or when the float64
evaluation fails, t is that output and the budget is the floor alone. NaN and +/-Inf
positions must equal the reference's in its own dtype; integer and bool outputs must match
exactly, except ids ordered differently among tied values (resolve_ties) and where the job
declares an integer tolerance (a quantised output rounded from a float division may land on
the neighbouring integer at a rounding tie: `{"int8": {"atol": 1, "max_fraction": 1e-3}}`);
non-tensor outputs must be equal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from .correctness import fmt_e, fmt_idx

# NPUKernelBench's elementwise rule: the floor of every budget.
DEFAULT_TOLERANCES: dict[str, dict[str, float]] = {
    "float32": {"rtol": 2 ** -13, "atol": 1e-5},
    "float16": {"rtol": 2 ** -10, "atol": 1e-3},
    "bfloat16": {"rtol": 2 ** -7, "atol": 1e-2},
}
MAGNITUDE_FACTOR = 8.0          # K_m: units of u_acc * M a legitimate evaluation order may carry
REFERENCE_FACTOR = 4.0          # K_r: the reference's worst element sits at <= 1/K_r of its budget
GROWTH_DEGREE = 4               # D: M(2|x|) <= 2^D M(|x|) for M to be used
MAGNITUDE_SLACK = 1e-6          # relative slack of the float64 checks on M (their own rounding)
CALIBRATION_STEPS = 16         # s_r grid points of calibrate()
CALIBRATION_RANGE = 1e3         # s_r searched up to this multiple of the common scale
SCALE_MAX = 1e30                # calibration scales stay finite
FACTOR_MAX = 1e6                # upper limit of the two factors in a job's tolerances
TIE_ROWS_MAX = 4096              # rows of index outputs resolve_ties examines (a bound, not a tolerance)
U_FLOAT32 = 2.0 ** -24
U_FLOAT64 = 2.0 ** -53
DTYPE_ALIASES = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64"}
# Integer dtypes a job may give a tolerance ({"atol", "max_fraction"}); every other integer or
# bool output must match exactly.
INTEGER_DTYPES = ("int8", "uint8", "int16", "int32", "int64")
INT_ATOL_MAX = 1 << 20          # the largest integer atol a job may declare
LEGACY_KEYS = {
    "f64_slack": "no longer used: the budget is formed per element (PROTOCOL.md, validate)",
    "mismatch_fraction": "no longer used: no element may leave its budget",
    "mismatch_max": "no longer used: no element may leave its budget",
}


def _number(where: str, v: Any, lo: float, hi: float) -> float:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or not (lo <= v <= hi) or math.isnan(v):
        raise ValueError(f"{where} must be a number in [{lo:g}, {hi:g}]")
    return float(v)


@dataclass
class Tolerances:
    """The judge's settings: NPUKernelBench's per-dtype floor and the two factors. A job's
    `tolerances` object overrides them: `{"float16": {"rtol", "atol"}, ...,
    "magnitude_factor", "reference_factor"}`; `f64_factor` (the old float64 rule) is read as
    reference_factor; `f64_slack`, `mismatch_fraction`, `mismatch_max` are accepted and
    reported as ignored."""

    table: dict[str, dict[str, float]] = field(
        default_factory=lambda: {k: dict(v) for k, v in DEFAULT_TOLERANCES.items()})
    magnitude_factor: float = MAGNITUDE_FACTOR
    reference_factor: float = REFERENCE_FACTOR
    ignored: dict[str, str] = field(default_factory=dict)
    # integer dtype -> {"atol": int, "max_fraction": float}; absent: exact match
    integers: dict[str, dict[str, float]] = field(default_factory=dict)

    @classmethod
    def parse(cls, overrides: Any) -> Tolerances:
        t = cls()
        if overrides is None:
            return t
        if not isinstance(overrides, dict):
            raise TypeError("tolerances must be an object dtype -> {rtol, atol}")
        for k, v in overrides.items():
            if k == "magnitude_factor":
                t.magnitude_factor = _number(f"tolerances.{k}", v, 0.0, FACTOR_MAX)
            elif k in ("reference_factor", "f64_factor"):
                t.reference_factor = _number(f"tolerances.{k}", v, 1.0, FACTOR_MAX)
            elif k in INTEGER_DTYPES:
                t._set_integer(str(k), v)
            elif k in LEGACY_KEYS:
                _number(f"tolerances.{k}", v, 0.0, math.inf)
                t.ignored[k] = LEGACY_KEYS[k]
            else:
                t._set_dtype(str(k), v)
        return t

    def _set_dtype(self, key: str, v: Any) -> None:
        name = DTYPE_ALIASES.get(key, key)
        if not isinstance(v, dict) or not set(v) <= {"rtol", "atol"}:
            raise TypeError(f"tolerances.{key} must be an object {{rtol, atol}}")
        vals = {kk: _number(f"tolerances.{key}.{kk}", vv, 0.0, math.inf) for kk, vv in v.items()}
        self.table.setdefault(name, dict(DEFAULT_TOLERANCES["float32"])).update(vals)

    def _set_integer(self, key: str, v: Any) -> None:
        if not isinstance(v, dict) or set(v) != {"atol", "max_fraction"}:
            raise TypeError(f"tolerances.{key} must be an object {{atol, max_fraction}}")
        atol = v["atol"]
        if not isinstance(atol, int) or isinstance(atol, bool) or not 0 <= atol <= INT_ATOL_MAX:
            raise ValueError(f"tolerances.{key}.atol must be an integer in [0, {INT_ATOL_MAX}]")
        frac = _number(f"tolerances.{key}.max_fraction", v["max_fraction"], 0.0, 1.0)
        self.integers[key] = {"atol": atol, "max_fraction": frac}

    def for_dtype(self, dtype: Any) -> tuple[float, float]:
        name = str(dtype).replace("torch.", "")
        t = self.table.get(name) or self.table["float32"]
        return t["rtol"], t["atol"]

    def to_json(self) -> dict[str, Any]:
        return {"per_dtype": self.table, "other_float_dtypes": "use float32's values",
                "magnitude_factor": self.magnitude_factor, "reference_factor": self.reference_factor,
                "growth_degree": GROWTH_DEGREE,
                "accumulation_roundoff": {"float32": U_FLOAT32, "float16": U_FLOAT32, "bfloat16": U_FLOAT32,
                                          "float64": U_FLOAT64},
                "integers": self.integers, "ignored": self.ignored}


@dataclass
class Truth:
    """What one output leaf is judged against. `reference`: the reference's output in its own
    dtypes (or the golden output without a reference); `float64`: the reference in float64 on
    the upcast inputs; `magnitude`, `magnitude2`: the float64 reference on |inputs| and
    2|inputs| (parameters |.|); `note`: why float64 or the magnitudes are missing."""

    reference: Any
    float64: torch.Tensor | None = None
    magnitude: torch.Tensor | None = None
    magnitude2: torch.Tensor | None = None
    truth_name: str = "float64 reference"
    note: str | None = None


def _wide(v: Any) -> Any:
    if isinstance(v, torch.dtype) and v.is_floating_point and v != torch.float64:
        return torch.float64
    if isinstance(v, torch.dtype) and v.is_complex and v != torch.complex128:
        return torch.complex128
    return v


class Float64Mode(TorchFunctionMode):
    """While active, every floating dtype a computation asks for is float64 (complex:
    complex128): `.float()`, `.half()`, `.bfloat16()`, `.to(dtype)`, `.type(dtype)` and
    `dtype=` arguments. The float64 evaluations of the reference run under it, so a
    reference that computes its statistics in `.float()` (mixed precision) is still
    evaluated in float64 throughout and the truth is not rounded to float32 on the way."""

    NARROWING = (torch.Tensor.float, torch.Tensor.half, torch.Tensor.bfloat16)

    def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        if func in self.NARROWING and args and isinstance(args[0], torch.Tensor):
            return args[0].to(torch.complex128 if args[0].is_complex() else torch.float64)
        return func(*[_wide(a) for a in args], **{k: _wide(v) for k, v in kwargs.items()})


def accumulation_roundoff(dtype: torch.dtype) -> float:
    return U_FLOAT64 if dtype in (torch.float64, torch.complex128) else U_FLOAT32


def smallest_subnormal(dtype: torch.dtype) -> float:
    fi = torch.finfo(dtype)
    return float(fi.smallest_normal * fi.eps)


def _flat64(x: Any, like: torch.Tensor, device: torch.device) -> torch.Tensor | None:
    """x as a flat float64 tensor when it is a real tensor of like's shape, else None."""
    if not isinstance(x, torch.Tensor) or tuple(x.shape) != tuple(like.shape):
        return None
    if x.is_complex() != like.is_complex():
        return None
    if x.is_complex():
        x = torch.view_as_real(x)
    if not x.is_floating_point():
        return None
    return x.detach().reshape(-1).to(device=device, dtype=torch.float64)


def magnitude_status(t64: torch.Tensor, m1: torch.Tensor | None, m2: torch.Tensor | None,
                     note: str | None) -> tuple[torch.Tensor | None, str]:
    """(M, "used") when the magnitude passes the necessary conditions of a sum of terms,
    else (None, why not)."""
    if m1 is None or m2 is None:
        return None, "not used: " + (note or "the magnitude evaluation gave no tensor of this shape")
    ok = torch.isfinite(t64)
    if not bool((torch.isfinite(m1[ok]).all() & torch.isfinite(m2[ok]).all()).item()):
        return None, "not used: f(|x|) is not finite where f(x) is"
    slack = MAGNITUDE_SLACK
    a1, a2, at = m1[ok], m2[ok], t64[ok].abs()
    if bool((at > a1 * (1 + slack) + 1e-300).any().item()):
        return None, "not used: f(|x|) < |f(x)| somewhere, so f(|x|) does not bound the terms (not a sum of products)"
    if bool((a1 > a2 * (1 + slack) + 1e-300).any().item()):
        return None, "not used: f(2|x|) < f(|x|) somewhere (not non-decreasing in |x|)"
    if bool((a2 > a1 * (2.0 ** GROWTH_DEGREE) * (1 + slack) + 1e-300).any().item()):
        return None, f"not used: f(2|x|) > 2^{GROWTH_DEGREE} f(|x|) somewhere (grows faster than a polynomial of degree {GROWTH_DEGREE})"
    return m1, "used"


def _value_problem(c: Any, g: Any) -> str | None:
    if isinstance(c, torch.Tensor):
        return f"is a tensor, expected {type(g).__name__} {g!r}"
    same_nan = isinstance(c, float) and isinstance(g, float) and math.isnan(c) and math.isnan(g)
    if c != g and not same_nan:
        return f"is {c!r}, expected {g!r}"
    return None


def _structure_problem(c: Any, g: torch.Tensor, d: dict[str, Any]) -> str | None:
    if not isinstance(c, torch.Tensor):
        return f"is {type(c).__name__}, expected a tensor"
    if tuple(c.shape) != tuple(g.shape):
        return f"has shape {tuple(c.shape)}, expected {tuple(g.shape)}"
    if c.dtype != g.dtype:
        return f"has dtype {str(c.dtype).replace('torch.', '')}, expected {d['dtype']}"
    return None


def _exact_problem(c: torch.Tensor, g: torch.Tensor, d: dict[str, Any]) -> str | None:
    neq = (c != g).reshape(-1)
    nbad = int(neq.sum().item())
    d["outside_budget"] = nbad
    if not nbad:
        return None
    i = int(torch.nonzero(neq)[0].item())
    return f"{_int_at(i, c, g)} ({nbad} of {g.numel()} elements differ; exact match required for {d['dtype']})"


def _int_at(i: int, c: torch.Tensor, g: torch.Tensor) -> str:
    """Where an integer output first differs, and the two values."""
    return f"at {fmt_idx(i, g.shape)}: {c.reshape(-1)[i].item()} != {g.reshape(-1)[i].item()}"


def _integer_problem(c: torch.Tensor, g: torch.Tensor, d: dict[str, Any], tol: Tolerances) -> str | None:
    """Exact match, or within the job's tolerance for this integer dtype: no element more than
    atol from the reference, and at most max_fraction of the elements different at all."""
    it = tol.integers.get(d["dtype"])
    if it is None:
        return _exact_problem(c, g, d)
    diff = (c.to(torch.int64) - g.to(torch.int64)).abs().reshape(-1)
    nbad = int((diff != 0).sum().item())
    d["outside_budget"] = nbad
    d["integer_tolerance"] = dict(it, differing=nbad)
    if not nbad:
        return None
    key = f"tolerances.{d['dtype']}"
    far = diff > it["atol"]
    if bool(far.any().item()):
        i = int(torch.nonzero(far)[0].item())
        return (f"{_int_at(i, c, g)} (differs by {int(diff[i].item())}, more than {key}.atol "
                f"{int(it['atol'])}; {int(far.sum().item())} such of {g.numel()} elements)")
    if nbad > it["max_fraction"] * g.numel():
        i = int(torch.nonzero(diff)[0].item())
        return (f"{_int_at(i, c, g)} ({nbad} of {g.numel()} elements differ, more than {key}.max_fraction "
                f"{it['max_fraction']:g} allows)")
    return None


def _position_problem(cf: torch.Tensor, gf: torch.Tensor, shape: Any, d: dict[str, Any]) -> str | None:
    """Same NaN positions, same +/-Inf positions as the reference in its own dtype."""
    cn, gn = torch.isnan(cf), torch.isnan(gf)
    bad = cn != gn
    if bool(bad.any()):
        i = int(torch.nonzero(bad)[0].item())
        d["nan_mismatches"] = cnt = int(bad.sum().item())
        if bool(cn[i]):
            return f"at {fmt_idx(i, shape)}: NaN where the reference has {gf[i].item():.6g} ({cnt} NaN position mismatches)"
        return f"at {fmt_idx(i, shape)}: {cf[i].item():.6g} where the reference has NaN ({cnt} NaN position mismatches)"
    bad = (torch.isinf(cf) | torch.isinf(gf)) & (cf != gf) & ~cn
    if bool(bad.any()):
        i = int(torch.nonzero(bad)[0].item())
        d["inf_mismatches"] = cnt = int(bad.sum().item())
        return (f"at {fmt_idx(i, shape)}: {cf[i].item():.6g} where the reference has {gf[i].item():.6g} "
                f"({cnt} Inf position mismatches)")
    return None


@dataclass
class Budget:
    """Per-element budgets of one output (flat float64) and how they were formed."""

    truth: torch.Tensor
    budget: torch.Tensor
    info: dict[str, Any]
    reference_err: torch.Tensor | None


def element_budgets(gf: torch.Tensor, fin: torch.Tensor, truth: Truth, g: torch.Tensor,
                    tol: Tolerances) -> Budget:
    """The budget of every element (see the module docstring); `fin`: the elements where
    the candidate and the reference are both finite."""
    dev = gf.device
    rtol, atol = tol.for_dtype(g.dtype)
    base_dtype = torch.view_as_real(g).dtype if g.is_complex() else g.dtype
    t64 = _flat64(truth.float64, g, dev)
    t = torch.where(torch.isfinite(t64), t64, gf) if t64 is not None else gf
    t = torch.where(fin, t, torch.zeros_like(t))      # NaN/Inf positions matched already
    amax = float(t[fin].abs().max().item()) if bool(fin.any()) else 0.0
    atol_eff = min(atol, rtol * amax)
    tiny = smallest_subnormal(base_dtype)
    u_out = float(torch.finfo(base_dtype).eps) / 2
    u_acc = accumulation_roundoff(g.dtype)
    absolute = torch.full_like(t, atol_eff + tiny)
    relative = (rtol + u_out) * t.abs()
    info: dict[str, Any] = {"rtol": rtol, "atol": atol, "atol_effective": atol_eff, "tiny": tiny,
                            "output_roundoff": u_out, "accumulation_roundoff": u_acc,
                            "magnitude_factor": tol.magnitude_factor, "reference_factor": tol.reference_factor,
                            "absolute_scale": 1.0, "relative_scale": 1.0}
    if t64 is None:
        info["magnitude"] = "not used: no float64 truth"
        if truth.float64 is not None:
            info["magnitude"] += " (the float64 output does not match this output's shape or kind)"
        return Budget(t, absolute + relative, info, None)
    m, info["magnitude"] = magnitude_status(t64, _flat64(truth.magnitude, g, dev),
                                            _flat64(truth.magnitude2, g, dev), truth.note)
    if m is not None:
        absolute = absolute + (tol.magnitude_factor * u_acc) * torch.where(torch.isfinite(m), m, torch.zeros_like(m))
    zero = torch.zeros((), dtype=torch.float64, device=dev)
    ref_err = torch.where(fin & torch.isfinite(t64), (gf - t64).abs(), zero)
    need = tol.reference_factor * ref_err
    s_a, s_r = calibrate(absolute, relative, need)
    info["absolute_scale"], info["relative_scale"] = s_a, s_r
    # the maximum only matters where s_a hit SCALE_MAX (an all-zero truth with a float64
    # output, whose absolute part is a subnormal): the budget still covers the reference
    return Budget(t, torch.maximum(s_a * absolute + s_r * relative, need), info, ref_err)


def calibrate(absolute: torch.Tensor, relative: torch.Tensor, need: torch.Tensor) -> tuple[float, float]:
    """(s_a, s_r) >= 1 with s_a * absolute + s_r * relative >= need at every element and the
    smallest sum of log budgets among: one common scale, and s_r on a geometric grid from 1
    to the largest useful value with the smallest s_a that then suffices. The reference's
    excess error is absorbed by whichever part of the budget it looks like: an absolute
    error (LayerNorm of data far from zero) grows the absolute part, a relative one
    (low-precision intermediates) the relative part."""
    if bool((need <= absolute + relative).all().item()):
        return 1.0, 1.0

    def s_a_for(s_r: float) -> float:
        return min(SCALE_MAX, max(1.0, float(((need - s_r * relative) / absolute).max().item())))

    common = min(SCALE_MAX, float((need / (absolute + relative)).max().item()))
    over = (need > absolute) & (relative > 0)
    hi = float(((need - absolute) / relative)[over].max().item()) if bool(over.any().item()) else 1.0
    hi = max(1.0, min(hi, common * CALIBRATION_RANGE))
    grid = [hi ** (k / CALIBRATION_STEPS) for k in range(CALIBRATION_STEPS + 1)]
    cands = [(common, common)] + [(s_a_for(s_r), s_r) for s_r in grid]
    return min(cands, key=lambda c: float(torch.log(c[0] * absolute + c[1] * relative).sum().item()))


def judge_output(c: Any, truth: Truth, tol: Tolerances) -> dict[str, Any]:
    """Judge one output leaf. Returns the record: "passed", "problem" (the message body,
    starting with what is wrong, after "output k ") and the numbers."""
    return _judge_leaf(c, truth, tol)[0]


def judge_outputs(leaves_c: list[Any], leaves_g: list[Any], truths: list[Truth],
                  tol: Tolerances) -> list[dict[str, Any]]:
    """Judge every output leaf of one case (judge_output), then let index outputs whose only
    fault is the order of tied values pass (resolve_ties)."""
    judged = [_judge_leaf(c, t, tol) for c, t in zip(leaves_c, truths)]
    outs = [d for d, _ in judged]
    resolve_ties(leaves_c, leaves_g, outs, [b for _, b in judged])
    return outs


def _judge_leaf(c: Any, truth: Truth, tol: Tolerances) -> tuple[dict[str, Any], torch.Tensor | None]:
    """judge_output's record and, for a floating-point output that got that far, the flat
    per-element budget (resolve_ties compares tied values with it)."""
    d: dict[str, Any] = {"passed": False, "problem": None}
    g = truth.reference
    if not isinstance(g, torch.Tensor):
        d["kind"] = "value"
        d["problem"] = _value_problem(c, g)
        d["passed"] = d["problem"] is None
        return d, None
    d["shape"], d["dtype"] = list(g.shape), str(g.dtype).replace("torch.", "")
    d["problem"] = _structure_problem(c, g, d)
    if d["problem"] is not None:
        return d, None
    if c.device != g.device:
        g = g.to(c.device)
    d["numel"] = n = g.numel()
    if n and not (g.is_floating_point() or g.is_complex()):
        d["problem"] = _integer_problem(c, g, d, tol)
    if n == 0 or not (g.is_floating_point() or g.is_complex()):
        d["passed"] = d["problem"] is None
        return d, None
    shape = c.shape
    cr, gr = (torch.view_as_real(c), torch.view_as_real(g)) if g.is_complex() else (c, g)
    cf, gf = cr.reshape(-1).to(torch.float64), gr.reshape(-1).to(torch.float64)
    if g.is_complex():
        shape = cr.shape
    d["problem"] = _position_problem(cf, gf, shape, d)
    if d["problem"] is not None:
        return d, None
    fin = torch.isfinite(cf) & torch.isfinite(gf)
    b = element_budgets(gf, fin, truth, g, tol)
    d["truth"] = truth.truth_name if b.reference_err is not None or truth.float64 is None else \
        "reference in its own dtype (its float64 output does not match)"
    d["rtol"], d["atol"] = b.info["rtol"], b.info["atol"]
    d["budget"] = b.info
    _record_errors(d, cf, gf, fin, b, shape)
    return d, b.budget


def resolve_ties(leaves_c: list[Any], leaves_g: list[Any], outs: list[dict[str, Any]],
                 budgets: list[torch.Tensor | None]) -> None:
    """Index outputs that order near-equal values differently (top-k, sort, argsort).

    An integer output is exact, but which of two values equal within rounding comes first is
    itself rounding: a top-k kernel that finds two float32 probabilities equal after its own
    rounding takes the lower expert id, torch.topk the other (seen on the H200: 2 of 131072
    ids swapped). An integer output that failed only by mismatched elements passes when a
    floating-point output of the same shape (its companion: the values) passed its budget and,
    in every row (last axis), the mismatched elements are a permutation of the reference's
    ids at those positions, each moved between positions whose reference values differ by at
    most the sum of their two budgets. An id the reference did not select, a duplicate, or a
    swap of values the budgets tell apart stays wrong."""
    for k, d in enumerate(outs):
        c, g = leaves_c[k], leaves_g[k]
        if d["passed"] or not d.get("outside_budget") or not isinstance(g, torch.Tensor) or g.dim() < 1 \
                or g.is_floating_point() or g.is_complex() or g.dtype == torch.bool:
            continue
        for m, dm in enumerate(outs):
            v = leaves_g[m]
            bm = budgets[m]
            if (m == k or not dm["passed"] or bm is None or not isinstance(v, torch.Tensor)
                    or tuple(v.shape) != tuple(g.shape)):
                continue
            n = _tie_swaps(c.to(g.device), g, v.to(g.device).to(torch.float64),
                           bm.reshape(g.shape).to(g.device))
            if n:
                d.update(passed=True, problem=None, ties={"companion": m, "elements": n})
                break


def _tie_swaps(c: torch.Tensor, g: torch.Tensor, v: torch.Tensor, budget: torch.Tensor) -> int:
    """The number of mismatched elements when every one is a tie swap (resolve_ties), else 0."""
    n = g.shape[-1]
    c2, g2, v2, b2 = (x.reshape(-1, n) for x in (c, g, v, budget))
    bad_rows = torch.nonzero((c2 != g2).any(dim=1)).reshape(-1).tolist()
    if len(bad_rows) > TIE_ROWS_MAX:
        return 0
    total = 0
    for r in bad_rows:
        cr, gr, vr, br = c2[r].tolist(), g2[r].tolist(), v2[r].tolist(), b2[r].tolist()
        pos = [j for j in range(n) if cr[j] != gr[j]]
        if sorted(cr[j] for j in pos) != sorted(gr[j] for j in pos):
            return 0
        for j in pos:
            src = next(i for i in pos if gr[i] == cr[j])
            if abs(vr[j] - vr[src]) > br[j] + br[src]:
                return 0
        total += len(pos)
    return total


def _record_errors(d: dict[str, Any], cf: torch.Tensor, gf: torch.Tensor, fin: torch.Tensor, b: Budget,
                   shape: Any) -> None:
    zero = torch.zeros((), dtype=torch.float64, device=cf.device)
    err = torch.where(fin, (cf - b.truth).abs(), zero)
    units = err / b.budget
    i = int(torch.argmax(units).item())
    worst = float(units[i].item())
    nbad = int((units > 1.0).sum().item())
    d["error_units"] = worst
    d["max_abs_err"] = float(err.max().item())
    d["outside_budget"] = nbad
    if b.reference_err is not None:
        d["reference_error_units"] = float((b.reference_err / b.budget).max().item())
        d["reference_max_abs_err"] = float(b.reference_err.max().item())
    else:
        d["reference_error_units"] = None
        d["reference_max_abs_err"] = None
    d["worst"] = {"index": fmt_idx(i, shape), "units": worst, "abs_err": float(err[i].item()),
                  "budget": float(b.budget[i].item()), "value": float(cf[i].item()),
                  "expected": float(b.truth[i].item()), "reference": float(gf[i].item())}
    if nbad == 0:
        d["passed"] = True
        return
    w = d["worst"]
    ref_units = d["reference_error_units"]
    d["problem"] = (f"at {w['index']}: error {fmt_e(w['abs_err'])} is {fmt_units(worst)} x its budget "
                    f"{fmt_e(w['budget'])} (value {w['value']:.6g}, expected {w['expected']:.6g}; "
                    f"{nbad} of {cf.numel()} elements outside their budget"
                    + (f"; the reference's own worst error is {fmt_units(ref_units)} x its budget"
                       if ref_units is not None else "")
                    + ")" + _constant_hint(cf, b.truth, fin, b.budget))


def _constant_hint(cf: torch.Tensor, t: torch.Tensor, fin: torch.Tensor, budget: torch.Tensor) -> str:
    """'; the output is constant 0 where the reference varies' for a constant output whose
    truth varies by more than the largest budget; else ''."""
    if int(fin.sum().item()) < 2:
        return ""
    cv, tv = cf[fin], t[fin]
    if float(cv.max().item()) != float(cv.min().item()):
        return ""
    if float((tv.max() - tv.min()).item()) <= float(budget[fin].max().item()):
        return ""
    return f"; the output is constant {float(cv[0].item()):.6g} where the reference varies"


def fmt_units(x: float | None) -> str:
    """Budget units for messages: 0.031, 2.5, 37, 1.2e+04."""
    if x is None:
        return "n/a"
    if math.isinf(x) or math.isnan(x):
        return str(x)
    if x >= 1e4:
        return fmt_e(x)
    return f"{x:.2g}" if x < 10 else f"{x:.0f}"
