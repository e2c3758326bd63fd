"""Source normalizations: rewrites of a kernel module that compute exactly what it computed,
into a form the analyses read more easily. Each returns the source unchanged when it does not
apply. A candidate made from a normalized module carries the normalization in its diff.

- inline_spreads: a launch's `**cfg` whose keys the source shows becomes explicit keywords
  (the structural rewrites, which write launches out again, read those).
- lift_constexpr_globals: a module-level `G = tl.constexpr(128)` read inside a launched
  kernel becomes a constexpr parameter of that kernel passed as `G=G` at every launch (knob
  discovery, which finds what a launch passes, then finds G; its value stays the global's
  literal, so the kernel, its helpers and the host code keep reading one value).
- name_kernel_attributes: a launch through an attribute that holds a kernel
  (`self.fn[grid](...)`, `self.fn = my_kernel` once in `__init__` or `fn = my_kernel` in the
  class body, never rebound) names the kernel (`my_kernel[grid](...)`), for the analyses that
  find a kernel's launches by its name.
- tuple_grids: a grid written as a function of meta (`lambda meta: (cdiv(n, meta["BLOCK"]),)`,
  or a nested `def grid(meta)`) becomes the tuple it returns at that launch, for the
  structural rewrites, which rewrite a grid of sizes."""
from __future__ import annotations

import ast
import io
import tokenize
from collections import Counter

from .pyflow import (
    CONSTEXPR_NAMES,
    dotted,
    double_star,
    is_int_constant,
    is_jit,
    launch_target,
    launched_expr,
    sole_dict_binding,
    spread_keywords,
)
from .srcedit import Edit, LineIndex, apply_edits, parse_module


def inline_spreads(source: str) -> str:
    """The module with every launch `k[grid](..., **cfg)` whose keys the source shows
    (pyflow.spread_keywords) passing cfg's entries as keywords instead, and the statement
    `cfg = {...}` (read nowhere else) removed where it stands on lines of its own. The module
    computes the same; the rewrites, which edit a launch's keywords and write launches out
    again, then see every keyword at the launch. Unchanged when there is no such launch."""
    tree = parse_module(source)
    index = LineIndex(source)
    edits: list[Edit] = []
    for call in ast.walk(tree):
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Subscript)):
            continue
        kws = spread_keywords(tree, call)
        if kws is None:
            continue
        star = double_star(call)
        assert star is not None         # spread_keywords reads a call's one **
        a, b = index.span(star)
        edits.append(Edit(a, b, ", ".join(f"{kw.arg}={index.text(kw.value)}" for kw in kws)))
        binding = sole_dict_binding(tree, call, star.value.id) if isinstance(star.value, ast.Name) else None
        lines = index.stmt_lines(binding) if binding is not None else None
        if lines is not None:           # else the unread binding is left where it shares a line
            edits.append(Edit(lines[0], lines[1], ""))
    return apply_edits(source, edits) if edits else source


def name_kernel_attributes(source: str) -> str:
    """The module with every launch `self.X[grid](...)` (or `wrap_triton(self.X)[grid](...)`)
    inside a class written as a launch of kernel K, where X is bound to K exactly once in that
    class, either by `self.X = K` at the top level of its `__init__` or by `X = K` in its
    body, K a module-level @triton.jit function, and no method binds X otherwise (an
    assignment, a `setattr`, a `del`) or binds K locally. The attribute then always holds K,
    so the launch computes the same. Unchanged when there is no such launch."""
    tree = parse_module(source)
    kernels = {fn.name for fn in tree.body if isinstance(fn, ast.FunctionDef) and is_jit(fn)}
    if not kernels:
        return source
    index = LineIndex(source)
    edits: list[Edit] = []
    for cls in (c for c in tree.body if isinstance(c, ast.ClassDef)):
        held = _kernel_attributes(cls, kernels)
        for node in ast.walk(cls):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript)):
                continue
            v = launched_expr(node)
            if isinstance(v, ast.Attribute) and dotted(v) == f"self.{v.attr}" and v.attr in held:
                a, b = index.span(v)
                edits.append(Edit(a, b, held[v.attr]))
    return apply_edits(source, edits) if edits else source


def _kernel_attributes(cls: ast.ClassDef, kernels: set[str]) -> dict[str, str]:
    """{X: K} for the attributes of `cls` that always hold kernel K (name_kernel_attributes)."""
    init = next((m for m in cls.body if isinstance(m, ast.FunctionDef) and m.name == "__init__"), None)
    bindings: Counter[str] = Counter()          # attribute -> statements binding it
    value: dict[str, ast.expr] = {}             # attribute -> the value of its one plain binding
    for st in cls.body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            bindings[st.targets[0].id] += 1
            value[st.targets[0].id] = st.value
    for st in init.body if init is not None else []:
        if not (isinstance(st, ast.Assign) and len(st.targets) == 1):
            continue
        t = st.targets[0]
        if isinstance(t, ast.Attribute) and dotted(t.value) == "self":
            value[t.attr] = st.value
    for node in ast.walk(cls):
        if isinstance(node, ast.Attribute) and not isinstance(node.ctx, ast.Load) and dotted(node.value) == "self":
            bindings[node.attr] += 1
        elif isinstance(node, ast.Call) and dotted(node.func) in ("setattr", "delattr"):
            name = node.args[1] if len(node.args) > 1 else None
            if not (isinstance(name, ast.Constant) and isinstance(name.value, str)):
                return {}           # an attribute named at run time may be any of them
            bindings[name.value] += 2
    local = {n.id for n in ast.walk(cls) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    return {attr: v.id for attr, v in value.items()
            if bindings[attr] == 1 and isinstance(v, ast.Name) and v.id in kernels and v.id not in local}


def tuple_grids(source: str) -> str:
    """The module with every launch whose grid is a function of meta, `lambda meta: (E, ...)`
    at the launch or a local bound once to one (that lambda, or a nested `def grid(meta):
    return (E, ...)`) and read only there, given the tuple itself, each `meta["X"]` in it
    replaced by what the launch passes as X. Triton calls the grid function at the launch
    with the launch's keywords as meta, so the tuple evaluated there is what the function
    returns. Only for a kernel with @triton.jit alone (an autotuner or heuristics supply meta
    values the launch does not pass), a launch without `**`, a function of one parameter
    without defaults that reads meta only by constant keys the launch passes, and a grid
    bound in the launching function. Unchanged when there is no such launch."""
    tree = parse_module(source)
    plain = {fn.name for fn in tree.body if isinstance(fn, ast.FunctionDef) and is_jit(fn)
             and len(fn.decorator_list) == 1}
    index = LineIndex(source)
    edits: list[Edit] = []
    scopes: list[ast.Module | ast.FunctionDef] = [tree]
    scopes += [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)]
    for scope in scopes:
        for call in _own_nodes(scope):
            target = launch_target(call)
            if target is None or target.id not in plain:
                continue
            assert isinstance(call, ast.Call) and isinstance(call.func, ast.Subscript)
            if double_star(call) is not None:
                continue
            grid, binding = _grid_function(scope, call.func.slice)
            text = _grid_tuple(index, grid, call) if grid is not None else None
            if text is None:
                continue
            a, b = index.span(call.func.slice)
            edits.append(Edit(a, b, text))
            lines = index.stmt_lines(binding) if binding is not None else None
            if lines is not None:
                edits.append(Edit(lines[0], lines[1], ""))
    return apply_edits(source, edits) if edits else source


def _own_nodes(scope: ast.Module | ast.FunctionDef) -> list[ast.AST]:
    """The nodes of `scope` outside the functions and classes defined in it."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(scope.body)
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(c for c in ast.iter_child_nodes(node)
                    if not isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)))
    return out


GridFunction = ast.Lambda | ast.FunctionDef


def _grid_function(scope: ast.Module | ast.FunctionDef,
                   grid: ast.expr) -> tuple[GridFunction | None, ast.stmt | None]:
    """(the grid function, the statement binding it or None) for a launch's grid: a lambda
    written there, or a name the scope binds once, to a lambda or by a nested def, and reads
    only there."""
    if isinstance(grid, ast.Lambda):
        return grid, None
    if not isinstance(grid, ast.Name) or isinstance(scope, ast.Module):
        return None, None
    name = grid.id
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in ast.walk(scope)):
        return None, None
    names = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name]
    stores = [n for n in names if not isinstance(n.ctx, ast.Load)]
    defs = [n for n in ast.walk(scope) if isinstance(n, ast.FunctionDef) and n.name == name and n is not scope]
    if len(names) - len(stores) != 1 or len(stores) + len(defs) != 1:
        return None, None
    if defs:
        d = defs[0]
        ok = d in scope.body and len(d.body) == 1 and not d.decorator_list
        return (d, d) if ok else (None, None)
    for st in scope.body:
        if (isinstance(st, ast.Assign) and len(st.targets) == 1 and st.targets[0] is stores[0]
                and isinstance(st.value, ast.Lambda)):
            return st.value, st
    return None, None


def _grid_tuple(index: LineIndex, fn: GridFunction, call: ast.Call) -> str | None:
    """The text of the tuple `fn` returns at `call`, meta["X"] written as the launch's X."""
    a = fn.args
    if a.posonlyargs or len(a.args) != 1 or a.vararg or a.kwonlyargs or a.kwarg or a.defaults:
        return None
    meta = a.args[0].arg
    if isinstance(fn, ast.Lambda):
        body: ast.expr | None = fn.body
    else:
        ret = fn.body[0]
        body = ret.value if isinstance(ret, ast.Return) else None
    if not isinstance(body, (ast.Tuple, ast.List)) or not body.elts:
        return None
    given = {kw.arg: kw.value for kw in call.keywords if kw.arg is not None}
    subs: dict[int, ast.expr] = {}
    for node in ast.walk(body):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == meta:
            key = node.slice.value if isinstance(node.slice, ast.Constant) else None
            if not isinstance(key, str) or key not in given:
                return None
            subs[id(node)] = given[key]
    reads = sum(isinstance(n, ast.Name) and n.id == meta for n in ast.walk(body))
    if reads != len(subs):
        return None         # meta read other than by a constant key
    elts = []
    for e in body.elts:
        start, end = index.span(e)
        local = [Edit(x - start, y - start, v if isinstance(sub_v, (ast.Name, ast.Constant)) else f"({v})")
                 for n in ast.walk(e) if id(n) in subs
                 for sub_v in [subs[id(n)]] for v in [index.text(sub_v)] for x, y in [index.span(n)]]
        elts.append(apply_edits(index.source[start:end], local))
    return "(" + ", ".join(elts) + ",)"


def lift_constexpr_globals(source: str) -> str:
    """The module with each module-level integer `G = tl.constexpr(N)` (or `G: tl.constexpr =
    N`) that a launched @triton.jit kernel reads, and does not bind, added to that kernel's
    parameters as `G: tl.constexpr` and passed as `G=G` at each of its launches. A kernel is
    left as written when it has parameter defaults, *args or **kwargs, a decorator besides
    @triton.jit, or a use of its name other than `kernel[grid](...)` launches that pass no
    `**` and do not name G already."""
    tree = parse_module(source)
    consts = _constexpr_globals(tree)
    if not consts:
        return source
    index = LineIndex(source)
    launches: dict[str, list[ast.Call]] = {}
    for node in ast.walk(tree):
        target = launch_target(node)
        if target is not None:
            assert isinstance(node, ast.Call)
            launches.setdefault(target.id, []).append(node)
    edits: list[Edit] = []
    for fn in tree.body:
        if not (isinstance(fn, ast.FunctionDef) and is_jit(fn)):
            continue
        names = _globals_read(fn, set(consts))
        sites = launches.get(fn.name, [])
        if not names or not _liftable(tree, fn, sites, names):
            continue
        a = fn.args
        last = (a.posonlyargs + a.args)[-1] if (a.posonlyargs or a.args) else None
        text = ", ".join(f"{n}: {consts[n]}" for n in names)
        if last is None:
            edits.append(_after_open_paren(source, index, fn, text))
        else:
            end = index.span(last)[1]
            edits.append(Edit(end, end, ", " + text))
        for call in sites:
            nodes: list[ast.AST] = [*call.args, *call.keywords]
            kws = ", ".join(f"{n}={n}" for n in names)
            if nodes:
                end = max(index.span(n)[1] for n in nodes)
                edits.append(Edit(end, end, ", " + kws))
            else:
                end = index.span(call)[1] - 1         # before the call's ")"
                edits.append(Edit(end, end, kws))
    return apply_edits(source, edits) if edits else source


def _constexpr_globals(tree: ast.Module) -> dict[str, str]:
    """{name: the text of its constexpr annotation} for module-level names bound once, to an
    integer through `tl.constexpr(N)` or `name: tl.constexpr = N`."""
    out: dict[str, str] = {}
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    for s in tree.body:
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and isinstance(s.value, ast.Call) and dotted(s.value.func) in CONSTEXPR_NAMES
                and len(s.value.args) == 1 and not s.value.keywords and is_int_constant(s.value.args[0])):
            out[s.targets[0].id] = dotted(s.value.func) or ""
        elif (isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
              and dotted(s.annotation) in CONSTEXPR_NAMES and is_int_constant(s.value)):
            out[s.target.id] = dotted(s.annotation) or ""
    return {n: t for n, t in out.items() if stores.get(n) == 1}


def _globals_read(fn: ast.FunctionDef, consts: set[str]) -> list[str]:
    """The constexpr globals `fn` reads and neither takes as a parameter nor binds, in order
    of first read."""
    params = {x.arg for x in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    bound = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    out: list[str] = []
    for n in ast.walk(fn):
        if (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in consts
                and n.id not in params and n.id not in bound and n.id not in out):
            out.append(n.id)
    return out


def _liftable(tree: ast.Module, fn: ast.FunctionDef, sites: list[ast.Call], names: list[str]) -> bool:
    a = fn.args
    if a.defaults or a.kw_defaults or a.vararg or a.kwarg or a.kwonlyargs or len(fn.decorator_list) != 1:
        return False
    if not sites or any(double_star(c) is not None or {kw.arg for kw in c.keywords} & set(names)
                        or any(isinstance(x, ast.Starred) for x in c.args) for c in sites):
        return False
    launched = {id(launch_target(c)) for c in sites}
    return all(id(n) in launched for n in ast.walk(tree)
               if isinstance(n, ast.Name) and n.id == fn.name and isinstance(n.ctx, ast.Load))


def _after_open_paren(source: str, index: LineIndex, fn: ast.FunctionDef, text: str) -> Edit:
    """An edit inserting `text` as the only parameter of `def fn():`, after the first `(` token
    of the def statement (ast gives the parentheses no position)."""
    start = index.offset(fn.lineno, fn.col_offset)
    toks = tokenize.generate_tokens(io.StringIO(source[start:]).readline)
    paren = next(t for t in toks if t.type == tokenize.OP and t.string == "(")
    row, col = paren.start         # row 1 is the def's line, which the tokens start mid-way
    pos = (start if row == 1 else index.starts[fn.lineno + row - 2]) + col + 1
    return Edit(pos, pos, text)
