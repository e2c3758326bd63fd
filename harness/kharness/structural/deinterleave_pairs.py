"""deinterleave_pairs: a kernel that reads or writes interleaved pairs — elements 2i and
2i + 1 as two accesses at stride 2 (GPT-J's rotary embedding, complex numbers stored as
(re, im), interleaved gate/up halves) — gets one contiguous access of 2H elements per pair,
split into its even and odd lanes with ``tl.reshape`` and ``tl.split`` (stores: ``tl.join``
then ``tl.reshape``). Its global accesses can then be as wide as 128 bits; at stride 2 each
thread's accesses are one element wide (offline cuda:90, a float16 rotary kernel: 16-bit
loads and stores and four layout conversions through shared memory before; 128-bit ones and
none after).

Precondition: an index vector ``i = tl.arange(0, H)`` bound once at the top level of the
kernel, H a constexpr parameter or an integer; at the top level of the body, a pair of
``tl.load``s or of ``tl.store``s whose pointers are the same sum of terms with a term
``2 * i`` (or ``i * 2``), the odd one with one more term ``1``, with the same keyword
arguments; no store or atomic between the two loads of a pair; the two stores of a pair in
consecutive statements; one of the other terms a pointer parameter; and none of the other
terms, masks or ``other`` values varies along the pair's axis: every name they use is a
parameter or bound once, and every index vector (``tl.arange``) they reach is used only as
``x[..., None]``.

The rewrite: before the first statement of a load pair
    J = tl.arange(0, 2 * H)
    AB = tl.load(<the other terms> + J, <the keywords>)
    EV, OD = tl.split(tl.reshape(AB, AB.shape[:-1] + (H, 2)))
and the two loads become EV and OD; a store pair of values V0 and V1 becomes, in place of
its first statement,
    J = tl.arange(0, 2 * H)
    E, O = tl.broadcast(V0, V1)
    V = tl.join(E.to(P.dtype.element_ty), O.to(P.dtype.element_ty))
    tl.store(<the other terms> + J, tl.reshape(V, V.shape[:-2] + (2 * H,)), <the keywords>)
(P the pointer parameter), and its second statement goes.

Why it is correct: element 2k + e of a contiguous run of 2H is element (k, e) of its
[..., H, 2] reshape (row-major, the last axis fastest), so the split's first half holds the
elements at 2i and the second those at 2i + 1; join then reshape is the inverse, so the
store writes V0 at 2i and V1 at 2i + 1, cast to the pointer's element type as the store
would cast them. The other terms, the masks and ``other`` do not vary along the last axis, so
they broadcast over J's 2H elements as over i's H, selecting the same rows and the same
elements. A load moved up to the first of its pair's statements reads memory no store
between them changes; the stores were adjacent."""
from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    PURE_BUILTINS,
    REWRITE_WARPS,
    STORE_TL,
    Defs,
    Fit,
    Kernel,
    Module,
    Plan,
    call_arg,
    calls,
    check_params,
    check_wrappers,
    int_const,
    launch_warps,
    pick,
    survey_one,
)

NAME = "deinterleave_pairs"
DEFAULTS: dict[str, Any] = {"kernel": ""}
# Calls that may sit between a pair of loads: none of them stores.
NON_STORING_BUILTINS = PURE_BUILTINS | {"float", "range"}


@dataclass
class Access:
    """One tl.load or tl.store at ``base terms + 2 * i (+ 1)`` in a top-level statement."""

    call: ast.Call
    stmt: ast.stmt
    index: int                   # of stmt in the kernel's body
    kind: str                    # "load" or "store"
    vec: str                     # the index vector i
    odd: bool
    terms: list[ast.expr]        # the pointer's other terms, in order
    args: list[ast.expr]         # its arguments besides pointer and value, positional ones first
    kws: list[ast.keyword]       # ... and the keyword ones among them
    key: tuple[str, ...]         # what pairs it: kind, i, the terms and arguments as dumped


@dataclass
class Pair:
    even: Access
    odd: Access
    ptr: str                     # the pointer parameter among the terms


@dataclass
class PairsPlan(Plan):
    pairs: list[Pair] = field(default_factory=list)
    sizes: dict[str, str] = field(default_factory=dict)                  # index vector -> H (text)


def _terms(node: ast.expr, defs: Defs | None = None, vecs: set[str] | None = None) -> list[ast.expr]:
    """The addends of a sum (a + b + c as [a, b, c]); any other expression is one term. With
    defs, a name bound once to a sum that has a ``2 * i`` term counts as that sum's terms
    (``offs = base + 2 * i`` then ``tl.load(p + offs)``)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _terms(node.left, defs, vecs) + _terms(node.right, defs, vecs)
    if defs is not None and vecs and isinstance(node, ast.Name) and node.id in defs.stmt:
        inner = _terms(defs.stmt[node.id].value, defs, vecs)
        if any(_twice(t, vecs) for t in inner):
            return inner
    return [node]


def _twice(node: ast.expr, vecs: set[str]) -> str | None:
    """The index vector of a term ``2 * i`` or ``i * 2``, else None."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        for a, b in ((node.left, node.right), (node.right, node.left)):
            if int_const(a) == 2 and isinstance(b, ast.Name) and b.id in vecs:
                return b.id
    return None


def _index_vectors(mod: Module, k: Kernel, defs: Defs) -> dict[str, str]:
    """Names bound once at the top level to ``tl.arange(0, H)``, H a constexpr or an integer:
    name -> the text of H."""
    out: dict[str, str] = {}
    for name, s in defs.stmt.items():
        v = s.value
        if s not in k.node.body or not isinstance(v, ast.Call) or mod.tl_func(v) != "arange" or len(v.args) != 2:
            continue
        lo, hi = v.args
        if int_const(lo) != 0:
            continue
        if int_const(hi) is not None or (isinstance(hi, ast.Name) and hi.id in k.constexprs):
            out[name] = mod.text(hi)
    return out


def _other_args(c: ast.Call, kind: str) -> tuple[list[ast.expr], list[ast.keyword]]:
    """A load's or store's arguments besides its pointer (and a store's value): the positional
    ones, the keyword ones."""
    return c.args[1 if kind == "load" else 2:], [kw for kw in c.keywords if kw.arg not in ("pointer", "value")]


def _accesses(mod: Module, k: Kernel, defs: Defs, vecs: set[str]) -> list[Access]:
    out = []
    for idx, s in enumerate(k.node.body):
        if not isinstance(s, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr)):
            continue                     # in a loop or a branch: not paired
        for c in calls(s):
            kind = mod.tl_func(c)
            if kind not in ("load", "store"):
                continue
            ptr = call_arg(c, 0, "pointer")
            if ptr is None or (kind == "store" and call_arg(c, 1, "value") is None):
                continue
            terms = _terms(ptr, defs, vecs)
            twice = [(j, v) for j, t in enumerate(terms) if (v := _twice(t, vecs))]
            if len(twice) != 1:
                continue
            j, vec = twice[0]
            rest = terms[:j] + terms[j + 1:]
            ones = [t for t in rest if int_const(t) == 1]
            odd = len(ones) == 1
            if len(ones) > 1:
                continue
            if odd:
                rest = [t for t in rest if t is not ones[0]]
            args, kws = _other_args(c, kind)
            key = (kind, vec, *sorted(ast.dump(t) for t in rest), "|", *(ast.dump(a) for a in args), "|",
                   *sorted(f"{kw.arg}={ast.dump(kw.value)}" for kw in kws))
            out.append(Access(c, s, idx, kind, vec, odd, rest, args, kws, key))
    return out


def _flat_walk(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of an expression, not descending into ``x[..., None]``: whatever x is, that
    subscript has a last axis of size one."""
    if isinstance(node, ast.Subscript):
        sl = node.slice
        last = sl.elts[-1] if isinstance(sl, ast.Tuple) and sl.elts else sl
        if isinstance(last, ast.Constant) and last.value is None:
            return
    yield node
    for ch in ast.iter_child_nodes(node):
        yield from _flat_walk(ch)


def _check_flat(mod: Module, k: Kernel, defs: Defs, node: ast.AST, what: str, seen: set[str],
                via: tuple[str, ...] = ()) -> None:
    """Refuses when node may vary along the last axis: it uses a name that is neither a
    parameter nor bound once, or reaches a tl.arange other than through ``x[..., None]``."""
    path = f" (through {' -> '.join(via)})" if via else ""
    for n in _flat_walk(node):
        if isinstance(n, ast.Call) and mod.tl_func(n) == "arange":
            raise RewriteRefused(f"{k.name}: {what}{path} varies along the pairs' axis (tl.arange at line "
                                 f"{n.lineno}, not as x[..., None])")
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in seen:
            seen.add(n.id)
            if n.id in k.params or n.id == mod.tl() or n.id == mod.triton():
                continue
            s = defs.stmt.get(n.id)
            if s is None:
                raise RewriteRefused(f"{k.name}: {what}{path} uses {n.id} (line {n.lineno}), which is not bound "
                                     "once at the top level of the kernel")
            _check_flat(mod, k, defs, s.value, what, seen, (*via, n.id))


def _pointer_param(mod: Module, k: Kernel, terms: list[ast.expr]) -> str | None:
    values = mod.recorded_values(k.name)
    for t in terms:
        if isinstance(t, ast.Name) and t.id in k.params and values.get(t.id, {}).get("kind") == "tensor":
            return t.id
    return None


def _no_store_between(mod: Module, k: Kernel, a: int, b: int) -> bool:
    """No statement from a to b stores to memory: no tl store or atomic, and no call of a
    function of the user's (a @triton.jit helper may store), built-ins aside."""
    for s in k.node.body[a:b + 1]:
        for c in calls(s):
            if mod.tl_func(c) in STORE_TL:
                return False
            if isinstance(c.func, ast.Name) and c.func.id not in NON_STORING_BUILTINS:
                return False
    return True


def _pairs(mod: Module, k: Kernel, defs: Defs, accs: list[Access]) -> list[Pair]:
    pairs: list[Pair] = []
    used: set[int] = set()
    for e in accs:
        if e.odd or id(e) in used:
            continue
        o = next((x for x in accs if x.odd and id(x) not in used and x.key == e.key), None)
        if o is None:
            continue
        lo, hi = sorted((e.index, o.index))
        if e.kind == "load" and not _no_store_between(mod, k, lo, hi):
            continue
        if e.kind == "store" and not (hi == lo + 1 and isinstance(e.stmt, ast.Expr) and e.stmt.value is e.call
                                      and isinstance(o.stmt, ast.Expr) and o.stmt.value is o.call):
            continue
        ptr = _pointer_param(mod, k, e.terms)
        if ptr is None:
            continue
        seen: set[str] = set()
        for t in e.terms:
            _check_flat(mod, k, defs, t, f"line {e.call.lineno}: the pointer's base", seen)
        for x in [*e.args, *(kw.value for kw in e.kws)]:
            _check_flat(mod, k, defs, x, f"line {e.call.lineno}: the mask or `other`", seen)
        used |= {id(e), id(o)}
        pairs.append(Pair(e, o, ptr))
    return pairs


def analyze(mod: Module, k: Kernel) -> PairsPlan:
    name = k.name
    check_wrappers(mod, k, "launch")
    defs = Defs(k)
    sizes = _index_vectors(mod, k, defs)
    if not sizes:
        raise RewriteRefused(f"{name} binds no index vector `i = tl.arange(0, H)` at its top level")
    accs = _accesses(mod, k, defs, set(sizes))
    if not any(a.odd for a in accs):
        raise RewriteRefused(f"{name} has no load or store at `2 * i + 1` beside one at `2 * i` at its top level")
    pairs = _pairs(mod, k, defs, accs)
    if not pairs:
        raise RewriteRefused(f"{name}: no accesses at `2 * i` and `2 * i + 1` pair up (same pointer terms and "
                             "keywords; loads with no store between them, stores adjacent, a pointer parameter "
                             "among the terms)")
    site = mod.one_site(name)
    lines = ", ".join(f"line {p.even.call.lineno}" for p in pairs)
    why = (f"{name}: {len(pairs)} pair(s) of accesses at 2*i and 2*i+1 ({lines}): one contiguous access of "
           "2H elements each, split into even and odd lanes")
    return PairsPlan(k, site, why, {**DEFAULTS, "kernel": name, "num_warps": launch_warps(site)},
                     {"num_warps": REWRITE_WARPS}, pairs, sizes)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _contiguous_ptr(mod: Module, acc: Access, j: str) -> str:
    return " + ".join([*(f"({mod.text(t)})" if isinstance(t, ast.BinOp) else mod.text(t) for t in acc.terms), j])


def _args_text(mod: Module, acc: Access) -> str:
    """The access's arguments besides pointer and value, as written (", mask, other=0.0")."""
    return "".join([*(f", {mod.text(a)}" for a in acc.args), *(f", {kw.arg}={mod.text(kw.value)}" for kw in acc.kws)])


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    tl = mod.tl()
    edits: list[Edit] = []
    for pair in plan.pairs:
        even, odd = pair.even, pair.odd
        h = plan.sizes[even.vec]
        j = mod.fresh(f"{even.vec}_pairs")
        if even.kind == "load":
            ab, ev, od = mod.fresh("pairs"), mod.fresh(f"{even.vec}_even"), mod.fresh(f"{even.vec}_odd")
            first = even.stmt if even.index <= odd.index else odd.stmt
            edits.append(mod.insert_before(first, [
                f"{j} = {tl}.arange(0, 2 * {h})",
                f"{ab} = {tl}.load({_contiguous_ptr(mod, even, j)}{_args_text(mod, even)})",
                f"{ev}, {od} = {tl}.split({tl}.reshape({ab}, {ab}.shape[:-1] + ({h}, 2)))"]))
            edits += [mod.replace(even.call, ev), mod.replace(odd.call, od)]
        else:
            ptr = pair.ptr
            e, o, v = mod.fresh("even"), mod.fresh("odd"), mod.fresh("pairs")
            v0, v1 = call_arg(even.call, 1, "value"), call_arg(odd.call, 1, "value")
            assert v0 is not None and v1 is not None       # _accesses keeps stores with a value
            lead, follow = (even, odd) if even.index < odd.index else (odd, even)
            edits.append(mod.replace_stmt(lead.stmt, [
                f"{j} = {tl}.arange(0, 2 * {h})",
                f"{e}, {o} = {tl}.broadcast({mod.text(v0)}, {mod.text(v1)})",
                f"{v} = {tl}.join({e}.to({ptr}.dtype.element_ty), {o}.to({ptr}.dtype.element_ty))",
                (f"{tl}.store({_contiguous_ptr(mod, even, j)}, {tl}.reshape({v}, {v}.shape[:-2] + (2 * {h},))"
                 f"{_args_text(mod, even)})")]))
            edits.append(mod.delete_stmt(follow.stmt))
    edits.append(mod.set_launch_arg(plan.site, "num_warps", str(int(p["num_warps"]))))
    return apply_edits(mod.source, edits)
