"""Atomic sums a persistent grid can take out of its tile loop (persistent_grid's ``hoist``).

A row kernel that adds each row's contribution into one shared vector (a norm backward's dw,
a loss summed over rows) issues one ``tl.atomic_add`` per row and element, all on the same
addresses: on the H100 the unseen rmsnorm_bwd (8192 rows into 4096 floats) stayed at about
1.4x torch.compile's time after its rows were held in registers and its atomics relaxed
(bench/results/h100-night-2026-12-07). Once a program loops over tiles, it can add its tiles'
contributions in registers and issue one atomic per element at the end: as many atomics as
programs instead of as tiles.

Hoistable, in kernel K (checked here; persistent_grid checks the rest):

- the atomic is ``tl.atomic_add`` as a statement of its own at K's top level (its old value
  unread; not inside a loop or branch, so every tile runs it exactly once);
- its pointer and mask are the same for every tile: computed only from K's parameters,
  constants and names bound at K's top level from such values (once, or again by the same
  expression, as an unrolled second pass rebinds its columns), through calls of
  triton.language that only compute (no ``tl.program_id``, no load, no random numbers);
- the tensors it targets are used in K only to address atomics, are not passed twice, and K
  makes no cas/xchg or barrier and calls no other @triton.jit function (relaxed_atomics'
  checks: nothing in K reads what the atomics write while it runs).

The rewrite (persistent_grid.apply): before the tile loop, the definitions the pointer and the
mask need, then ``acc = tl.zeros((P).shape, (P).dtype.element_ty)``; in the loop the atomic
becomes ``acc += tl.where(M, V, 0).to(acc.dtype)`` (``V`` alone without a mask); after it,
``tl.atomic_add(P, acc, mask=M)`` with the atomic's own ``sem`` and ``scope``.

Why it is correct: P and M do not depend on the tile, so each tile's atomic added V in the
lanes M keeps into the same addresses; the sum over a program's tiles, added once, changes
the memory by the same total. The order of floating-point additions changes (as it did from
run to run between programs' atomics), and the partial sums are in the target's element type,
as each atomic's addition was."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from ..srcedit import RewriteRefused
from .common import IMPURE_TL, Kernel, Module, call_arg, calls, names_in
from .relaxed_atomics import atomic_targets, check_no_helpers, check_unaliased

HOIST_TL = "atomic_add"
VARYING_TL = IMPURE_TL | {"program_id", "num_programs"}
ATOMIC_ARGS = ("pointer", "val", "mask", "sem", "scope")


@dataclass
class Hoist:
    stmt: ast.Expr              # the atomic's statement, in K's top-level body
    call: ast.Call
    needs: list[ast.Assign]     # the top-level definitions its pointer and mask read, in order


def single_defs(k: Kernel) -> dict[str, ast.Assign]:
    """Names every binding of which is a top-level ``name = value`` of one same expression (an
    unrolled second pass binds ``cols = tl.arange(0, BLOCK)`` again), each with its first."""
    stores: dict[str, int] = {}
    for n in ast.walk(k.node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            stores[n.id] = stores.get(n.id, 0) + 1
    top: dict[str, list[ast.Assign]] = {}
    for st in k.node.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            top.setdefault(st.targets[0].id, []).append(st)
    return {name: sts[0] for name, sts in top.items()
            if len(sts) == stores.get(name) and len({ast.dump(st.value) for st in sts}) == 1}


def _invariant(mod: Module, k: Kernel, defs: dict[str, ast.Assign], bound: set[str], e: ast.AST,
               why: str) -> list[ast.Assign]:
    """The definitions e reads (bound: every name K binds), each checked to be the same for
    every tile (module docstring)."""
    need: list[ast.Assign] = []
    todo, seen = sorted(names_in(e)), set()
    while todo:
        name = todo.pop()
        if name in seen or name in k.params or name not in bound:
            continue        # a parameter, or a module global (tl, a constant): the same for every tile
        seen.add(name)
        st = defs.get(name)
        if st is None:
            raise RewriteRefused(f"{k.name}: {why} reads {name}, bound other than once at the top level")
        need.append(st)
        todo += sorted(names_in(st.value))
    for node in [e, *(st.value for st in need)]:
        for c in calls(node):
            f = mod.tl_func(c)
            if f in VARYING_TL or (f is None and not (isinstance(c.func, ast.Attribute) and c.func.attr == "to")):
                raise RewriteRefused(f"{k.name} line {c.lineno}: {why} is computed through "
                                     f"{f and 'tl.' + f or mod.text(c.func)}, which may differ between tiles")
    return need


def hoistable(mod: Module, k: Kernel) -> list[Hoist]:
    """K's atomic sums a persistent loop may take out of the loop; RewriteRefused says why none."""
    found = [c for c in calls(k.node) if mod.tl_func(c) == HOIST_TL]
    if not found:
        raise RewriteRefused(f"{k.name}: no tl.{HOIST_TL}")
    check_no_helpers(mod, k)
    check_unaliased(mod, k, atomic_targets(mod, k, found))
    defs = single_defs(k)
    bound = {n.id for n in ast.walk(k.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    out = []
    for c in found:
        st = mod.parents.get(c)
        if not (isinstance(st, ast.Expr) and st in k.node.body):
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{HOIST_TL} is not a statement at the kernel's "
                                 "top level")
        if {kw.arg for kw in c.keywords} - set(ATOMIC_ARGS) or len(c.args) > len(ATOMIC_ARGS):
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{HOIST_TL}'s arguments are not plain")
        if any(mod.tl_func(x) == "program_id" for x in calls(c)):
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{HOIST_TL} reads tl.program_id itself")
        ptr, mask = call_arg(c, 0, "pointer"), call_arg(c, 2, "mask")
        if ptr is None or call_arg(c, 1, "val") is None:
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{HOIST_TL} without a pointer or a value")
        need = _invariant(mod, k, defs, bound, ptr, f"the address of the atomic at line {c.lineno}")
        if mask is not None:
            need += [s for s in _invariant(mod, k, defs, bound, mask, f"the mask of the atomic at line {c.lineno}")
                     if s not in need]
        out.append(Hoist(st, c, sorted(need, key=lambda s: (s.lineno, s.col_offset))))
    return out


def hoist_texts(mod: Module, hoists: list[Hoist], acc_names: list[str]) -> tuple[list[str], list[str]]:
    """(the statements before the tile loop, those after it), one per line, unindented but for
    a multi-line definition's own continuation lines."""
    tl = mod.tl()
    before: list[str] = []
    seen: set[int] = set()
    for h in hoists:
        for s in h.needs:
            if id(s) not in seen:
                seen.add(id(s))
                before.append(mod.text(s))
    after = []
    for h, acc in zip(hoists, acc_names):
        ptr = mod.text(call_arg(h.call, 0, "pointer"))  # type: ignore[arg-type]
        before.append(f"{acc} = {tl}.zeros(({ptr}).shape, ({ptr}).dtype.element_ty)")
        opts = "".join(f", {key}={mod.text(v)}" for key, pos in (("mask", 2), ("sem", 3), ("scope", 4))
                       if (v := call_arg(h.call, pos, key)) is not None)
        after.append(f"{tl}.{HOIST_TL}({ptr}, {acc}{opts})")
    return before, after


def accumulate_text(mod: Module, h: Hoist, acc: str) -> str:
    """What the atomic's statement becomes inside the tile loop."""
    val = mod.text(call_arg(h.call, 1, "val"))  # type: ignore[arg-type]
    mask = call_arg(h.call, 2, "mask")
    add = f"{mod.tl()}.where({mod.text(mask)}, {val}, 0)" if mask is not None else f"({val})"
    return f"{acc} += {add}.to({acc}.dtype)"
