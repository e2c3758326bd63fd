"""row_single_block: a row kernel that walks its row in passes of BLOCK
(``for off in range(0, n_cols, BLOCK)``) gets a copy in which one block covers the row and the
row stays in registers between passes.

Precondition (syntax and the recorded launch): the kernel has loops ``for v in range(0, N, B)``
(or ``tl.range(0, N, B, ...)``, its options such as ``num_stages`` dropped with the loop)
with the same constexpr B and the same parameter N, no break/continue/return inside, and every
load/store inside them masked (a block wider than the row must not touch memory past it); the
kernel has one launch site, a statement of its own, passing N as a pure expression; the
recorded N is at most ``max_row``. A load or store through a 1-D block pointer counts as masked
when it checks axis 0 and the pointer walks the row as row_block_ptrs says (shape ``(N,)``, from
0, advanced by B per pass); two such loads of the same pointer, boundary check and padding are
the same load.

The rewrite: a copy ``<kernel>_row`` in which each such loop becomes its single iteration
(``v = 0`` followed by the body), and a load in a later pass of the same address and mask as
an earlier load — with no store between them — reuses the earlier value: as it is when the
later load's ``other`` is the same (or absent), as ``tl.where(mask, earlier, other)`` in the
earlier value's dtype when it differs (an online softmax reads its row with -inf in the
masked lanes, its output pass with 0), and as it is when the later value's masked lanes are
dead: it reaches, through lane-wise operations, only stores under the same mask
(masked_lanes_dead). A binding that only computes a value no later statement reads (an
accumulator's starting value the single pass rebinds, a loop variable bound to 0) is dropped
(drop_unread). The launch becomes::

    row_len = N
    if 0 < row_len <= max_row:
        row_block = triton.next_power_of_2(row_len)
        kernel_row[grid](..., B=row_block, num_warps=min(max(row_block // elems_per_warp, min_warps), max_warps))
    else:
        kernel[grid](...)            # the original launch, unchanged

Why it is correct: with ``0 < N <= B`` the loop ``range(0, N, B)`` runs exactly once with
v = 0, so the unrolled body computes what the loop computed; a load repeated with no store in
between reads the same memory, so its value is the earlier one in the lanes its mask keeps
(the same mask: the addresses and masks are compared as expressions with every local name
replaced by what it was assigned), and its ``other`` in the rest — as ``tl.load`` gives
``other`` in the pointer's element type, so does the ``.to(<earlier>.dtype)``. Other shapes, and rows longer than ``max_row``,
take the original kernel."""
from __future__ import annotations

import ast
import copy
import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..pyflow import launch_target
from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    IMPURE_TL,
    STORE_TL,
    Fit,
    Kernel,
    LaunchSite,
    Module,
    Plan,
    assigned_names,
    body_after_docstring,
    call_arg,
    calls,
    check_block_uses,
    check_not_assigned,
    check_params,
    check_wrappers,
    dedent_lines,
    is_pow2,
    kernel_span,
    names_in,
    next_pow2,
    pick,
    pure_expr,
    reindent,
    survey_one,
)
from .first_pass import fold_first_pass
from .row_block_ptrs import bounds_checked, check_row_block_ptrs, is_block_ptr_access

NAME = "row_single_block"
MAX_ROW = 32768                 # default bound on the row length one block may cover
TRITON_MAX_NUMEL = 1 << 20      # Triton refuses tensors with more elements
DEFAULTS = {"kernel": "", "max_row": MAX_ROW, "elems_per_warp": 256, "min_warps": 4, "max_warps": 16,
            "fold": 1}
WARP_DOMAIN = {"elems_per_warp": [128, 256, 512, 1024], "max_warps": [8, 16, 32], "min_warps": [1, 2, 4, 8]}
DOMAIN = {**WARP_DOMAIN, "fold": [1, 0]}
# The survey offers WARP_DOMAIN's points as whole configurations, one per num_warps they launch
# the recorded row with (distinct_configs), folded (first_pass); where the fold applies a rule
# that holds for finite values only, one more at the defaults unfolded, so a fold the
# validation refuses costs the rewrite one candidate, not all of them


@dataclass
class RowPlan(Plan):
    loops: list[ast.For]
    n_param: str
    block: str
    n_value: int


def row_loop(mod: Module, k: Kernel, node: ast.AST, options: bool = False) -> tuple[str, str] | None:
    """(N, B) when node is ``for v in range(0, N, B)`` (or ``tl.range``) with N a parameter and
    B a constexpr parameter. options: ``tl.range``'s keyword options (``num_stages=2``) are
    allowed; they change how the loop is compiled, not the values v takes."""
    if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call):
        return None
    f = node.iter.func
    is_range = isinstance(f, ast.Name) and f.id == "range" or mod.tl_func(node.iter) == "range"
    args = node.iter.args
    if not is_range or len(args) != 3 or (node.iter.keywords and not (options and mod.tl_func(node.iter) == "range")):
        return None
    start, stop, step = args
    if not (isinstance(start, ast.Constant) and start.value == 0 and isinstance(stop, ast.Name)
            and isinstance(step, ast.Name) and step.id in k.constexprs and stop.id in k.params):
        return None
    return stop.id, step.id


def analyze(mod: Module, k: Kernel, max_row: int = MAX_ROW) -> RowPlan:
    check_wrappers(mod, k, "block")
    dot = next((c for c in calls(k.node) if mod.tl_func(c) == "dot"), None)
    if dot is not None:
        raise RewriteRefused(f"{k.name} line {dot.lineno}: calls tl.dot; a tile kernel's K loop is not a row")
    loops: list[ast.For] = []
    for n in ast.walk(k.node):
        if row_loop(mod, k, n, options=True) is not None:
            assert isinstance(n, ast.For)
            loops.append(n)
    if not loops:
        raise RewriteRefused(f"{k.name} has no loop `for off in range(0, n, BLOCK)` over a row "
                             "(BLOCK a constexpr parameter)")
    loops.sort(key=lambda n: n.lineno)
    nb = {row_loop(mod, k, n, options=True) for n in loops}
    if len(nb) != 1:
        raise RewriteRefused(f"{k.name}: the row loops (lines {', '.join(str(n.lineno) for n in loops)}) "
                             "do not all walk the same length with the same block")
    n_param, block = nb.pop()  # type: ignore[misc]
    check_not_assigned(k, (n_param, block), "which the row loops' bounds must keep")
    bptrs = check_row_block_ptrs(mod, k, loops, n_param, block)
    check_block_uses(mod, k, block, [loop.iter.args[2] for loop in loops if isinstance(loop.iter, ast.Call)]
                     + bptrs.sizing, NAME)
    for loop in loops:
        _check_loop(mod, k, loop, loops, bptrs.names)
    site = mod.one_site(k.name)
    if not (isinstance(site.stmt, ast.Expr) and site.stmt.value is site.call):
        raise RewriteRefused(f"line {site.call.lineno}: the launch of {k.name} is not a statement of its own")
    n_arg = site.bound.get(n_param)
    if n_arg is None or not pure_expr(mod, n_arg):
        raise RewriteRefused(f"line {site.call.lineno}: the launch does not pass {n_param} as a plain size "
                             "expression")
    b_arg = site.bound.get(block)
    if b_arg is not None and {x.id for x in ast.walk(b_arg) if isinstance(x, ast.Name)} & \
            {x.id for x in ast.walk(site.grid) if isinstance(x, ast.Name)}:
        raise RewriteRefused(f"line {site.call.lineno}: the grid uses the block size {mod.text(b_arg)}; "
                             "a row kernel has one program per row")
    mod.check_no_multiline_strings(site.stmt, "the launch")
    mod.check_no_multiline_strings(k.node, k.name)
    n_value = mod.recorded_int(k.name, n_param)
    if not 0 < n_value <= max_row:
        raise RewriteRefused(f"{k.name}: {n_param} = {n_value} at the recorded launch is outside "
                             f"(0, max_row={max_row}]; one block would not hold the row")
    lines = ", ".join(str(n.lineno) for n in loops)
    bp_why = f" (through block pointers {', '.join(sorted(bptrs.names))}: bounds-checked)" if bptrs.names else ""
    why = (f"{k.name}: line{'s' if len(loops) > 1 else ''} {lines} walk{'' if len(loops) > 1 else 's'} the row "
           f"with `range(0, {n_param}, {block})`, every load/store in them masked{bp_why}; {n_param} = {n_value} at the "
           f"recorded launch (line {site.call.lineno}) fits one block of {next_pow2(n_value)} <= max_row {max_row}")
    configs: list[dict[str, int]] = [{**c, "fold": 1} for c in distinct_configs(next_pow2(n_value))]
    return RowPlan(k, site, why, {**DEFAULTS, "kernel": k.name, "max_row": max_row},
                   {"configs": configs}, loops, n_param, block, n_value)


def launched_warps(row_block: int, p: Mapping[str, object]) -> int:
    """The num_warps the dispatch launches the row copy with for a row block (its formula)."""
    epw, lo, hi = (int(str(p[key])) for key in ("elems_per_warp", "min_warps", "max_warps"))
    return min(max(row_block // epw, lo), hi)


def distinct_configs(row_block: int) -> list[dict[str, int]]:
    """The domain's points, nearest the defaults first, one per num_warps they launch the
    recorded row with: the rest of the product compiles to a kernel already in the list, and
    a sweep's slots are better spent elsewhere. Other row lengths take the same formula."""
    keys = sorted(WARP_DOMAIN)
    home = {key: WARP_DOMAIN[key].index(v) for key, v in DEFAULTS.items() if key in WARP_DOMAIN and isinstance(v, int)}

    def steps(point: dict[str, int]) -> int:
        return sum(abs(WARP_DOMAIN[key].index(point[key]) - home[key]) for key in keys)

    points = [dict(zip(keys, values)) for values in itertools.product(*(WARP_DOMAIN[key] for key in keys))]
    points = [pt for pt in points if pt["min_warps"] <= pt["max_warps"]]
    seen: dict[int, dict[str, int]] = {}
    for pt in sorted(points, key=lambda pt: (steps(pt), [pt[key] for key in keys])):
        seen.setdefault(launched_warps(row_block, pt), pt)
    return list(seen.values())


def unmasked(mod: Module, c: ast.Call) -> bool:
    """c is a load, store or atomic without a mask (a block wider than the row would touch
    memory past its end)."""
    f = mod.tl_func(c)
    if f not in ("load", "store") and f not in STORE_TL:
        return False
    return call_arg(c, 1 if f in ("load", "store") else 2, "mask") is None


def _check_loop(mod: Module, k: Kernel, loop: ast.For, loops: list[ast.For], block_ptrs: set[str]) -> None:
    """Refuses a row loop whose single pass might not do what its passes did (block_ptrs: the
    names holding the row's block pointers, checked by check_row_block_ptrs)."""
    where = f"{k.name} line {loop.lineno}"
    if loop.orelse:
        raise RewriteRefused(f"{where}: the row loop has an else clause")
    if not isinstance(loop.target, ast.Name):
        raise RewriteRefused(f"{where}: the row loop variable is not a plain name")
    if loop.body[0].lineno == loop.lineno:
        raise RewriteRefused(f"{where}: the row loop's body is on the `for` line")
    for n in ast.walk(loop):
        if n is not loop and n in loops:
            raise RewriteRefused(f"{where}: row loops are nested")
        if isinstance(n, ast.Subscript) and any(isinstance(x, ast.Constant) and x.value is None
                                                for x in ast.walk(n.slice)):
            raise RewriteRefused(f"{where}: the row loop works on 2-D blocks (line {n.lineno})")
        if isinstance(n, (ast.Break, ast.Continue, ast.Return)):
            raise RewriteRefused(f"{where}: the row loop has a {type(n).__name__.lower()} (line {n.lineno})")
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id == loop.target.id and n is not loop.target:
            raise RewriteRefused(f"{where}: the loop variable {n.id} is assigned in the body")
        if isinstance(n, ast.Call) and is_block_ptr_access(mod, n, block_ptrs):
            if not bounds_checked(mod, n):
                raise RewriteRefused(f"{where}: tl.{mod.tl_func(n)} at line {n.lineno} through a block pointer "
                                     "has no boundary_check on axis 0; a block wider than the row would touch "
                                     "memory past its end")
        elif isinstance(n, ast.Call) and unmasked(mod, n):
            raise RewriteRefused(f"{where}: tl.{mod.tl_func(n)} at line {n.lineno} has no mask; a block wider "
                                 "than the row would touch memory past its end")


def survey(mod: Module) -> Fit:
    """survey_one's fit, with the unfolded copy as one more configuration where the fold
    applies a finite-only rule (checked here, where the configurations are offered, not in
    analyze, which apply runs too)."""
    fit = survey_one(mod, NAME, analyze)
    if fit.fits:
        k = mod.kernels[fit.params["kernel"]]
        kstart, kend = kernel_span(mod, k)
        if first_pass_folds(mod, mod.source[kstart:kend], k.name):
            home = {key: v for key, v in DEFAULTS.items() if key in DOMAIN and isinstance(v, int)}
            fit.domain["configs"].append(home | {"fold": 0})
            fit.why += "; its single pass folds arithmetic on its accumulators' starting constants (first_pass)"
    return fit


def apply(mod: Module, params: dict[str, object]) -> str:
    p = check_params(NAME, dict(params), DEFAULTS, DOMAIN)
    max_row = int(p["max_row"])
    if not is_pow2(max_row) or max_row > TRITON_MAX_NUMEL:
        raise RewriteRefused(f"{NAME}: max_row must be a power of two <= {TRITON_MAX_NUMEL}, got {max_row}")
    if p["min_warps"] > p["max_warps"]:
        raise RewriteRefused(f"{NAME}: min_warps {p['min_warps']} exceeds max_warps {p['max_warps']}")
    plan = pick(mod, NAME, lambda m, k: analyze(m, k, max_row), str(p["kernel"]) or None)
    k = plan.kernel
    new_name = mod.fresh(f"{k.name}_row")
    kstart, kend = kernel_span(mod, k)
    copy_text = single_block_copy(mod, mod.source[kstart:kend], k.name, new_name, fold=bool(p["fold"]))
    edits = [Edit(kend, kend, "\n\n\n" + copy_text), _dispatch(mod, plan, new_name, p)]
    return apply_edits(mod.source, edits)


def _dispatch(mod: Module, plan: RowPlan, new_name: str, p: dict[str, object]) -> Edit:
    site: LaunchSite = plan.site
    row_len = mod.fresh("row_len")
    row_block = mod.fresh("row_block")
    triton = mod.triton()
    assert isinstance(site.call.func, ast.Subscript)
    warps = f"min(max({row_block} // {p['elems_per_warp']}, {p['min_warps']}), {p['max_warps']})"
    target = launch_target(site.call)
    assert target is not None
    launch = mod.edited_text(site.stmt, [mod.replace(target, new_name),
                                         mod.set_launch_arg(site, plan.block, row_block),
                                         mod.set_launch_arg(site, "num_warps", warps)])
    original = mod.text(site.stmt)
    return mod.replace_stmt(site.stmt, [
        f"{row_len} = {mod.text(site.bound[plan.n_param])}",
        f"if 0 < {row_len} <= {p['max_row']}:",
        f"    {row_block} = {triton}.next_power_of_2({row_len})",
        "    " + reindent(launch, "    "),
        "else:",
        "    " + reindent(original, "    "),
    ])


def unrolled(mod: Module, text: str, name: str) -> str:
    """The kernel's text with its row loops unrolled to one iteration."""
    frag = Module(text, [], mod.aliases)
    k = frag.kernels[name]
    edits = []
    for loop in ast.walk(k.node):
        # tl.range's options (num_stages=...) go with the loop: one pass is not pipelined
        if row_loop(frag, k, loop, options=True) is None:
            continue
        assert isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
        ind = frag.stmt_indent(loop)
        body_ind = frag.stmt_indent(loop.body[0])
        start = frag.index.offset(loop.body[0].lineno, loop.body[0].col_offset)
        end = frag.index.span(loop.body[-1])[1]
        body = dedent_lines(frag.source[start:end], len(body_ind) - len(ind))
        edits.append(frag.replace(loop, f"{loop.target.id} = 0\n{ind}{body}"))
    return apply_edits(text, edits)


def first_pass_folds(mod: Module, text: str, name: str) -> bool:
    """The unrolled kernel has arithmetic on its accumulators' starting constants that folds
    by a rule for finite values only (first_pass): worth a candidate without the fold."""
    frag = Module(unrolled(mod, text, name), [], mod.aliases)
    return fold_first_pass(frag, frag.kernels[name]).inexact


def single_block_copy(mod: Module, text: str, name: str, new_name: str, fold: bool = True) -> str:
    """The kernel's text with its row loops unrolled to one iteration, the arithmetic on its
    accumulators' starting constants folded (fold; first_pass), repeated loads reused and the
    function renamed (each step re-parses the fragment)."""
    text = unrolled(mod, text, name)
    if fold:
        frag = Module(text, [], mod.aliases)
        text = apply_edits(text, fold_first_pass(frag, frag.kernels[name]).edits)
    frag = Module(text, [], mod.aliases)
    text = drop_unread(apply_edits(text, reuse_loads(frag, frag.kernels[name])), name, mod.aliases)
    frag = Module(text, [], mod.aliases)
    a, b = frag.def_name_token(frag.kernels[name].node)
    return text[:a] + new_name + text[b:]


# ------------------------------------------------------------------------ unread values
# Functions of triton.language whose call only computes a value from its arguments (no memory,
# no output, no synchronisation): an allowlist, so a function not named here keeps its statement.
VALUE_TL = frozenset({"where", "full", "zeros", "arange", "exp", "exp2", "log", "log2", "sqrt", "rsqrt", "abs",
                      "maximum", "minimum", "max", "min", "sum", "cast", "fma", "sigmoid", "erf", "program_id",
                      "cdiv", "math.exp", "math.exp2", "math.log", "math.log2", "math.sqrt", "math.rsqrt",
                      "math.erf", "make_block_ptr", "advance"})
DROP_PASSES = 8     # a removal can leave the statement feeding it unread: chains this long at most


def _computes_only(mod: Module, node: ast.AST) -> bool:
    """Whether evaluating the expression only computes a value: VALUE_TL calls, ``.to(...)``,
    ``float(...)`` and arithmetic on names and constants."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call) and not (mod.tl_func(n) in VALUE_TL or (
                isinstance(n.func, ast.Attribute) and n.func.attr == "to") or (
                isinstance(n.func, ast.Name) and n.func.id == "float")):
            return False
        if isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Await, ast.Yield, ast.YieldFrom)):
            return False
    return True


def _overwritten(body: list[ast.stmt], i: int, name: str) -> bool:
    """Whether the value statement i binds to ``name`` is never read: no later top-level
    statement reads the name before one rebinds it by a plain ``name = value`` (any other
    binding, in a loop, say, counts as a read)."""
    for s in body[i + 1:]:
        if any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load) for n in ast.walk(s)):
            return False
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                and s.targets[0].id == name:
            return True
        if name in assigned_names([s]):
            return False
    return True


def drop_unread(text: str, name: str, aliases: dict[str, str]) -> str:
    """The text with the kernel's top-level ``x = value`` statements removed where the value only
    computes (_computes_only) and nothing reads it (_overwritten): what unrolling and folding leave
    behind (an accumulator's starting value the single pass rebinds, a loop variable bound to 0,
    first_pass's selector once the combine no longer reads it). The compiler drops them too; the
    user reading the candidate should not have to."""
    for _ in range(DROP_PASSES):
        frag = Module(text, [], aliases)
        body = body_after_docstring(frag.kernels[name])
        unread = [s for i, s in enumerate(body) if isinstance(s, ast.Assign) and len(s.targets) == 1
                  and isinstance(s.targets[0], ast.Name) and _overwritten(body, i, s.targets[0].id)
                  and frag.index.stmt_lines(s) is not None and _computes_only(frag, s.value)]
        if not unread or len(unread) == len(body):
            break
        text = apply_edits(text, [frag.delete_stmt(s) for s in unread])
    return text


# ------------------------------------------------------------------------ load reuse
class _Opaque(Exception):
    """An expression whose value cannot be named by its syntax (memory, randomness)."""


@dataclass
class _Avail:
    load: ast.Call
    stmt: ast.stmt
    ptr: str
    mask: str
    other: str | None
    target: str | None          # the name the load alone was assigned to
    stmt_target: str | None     # the name its statement assigns (names the holder)
    version: int


LOAD_HINTS = {"cache_modifier", "eviction_policy"}   # do not change the value loaded
BLOCK_LOAD_ARGS = {"boundary_check", "padding_option"}
CANON_MAX_NODES = 4096      # an expression larger than this once names are replaced is opaque


def reuse_loads(frag: Module, k: Kernel) -> list[Edit]:
    """Edits making a load at the kernel's top level reuse an earlier load of the same
    address, mask and ``other``, with no store (nor unknown call) between them."""
    # a name's value as an expression of parameters, free names and opaque values, every
    # local name replaced by what it was assigned: `mask = cols < n` and an inline
    # `cols < n` compare equal
    env: dict[str, ast.expr] = {p: ast.Constant(value=f"param:{p}") for p in k.params}
    version: dict[str, int] = {}
    avail: list[_Avail] = []
    holders: dict[int, str] = {}     # id(earlier load) -> name holding its value
    edits: list[Edit] = []
    fresh = [0]

    def canon_tree(node: ast.expr) -> ast.expr:
        class Sub(ast.NodeTransformer):
            def visit_Name(self, n: ast.Name) -> ast.AST:
                return copy.deepcopy(env[n.id]) if n.id in env else ast.Constant(value=f"free:{n.id}")

            def visit_Call(self, n: ast.Call) -> ast.AST:
                if _call_kind(frag, n) != "pure":
                    raise _Opaque()
                self.generic_visit(n)
                return n
        tree = Sub().visit(copy.deepcopy(node))
        if sum(1 for _ in ast.walk(tree)) > CANON_MAX_NODES:
            raise _Opaque()
        assert isinstance(tree, ast.expr)
        return tree

    def canon(node: ast.expr) -> str:
        return ast.dump(canon_tree(node), annotate_fields=False)

    def opaque() -> ast.expr:
        fresh[0] += 1
        return ast.Constant(value=f"opaque:{fresh[0]}")

    for i, stmt in enumerate(k.node.body):
        simple = isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr))
        stmt_calls = list(calls(stmt))
        clobbers = any(_call_kind(frag, c) in ("store", "unknown") for c in stmt_calls)
        identity = False
        if simple:
            nested = {id(x) for c in stmt_calls if frag.tl_func(c) == "load" for x in ast.walk(c) if x is not c}
            loads = [c for c in stmt_calls if frag.tl_func(c) == "load" and id(c) not in nested
                     and not any(frag.tl_func(x) == "load" for x in ast.walk(c) if x is not c)]
            target = stmt.targets[0].id if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name) else None
            fresh_avail: list[_Avail] = []
            for ld in loads:
                key = _load_key(ld, canon)
                if key is None:
                    continue
                ptr, mask, other = key
                hit = next((a for a in avail if a.ptr == ptr and a.mask == mask), None)
                whole = isinstance(stmt, ast.Assign) and stmt.value is ld
                if hit is not None:
                    same = other is None or hit.other == other or masked_lanes_dead(frag, k.node.body, i, ld)
                    if same and whole and hit.target == target and version.get(target or "") == hit.version:
                        identity = True         # `v = <the load v already holds>`: drop it
                        edits.append(frag.delete_stmt(stmt))
                    else:
                        edits.extend(_reuse(frag, hit, ld, holders, version, same))
                    continue
                fresh_avail.append(_Avail(ld, stmt, ptr, mask, other, target if whole else None, target, i))
            if not clobbers:
                avail.extend(fresh_avail)
        if clobbers:
            avail.clear()
        if identity:
            continue
        # names bound by this statement
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            try:
                value = canon_tree(stmt.value)
            except _Opaque:
                value = opaque()
            env[stmt.targets[0].id] = value
            version[stmt.targets[0].id] = i
        else:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    env[n.id] = opaque()
                    version[n.id] = i
    return edits


# tl functions whose every output lane depends only on the same lane of their operands
LANEWISE_TL = {"exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "abs", "erf", "floor", "ceil",
               "cos", "sin", "sigmoid", "fma", "maximum", "minimum", "clamp", "where", "fdiv", "div_rn",
               "cast", "umulhi"}


def _reads(e: ast.AST, tracked: set[str], leaf: ast.AST | None) -> bool:
    """e reads one of the tracked names or contains the node leaf."""
    return bool(names_in(e) & tracked) or (leaf is not None and any(n is leaf for n in ast.walk(e)))


def _stores_lanewise(frag: Module, st: ast.Call, tracked: set[str], leaf: ast.AST | None, mask_dump: str) -> bool:
    """The store st writes a lane-wise function of the tracked values under the mask whose
    expression dumps to mask_dump, at an address that does not read them."""
    ptr, value, mask = call_arg(st, 0, "pointer"), call_arg(st, 1, "value"), call_arg(st, 2, "mask")
    return (ptr is not None and value is not None and mask is not None and not _reads(ptr, tracked, leaf)
            and _lanewise(frag, value, tracked, leaf) and ast.dump(mask) == mask_dump)


def _lanewise(frag: Module, e: ast.AST, tracked: set[str], leaf: ast.AST | None = None) -> bool:
    """Every tracked value in e (the names, and the node leaf) reaches e's value through
    lane-wise operations only: arithmetic, comparisons, `.to(...)` and LANEWISE_TL calls."""
    if e is leaf or (isinstance(e, ast.Name) and e.id in tracked) or not _reads(e, tracked, leaf):
        return True
    if isinstance(e, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.BoolOp)):
        return all(_lanewise(frag, c, tracked, leaf) for c in ast.iter_child_nodes(e)
                   if not isinstance(c, (ast.operator, ast.unaryop, ast.cmpop, ast.boolop)))
    if isinstance(e, ast.Call):
        if isinstance(e.func, ast.Attribute) and e.func.attr == "to" and frag.tl_func(e) is None:
            return _lanewise(frag, e.func.value, tracked, leaf) and \
                all(_lanewise(frag, a, set(), None) and not (names_in(a) & tracked) for a in e.args)
        f = (frag.tl_func(e) or "").removeprefix("math.")
        return f in LANEWISE_TL and all(_lanewise(frag, a, tracked, leaf) for a in e.args) and \
            all(_lanewise(frag, kw.value, tracked, leaf) for kw in e.keywords)
    return False


def masked_lanes_dead(frag: Module, body: list[ast.stmt], i: int, ld: ast.Call) -> bool:
    """The lanes load ld's mask turns off are never used: ld (in body[i]) reaches nothing but
    stores under the same mask (the same expression, none of its names bound again in
    between), through lane-wise operations and names bound to them at the top level. Then
    what those lanes hold (the load's ``other``) does not matter, and an earlier load of the
    same address and mask may stand in for ld whatever its own ``other``."""
    mask = call_arg(ld, 1, "mask")
    if mask is None:
        return False
    mask_dump, mask_names = ast.dump(mask), names_in(mask)
    tracked: set[str] = set()
    for j, stmt in enumerate(body[i:], start=i):
        leaf = ld if j == i else None
        uses = _reads(stmt, tracked, leaf)
        targets = assigned_names([stmt])
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and frag.tl_func(stmt.value) == "store":
            if uses and not _stores_lanewise(frag, stmt.value, tracked, leaf, mask_dump):
                return False
        elif uses:
            value = stmt.value if isinstance(stmt, (ast.Assign, ast.AugAssign)) else None
            if value is None or len(targets) != 1 or not _lanewise(frag, value, tracked, leaf) or \
                    (isinstance(stmt, ast.Assign) and not isinstance(stmt.targets[0], ast.Name)):
                return False
            tracked |= targets
            if targets & mask_names:
                return False
            continue
        if targets & mask_names:
            mask_names = set()      # the mask means something else from here: no store matches it
            mask_dump = ""
        tracked -= targets
    return True


def _call_kind(frag: Module, c: ast.Call) -> str:
    """"store" (writes memory), "impure" (reads memory or randomness), "pure", or "unknown"
    (a call of another function, which may store)."""
    f = frag.tl_func(c)
    if f is not None:
        if f in STORE_TL:
            return "store"
        return "impure" if f in IMPURE_TL else "pure"
    if isinstance(c.func, ast.Name):
        return "pure" if c.func.id in ("min", "max", "abs", "float", "int", "range", "len") else "unknown"
    q = frag.qualname(c.func) or ""
    if isinstance(c.func, ast.Attribute) and q.split(".")[0] not in frag.aliases.values():
        return "pure"       # a tensor method (x.to(...), x.reshape(...))
    return "unknown"


def _load_key(ld: ast.Call, canon: Callable[[ast.expr], str]) -> tuple[str, str, str | None] | None:
    """(address, mask, other) of a masked load, each as its canonical expression; a load through
    a block pointer has its boundary check and padding as its mask (two such loads are the same
    only when both agree) and no ``other``. None for a load that cannot be compared."""
    kws = {kw.arg for kw in ld.keywords}
    if None in kws or kws - {"pointer", "mask", "other"} - BLOCK_LOAD_ARGS - LOAD_HINTS or len(ld.args) > 3:
        return None
    ptr = call_arg(ld, 0, "pointer")
    mask = call_arg(ld, 1, "mask")
    other = call_arg(ld, 2, "other")
    check, padding = call_arg(ld, 3, "boundary_check"), call_arg(ld, 4, "padding_option")
    if ptr is None or (mask is None) == (check is None) or (padding is not None and check is None):
        return None
    try:
        if check is not None:
            return canon(ptr), f"boundary_check={canon(check)} padding={canon(padding or ast.Constant(''))}", None
        assert mask is not None
        return canon(ptr), canon(mask), (canon(other) if other is not None else None)
    except _Opaque:
        return None


def _reuse(frag: Module, hit: _Avail, ld: ast.Call, holders: dict[int, str], version: dict[str, int],
           same_other: bool) -> list[Edit]:
    """Edits replacing the later load ld by the value of the earlier one (hit); where ld's
    ``other`` differs, its masked lanes get ld's own ``other`` (ld's mask and ``other`` are
    evaluated where ld was, so they mean what they meant there)."""
    edits = []
    if hit.target is not None and version.get(hit.target) == hit.version:
        name = hit.target
    else:
        held = holders.get(id(hit.load))
        if held is None:
            held = frag.fresh(f"{hit.stmt_target or 'row'}_vals")
            holders[id(hit.load)] = held
            edits += [frag.insert_before(hit.stmt, [f"{held} = {frag.text(hit.load)}"]),
                      frag.replace(hit.load, held)]
        name = held
    if same_other:
        return [*edits, frag.replace(ld, name)]
    mask, other = call_arg(ld, 1, "mask"), call_arg(ld, 2, "other")
    assert mask is not None and other is not None     # _load_key and same_other say so
    where = f"{frag.tl()}.where({frag.text(mask)}, {name}, {frag.text(other)}).to({name}.dtype)"
    return [*edits, frag.replace(ld, where)]
