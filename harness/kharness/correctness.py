"""Correctness rules of DESIGN section 7.

Per output tensor, candidate `c` against the reference output `g` (the low-precision
reference, or the initial kernel's output when there is no reference) and, when a reference
exists, against `g64`, the reference evaluated in float64 on upcast inputs:

1. same type, shape and dtype;
2. same NaN positions, same +/-Inf positions;
3. elementwise on the remaining elements: |c - g| <= atol + rtol * |g|;
4. float64 check: e(x) = max |x - g64| / (atol + rtol * |g64|) (in tolerance units, over
   elements where all three are finite); pass iff e(c) <= F64_FACTOR * e(g) + F64_SLACK;
5. a mismatch budget for rule 3 of min(MISMATCH_MAX, floor(MISMATCH_FRACTION * numel))
   elements applies only when the float64 check ran and passed. A failed float64 check
   fails the case even when rule 3 passes.

Integer and bool outputs must match exactly. Non-tensor outputs must be equal (==).
"""
import math

import torch

DEFAULT_TOLERANCES = {
    "float32": {"rtol": 2 ** -13, "atol": 1e-5},
    "float16": {"rtol": 2 ** -10, "atol": 1e-3},
    "bfloat16": {"rtol": 2 ** -7, "atol": 1e-2},
}
F64_FACTOR = 4.0
F64_SLACK = 0.05
MISMATCH_FRACTION = 1e-6
MISMATCH_MAX = 8


class Tolerances:
    def __init__(self, overrides=None):
        self.table = {k: dict(v) for k, v in DEFAULT_TOLERANCES.items()}
        self.f64_factor = F64_FACTOR
        self.f64_slack = F64_SLACK
        self.mismatch_fraction = MISMATCH_FRACTION
        self.mismatch_max = MISMATCH_MAX
        for k, v in (overrides or {}).items():
            if k in ("f64_factor", "f64_slack", "mismatch_fraction", "mismatch_max"):
                if not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0:
                    raise ValueError(f"tolerances.{k} must be a number >= 0")
                setattr(self, k, v)
                continue
            name = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64"}.get(k, k)
            if not isinstance(v, dict) or not set(v) <= {"rtol", "atol"}:
                raise ValueError(f"tolerances.{k} must be an object {{rtol, atol}}")
            for kk, vv in v.items():
                if not isinstance(vv, (int, float)) or isinstance(vv, bool) or vv < 0:
                    raise ValueError(f"tolerances.{k}.{kk} must be a number >= 0")
            self.table.setdefault(name, dict(DEFAULT_TOLERANCES["float32"])).update(v)

    def for_dtype(self, dtype):
        name = str(dtype).replace("torch.", "")
        t = self.table.get(name) or self.table["float32"]
        return t["rtol"], t["atol"]

    def to_json(self):
        return {"per_dtype": self.table, "f64_factor": self.f64_factor, "f64_slack": self.f64_slack,
                "mismatch_fraction": self.mismatch_fraction, "mismatch_max": self.mismatch_max,
                "other_float_dtypes": "use float32's values"}


def fmt_e(x):
    """3.2e-1 style (one decimal, exponent without padding)."""
    if x is None:
        return "n/a"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    s = f"{x:.1e}"                      # '3.2e-01', '1.0e+00'
    mant, exp = s.split("e")
    digits = exp[1:].lstrip("0") or "0"
    return f"{mant}e{'-' if exp[0] == '-' else '+'}{digits}"


def fmt_idx(flat_index, shape):
    idx = []
    for s in reversed(shape):
        idx.append(flat_index % s if s else 0)
        flat_index = flat_index // s if s else 0
    t = tuple(reversed(idx))
    return "(" + ", ".join(str(i) for i in t) + ("," if len(t) == 1 else "") + ")"


def flatten_outputs(out):
    """Leaves of a (nested) output, in order."""
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        res = []
        for x in out:
            res.extend(flatten_outputs(x))
        return res
    if isinstance(out, dict):
        res = []
        for k in sorted(out):
            res.extend(flatten_outputs(out[k]))
        return res
    return [out]


def storages(vals):
    """(start, end) byte ranges of the storages of all tensors in a nested value."""
    res = []
    for v in flatten_outputs(vals):
        if isinstance(v, torch.Tensor) and v.numel() > 0:
            try:
                st = v.untyped_storage()
                p = st.data_ptr()
                res.append((p, p + st.nbytes(), v.device))
            except Exception:
                pass
    return res


def overlaps(t, ranges):
    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return False
    st = t.untyped_storage()
    a0, a1 = st.data_ptr(), st.data_ptr() + st.nbytes()
    for (b0, b1, dev) in ranges:
        if dev == t.device and a0 < b1 and b0 < a1:
            return True
    return False


def _work_dtype(dt):
    return torch.float64 if dt in (torch.float32, torch.float64) else torch.float32


def compare(c, g, g64, tol, numel_budget=True):
    """Compare one output leaf. Returns dict with "passed", "problem" (message body or None)
    and the recorded numbers."""
    d = {"passed": False, "problem": None}
    if not isinstance(g, torch.Tensor):
        d["kind"] = "value"
        if isinstance(c, torch.Tensor):
            d["problem"] = f"output is a tensor, expected {type(g).__name__} {g!r}"
        elif c != g and not (isinstance(c, float) and isinstance(g, float) and math.isnan(c) and math.isnan(g)):
            d["problem"] = f"output {c!r} != expected {g!r}"
        else:
            d["passed"] = True
        return d
    if not isinstance(c, torch.Tensor):
        d["problem"] = f"output is {type(c).__name__}, expected a tensor"
        return d
    d["shape"] = list(g.shape)
    d["dtype"] = str(g.dtype).replace("torch.", "")
    if tuple(c.shape) != tuple(g.shape):
        d["problem"] = f"output shape {tuple(c.shape)} != expected {tuple(g.shape)}"
        return d
    if c.dtype != g.dtype:
        d["problem"] = f"output dtype {str(c.dtype).replace('torch.', '')} != expected {d['dtype']}"
        return d
    if c.device != g.device:
        g = g.to(c.device)
        if g64 is not None and isinstance(g64, torch.Tensor):
            g64 = g64.to(c.device)
    n = g.numel()
    d["numel"] = n
    if n == 0:
        d["passed"] = True
        return d
    if not (g.is_floating_point() or g.is_complex()):
        neq = (c != g).reshape(-1)
        nbad = int(neq.sum().item())
        d["mismatches"] = nbad
        if nbad:
            i = int(torch.nonzero(neq)[0].item())
            d["problem"] = (f"{nbad} of {n} elements differ (exact match required for {d['dtype']}); "
                            f"first at {fmt_idx(i, g.shape)}: {c.reshape(-1)[i].item()} != {g.reshape(-1)[i].item()}")
        else:
            d["passed"] = True
        return d
    if g.is_complex():
        c, g = torch.view_as_real(c), torch.view_as_real(g)
        if isinstance(g64, torch.Tensor) and g64.is_complex():
            g64 = torch.view_as_real(g64)
    rtol, atol = tol.for_dtype(d["dtype"]) if not isinstance(tol, tuple) else tol
    d["rtol"], d["atol"] = rtol, atol
    wd = _work_dtype(g.dtype)
    cf = c.reshape(-1).to(wd)
    gf = g.reshape(-1).to(wd)
    shape = c.shape if not c.is_complex() else c.shape
    # NaN / Inf positions
    cn, gn = torch.isnan(cf), torch.isnan(gf)
    nan_bad = cn != gn
    if bool(nan_bad.any()):
        i = int(torch.nonzero(nan_bad)[0].item())
        cnt = int(nan_bad.sum().item())
        if bool(cn[i]):
            d["problem"] = f"NaN at {fmt_idx(i, shape)} where the reference has {gf[i].item():.4g} ({cnt} NaN position mismatches)"
        else:
            d["problem"] = f"{cf[i].item():.4g} at {fmt_idx(i, shape)} where the reference has NaN ({cnt} NaN position mismatches)"
        d["nan_mismatches"] = cnt
        return d
    ci, gi = torch.isinf(cf), torch.isinf(gf)
    inf_bad = (ci | gi) & ~(cf == gf) & ~cn
    if bool(inf_bad.any()):
        i = int(torch.nonzero(inf_bad)[0].item())
        d["inf_mismatches"] = int(inf_bad.sum().item())
        d["problem"] = (f"{cf[i].item():.4g} at {fmt_idx(i, shape)} where the reference has {gf[i].item():.4g} "
                        f"({d['inf_mismatches']} Inf position mismatches)")
        return d
    fin = torch.isfinite(cf) & torch.isfinite(gf)
    zero = torch.zeros((), dtype=wd, device=cf.device)
    err = torch.where(fin, (cf - gf).abs(), zero)
    tolv = atol + rtol * gf.abs()
    bad = fin & (err > tolv)
    nbad = int(bad.sum().item())
    d["max_abs_err"] = float(err.max().item())
    ratio = torch.where(fin, err / tolv.clamp_min(1e-300), zero)
    d["max_err_in_tol_units"] = float(ratio.max().item())
    d["mismatches"] = nbad
    budget = min(int(tol.mismatch_max), int(math.floor(n * tol.mismatch_fraction))) if numel_budget else 0
    d["mismatch_budget"] = budget
    if nbad:
        errb = torch.where(bad, err, torch.full((), -1.0, dtype=wd, device=cf.device))
        i = int(torch.argmax(errb).item())
        d["worst"] = {"index": fmt_idx(i, shape), "abs_err": float(err[i].item()), "tol": float(tolv[i].item()),
                      "value": float(cf[i].item()), "expected": float(gf[i].item())}
    # float64 check
    f64 = None
    if isinstance(g64, torch.Tensor) and (g64.is_floating_point() or g64.is_complex()) and tuple(g64.shape) == tuple(g.shape if not g.is_complex() else g.shape):
        g64f = g64.reshape(-1).to(torch.float64)
        cf64, gf64 = cf.to(torch.float64), gf.to(torch.float64)
        m = torch.isfinite(g64f) & torch.isfinite(cf64) & torch.isfinite(gf64)
        t64 = atol + rtol * g64f.abs()
        z = torch.zeros((), dtype=torch.float64, device=cf.device)
        ec = torch.where(m, (cf64 - g64f).abs(), z)
        er = torch.where(m, (gf64 - g64f).abs(), z)
        ecn = torch.where(m, ec / t64.clamp_min(1e-300), z)
        ern = torch.where(m, er / t64.clamp_min(1e-300), z)
        cand_n, ref_n = float(ecn.max().item()), float(ern.max().item())
        limit = tol.f64_factor * ref_n + tol.f64_slack
        j = int(torch.argmax(ecn).item())
        f64 = {"candidate_err": cand_n, "reference_err": ref_n, "limit": limit,
               "candidate_max_abs_err": float(ec.max().item()), "reference_max_abs_err": float(er.max().item()),
               "passed": cand_n <= limit, "worst_index": fmt_idx(j, shape)}
    d["float64"] = f64
    if nbad and not (f64 is not None and f64["passed"] and nbad <= budget):
        w = d["worst"]
        d["problem"] = f"max abs err {fmt_e(w['abs_err'])} > {fmt_e(w['tol'])} at {w['index']}"
        return d
    if f64 is not None and not f64["passed"]:
        d["problem"] = (f"error against the float64 reference {fmt_e(f64['candidate_max_abs_err'])} "
                        f"({f64['candidate_err']:.3g} tolerance units) exceeds {tol.f64_factor:g} x the reference's "
                        f"own error ({f64['reference_err']:.3g}) + {tol.f64_slack:g} at {f64['worst_index']}")
        return d
    d["within_budget"] = nbad
    d["passed"] = True
    return d


def inputs_mutated(after, pristine):
    """None, or (input index, message body) for the first input that changed."""
    for k, (a, p) in enumerate(zip(after, pristine)):
        la, lp = flatten_outputs(a), flatten_outputs(p)
        for x, y in zip(la, lp):
            if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
                if x.shape != y.shape or x.dtype != y.dtype:
                    return k, "its shape or dtype changed"
                if x.numel() == 0:
                    continue
                if x.is_floating_point() or x.is_complex():
                    xr = torch.view_as_real(x) if x.is_complex() else x
                    yr = torch.view_as_real(y) if y.is_complex() else y
                    same = (xr == yr) | (torch.isnan(xr) & torch.isnan(yr))
                else:
                    same = x == y
                if not bool(same.all()):
                    flat = (~same).reshape(-1)
                    i = int(torch.nonzero(flat)[0].item())
                    if x.is_floating_point():
                        ch = float(((x.to(torch.float64) - y.to(torch.float64)).abs().nan_to_num(float("inf"))).max().item())
                        return k, f"max abs change {fmt_e(ch)}, first changed element at {fmt_idx(i, x.shape)}"
                    return k, f"first changed element at {fmt_idx(i, x.shape)}"
    return None
