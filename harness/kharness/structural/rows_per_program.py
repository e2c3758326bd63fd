"""rows_per_program: a kernel whose 1-D grid runs one program per "row" with a small 1-D block
(RoPE's half head, an embedding or index_select row gather, MoE gating's expert row) becomes
a kernel whose programs each handle ROWS consecutive rows as one [ROWS, block] tile, so every
access is ROWS times wider and the grid ROWS times smaller.

Precondition: the grid is a 1-D tuple (recorded as [G], G >= 2); the kernel uses only
``tl.program_id(0)``, never ``tl.num_programs``, and is not autotuned; its body has no
``return``, no ``while``, no nested function; a ``for`` or ``if`` header does not depend on
the program id (a ``for`` over ``range(0, dim, BLOCK)`` is fine); there is no dot, sort,
atomic, block pointer or shape operation (``tl.dot``, ``tl.reshape``, ``tl.trans``,
``tl.expand_dims``, ``x[:, None]``, ...) anywhere, a reduction or scan of a program-id value
(``tl.sum``, ``tl.max``, ``tl.argmin``, ``tl.reduce``, ``tl.cumsum``, ...) runs along the
row's one axis (0, -1 or none given) with a literal ``keep_dims``, every ``tl.zeros``/``tl.full`` has a one-element shape and every ``tl.arange``'s
bounds are literals or constexprs of the recorded launch — so every vector of the body has
rank 1; a value derived from the program id is never a shape, a ``tl.full`` value, a hint's
argument, an assert's or print's argument, a helper function's argument, the receiver of a
method other than ``.to``, nor an operand of ``and``/``or``/``x if c else y``; every store's
pointer derives from the program id; the launch is a statement of its own.

The rewrite: the body starts with ``rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)`` and
``row_mask = rows[:, None] < n_rows``; every ``tl.program_id(0)`` becomes ``rows[:, None]``
(shape [ROWS, 1]); every store, and every load whose pointer, mask or ``other`` derives from
the program id, gets ``mask=row_mask`` (AND-ed with its own mask: ``(mask) & row_mask``);
a reduction of a program-id value runs along axis 1 with ``keep_dims=True`` (a scan
along axis 1); a name that a loop or run-time ``if`` rebinds to a program-id value while a
binding before it is not one (an accumulator's ``tl.zeros``, a float) is widened to the
tile just before it (``v = tl.where(row_mask, v, v)``, since Triton carries it at one type),
and an operand of a row reduction or scan over a tuple that is not derived (a lane count
beside per-row means: ``tl.reduce((mean, m2, n), 0, combine)``) is widened the same way in
place, since every operand of one reduction must have one shape;
the kernel gets parameters ``n_rows`` and ``ROWS: tl.constexpr``; the launch passes
``n_rows=G, ROWS=<value>`` and ``num_warps`` (swept with ROWS: the tile is ROWS times the
work of one program) and its grid becomes ``(triton.cdiv(G, ROWS),)``.

Why it is correct: program p of the new grid runs rows r = p*ROWS .. p*ROWS + ROWS-1, and
row r of every tile holds what original program r computed. A value derived from the
program id becomes a [ROWS, 1] column (or a [ROWS, N] tile once combined with a rank-1
vector); Triton broadcasts a [ROWS, 1] or [ROWS, N] operand against a rank-1 [N] one by
prepending an axis, numpy-style (``broadcast_impl_value``), and ``tl.load`` broadcasts its
pointer, mask and ``other`` together the same way (``tl.store`` broadcasts value and mask to
its pointer's shape) — so row r's lanes hold exactly what program r's lanes held, and no
operation mixes rows: the precondition excludes every cross-lane operation but reductions
and scans of the row, which run along axis 1, each row over its own lanes, a reduction's
kept axis making its result the [ROWS, 1] column that stands for program r's scalar. A
widened name holds, in every row, the value program r started the loop or branch with. Values that
do not depend on the program id stay rank 1 and are the same for every row, as they were
for every program; loads of them stay unmasked (every new program runs at least one real
row, and the original program of that row made the same load). Control flow never depends
on the program id, so every row takes the same path its program took. Rows >= n_rows (in
the last program when G is not a multiple of ROWS) are masked out of every load and store
that depends on the program id: their lanes may compute anything (a masked load without
``other`` leaves them undefined) but never reach memory, and a load address computed from
such a value is itself masked.

The argument relies on Triton's broadcasting rules of 3.x (checked on 3.6, the version the
harness and the GPU run); a Triton that rejected a rank mismatch in ``tl.load`` would fail
to compile the candidate, never give a wrong result."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    LANE_MIXING_TL,
    REWRITE_WARPS,
    STORE_TL,
    Fit,
    Kernel,
    LaunchSite,
    Module,
    Plan,
    body_after_docstring,
    call_arg,
    calls,
    check_callees,
    check_params,
    check_wrappers,
    derived,
    from_template,
    grid_elem_text,
    grid_elements,
    int_const,
    launch_warps,
    names_in,
    next_pow2,
    pick,
    program_id_axis,
    survey_one,
)

NAME = "rows_per_program"
ROWS_CHOICES = [2, 4, 8, 16, 32, 64]
MAX_TILE = 16384            # ROWS * block elements at most (registers of one program)
TARGET_TILE = 1024          # the default ROWS makes a tile at least this many elements
DEFAULTS: dict[str, Any] = {"kernel": "", "ROWS": 16, "num_warps": 4}
DOMAIN = {"ROWS": ROWS_CHOICES, "num_warps": REWRITE_WARPS}

# Reductions and scans along the row: on a [ROWS, N] tile they run along axis 1, so each row
# reduces or scans its own lanes. The position of each one's ``axis`` and, for reductions, of
# ``keep_dims`` (Triton 3.x signatures: tl.sum(input, axis, keep_dims, dtype), tl.max(input,
# axis, return_indices, return_indices_tie_break_left, keep_dims), tl.argmax(input, axis,
# tie_break_left, keep_dims), tl.reduce(input, axis, combine_fn, keep_dims), ...).
ROW_REDUCE_KEEP_POS = {"sum": 2, "max": 4, "min": 4, "argmax": 3, "argmin": 3, "xor_sum": 2, "reduce": 3}
ROW_SCAN = {"cumsum", "cumprod", "associative_scan"}
AXIS_POS = 1
# Operations that mix lanes or change a tensor's rank: with a [ROWS, N] tile they would mix
# rows or act on the wrong axis.
CROSS_LANE = (LANE_MIXING_TL - set(ROW_REDUCE_KEEP_POS) - ROW_SCAN) | (STORE_TL - {"store"}) | {
    "topk", "softmax", "flip", "gather", "reshape", "view", "trans", "permute", "expand_dims", "broadcast_to",
    "broadcast", "ravel", "join", "split", "interleave", "cat", "num_programs", "make_block_ptr", "advance",
    "make_tensor_descriptor", "load_tensor_descriptor", "store_tensor_descriptor", "swizzle2d",
    "inline_asm_elementwise"}
HINTS = {"multiple_of", "max_contiguous", "max_constancy", "assume"}
DEBUG = {"device_assert", "device_print", "static_assert", "static_print"}
ROW_METHODS = {"to"}        # methods allowed on a program-id-derived tensor
MASK_POS = {"load": 1, "store": 2}      # tl.load(pointer, mask, ...), tl.store(pointer, value, mask, ...)


@dataclass
class RowsPlan(Plan):
    rows: int                   # the recorded grid size G
    block: int                  # elements of the widest tl.arange (1 when there is none)
    accesses: list[ast.Call]    # loads and stores that get the row mask
    row_ops: list[ast.Call]     # reductions and scans along the row (made axis 1)
    widen: list[tuple[ast.stmt, list[str]]]     # names made tiles before a loop or branch
    widen_operands: list[ast.expr]  # a row op's tuple operands not derived (made tiles in place)


def _depends(mod: Module, node: ast.AST, derived: set[str]) -> bool:
    return any(program_id_axis(mod, c) is not None for c in calls(node)) or bool(names_in(node) & derived)


def _stored(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def derived_names(mod: Module, k: Kernel) -> set[str]:
    """Every name bound anywhere in the kernel to a value computed from the program id,
    directly or through other names (common.derived)."""
    return derived(k, lambda node, so_far: _depends(mod, node, so_far))


def _check_statements(mod: Module, k: Kernel, derived: set[str]) -> list[tuple[ast.stmt, list[str]]]:
    """Refuses statements the tile cannot carry; returns, for each loop or run-time branch,
    the names it must widen to a tile before it (``_widened``)."""
    name = k.name
    widen: list[tuple[ast.stmt, list[str]]] = []
    for s in ast.walk(k.node):
        if s is k.node or not isinstance(s, ast.stmt):
            continue
        if isinstance(s, ast.Return):
            raise RewriteRefused(f"{name} line {s.lineno}: returns early; a return in a tile would end every row "
                                 "of the program, not one")
        if isinstance(s, ast.While):
            raise RewriteRefused(f"{name} line {s.lineno}: has a while loop; its condition and carried values "
                                 "would become per-row tiles")
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith,
                          ast.Try, ast.Raise, ast.Global, ast.Nonlocal, ast.Delete, ast.AsyncFor)):
            raise RewriteRefused(f"{name} line {s.lineno}: a `{type(s).__name__}` statement; this rewrite handles "
                                 "assignments, calls, `if` and `for` only")
        if isinstance(s, ast.Assert) and _depends(mod, s, derived):
            raise RewriteRefused(f"{name} line {s.lineno}: asserts on a value derived from the program id; rows "
                                 "past the grid hold undefined values and could fail it")
        if isinstance(s, (ast.For, ast.If)):
            head = s.iter if isinstance(s, ast.For) else s.test
            what = "loop" if isinstance(s, ast.For) else "`if`"
            if _depends(mod, head, derived):
                used = sorted(names_in(head) & derived) or ["tl.program_id"]
                raise RewriteRefused(f"{name} line {s.lineno}: the {what} header depends on the program id "
                                     f"({', '.join(used)}); rows of one tile would take different paths")
            static = isinstance(s, ast.If) and not list(calls(s.test)) and names_in(s.test) <= k.constexprs
            if not static:
                names = _widened(mod, k, s, derived)
                if names:
                    widen.append((s, names))
    return widen


def _widened(mod: Module, k: Kernel, s: ast.For | ast.If, derived: set[str]) -> list[str]:
    """The names a loop or run-time branch rebinds to a value derived from the program id
    while some binding before it is not derived (a ``tl.zeros`` accumulator, a parameter).
    Triton carries such a name through the statement and its type must not change, but the
    tile makes the derived value [ROWS, ...] where the one before it is rank 1 or a scalar; so
    the rewrite widens it to a tile just before the statement (``tl.where(row_mask, v, v)``:
    the same values in every row, the dtype kept). A name whose bindings before the statement
    are all derived is already a tile there."""
    inside = set().union(*(_stored(b) for b in [*s.body, *s.orelse])) | (
        _stored(s.target) if isinstance(s, ast.For) else set())
    before: dict[str, bool] = {p: False for p in k.params}      # name -> every binding derived
    for n in ast.walk(k.node):
        if _within(n, s) or not isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
            continue
        if n.lineno >= s.lineno or (isinstance(n, ast.AnnAssign) and n.value is None):
            continue
        targets = n.targets if isinstance(n, ast.Assign) else [n.target]
        value = n.iter if isinstance(n, ast.For) else n.value
        assert value is not None
        dep = _depends(mod, value, derived)
        for t in targets:
            for x in ast.walk(t):
                if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store):
                    before[x.id] = before.get(x.id, True) and dep
    return sorted(v for v in inside & derived if v in before and not before[v])


def _within(node: ast.AST, s: ast.stmt) -> bool:
    return any(n is node for n in ast.walk(s))


def _check_calls(mod: Module, k: Kernel, derived: set[str], values: dict[str, dict[str, Any]]) -> int:
    """Refuses cross-lane and rank-changing operations; returns the widest tl.arange."""
    name = k.name
    block = 1
    for n in ast.walk(k.node):
        if isinstance(n, ast.Subscript):
            raise RewriteRefused(f"{name} line {n.lineno}: subscript `{ast.unparse(n)}` changes a tensor's rank; "
                                 "the tile adds a row axis in front of the body's vectors")
        if isinstance(n, (ast.NamedExpr, ast.Lambda)):
            raise RewriteRefused(f"{name} line {n.lineno}: a `{type(n).__name__}` expression")
        if isinstance(n, (ast.BoolOp, ast.IfExp)) and _depends(mod, n.test if isinstance(n, ast.IfExp) else n,
                                                                 derived):
            raise RewriteRefused(f"{name} line {n.lineno}: `{ast.unparse(n)}` takes and/or/if-else of a value "
                                 "derived from the program id, which becomes a tile")
        if not isinstance(n, ast.Call):
            continue
        if any(isinstance(a, ast.Starred) for a in n.args) or any(kw.arg is None for kw in n.keywords):
            raise RewriteRefused(f"{name} line {n.lineno}: a call with *args or **kwargs")
        f = mod.tl_func(n)
        dep = any(_depends(mod, a, derived) for a in [*n.args, *(kw.value for kw in n.keywords)])
        if f is None:
            func = n.func
            if _is_method(mod, func):
                assert isinstance(func, ast.Attribute)
                if func.attr in CROSS_LANE or func.attr in HINTS:
                    raise RewriteRefused(f"{name} line {n.lineno}: calls .{func.attr}(); it mixes lanes or changes "
                                         "the rank, and the tile puts rows side by side")
                if func.attr not in ROW_METHODS and _depends(mod, func.value, derived):
                    raise RewriteRefused(f"{name} line {n.lineno}: calls .{func.attr}() on a value derived from the "
                                         "program id, which becomes a tile")
                continue
            if dep:
                raise RewriteRefused(f"{name} line {n.lineno}: passes a value derived from the program id to "
                                     f"`{ast.unparse(func)}`, whose body this rewrite does not check")
            continue
        base = f.split(".")[-1]
        if f == "program_id":
            continue
        if base in CROSS_LANE:
            raise RewriteRefused(f"{name} line {n.lineno}: calls tl.{f}; it mixes lanes or changes the rank, and "
                                 "the tile puts rows side by side")
        if base in HINTS and dep:
            raise RewriteRefused(f"{name} line {n.lineno}: tl.{f} of a value derived from the program id; the "
                                 "tile makes it rank 2, and the hint's values are per axis")
        if base in DEBUG and dep:
            raise RewriteRefused(f"{name} line {n.lineno}: tl.{f} of a value derived from the program id; rows past "
                                 "the grid hold undefined values")
        if f in ("zeros", "full"):
            shape = call_arg(n, 0, "shape")
            if not (isinstance(shape, (ast.List, ast.Tuple)) and len(shape.elts) == 1):
                raise RewriteRefused(f"{name} line {n.lineno}: tl.{f} with shape `{ast.unparse(shape or n)}`; "
                                     "this rewrite needs one-element shapes (rank-1 vectors)")
            if dep:
                raise RewriteRefused(f"{name} line {n.lineno}: tl.{f} of a value derived from the program id")
        if f == "arange":
            block = max(block, _arange_size(mod, k, n, values))
    return block


def _row_ops(mod: Module, k: Kernel, derived: set[str]) -> list[ast.Call]:
    """The reductions and scans of values derived from the program id: each runs along the
    row of the original program, which the tile makes axis 1. Their axis must be the only one
    a rank-1 vector has (0, -1 or none given) and keep_dims a literal."""
    out = []
    for c in calls(k.node):
        f = mod.tl_func(c)
        base = f.split(".")[-1] if f else ""
        if base not in ROW_REDUCE_KEEP_POS and base not in ROW_SCAN:
            continue
        arg = call_arg(c, 0, "input")
        if arg is None or not _depends(mod, arg, derived):
            continue
        axis = call_arg(c, AXIS_POS, "axis")
        if not (axis is None or (isinstance(axis, ast.Constant) and axis.value is None) or
                int_const(axis) in (0, -1) or
                (isinstance(axis, ast.UnaryOp) and isinstance(axis.op, ast.USub) and int_const(axis.operand) == 1)):
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{f} along axis `{ast.unparse(axis)}`; this rewrite "
                                 "needs the reduction along the row's only axis (0, -1 or none)")
        keep = call_arg(c, ROW_REDUCE_KEEP_POS[base], "keep_dims") if base in ROW_REDUCE_KEEP_POS else None
        if keep is not None and not (isinstance(keep, ast.Constant) and isinstance(keep.value, bool)):
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{f} with keep_dims `{ast.unparse(keep)}`, not a "
                                 "literal")
        out.append(c)
    return out


def _tuple_operands(c: ast.Call) -> list[ast.expr]:
    """A row op's operands when it takes a tuple (``tl.reduce((mean, m2, n), 0, combine)``,
    ``tl.associative_scan((a, b), 0, combine)``); none otherwise."""
    arg = call_arg(c, 0, "input")
    return list(arg.elts) if isinstance(arg, ast.Tuple) else []


def _row_op_edits(mod: Module, ops: list[ast.Call]) -> list[Edit]:
    """Each row reduction or scan along axis 1; a reduction keeps its axis, so its result is a
    [ROWS, 1] column standing where the program's scalar stood."""
    edits: list[Edit] = []
    for c in ops:
        base = str(mod.tl_func(c)).split(".")[-1]
        added = []
        axis = call_arg(c, AXIS_POS, "axis")
        if axis is None:
            added.append("axis=1")
        else:
            edits.append(mod.replace(axis, "1"))
        if base in ROW_REDUCE_KEEP_POS:
            keep = call_arg(c, ROW_REDUCE_KEEP_POS[base], "keep_dims")
            if keep is None:
                added.append("keep_dims=True")
            else:
                edits.append(mod.replace(keep, "True"))
        if added:
            edits.append(mod.add_call_keyword(c, ", ".join(added)))
    return edits


def _is_method(mod: Module, func: ast.expr) -> bool:
    """A method of a value (``x.to(...)``), not a function reached through an import."""
    if not isinstance(func, ast.Attribute):
        return False
    root: ast.expr = func
    while isinstance(root, ast.Attribute):
        root = root.value
    return not (isinstance(root, ast.Name) and root.id in mod.aliases)


def _arange_size(mod: Module, k: Kernel, c: ast.Call, values: dict[str, dict[str, Any]]) -> int:
    def bound(e: ast.expr | None) -> int:
        v = int_const(e)
        if v is not None:
            return v
        if isinstance(e, ast.Name) and e.id in k.constexprs:
            d = values.get(e.id) or {}
            if d.get("kind") == "int":
                return int(d["value"])
        raise RewriteRefused(f"{k.name} line {c.lineno}: tl.arange bound `{ast.unparse(e) if e else '?'}` is not a "
                             "literal or a constexpr of the recorded launch; the block size is unknown")
    return bound(call_arg(c, 1, "end")) - bound(call_arg(c, 0, "start"))


def _accesses(mod: Module, k: Kernel, derived: set[str]) -> list[ast.Call]:
    """The loads and stores that get the row mask; refuses a store whose pointer does not
    depend on the program id (every program stores to the same place)."""
    out = []
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f not in ("load", "store"):
            continue
        ptr = call_arg(c, 0, "pointer")
        if ptr is None:
            raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{f} without a pointer argument")
        if f == "store":
            if not _depends(mod, ptr, derived):
                raise RewriteRefused(f"{k.name} line {c.lineno}: tl.store to `{ast.unparse(ptr)}`, which does not "
                                     "depend on the program id: every program stores to the same place")
            out.append(c)
        elif _depends(mod, c, derived):
            out.append(c)
    if not any(mod.tl_func(c) == "store" for c in out):
        raise RewriteRefused(f"{k.name}: stores nothing per program")
    return out


def domain_for(block: int, rows: int) -> list[int]:
    """ROWS values whose tile stays within MAX_TILE elements and that are not larger than
    the grid needs (next power of two of G)."""
    return [r for r in ROWS_CHOICES if r * block <= MAX_TILE and r <= max(2, next_pow2(rows))]


def default_rows(dom: list[int], block: int) -> int:
    return next((r for r in dom if r * block >= TARGET_TILE), dom[-1])


def analyze(mod: Module, k: Kernel) -> RowsPlan:
    name = k.name
    check_wrappers(mod, k, "launch")
    check_callees(mod, k)
    pids = [c for c in calls(k.node) if program_id_axis(mod, c) is not None]
    if not pids:
        raise RewriteRefused(f"{name} never calls tl.program_id")
    for c in pids:
        if program_id_axis(mod, c) != 0:
            raise RewriteRefused(f"{name} line {c.lineno}: uses tl.program_id of another axis than 0; this rewrite "
                                 "tiles a 1-D grid")
    for c in calls(k.node):
        if mod.tl_func(c) == "num_programs":
            raise RewriteRefused(f"{name} line {c.lineno}: uses tl.num_programs, which the rewrite changes")
    derived = derived_names(mod, k)
    widen = _check_statements(mod, k, derived)
    site = mod.one_site(name)
    if not (isinstance(site.stmt, ast.Expr) and site.stmt.value is site.call):
        raise RewriteRefused(f"line {site.call.lineno}: the launch of {name} is not a statement of its own")
    elts = grid_elements(mod, site)
    if len(elts) != 1:
        raise RewriteRefused(f"line {site.call.lineno}: the grid has {len(elts)} axes; this rewrite tiles a 1-D grid")
    grid_elem_text(mod, site, 0)
    values = mod.recorded_values(name)
    block = _check_calls(mod, k, derived, values)
    accesses = _accesses(mod, k, derived)
    row_ops = _row_ops(mod, k, derived)
    widen_operands = [e for c in row_ops for e in _tuple_operands(c) if not _depends(mod, e, derived)]
    grid = mod.recorded_grid(name)
    if len(grid) < 1 or any(g != 1 for g in grid[1:]):
        raise RewriteRefused(f"{name}: the recorded grid {grid} is not 1-D")
    rows = grid[0]
    if rows < 2:
        raise RewriteRefused(f"{name}: the recorded grid has {rows} program(s); nothing to put side by side")
    dom = domain_for(block, rows)
    if not dom:
        raise RewriteRefused(f"{name}: each program already spans {block} elements; 2 rows would exceed "
                             f"{MAX_TILE} per tile")
    rdef = default_rows(dom, block)
    warps = launch_warps(site)
    why = (f"{name}: a 1-D grid of {rows} programs (line {site.call.lineno}), each over a block of {block} "
           f"element(s); the body mixes lanes only in reductions or scans along the row, changes no rank and has "
           f"no control flow on the program id, so {rdef} rows can share one program as a [{rdef}, {block}] tile")
    return RowsPlan(k, site, why, {**DEFAULTS, "kernel": name, "ROWS": rdef, "num_warps": warps},
                    {"ROWS": dom, "num_warps": REWRITE_WARPS}, rows, block, accesses, row_ops, widen,
                    widen_operands)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _mask_edits(mod: Module, plan: RowsPlan, pid_edits: list[Edit], row_mask: str) -> tuple[list[Edit], list[Edit]]:
    """(edits that add the row mask, the program-id edits not inside a replaced mask)."""
    edits: list[Edit] = []
    inner: set[Edit] = set()
    for c in plan.accesses:
        m = call_arg(c, MASK_POS[str(mod.tl_func(c))], "mask")
        if m is None:
            edits.append(mod.add_call_keyword(c, f"mask={row_mask}"))
        elif isinstance(m, ast.Constant) and m.value is None:
            edits.append(mod.replace(m, row_mask))
        else:
            a, b = mod.index.span(m)
            inside = [e for e in pid_edits if a <= e.start and e.end <= b]
            inner |= set(inside)
            text = mod.edited_range(a, b, inside)
            edits.append(Edit(a, b, from_template("M & R", {"M": text, "R": row_mask})[0]))
    return edits, [e for e in pid_edits if e not in inner]


def _launch_edits(mod: Module, site: LaunchSite, n_rows: str, rows_param: str, value: int,
                  warps: int) -> list[Edit]:
    """The grid, the new arguments and num_warps (one insertion: two insertions at the same
    place would come out in either order)."""
    g0 = grid_elem_text(mod, site, 0)
    tri = mod.alias_for("triton")
    template = "(triton.cdiv(G, R),)" if tri else "((G + R - 1) // R,)"
    grid = from_template(template, {"triton": tri or "triton", "G": g0, "R": ast.Constant(value)})[0]
    added = f"{n_rows}={g0}, {rows_param}={value}"
    edits = [mod.replace(site.grid, grid)]
    if "num_warps" in site.options:
        edits.append(mod.set_launch_arg(site, "num_warps", str(warps)))
    else:
        added += f", num_warps={warps}"
    return [*edits, mod.add_call_keyword(site.call, added)]


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    value = int(p["ROWS"])
    k, site = plan.kernel, plan.site
    tl = mod.tl()
    rows, row_mask = mod.fresh("rows"), mod.fresh("row_mask")
    n_rows, rows_param = mod.fresh("n_rows"), mod.fresh("ROWS")
    body = body_after_docstring(k)
    head = from_template("R = tl.program_id(0) * ROWS + tl.arange(0, ROWS)\nM = R[:, None] < N",
                         {"R": rows, "tl": tl, "ROWS": rows_param, "M": row_mask, "N": n_rows})
    pid_text = from_template("R[:, None]", {"R": rows})[0]
    pid_edits = [mod.replace(c, pid_text) for c in calls(k.node) if program_id_axis(mod, c) == 0]
    pid_edits += _row_op_edits(mod, plan.row_ops)
    def tile(text: str) -> str:         # a value the same in every row, as a tile (the docstring)
        return f"{tl}.where({row_mask}, {text}, {text})"

    for e in plan.widen_operands:
        a, b = mod.index.span(e)
        pid_edits.append(mod.replace(e, tile(mod.source[a:b])))
    mask_edits, pid_edits = _mask_edits(mod, plan, pid_edits, row_mask)
    widen = []
    for s, names in plan.widen:
        lines = [f"{v} = {tile(v)}" for v in names]
        if s is body[0]:
            head += lines           # one insertion: two at one place would come out in either order
        else:
            widen.append(mod.insert_before(s, lines))
    edits = [mod.insert_before(body[0], head), *widen, *pid_edits, *mask_edits,
             mod.add_kernel_params(k, [(n_rows, False, "1"), (rows_param, True, str(value))]),
             *_launch_edits(mod, site, n_rows, rows_param, value, int(p["num_warps"]))]
    return apply_edits(mod.source, edits)
