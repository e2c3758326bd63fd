"""specialize: lets Triton specialise a kernel's parameters again where the kernel's
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
as written (the rewrite cannot tell what it names)."""
from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from ..srcedit import Edit
from .common import Kernel, Module, int_const

KEYWORDS = ("do_not_specialize", "do_not_specialize_on_alignment")


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


def _jit_call(mod: Module, k: Kernel) -> ast.Call | None:
    for d in k.node.decorator_list:
        if isinstance(d, ast.Call) and mod.qualname(d.func) in ("triton.jit", "triton.runtime.jit.jit"):
            return d
    return None


def find(mod: Module, k: Kernel, wanted: Iterable[str]) -> Unspecialized | None:
    """Which of ``wanted`` kernel k's jit decorator keeps from being specialised (None: none)."""
    call = _jit_call(mod, k)
    if call is None:
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


def edit(mod: Module, k: Kernel, u: Unspecialized) -> Edit:
    """The jit decorator call without the released names (a keyword whose list empties is
    dropped; ``triton.jit()`` with nothing left becomes ``triton.jit``)."""
    args = [mod.text(a) for a in u.call.args]
    for kw in u.call.keywords:
        if kw.arg is None:
            args.append("**" + mod.text(kw.value))
            continue
        names = u.released.get(kw.arg)
        if names is None:
            args.append(f"{kw.arg}={mod.text(kw.value)}")
            continue
        assert isinstance(kw.value, (ast.List, ast.Tuple))
        kept = [mod.text(e) for e in kw.value.elts if _named(k, e) not in names]
        if kept:
            body = ", ".join(kept) + ("," if isinstance(kw.value, ast.Tuple) and len(kept) == 1 else "")
            args.append(f"{kw.arg}=" + ("[" + body + "]" if isinstance(kw.value, ast.List) else "(" + body + ")"))
    func = mod.text(u.call.func)
    return mod.replace(u.call, f"{func}({', '.join(args)})" if args else func)
