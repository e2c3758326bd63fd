"""Structural helpers of the correctness check (DESIGN section 7): number and index
formatting, output flattening, storage overlap (aliasing) and input mutation. The rounding
budget itself is in kharness/judge.py."""
from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence
from typing import Any

import torch

# (first byte, end byte, device) of one tensor storage
ByteRange = tuple[int, int, torch.device]


def fmt_e(x: float | None) -> str:
    """3.2e-1 style (one decimal, exponent without padding)."""
    if x is None:
        return "n/a"
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return str(x)
    s = f"{x:.1e}"                      # '3.2e-01', '1.0e+00'
    mant, exp = s.split("e")
    digits = exp[1:].lstrip("0") or "0"
    return f"{mant}e{'-' if exp[0] == '-' else '+'}{digits}"


def fmt_idx(flat_index: int, shape: Sequence[int]) -> str:
    idx: list[int] = []
    for s in reversed(shape):
        idx.append(flat_index % s if s else 0)
        flat_index = flat_index // s if s else 0
    t = tuple(reversed(idx))
    return "(" + ", ".join(str(i) for i in t) + ("," if len(t) == 1 else "") + ")"


def flatten_outputs(out: Any) -> list[Any]:
    """Leaves of a (nested) output, in order."""
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (list, tuple)):
        res: list[Any] = []
        for x in out:
            res.extend(flatten_outputs(x))
        return res
    if isinstance(out, dict):
        res = []
        for k in sorted(out):
            res.extend(flatten_outputs(out[k]))
        return res
    return [out]


def storages(vals: Any) -> list[ByteRange]:
    """(start, end) byte ranges of the storages of all tensors in a nested value."""
    res: list[ByteRange] = []
    for v in flatten_outputs(vals):
        if isinstance(v, torch.Tensor) and v.numel() > 0:
            try:
                st = v.untyped_storage()
                p = st.data_ptr()
            # Broad on purpose: a tensor without a plain storage (sparse, fake, a user's tensor
            # subclass) raises what torch or the subclass raises, on any device; it has no byte
            # range, so no aliasing or size claim is made for it
            except Exception:  # noqa: BLE001, S112
                continue
            res.append((p, p + st.nbytes(), v.device))
    return res


def overlaps(t: object, ranges: Iterable[ByteRange]) -> bool:
    if not isinstance(t, torch.Tensor) or t.numel() == 0:
        return False
    st = t.untyped_storage()
    a0, a1 = st.data_ptr(), st.data_ptr() + st.nbytes()
    for (b0, b1, dev) in ranges:
        if dev == t.device and a0 < b1 and b0 < a1:
            return True
    return False


def input_change(a: Any, p: Any) -> str | None:
    """None, or what changed between an input after a run (a) and its pristine copy (p)."""
    for x, y in zip(flatten_outputs(a), flatten_outputs(p)):
        if isinstance(x, torch.Tensor) and isinstance(y, torch.Tensor):
            if x.shape != y.shape or x.dtype != y.dtype:
                return "its shape or dtype changed"
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
                    return f"max abs change {fmt_e(ch)}, first changed element at {fmt_idx(i, x.shape)}"
                return f"first changed element at {fmt_idx(i, x.shape)}"
    return None


def inputs_mutated(after: Iterable[Any], pristine: Iterable[Any],
                   skip: Collection[int] = ()) -> tuple[int, str] | None:
    """None, or (input index, message body) for the first input that changed, the inputs
    at indices in ``skip`` (those the reference updates in place) aside."""
    for k, (a, p) in enumerate(zip(after, pristine)):
        body = None if k in skip else input_change(a, p)
        if body is not None:
            return k, body
    return None
