"""specialize_args: lets Triton specialise a kernel's parameters again where the kernel's
``@triton.jit(do_not_specialize=..., do_not_specialize_on_alignment=...)`` told it not to.

Why a rewrite needs it: Triton specialises each integer argument on divisibility by 16 and
each pointer on 16-byte alignment, and its alignment analysis builds vector accesses from those
facts. A size n listed in ``do_not_specialize`` has no known divisibility, so a mask
``offs < n`` is constant over no run of lanes and every masked load and store is split into
single elements whatever the block, the warps or the contiguity hints; a pointer listed in
``do_not_specialize_on_alignment`` has no known alignment, with the same effect. (Checked with
Triton 3.6 for cuda:90: a masked fp16 load compiles to 16 ``ld.global.b16`` per thread with n
unspecialised and to two ``ld.global.v4.b32`` with n divisible by 16.)

Why it is correct: the lists only choose which compiled variants Triton keeps; every variant
computes the same values. What it costs: Triton compiles one variant per class of the argument
(divisible by 16 or not, and 1), where the user's list kept one for every value; the rewrite's
hypothesis says so. A list that is not a literal list or tuple of names and indices is left
as written (the rewrite cannot tell what it names).

Precondition of the rewrite on its own (elementwise_vector applies ``find``/``edit`` itself):
kernel K is launched, its ``@triton.jit`` call lists at least one parameter that reaches an
access — a ``tl.load``/``tl.store``/atomic's pointer or mask, a block pointer's or
descriptor's arguments, directly or through names K binds from it — and that Triton would
specialise at the recorded launch: an integer that is a multiple of 16, a tensor whose data
is 16-byte aligned. Other listed parameters stay listed. No parameters: one candidate."""
from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    Fit,
    Kernel,
    Module,
    Plan,
    bindings,
    call_arg,
    calls,
    check_params,
    int_const,
    names_in,
    pick,
    survey_one,
)

NAME = "specialize_args"
KEYWORDS = ("do_not_specialize", "do_not_specialize_on_alignment")
DIVISOR = 16            # Triton specialises an integer on divisibility by 16, a pointer on 16-byte alignment
# tl calls whose pointer (position 0) and mask (position given) decide an access's width
MASK_POS: dict[str, int | None] = {"load": 1, "store": 2, "atomic_add": 2, "atomic_max": 2, "atomic_min": 2, "atomic_and": 2,
            "atomic_or": 2, "atomic_xor": 2, "atomic_xchg": 2, "atomic_cas": None}
WHOLE_CALLS = ("make_block_ptr", "make_tensor_descriptor", "advance")


@dataclass
class Unspecialized:
    """The jit decorator call of a kernel and, per keyword of KEYWORDS it passes as a literal
    list, the parameters it names that the caller wants specialised again."""

    call: ast.Call
    released: dict[str, list[str]]


def _named(k: Kernel, elt: ast.expr) -> str | None:
    """The parameter a list element names: a string, or an index into the parameters."""
    if isinstance(elt, ast.Constant) and isinstance(elt.value, str):
        return elt.value
    i = int_const(elt)
    return k.params[i] if i is not None and 0 <= i < len(k.params) else None


def find(k: Kernel, wanted: Iterable[str]) -> Unspecialized | None:
    """Which of ``wanted`` kernel k's jit decorator keeps from being specialised (None: none)."""
    call = k.jit
    if not isinstance(call, ast.Call):
        return None
    want = set(wanted)
    released: dict[str, list[str]] = {}
    for kw in call.keywords:
        if kw.arg in KEYWORDS and isinstance(kw.value, (ast.List, ast.Tuple)):
            hit = [n for n in (_named(k, e) for e in kw.value.elts) if n in want]
            if hit:
                released[kw.arg] = hit
    return Unspecialized(call, released) if released else None


def describe(u: Unspecialized | None) -> str:
    if u is None:
        return ""
    parts = [f"{kw} names {', '.join(names)}" for kw, names in u.released.items()]
    return ("; its @triton.jit " + " and ".join(parts) + ": Triton assumes nothing of their divisibility or "
            "alignment, so masked accesses stay one element wide; the candidate lets Triton specialise them "
            "(one compiled variant per divisibility class instead of one for all values)")


def _kept(k: Kernel, value: ast.List | ast.Tuple, names: list[str], mod: Module) -> str | None:
    """The list's text without ``names`` (None when nothing is left), list or tuple as written."""
    kept = [mod.text(e) for e in value.elts if _named(k, e) not in names]
    if not kept:
        return None
    body = ", ".join(kept) + ("," if isinstance(value, ast.Tuple) and len(kept) == 1 else "")
    return "[" + body + "]" if isinstance(value, ast.List) else "(" + body + ")"


def edit(mod: Module, k: Kernel, u: Unspecialized) -> list[Edit]:
    """The jit decorator without the released names. Where every list keeps an entry only the
    lists are rewritten (the rest of the decorator, comments included, stays as written); where
    one empties, its keyword goes and the call is written anew from its arguments' texts
    (``triton.jit()`` with nothing left becomes ``triton.jit``)."""
    lists = {kw.arg: kw.value for kw in u.call.keywords if kw.arg in u.released}
    kept: dict[str, str | None] = {}
    for arg, value in lists.items():
        assert arg is not None and isinstance(value, (ast.List, ast.Tuple))
        kept[arg] = _kept(k, value, u.released[arg], mod)
    if all(t is not None for t in kept.values()):
        return [mod.replace(lists[arg], t) for arg, t in kept.items() if t is not None]
    args = [mod.text(a) for a in u.call.args]
    for kw in u.call.keywords:
        if kw.arg is None:
            args.append("**" + mod.text(kw.value))
        elif kw.arg not in kept:
            args.append(f"{kw.arg}={mod.text(kw.value)}")
        elif kept[kw.arg] is not None:
            args.append(f"{kw.arg}={kept[kw.arg]}")
    func = mod.text(u.call.func)
    return [mod.replace(u.call, f"{func}({', '.join(args)})" if args else func)]


@dataclass
class SpecializePlan(Plan):
    unspec: Unspecialized


def _access_exprs(mod: Module, k: Kernel) -> list[ast.expr]:
    out: list[ast.expr] = []
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f in MASK_POS:
            pos = MASK_POS[f]
            mask = call_arg(c, pos, "mask") if pos is not None else None
            out += [e for e in (call_arg(c, 0, "pointer"), mask) if e is not None]
        elif f in WHOLE_CALLS:
            out += list(c.args) + [kw.value for kw in c.keywords]
    return out


def _reaching(k: Kernel, exprs: list[ast.expr]) -> set[str]:
    """Names read by ``exprs`` and, through every binding of kernel k (common.bindings) of a
    name so read, the names its values read: a fixed point, flow-insensitive."""
    seen = set().union(*(names_in(e) for e in exprs))
    binds = [(set().union(*(names_in(t) for t in targets)), set().union(*(names_in(v) for v in srcs)))
             for _, targets, srcs in bindings(k)]
    changed = True
    while changed:
        changed = False
        for targets, reads in binds:
            if targets & seen and not reads <= seen:
                seen |= reads
                changed = True
    return seen


def _specialisable(d: dict[str, object] | None) -> str | None:
    """Why Triton would specialise the recorded argument (None: it would not)."""
    if not d:
        return None
    if d.get("kind") == "int" and isinstance(d.get("value"), int) and d["value"] % DIVISOR == 0:  # type: ignore[operator]
        return f"{d['value']}, a multiple of {DIVISOR}"
    if d.get("kind") == "tensor" and d.get("align16") is True:
        return "a 16-byte aligned tensor"
    return None


def analyze(mod: Module, k: Kernel) -> SpecializePlan:
    name = k.name
    every = find(k, k.params)
    listed = {n for names in every.released.values() for n in names} if every is not None else set()
    if not listed:
        raise RewriteRefused(f"{name}: its @triton.jit lists no parameter in do_not_specialize or "
                             "do_not_specialize_on_alignment (as a literal list)")
    site = mod.one_site(name)
    values = mod.recorded_values(name)
    reach = _reaching(k, _access_exprs(mod, k))
    why_each = {n: _specialisable(values.get(n)) for n in sorted(listed & reach)}
    wanted = {n for n, w in why_each.items() if w}
    unspec = find(k, wanted)
    if unspec is None:
        detail = "; ".join(f"{n}: {'reaches no load, store or atomic' if n not in reach else 'not specialisable at the recorded launch'}"
                           for n in sorted(listed))
        raise RewriteRefused(f"{name}: no parameter its @triton.jit keeps unspecialised would be specialised "
                             f"usefully ({detail})")
    why = (f"{name} (@triton.jit at line {k.jit.lineno}): " + ", ".join(f"{n} ({why_each[n]})" for n in sorted(wanted)) +
           " bound or address its loads and stores" + describe(unspec))
    return SpecializePlan(k, site, why, {"kernel": name}, {"kernel": [name]}, unspec)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, object]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    check_params(NAME, dict(params), plan.params, plan.domain)
    return apply_edits(mod.source, edit(mod, plan.kernel, plan.unspec))
