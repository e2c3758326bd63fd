"""batch_launches: a Python loop that launches one kernel per batch element,
``for i in range(E): kernel[grid](x[i], y[i], n, ...)``, becomes one launch of a copy of the
kernel with the batch on a grid axis of its own. Each launch of the loop costs its launch
latency and runs a grid that may not fill the device; one launch of E times the programs does
neither.

Precondition (syntax and the recorded launch): the kernel is launched from one place, a ``for``
statement whose body is that launch alone, over ``range(E)`` or ``range(0, E)`` (E a plain
size expression); the loop variable i is read nowhere else in the function, and in the launch
only as ``T[i]`` with T a plain name passed to a parameter the recorded launch gave a tensor;
every other argument, the grid (a tuple or list of one or two elements) and the options do
not read i. The kernel reads ``tl.program_id``/``tl.num_programs`` on literal axes below the
grid's length only (a called @triton.jit function reads neither), has no parameter defaults,
and writes (stores or atomics, through any binding) only through parameters given ``T[i]``,
whose T is passed nowhere else in the launch but as the same ``T[i]`` (in place) or through
its sizes and strides.

The rewrite: a copy ``<kernel>_batched`` with a stride parameter ``<p>_bstride`` per batched
parameter p, whose body starts ``batch = tl.program_id(AX).to(tl.int64)`` and ``p = p + batch
* p_bstride`` (AX the grid's length), and the loop becomes::

    n_batch = E
    if 0 < n_batch <= 65535 and all(isinstance(t, torch.Tensor) for t in (T, ...)) \
            and all(t.stride(0) != 0 for t in (W, ...)):         # W: the Ts the kernel writes
        kernel_batched[(*grid, n_batch)](..., T, ..., p_bstride=T.stride(0))
    else:
        for i in range(E): ...          # the loop as written

Why it is correct: ``T[i]`` is the view of T at element offset ``i * T.stride(0)``, so program
(..., i) of the copy sees the pointers launch i saw, and every other argument is the same for
all launches; programs of the existing axes keep their ids. The launches are independent, so
running them together computes what running them in order did: each writes only through its
own ``T[i]``, and slices of a tensor along its first axis do not overlap when its stride there
is not 0 (checked at run time for the written ones, as are a tensor, not a list, and the 65535
programs a grid's second and third axes allow; otherwise the loop runs as written). Slices
that are only read may overlap (an expanded weight): launch i and program (..., i) read the
same memory either way. Views that overlap with a non-zero first stride (``as_strided``) are
not detected."""
from __future__ import annotations

import ast
from dataclasses import dataclass

from ..pyflow import launch_target
from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    PURE_METHODS,
    Fit,
    Kernel,
    Module,
    Plan,
    body_after_docstring,
    call_arg,
    calls,
    check_callees,
    check_params,
    check_wrappers,
    grid_elements,
    kernel_span,
    names_in,
    option_domain,
    option_edits,
    pick,
    program_id_axis,
    pure_expr,
    reindent,
    survey_one,
)
from .patterns import stored_params, tensor_params

NAME = "batch_launches"
DEFAULTS = {"kernel": ""}
MAX_GRID_AXIS = 65535           # programs a launch grid's second and third axes may have
# E times the programs: the warps per program may want to change with the occupancy (the
# launch's own are the default and always in the domain)
OPTION_DOMAIN = {"num_warps": [2, 4, 8]}


@dataclass
class BatchPlan(Plan):
    loop: ast.For
    var: str
    count: ast.expr
    batched: dict[str, str]     # kernel parameter -> the tensor name T of its `T[i]`
    written: set[str]           # the Ts the kernel writes through
    axis: int


def _loop_of(mod: Module, stmt: ast.stmt) -> ast.For | None:
    up = mod.parents.get(stmt)
    return up if isinstance(up, ast.For) and up.body == [stmt] else None


def _range_count(node: ast.expr) -> ast.expr | None:
    """E of ``range(E)`` or ``range(0, E)``."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
            and not node.keywords):
        return None
    if len(node.args) == 1:
        return node.args[0]
    if len(node.args) == 2 and isinstance(node.args[0], ast.Constant) and node.args[0].value == 0:
        return node.args[1]
    return None


def _indexed_by(node: ast.AST, var: str) -> str | None:
    """T when node is ``T[var]``."""
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Name)
            and node.slice.id == var and node.value.id != var):
        return node.value.id
    return None


META_ATTRS = PURE_METHODS | {"shape", "ndim", "dtype", "device"}    # a tensor's sizes, not its memory


def _passes_memory(mod: Module, arg: ast.AST, t: str) -> bool:
    """arg hands the kernel t itself (or something made from its memory), not only sizes and
    strides read from it (`t.stride(1)`, `t.shape[0]`)."""
    for n in ast.walk(arg):
        if isinstance(n, ast.Name) and n.id == t:
            up = mod.parents.get(n)
            if not (isinstance(up, ast.Attribute) and up.value is n and up.attr in META_ATTRS):
                return True
    return False


def analyze(mod: Module, k: Kernel) -> BatchPlan:
    check_wrappers(mod, k, "launch")
    site = mod.one_site(k.name)
    loop = _loop_of(mod, site.stmt) if isinstance(site.stmt, ast.Expr) and site.stmt.value is site.call else None
    where = f"line {site.call.lineno}"
    if loop is None:
        raise RewriteRefused(f"{where}: the launch of {k.name} is not the whole body of a `for` loop")
    count = _range_count(loop.iter)
    if loop.orelse or not isinstance(loop.target, ast.Name) or count is None:
        raise RewriteRefused(f"line {loop.lineno}: the loop is not `for i in range(E)` without an else clause")
    var = loop.target.id
    if var in names_in(count) or not pure_expr(mod, count):
        raise RewriteRefused(f"line {loop.lineno}: the loop's count {mod.text(count)} is not a plain size expression")
    if site.func is None:
        raise RewriteRefused(f"line {loop.lineno}: the loop is not inside a function")
    inside = {id(n) for n in ast.walk(loop)}
    reads = [n for n in ast.walk(site.func) if isinstance(n, ast.Name) and n.id == var and id(n) not in inside]
    if reads:
        raise RewriteRefused(f"line {reads[0].lineno}: the loop variable {var} is read after the loop")
    mod.check_no_double_star(site.call)
    if any(isinstance(a, ast.Starred) for a in site.call.args):
        raise RewriteRefused(f"{where}: the launch passes *args")
    tensors = tensor_params(mod, k)
    batched: dict[str, str] = {}
    for p, arg in site.bound.items():
        t = _indexed_by(arg, var)
        if t is not None and p in tensors:
            batched[p] = t
        elif var in names_in(arg):
            raise RewriteRefused(f"{where}: {p} gets {mod.text(arg)}, which reads {var} other than as a "
                                 "tensor's `T[" + var + "]`")
    for kw in site.options.values():
        if var in names_in(kw.value):
            raise RewriteRefused(f"{where}: the option {kw.arg} reads {var}")
    if not batched:
        raise RewriteRefused(f"{where}: no tensor argument is indexed by the loop variable {var}")
    grid = grid_elements(mod, site)
    if not grid or len(grid) > 2 or any(var in names_in(g) for g in grid) or var in names_in(site.grid):
        raise RewriteRefused(f"{where}: the grid is not a tuple or list of one or two sizes that do not read {var}")
    axis = len(grid)
    _check_axes(mod, k, axis)
    if k.defaults:
        raise RewriteRefused(f"{k.name} has parameter defaults; the copy's new parameters would need them")
    stored = stored_params(mod, k)
    for p in sorted(stored):
        if p not in batched:
            raise RewriteRefused(f"{k.name} writes through {p}, which every launch gets whole: the launches "
                                 "depend on each other")
        t = batched[p]
        others = [a for q, a in site.bound.items()      # the same slice elsewhere is in place
                  if q != p and _passes_memory(mod, a, t) and _indexed_by(a, var) != t]
        if others:
            raise RewriteRefused(f"{where}: {t}, which {k.name} writes through {p}, is also passed as "
                                 f"{mod.text(others[0])}")
    why = (f"{k.name}: launched once per element of `for {var} in range({mod.text(count)})` (line {loop.lineno}) "
           f"with {', '.join(f'{t}[{var}]' for t in batched.values())}; one launch with the batch on grid axis "
           f"{axis}")
    options, domain = option_domain(mod, site, OPTION_DOMAIN)
    return BatchPlan(k, site, why, {**DEFAULTS, "kernel": k.name, **options}, domain, loop, var, count, batched,
                     {batched[p] for p in stored}, axis)


def _check_axes(mod: Module, k: Kernel, axis: int) -> None:
    check_callees(mod, k)
    for c in calls(k.node):
        ax = program_id_axis(mod, c, ("program_id", "num_programs"))
        if ax is not None and not 0 <= ax < axis:
            assert isinstance(c, ast.Call)
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{mod.tl_func(c)} of axis "
                                 f"{ast.unparse(call_arg(c, 0, 'axis') or c)}, not one of the grid's {axis}")


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, object]) -> str:
    kernel = params.get("kernel") if isinstance(params, dict) else None
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    k = plan.kernel
    new_name = mod.fresh(f"{k.name}_batched")
    strides = {q: mod.fresh(f"{q}_bstride") for q in plan.batched}
    kstart, kend = kernel_span(mod, k)
    copy_text = _batched_copy(mod, mod.source[kstart:kend], k.name, new_name, plan, strides)
    dispatch = _dispatch(mod, plan, new_name, strides, option_edits(mod, plan, p, OPTION_DOMAIN))
    return apply_edits(mod.source, [Edit(kend, kend, "\n\n\n" + copy_text), dispatch])


def _batched_copy(mod: Module, text: str, name: str, new_name: str, plan: BatchPlan, strides: dict[str, str]) -> str:
    frag = Module(text, [], mod.aliases)
    fk = frag.kernels[name]
    batch = frag.fresh("batch")
    tl = frag.tl()
    first = body_after_docstring(fk)[0]
    lines = [f"{batch} = {tl}.program_id({plan.axis}).to({tl}.int64)"]
    lines += [f"{q} = {q} + {batch} * {s}" for q, s in strides.items()]
    edits = [frag.add_kernel_params(fk, [(s, False, None) for s in strides.values()]),
             frag.insert_before(first, lines)]
    a, b = frag.def_name_token(fk.node)
    edits.append(Edit(a, b, new_name))
    return apply_edits(text, edits)


def _dispatch(mod: Module, plan: BatchPlan, new_name: str, strides: dict[str, str], options: list[Edit]) -> Edit:
    site = plan.site
    assert isinstance(site.call.func, ast.Subscript)
    torch = mod.alias_for("torch")
    if torch is None:
        raise RewriteRefused("the module does not import torch, which the dispatch's run-time check needs")
    n_batch = mod.fresh("n_batch")
    grid = ", ".join(mod.text(g) for g in grid_elements(mod, site))
    target = launch_target(site.call)
    assert target is not None
    edits = [mod.replace(target, new_name), mod.replace(site.call.func.slice, f"({grid}, {n_batch})")]
    edits += [mod.replace(site.bound[q], t) for q, t in plan.batched.items()]
    extra = ", ".join(f"{s}={plan.batched[q]}.stride(0)" for q, s in strides.items())
    edits += [mod.add_call_keyword(site.call, extra), *options]
    launch = mod.edited_text(site.stmt, edits)
    def tup(names: list[str]) -> str:
        return f"({', '.join(names)}{',' if len(names) == 1 else ''})"
    # every T a tensor (a list has no stride); a written one with slices that do not overlap
    # (a read one may: an expanded weight is the same rows for every launch either way)
    check = f"all(isinstance(t, {torch}.Tensor) for t in {tup(sorted(set(plan.batched.values())))})"
    if plan.written:
        check += f" and all(t.stride(0) != 0 for t in {tup(sorted(plan.written))})"
    return mod.replace_stmt(plan.loop, [
        f"{n_batch} = {mod.text(plan.count)}",
        f"if 0 < {n_batch} <= {MAX_GRID_AXIS} and {check}:",
        "    " + reindent(launch, "    "),
        "else:",
        "    " + reindent(mod.text(plan.loop), "    "),
    ])
