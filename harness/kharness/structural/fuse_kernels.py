"""fuse_kernels: two kernels launched one after the other over the same 1-D grid, where the
first leaves a value per program in a scratch tensor that the second reads back at the same
index (a row's statistics, then the row normalised with them), become one kernel: the first
body, then the second, the value kept in a local variable instead of memory.

Precondition: K1's launch statement is followed directly by K2's; each kernel has that one
launch site, neither is autotuned or has heuristics; the two grids are the same expression,
a 1-D tuple; K1 never returns (the second body must run after all of the first); some
tensor S is passed to both as a plain name, K1 uses its parameter only in one top-level
statement ``tl.store(P1 + I, V)`` (no mask) and K2 uses its parameter only in
``tl.load(P2 + I)`` calls (no mask), I being the program id (``tl.program_id(0)``, through a
name bound to it once at the kernel's top level, ``.to(...)`` allowed, the same form in
both); every other tensor K1 stores into (S too, through another parameter) is not passed to
K2, and no tensor K2 stores into is passed to K1; K2 reads no module-level name that K1 binds.

The rewrite: a kernel ``K1_K2`` (a fresh name) with K1's parameters and K2's. A parameter of
K2 whose launch passes the same plain name or pure size expression as one of K1's (of the same
kind, constexpr or not, and never assigned in K1) becomes that parameter; a block constexpr of
K2 that only sizes blocks and steps loops `range(0, N, B2)` over a row whose length became
K1's, every load and store in them masked, becomes the block of K1's row loops over that
length (the row then walks in K1's steps; reductions in those loops may sum in another order,
which the judge's budget allows); K2's other names that K1 also uses get fresh ones. Then
K1's body with the store replaced by
``S_value = tl.cast(V, P1.dtype.element_ty)``, then K2's body with its names renamed the same
way and each such load replaced by ``S_value``; K1's launch becomes one launch of it over the
same grid, every parameter passed by keyword (a default as its text), the launch options of
K1 (K2's where K1 has none) and ``num_warps`` from the domain; K2's launch is deleted. The
scratch tensor is still allocated and passed, and no longer read.

Why it is correct: program i of K2 reads only element I = i of S, which only program i of K1
wrote (every other program writes its own i), so running K2's body for i right after K1's
body for i gives it the same value; the cast reproduces the rounding of the store. No other
memory passes between the two kernels (the tensor checks above), so no program of the fused
kernel can see another program's half-done work that the two launches would have ordered."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    REWRITE_WARPS,
    Fit,
    Kernel,
    LaunchSite,
    Module,
    Plan,
    assigned_names,
    body_after_docstring,
    calls,
    check_block_uses,
    check_params,
    dedent_lines,
    grid_elements,
    kernel_span,
    launch_warps,
    names_in,
    pick,
    program_id_axis,
    pure_expr,
    reindent,
    survey_one,
)
from .patterns import stored_params, tensor_params
from .row_single_block import row_loop, unmasked

NAME = "fuse_kernels"
BODY_INDENT = "    "


@dataclass
class Link:
    """A scratch tensor passed from K1 to K2: its name at the launches, K1's parameter and
    store statement (and the value stored), K2's loads of it."""

    tensor: str
    p1: str
    store: ast.Expr
    value: ast.expr
    loads: list[ast.Call]


@dataclass
class FusePlan(Plan):
    second: Kernel
    site2: LaunchSite
    links: list[Link]


def _next_stmt(mod: Module, stmt: ast.stmt) -> ast.stmt | None:
    parent = mod.parents.get(stmt)
    for fld in ("body", "orelse", "finalbody"):
        lst = getattr(parent, fld, None)
        if isinstance(lst, list) and stmt in lst:
            i = lst.index(stmt)
            return lst[i + 1] if i + 1 < len(lst) else None
    return None


def _pid_form(mod: Module, k: Kernel, node: ast.AST) -> str | None:
    """"pid" when node is tl.program_id(0) (directly or through a name bound once to it at the
    kernel's top level), "pid.to(T)" with `.to(T)` applied (T's text), else None: K1's store
    and K2's loads must address the scratch with the same form."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to":
        inner = _pid_form(mod, k, node.func.value)
        args = ", ".join(mod.text(a) for a in node.args)
        return f"{inner}.to({args})" if inner == "pid" and not node.keywords else None
    if program_id_axis(mod, node) == 0:
        return "pid"
    if not isinstance(node, ast.Name):
        return None
    binds = [s for s in k.node.body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and isinstance(s.targets[0], ast.Name) and s.targets[0].id == node.id]
    stores = sum(1 for n in ast.walk(k.node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
                 and n.id == node.id)
    return _pid_form(mod, k, binds[0].value) if len(binds) == 1 and stores == 1 else None


def _offset_of(mod: Module, k: Kernel, ptr: ast.AST, param: str) -> str | None:
    """The program id's form I (_pid_form) when ptr is `param + I` or `I + param`, else None."""
    if not (isinstance(ptr, ast.BinOp) and isinstance(ptr.op, ast.Add)):
        return None
    for a, b in ((ptr.left, ptr.right), (ptr.right, ptr.left)):
        if isinstance(a, ast.Name) and a.id == param:
            form = _pid_form(mod, k, b)
            if form is not None:
                return form
    return None


def _uses(k: Kernel, param: str) -> list[ast.Name]:
    return [n for n in ast.walk(k.node) if isinstance(n, ast.Name) and n.id == param]


def _single_store(mod: Module, k: Kernel, param: str) -> tuple[ast.Expr, ast.expr, str] | None:
    """(statement, value, the index's form) of the one top-level `tl.store(param + I, V)` when
    param is used nowhere else."""
    uses = _uses(k, param)
    if len(uses) != 1:
        return None
    for s in k.node.body:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and mod.tl_func(s.value) == "store":
            c = s.value
            form = _offset_of(mod, k, c.args[0], param) if len(c.args) == 2 and not c.keywords else None
            if form is not None and uses[0] in ast.walk(c.args[0]):
                return s, c.args[1], form
    return None


def _loads_only(mod: Module, k: Kernel, param: str, form: str) -> list[ast.Call] | None:
    """The `tl.load(param + I)` calls, I of the given form, when param is used nowhere else."""
    uses = _uses(k, param)
    loads = [c for c in calls(k.node) if mod.tl_func(c) == "load" and len(c.args) == 1 and not c.keywords
             and _offset_of(mod, k, c.args[0], param) == form]
    covered = {id(n) for c in loads for n in ast.walk(c.args[0]) if isinstance(n, ast.Name) and n.id == param}
    return loads if loads and all(id(u) in covered for u in uses) else None


def _arg_names(site: LaunchSite, params: set[str]) -> set[str]:
    out: set[str] = set()
    for p in params:
        if p in site.bound:
            out |= names_in(site.bound[p])
    return out


def _check_pair(mod: Module, k1: Kernel, k2: Kernel, site1: LaunchSite, site2: LaunchSite) -> None:
    if k1.autotuned or k1.heuristics or k2.autotuned or k2.heuristics:
        raise RewriteRefused(f"{k1.name} or {k2.name} is autotuned or has heuristics (their configurations "
                             "cannot be merged)")
    if ast.dump(site1.grid) != ast.dump(site2.grid):
        raise RewriteRefused(f"lines {site1.call.lineno}, {site2.call.lineno}: {k1.name} and {k2.name} are "
                             "launched over different grids")
    if len(grid_elements(mod, site1)) != 1:
        raise RewriteRefused(f"line {site1.call.lineno}: the grid is not 1-D")
    for k, s in ((k1, site1), (k2, site2)):
        if any(isinstance(a, ast.Starred) for a in s.call.args):
            raise RewriteRefused(f"line {s.call.lineno}: the launch of {k.name} passes *args")
        if k.node.args.vararg or k.node.args.kwarg or k.node.args.kwonlyargs:
            raise RewriteRefused(f"{k.name} has *args, **kwargs or keyword-only parameters")
        if any(program_id_axis(mod, c) not in (None, 0) for c in calls(k.node)):
            raise RewriteRefused(f"{k.name} uses tl.program_id of another axis than 0")
        mod.check_no_multiline_strings(k.node, k.name)
    for n in ast.walk(k1.node):
        if isinstance(n, ast.Return):
            raise RewriteRefused(f"{k1.name} line {n.lineno}: returns early; the second kernel's body must run "
                                 "after all of the first")


def _links(mod: Module, k1: Kernel, k2: Kernel, s1: LaunchSite, s2: LaunchSite) -> list[Link]:
    def once(site: LaunchSite, name: str) -> bool:     # a tensor passed through one parameter
        return sum(isinstance(v, ast.Name) and v.id == name for v in site.bound.values()) == 1

    by_name2 = {v.id: p for p, v in s2.bound.items() if isinstance(v, ast.Name)}
    links = []
    for p1, v in s1.bound.items():
        if not isinstance(v, ast.Name) or v.id not in by_name2 or not (once(s1, v.id) and once(s2, v.id)):
            continue
        st = _single_store(mod, k1, p1)
        loads = _loads_only(mod, k2, by_name2[v.id], st[2]) if st is not None else None
        if st is not None and loads is not None:
            links.append(Link(v.id, p1, st[0], st[1], loads))
    if not links:
        raise RewriteRefused(f"{k1.name} -> {k2.name}: no tensor that {k1.name} writes once per program "
                             f"(`tl.store(P + pid, v)`) and {k2.name} only reads back at the same index")
    # the scratch is exempt only through the linked parameter: K1 writing it another way is not
    w1 = _arg_names(s1, stored_params(mod, k1) - {ln.p1 for ln in links})
    w2 = _arg_names(s2, stored_params(mod, k2))
    both = w1 & _arg_names(s2, tensor_params(mod, k2))
    if both:
        raise RewriteRefused(f"{k1.name} writes {', '.join(sorted(both))}, which {k2.name} also gets: another "
                             "program's part of it would not be written yet")
    back = w2 & _arg_names(s1, tensor_params(mod, k1))
    if back:
        raise RewriteRefused(f"{k2.name} writes {', '.join(sorted(back))}, which {k1.name} also gets")
    return links


def analyze(mod: Module, k1: Kernel) -> FusePlan:
    site1 = mod.one_site(k1.name)
    nxt = _next_stmt(mod, site1.stmt)
    if not (isinstance(site1.stmt, ast.Expr) and site1.stmt.value is site1.call):
        raise RewriteRefused(f"line {site1.call.lineno}: the launch of {k1.name} is not a statement of its own")
    site2 = next((s for s in mod.sites if nxt is not None and isinstance(nxt, ast.Expr) and s.call is nxt.value),
                 None)
    if site2 is None or site2.kernel == k1.name:
        raise RewriteRefused(f"line {site1.call.lineno}: the launch of {k1.name} is not followed directly by the "
                             "launch of another kernel")
    k2 = mod.kernels[site2.kernel]
    site2 = mod.one_site(k2.name)       # its only launch (refused otherwise): the one found
    _check_pair(mod, k1, k2, site1, site2)
    links = _links(mod, k1, k2, site1, site2)
    free2 = names_in(k2.node) - set(k2.params) - assigned_names(k2.node.body)
    clash = free2 & (set(k1.params) | assigned_names(k1.node.body))
    if clash:
        raise RewriteRefused(f"{k2.name} reads module-level name(s) {', '.join(sorted(clash))} that {k1.name} binds")
    why = (f"{k1.name} (line {site1.call.lineno}) leaves one value per program in "
           f"{', '.join(ln.tensor for ln in links)}, which {k2.name}, launched next over the same grid, reads back "
           "at the same index: one kernel keeps it in a register and saves a launch and a pass over memory")
    return FusePlan(k1, site1, why, {"kernel": k1.name, "num_warps": launch_warps(site1)},
                    {"num_warps": REWRITE_WARPS}, k2, site2, links)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _body_text(mod: Module, k: Kernel, edits: list[Edit]) -> str:
    body = body_after_docstring(k)      # a docstring stays behind
    ind = mod.stmt_indent(body[0])
    a, b = mod.line_start(body[0].lineno), mod.index.span(body[-1])[1]
    text = dedent_lines("\n" + mod.edited_range(a, b, edits), len(ind))[1:]
    return BODY_INDENT + reindent(text, BODY_INDENT)


def _signature(mod: Module, k: Kernel, rename: dict[str, str], skip: frozenset[str] | set[str] = frozenset()) \
        -> list[str]:
    a = k.node.args
    out = []
    for x in a.posonlyargs + a.args:
        if x.arg in skip:
            continue
        t = rename.get(x.arg, x.arg)
        if x.annotation is not None:
            t += f": {mod.text(x.annotation)}"
        out.append(t)
    return out


def _launch_args(mod: Module, k: Kernel, site: LaunchSite, rename: dict[str, str],
                 skip: frozenset[str] | set[str] = frozenset()) -> list[str]:
    a = k.node.args
    allp = a.posonlyargs + a.args
    defaults = dict(zip([x.arg for x in allp[len(allp) - len(a.defaults):]], a.defaults))
    out = []
    for p in k.params:
        if p in skip:
            continue
        node = site.bound.get(p, defaults.get(p))
        if node is None:
            raise RewriteRefused(f"line {site.call.lineno}: the launch of {k.name} passes no {p}")
        out.append(f"{rename.get(p, p)}={mod.text(node)}")
    return out


def _same_args(mod: Module, k1: Kernel, k2: Kernel, s1: LaunchSite, s2: LaunchSite) -> dict[str, str]:
    """K2's parameters that can be K1's: the launches pass them the same plain name or pure
    size expression, both constexpr or neither, and K1 never assigns its parameter."""
    bound1 = assigned_names(k1.node.body)
    out: dict[str, str] = {}
    for p2, e2 in s2.bound.items():
        if not (isinstance(e2, ast.Name) or pure_expr(mod, e2)):
            continue
        for p1, e1 in s1.bound.items():
            if ast.dump(e1) == ast.dump(e2) and p1 not in bound1 and p1 not in out.values() \
                    and (p1 in k1.constexprs) == (p2 in k2.constexprs):
                out[p2] = p1
                break
    return out


def _row_blocks(mod: Module, k: Kernel) -> dict[str, set[str]]:
    """Row length parameter -> the block constexprs of the kernel's `range(0, N, B)` loops."""
    out: dict[str, set[str]] = {}
    for n in ast.walk(k.node):
        nb = row_loop(mod, k, n)
        if nb is not None:
            out.setdefault(nb[0], set()).add(nb[1])
    return out


def _masked_loops(mod: Module, k: Kernel, block: str) -> bool:
    """Every load, store and atomic in K's loops stepped by block has a mask."""
    return not any(unmasked(mod, c) for n in ast.walk(k.node)
                   if (nb := row_loop(mod, k, n)) is not None and nb[1] == block for c in calls(n))


def _same_blocks(mod: Module, k1: Kernel, k2: Kernel, merged: dict[str, str]) -> dict[str, str]:
    """K2's row-loop blocks that can take K1's (the docstring's conditions)."""
    rows1, out = _row_blocks(mod, k1), {}
    for n2, blocks2 in _row_blocks(mod, k2).items():
        b1 = sorted(rows1.get(merged.get(n2, ""), ()))
        if len(b1) != 1 or len(blocks2) != 1:
            continue
        b2 = next(iter(blocks2))
        if b2 in merged or b2 in assigned_names(k2.node.body) or not _masked_loops(mod, k2, b2):
            continue
        steps = [n.iter.args[2] for n in ast.walk(k2.node)
                 if isinstance(n, ast.For) and isinstance(n.iter, ast.Call) and row_loop(mod, k2, n) == (n2, b2)]
        try:
            check_block_uses(mod, k2, b2, steps, NAME)
        except RewriteRefused:
            continue
        out[b2] = b1[0]
    return out


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    k1, k2, s1, s2 = plan.kernel, plan.second, plan.site, plan.site2
    tl = mod.tl()
    values = {ln.tensor: mod.fresh(f"{ln.tensor}_value") for ln in plan.links}
    merged = _same_args(mod, k1, k2, s1, s2)
    merged.update(_same_blocks(mod, k1, k2, merged))
    used1 = set(k1.params) | assigned_names(k1.node.body) | names_in(k1.node) | set(values.values())
    own2 = (set(k2.params) - set(merged)) | assigned_names(k2.node.body)
    rename = {**{n: mod.fresh(f"{n}_2") for n in sorted(own2 & used1)}, **merged}
    edits1 = [mod.replace(ln.store, f"{values[ln.tensor]} = {tl}.cast({mod.text(ln.value)}, "
                                    f"{ln.p1}.dtype.element_ty)") for ln in plan.links]
    inside = {id(n) for ln in plan.links for c in ln.loads for n in ast.walk(c)}
    edits2 = [mod.replace(c, values[ln.tensor]) for ln in plan.links for c in ln.loads]
    edits2 += [mod.replace(n, rename[n.id]) for n in ast.walk(k2.node)
               if isinstance(n, ast.Name) and n.id in rename and id(n) not in inside]
    fused = mod.fresh(f"{k1.name}_{k2.name}")
    deco = "".join(f"@{mod.text(d)}\n" for d in k1.node.decorator_list)
    sig = ", ".join(_signature(mod, k1, {}) + _signature(mod, k2, rename, skip=set(merged)))
    text = f"\n\n\n{deco}def {fused}({sig}):\n{_body_text(mod, k1, edits1)}\n{_body_text(mod, k2, edits2)}"
    opts = {**{n: mod.text(kw.value) for n, kw in s2.options.items()},
            **{n: mod.text(kw.value) for n, kw in s1.options.items()}, "num_warps": str(int(p["num_warps"]))}
    args = _launch_args(mod, k1, s1, {}) + _launch_args(mod, k2, s2, rename, skip=set(merged)) + \
        [f"{n}={v}" for n, v in opts.items()]
    launch = f"{fused}[{mod.text(s1.grid)}]({', '.join(args)})"
    end = max(kernel_span(mod, k1)[1], kernel_span(mod, k2)[1])
    edits = [Edit(end, end, text), mod.replace_stmt(s1.stmt, [launch]), mod.delete_stmt(s2.stmt)]
    return apply_edits(mod.source, edits)
