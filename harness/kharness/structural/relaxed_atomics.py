"""relaxed_atomics: ``tl.atomic_add`` (and the other read-modify-write atomics) default to
``sem="acq_rel"``: on sm_90 Triton emits ``atom.global.gpu.acq_rel.add``, which ptxas brackets
with a ``MEMBAR.ALL.GPU`` before and a ``CCTL.IVALL`` (an L1 invalidation) after every atomic
(the suite's scatter_add, built offline for cuda:90). A kernel that only *accumulates* through
its atomics (a scatter-add, a histogram, a split-K partial sum) needs none of that ordering:
with ``sem="relaxed"`` the same add is one ``REDG``.

Precondition (syntax and the recorded launch), in kernel K:

- K makes one or more read-modify-write atomics (``tl.atomic_add``, ``_max``, ``_min``,
  ``_and``, ``_or``, ``_xor``), none of them naming a ``sem`` (an explicit ordering is the
  author's), each a statement of its own (its result, the old value, is never read);
- K makes no ``tl.atomic_cas`` or ``tl.atomic_xchg`` and no ``tl.debug_barrier`` (the tools of
  kernels that synchronise programs through memory), and calls no other @triton.jit function
  of the module (whose accesses this does not follow);
- every tensor an atomic targets (a parameter the recorded launch passed a tensor, named in
  the atomic's pointer) is used in K only to compute atomics' addresses: every read of it, or
  of a name bound from it, sits in an atomic's pointer (through arithmetic and
  ``tl.multiple_of``/``max_contiguous``/``max_constancy``) or in a plain binding of such a
  name — so K never loads, stores or passes it elsewhere;
- at the launch, the argument for each target names no variable that the argument of a
  parameter other than a target names (the same tensor passed twice would be read through the
  other parameter; two targets may share one, both only accumulated into).

The rewrite adds ``sem="relaxed"`` to each of those atomics; with it, ``num_warps`` over
OPTION_DOMAIN (the launch's own is the default) where the launch gives a literal or none; a
computed one (row_single_block's copy sizes its warps from the row's block) stays as it is.

Why it is correct: a relaxed atomic is still atomic — each read-modify-write of a location is
indivisible and the updates of every program to it are totally ordered (PTX's memory model:
relaxed atomics take part in the location's coherence order), so no update is lost and the
final value is the combination of all of them, as before. What acq_rel adds is ordering of
the thread's *other* memory accesses around the atomic, visible only to a thread that reads
the atomically updated memory during the kernel and infers something from it — which K never
does (no atomic result read, no load or store of a target, no cas/xchg, no barrier), and no
other kernel runs concurrently on the same stream: at the kernel's end every write is visible
to what follows, whatever its ordering. The order in which concurrent floating-point adds
land was never fixed, so the sum's rounding varies from run to run with either ordering.
Assumed, not checked: two tensors passed under different names do not overlap in memory."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    Fit,
    Kernel,
    Module,
    Plan,
    call_arg,
    calls,
    check_params,
    derived,
    names_in,
    option_domain,
    option_edits,
    pick,
    survey_one,
)

NAME = "relaxed_atomics"
DEFAULTS: dict[str, Any] = {"kernel": ""}
SEM = "sem"
RELAXED = '"relaxed"'
RMW = ("atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor")
SYNC = ("atomic_cas", "atomic_xchg", "debug_barrier")
# value-only wrappers an address may pass through on its way to an atomic (compiler hints)
ADDRESS_HINTS = ("multiple_of", "max_contiguous", "max_constancy")
SEM_POS = 3                     # tl.atomic_add(pointer, val, mask, sem, scope)
OPTION_DOMAIN = {"num_warps": [4, 8, 16]}


@dataclass
class AtomicPlan(Plan):
    atomics: list[ast.Call] = field(default_factory=list)
    targets: list[str] = field(default_factory=list)


def _atomics(mod: Module, k: Kernel) -> list[ast.Call]:
    """K's read-modify-write atomics, each checked: no ordering named, its result unread."""
    found = []
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f in SYNC:
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{f}: the kernel synchronises through memory, "
                                 "where the atomics' ordering matters")
        if f not in RMW:
            continue
        if call_arg(c, SEM_POS, SEM) is not None:
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{f} names its ordering (the author's choice is kept)")
        if not isinstance(mod.parents.get(c), ast.Expr):
            raise RewriteRefused(f"{k.name} line {c.lineno}: the old value tl.{f} returns is read; the ordering "
                                 "around it may matter")
        found.append(c)
    if not found:
        raise RewriteRefused(f"{k.name}: no read-modify-write atomic (tl.{', tl.'.join(RMW)})")
    return found


def check_no_helpers(mod: Module, k: Kernel) -> None:
    for c in calls(k.node):
        if isinstance(c.func, ast.Name) and c.func.id in mod.kernels:
            raise RewriteRefused(f"{k.name} line {c.lineno}: calls {c.func.id}, a @triton.jit function whose "
                                 "memory accesses this rewrite does not follow")


def _in_address(mod: Module, n: ast.Name, atomics: list[ast.Call]) -> bool:
    """n sits in an atomic's pointer argument, or in the value of a plain binding, through
    arithmetic, subscripts and address hints only."""
    node: ast.AST = n
    while True:
        up = mod.parents.get(node)
        if isinstance(up, ast.keyword):         # an argument by name: node stays its value
            up = mod.parents.get(up)
        if isinstance(up, ast.Call):
            if any(up is c for c in atomics):
                return call_arg(up, 0, "pointer") is node
            if mod.tl_func(up) not in ADDRESS_HINTS or call_arg(up, 0, "input") is not node:
                return False
        elif isinstance(up, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            return node is up.value
        elif not isinstance(up, (ast.BinOp, ast.UnaryOp, ast.Subscript, ast.Slice, ast.Tuple)):
            return False
        node = up


def _address_names(mod: Module, e: ast.AST) -> set[str]:
    """The names an address is computed from: e's names outside the loads inside it (a value
    loaded from memory is data, an index into the tensor, not an address into the tensor it
    came from)."""
    if mod.tl_func(e) == "load":
        return set()
    if isinstance(e, ast.Name):
        return {e.id}
    return {n for c in ast.iter_child_nodes(e) for n in _address_names(mod, c)}


def _derived_from(mod: Module, k: Kernel, p: str) -> set[str]:
    """p and every name bound, anywhere in k, to an address computed from it."""
    return {p} | derived(k, lambda e, so_far: bool(_address_names(mod, e) & ({p} | so_far)))


def atomic_targets(mod: Module, k: Kernel, atomics: list[ast.Call]) -> list[str]:
    """The tensor parameters the atomics write through, each checked to be used only to address
    atomics (module docstring)."""
    values = mod.recorded_values(k.name)        # refused when the forward did not launch it
    roots = {p: _derived_from(mod, k, p) for p in k.params if values.get(p, {}).get("kind") == "tensor"}
    out: list[str] = []
    for c in atomics:
        ptr = call_arg(c, 0, "pointer")
        if ptr is None:
            raise RewriteRefused(f"{k.name} line {c.lineno}: the atomic's pointer is not a plain argument")
        names = _address_names(mod, ptr)
        out += [p for p, r in roots.items() if names & r and p not in out]
    if not out:
        raise RewriteRefused(f"{k.name}: no atomic's address is computed from a tensor the recorded launch passed")
    for p in out:
        for n in ast.walk(k.node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in roots[p] \
                    and not _in_address(mod, n, atomics):
                raise RewriteRefused(f"{k.name} line {n.lineno}: {n.id} (the atomics' target {p}) is used other "
                                     "than as an atomic's address; a load or store of it could see the ordering")
    return out


def check_unaliased(mod: Module, k: Kernel, targets: list[str]) -> None:
    for site in mod.sites_of(k.name):
        for p in targets:
            arg = site.bound.get(p)
            if arg is None:
                raise RewriteRefused(f"line {site.call.lineno}: the launch of {k.name} passes {p} through * or **")
            mine = names_in(arg)
            for q, other in site.bound.items():
                if q not in targets and mine & names_in(other):
                    raise RewriteRefused(f"line {site.call.lineno}: the launch passes {mod.text(arg)} as {p} and "
                                         f"{mod.text(other)} as {q}: the atomics' target may be read through {q}")


def analyze(mod: Module, k: Kernel) -> AtomicPlan:
    atomics = _atomics(mod, k)
    check_no_helpers(mod, k)
    targets = atomic_targets(mod, k, atomics)
    check_unaliased(mod, k, targets)
    site = mod.one_site(k.name)
    try:
        options, domain = option_domain(mod, site, OPTION_DOMAIN)
    except RewriteRefused:
        # the launch computes its warps (row_single_block's copy does, from the row's block):
        # they stay as computed, and the one point is the kernel's
        options, domain = {}, {"kernel": [k.name]}
    lines = ", ".join(str(c.lineno) for c in atomics)
    why = (f"{k.name}: {len(atomics)} atomic(s) at the default acq_rel ordering (line {lines}) only accumulate "
           f"into {', '.join(targets)}, which the kernel never reads: relaxed ordering drops the fences around each")
    return AtomicPlan(k, site, why, {**DEFAULTS, "kernel": k.name, **options}, domain, atomics, targets)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    edits: list[Edit] = option_edits(mod, plan, p, [o for o in OPTION_DOMAIN if o in plan.params])
    edits += [mod.add_call_keyword(c, f"{SEM}={RELAXED}") for c in plan.atomics]
    return apply_edits(mod.source, edits)
