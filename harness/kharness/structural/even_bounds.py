"""even_bounds: a loop that walks a length N in blocks of B masks every block against N, though
when B divides N no block runs past it. The rewrite adds a constexpr flag per (N, B), computed by
an ``@triton.heuristics`` from the launch's own arguments (``N % B == 0``), and ORs it into each
bound check: ``(cols < N) | EVEN_N``. Where the flag is true the masks are constant and Triton
compiles them away (loads and stores unmasked, ``tl.where`` folded); where it is false the
kernel is the original. What the masks cost is arithmetic inside the loop (a compare and a
select per element of a score tile, the masked load's predicate): on a loop whose body is bound
by arithmetic (a flash-attention tile loop, a first-draft matmul's K loop) rather than by
memory. A sweep of the launch cannot remove a mask.

Precondition: kernel K is launched from one place, is not autotuned (the rewrite sweeps its
num_warps and num_stages with the flag; an ``@triton.heuristics`` of literal keys is kept and
extended), and has a loop ``for v in range(0, N, B)`` (or ``tl.range``), N a parameter that is
not a constexpr and that K never assigns, B a constexpr, v stored in the loop by the loop alone.
In its body a *bound check* is a comparison ``C < N`` (or ``N > C``) where C is the loop's
column vector, possibly indexed by ``None`` and ``:`` only (``C[:, None]``): ``v + A`` (either
order), A ``tl.arange(0, B)`` or a name K binds once to it; inline, or through a name that a
statement of the loop's body binds to it, ahead of the check's statement, the name stored
nowhere else in the loop. At least one (N, B) has a bound check and, in the recorded launch, B
divides N (else every launch at these sizes would take the masked path).

Why it is correct: v takes the values 0, B, ..., the last below N; when B divides N the last is
N - B, so every column ``v + i`` (0 <= i < B) is below N and each bound check is true wherever
it is evaluated: OR-ing true into it changes nothing. When the flag is false, ``x | False`` is
x. The flag is computed from the N and B the launch passes, by Triton, at every launch."""
from __future__ import annotations

import ast
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    Fit,
    Kernel,
    Module,
    Plan,
    check_params,
    check_wrappers,
    option_domain,
    option_edits,
    pick,
    survey_one,
)
from .patterns import grouped, is_arange, is_columns, strip_broadcast
from .row_single_block import row_loop

NAME = "even_bounds"
DEFAULTS: dict[str, Any] = {"kernel": ""}
# Without the masks' predicates and selects the register pressure and the pipeline's best
# depth move: the warps and stages are swept with the flag (the launch's own values are the
# defaults and always in the domain; Triton's, knobs.OPTION_DEFAULTS, when it sets none).
OPTION_DOMAIN = {"num_warps": [4, 8], "num_stages": [2, 3, 4]}


@dataclass
class Bound:
    """The bound checks of one (N, B) pair, and whether B divided N in the recorded launch."""

    n: str
    block: str
    even: bool
    checks: list[ast.Compare] = field(default_factory=list)


@dataclass
class EvenPlan(Plan):
    bounds: list[Bound] = field(default_factory=list)


def _binds(k: Kernel) -> tuple[Counter[str], dict[str, ast.Assign]]:
    """How often each name is stored in the kernel (parameters count once), and the one
    assignment of names stored once by a plain ``name = value``."""
    stores: Counter[str] = Counter(n.id for n in ast.walk(k.node)
                                   if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    for a in k.node.args.posonlyargs + k.node.args.args:
        stores[a.arg] += 1
    once: dict[str, ast.Assign] = {}
    for n in ast.walk(k.node):
        if (isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
                and stores[n.targets[0].id] == 1):
            once[n.targets[0].id] = n
    return stores, once


def _loop_columns(mod: Module, loop: ast.For, var: str, block: str,
                  aranges: dict[str, str]) -> dict[str, int]:
    """Names holding the loop's columns: bound by a statement of the loop's body (at its top
    level, index i in the body) to ``var + A`` and stored nowhere else in the loop -> i. From
    the next statement on, in every iteration, the name holds this iteration's columns."""
    stored = Counter(n.id for n in ast.walk(loop) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    out: dict[str, int] = {}
    for i, s in enumerate(loop.body):
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and stored[s.targets[0].id] == 1 and is_columns(mod, s.value, var, block, aranges)):
            out[s.targets[0].id] = i
    return out


def _flagged(k: Kernel, loop: ast.For) -> set[int]:
    """The comparisons of the loop already OR-ed with a constexpr of the kernel (``(c < N) |
    EVEN_N``, this rewrite's own output): flagging them again would only add a second flag, so
    a kernel the rewrite has made is refused rather than proposed once more."""
    out: set[int] = set()
    for b in ast.walk(loop):
        if isinstance(b, ast.BinOp) and isinstance(b.op, ast.BitOr):
            for x, other in ((b.left, b.right), (b.right, b.left)):
                if isinstance(x, ast.Compare) and isinstance(other, ast.Name) and other.id in k.constexprs:
                    out.add(id(x))
    return out


def _loop_checks(mod: Module, k: Kernel, loop: ast.For, stores: Counter[str],
                 aranges: dict[str, str]) -> tuple[str, str, list[ast.Compare]]:
    """(N, B, the loop's bound checks) when the loop is ``for v in range(0, N, B)`` as the
    module docstring says; refused, naming the line and the condition, otherwise."""
    at = f"{k.name} line {loop.lineno}"
    nb = row_loop(mod, k, loop, options=True)
    if nb is None or not isinstance(loop.target, ast.Name):
        raise RewriteRefused(f"{at}: the loop is not `for v in range(0, N, B)` with names N and B (N a parameter, "
                             "B a constexpr)")
    (n, b), var = nb, loop.target.id
    if n in k.constexprs or stores[n] != 1:
        raise RewriteRefused(f"{at}: its bound {n} is not a parameter (not a constexpr) the kernel leaves as passed")
    if any(isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store) and x.id == var and x is not loop.target
           for x in ast.walk(loop)):
        raise RewriteRefused(f"{at}: {var} is assigned inside the loop")
    cols = _loop_columns(mod, loop, var, b, aranges)
    flagged = _flagged(k, loop)
    checks: list[ast.Compare] = []
    for i, top in enumerate(loop.body):
        for c in ast.walk(top):
            if not (isinstance(c, ast.Compare) and len(c.ops) == 1) or id(c) in flagged:
                continue
            if isinstance(c.ops[0], ast.Lt):
                col, bound = c.left, c.comparators[0]
            elif isinstance(c.ops[0], ast.Gt):
                bound, col = c.left, c.comparators[0]
            else:
                continue
            if not (isinstance(bound, ast.Name) and bound.id == n):
                continue
            col = strip_broadcast(col)
            if (isinstance(col, ast.Name) and cols.get(col.id, i) < i) or is_columns(mod, col, var, b, aranges):
                checks.append(c)
    if not checks:
        done = " other than those already OR-ed with a constexpr flag" if flagged else ""
        raise RewriteRefused(f"{at}: no comparison of the loop's columns `{var} + tl.arange(0, {b})` with {n} "
                             f"(`< {n}`) in the loop{done}")
    return n, b, checks


def analyze(mod: Module, k: Kernel) -> EvenPlan:
    name = k.name
    check_wrappers(mod, k, "num_warps and num_stages")
    stores, once = _binds(k)
    aranges = {v: a.value.args[1].id for v, a in once.items()       # names bound once to tl.arange(0, B) -> B
               if isinstance(a.value, ast.Call) and len(a.value.args) == 2 and isinstance(a.value.args[1], ast.Name)
               and is_arange(mod, a.value, a.value.args[1].id)}
    bounds: dict[tuple[str, str], Bound] = {}
    why_not: list[str] = []
    for loop in (x for x in ast.walk(k.node) if isinstance(x, ast.For)):
        try:
            n, b, checks = _loop_checks(mod, k, loop, stores, aranges)
        except RewriteRefused as e:
            why_not.append(str(e))
            continue
        if (n, b) not in bounds:
            even = mod.recorded_int(name, n) % max(1, mod.recorded_int(name, b)) == 0
            bounds[(n, b)] = Bound(n, b, even)
        seen = {id(c) for c in bounds[(n, b)].checks}
        bounds[(n, b)].checks += [c for c in checks if id(c) not in seen]
    if not bounds:
        raise RewriteRefused("; ".join(why_not) or f"{name} has no loop")
    if not any(bd.even for bd in bounds.values()):
        sizes = ", ".join(f"{bd.n} = {mod.recorded_int(name, bd.n)} and {bd.block} = "
                          f"{mod.recorded_int(name, bd.block)}" for bd in bounds.values())
        raise RewriteRefused(f"{name}: in the recorded launch no block divides its bound ({sizes}): every launch "
                             "at these sizes would keep the masks")
    site = mod.one_site(name)
    options, domain = option_domain(mod, site, OPTION_DOMAIN)
    params: dict[str, Any] = {**DEFAULTS, "kernel": name, **options}
    listed = "; ".join(f"{len(bd.checks)} check(s) against {bd.n} in blocks of {bd.block} (line "
                       f"{', '.join(str(c.lineno) for c in bd.checks)}){', which it divides' if bd.even else ''}"
                       for bd in bounds.values())
    why = f"{name}: {listed}: a flag for an exact multiple makes them constant"
    return EvenPlan(k, site, why, params, domain, list(bounds.values()))


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _heuristics_edit(mod: Module, k: Kernel, entries: list[str]) -> Edit:
    """The flags' heuristics: added to the kernel's @triton.heuristics dict, or a new decorator
    written just above @triton.jit."""
    for d in k.node.decorator_list:
        if isinstance(d, ast.Call) and mod.qualname(d.func) == "triton.heuristics":
            table = d.args[0] if d.args else None
            if not isinstance(table, ast.Dict) or None in table.keys:
                raise RewriteRefused(f"{k.name}: its @triton.heuristics is not a literal dict")
            a, b = mod.index.span(table)
            if table.values:
                _, end = mod.index.span(table.values[-1])
                return Edit(end, end, ", " + ", ".join(entries))
            return Edit(a + 1, b - 1, ", ".join(entries))
    pos = mod.line_start(k.jit.lineno)
    ind = mod.index.line_indent(k.jit.lineno)
    return Edit(pos, pos, f"{ind}@{mod.triton()}.heuristics({{{', '.join(entries)}}})\n")


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    k = plan.kernel
    edits: list[Edit] = option_edits(mod, plan, p, OPTION_DOMAIN)
    flags, entries = [], []
    for bd in plan.bounds:
        flag = mod.fresh(f"EVEN_{bd.n.upper()}")
        flags.append(flag)
        entries.append(f'"{flag}": lambda args: args["{bd.n}"] % args["{bd.block}"] == 0')
        # parenthesised so that | binds to the whole comparison: ((c < N) | F), ~((c < N) | F)
        edits += [mod.replace(c, grouped(mod, c, f"({mod.text(c)}) | {flag}")) for c in bd.checks]
    defaults = "False" if k.defaults else None
    edits += [mod.add_kernel_params(k, [(f, True, defaults) for f in flags]), _heuristics_edit(mod, k, entries)]
    return apply_edits(mod.source, edits)
