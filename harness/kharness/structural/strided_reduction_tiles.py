"""strided_reduction_tiles: a reduction along a strided axis with one program per column (a
column sum whose loads step by the row stride, so neighbouring lanes read addresses a row
apart) becomes a kernel in which each program takes a block of BLOCK_C columns and works on
2-D tiles (rows x columns), whose rows are contiguous in memory: coalesced, vectorized loads.

Precondition: a 1-D grid whose programs are the columns: ``col = tl.program_id(0)``, used
nowhere else; the kernel reduces (tl.sum/max/min/...) a row vector built with
``tl.arange(0, BLOCK)`` (one row-block constexpr); at least one load's address adds the
column to a row vector multiplied by a stride (``rows * stride + col``); every value and
control-flow decision is one the lifting below handles (elementwise tl functions, loads,
stores, reductions over the row axis, loops and branches that do not depend on the
column); every store's address depends on the column.

The rewrite ("lifting" the program over a vector of columns): ``col`` becomes
``tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)`` with ``col_mask = col < num_cols``
(``num_cols`` the original number of programs); every value gets the shape its dependence
dictates — scalar, row vector [BLOCK], column vector [BLOCK_C] or tile [BLOCK, BLOCK_C] —
row vectors meeting columns are broadcast (``r[:, None]``, ``c[None, :]``), accumulators
created with ``tl.zeros([BLOCK])``/``tl.full`` or a scalar constant get the wider shape,
reductions keep reducing the row axis (``axis=0``), and every load and store that depends on
the column is also masked by ``col_mask``. The grid becomes
``(triton.cdiv(num_cols, BLOCK_C),)``.

Why it is correct: lane j of the column axis of program p computes exactly what program
p * BLOCK_C + j computed before — every operation is elementwise along the column axis or
reduces the row axis only, so lanes never mix — and lanes past the original grid are
masked off at every memory access."""
from __future__ import annotations

import ast
import copy
from dataclasses import dataclass
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    STORE_TL,
    Fit,
    Kernel,
    Module,
    Plan,
    call_arg,
    calls,
    check_block_uses,
    check_callees,
    check_params,
    check_wrappers,
    from_template,
    grid_elem_text,
    grid_elements,
    int_const,
    is_pow2,
    names_in,
    pick,
    program_id_axis,
    survey_one,
)

NAME = "strided_reduction_tiles"
DEFAULTS = {"kernel": "", "BLOCK_R": 32, "BLOCK_C": 64, "num_warps": 4}
DOMAIN = {"BLOCK_R": [8, 16, 32, 64, 128], "BLOCK_C": [16, 32, 64, 128, 256], "num_warps": [2, 4, 8]}
MAX_TILE = 16384                # BLOCK_R * BLOCK_C: beyond this the tile spills

Kind = frozenset
S: frozenset[str] = frozenset()
R = frozenset({"r"})
C = frozenset({"c"})
RC = frozenset({"r", "c"})

REDUCTIONS = {"sum", "max", "min", "argmax", "argmin", "xor_sum"}
ELEMENTWISE = {
    "exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "abs", "maximum", "minimum", "where", "sigmoid",
    "cos", "sin", "erf", "fma", "floor", "ceil", "clamp", "fdiv", "div_rn", "cast", "umulhi", "cdiv", "log1p",
    "tanh", "math.exp", "math.exp2", "math.log", "math.log2", "math.sqrt", "math.rsqrt", "math.abs",
    "math.tanh", "math.erf", "math.log1p", "math.pow", "math.fma", "math.floor", "math.ceil",
}
BUILTINS = {"float", "int", "min", "max", "abs", "range"}


@dataclass
class ColPlan(Plan):
    col: str
    col_stmt: ast.Assign
    block_r: str
    block_r_free: bool
    kinds: dict[str, frozenset[str]]


class Lifter:
    """Kinds (which of the row and column axes a value spans) and the lifted expressions."""

    def __init__(self, mod: Module, k: Kernel, col: str, col_stmt: ast.Assign) -> None:
        self.mod, self.k, self.col, self.col_stmt = mod, k, col, col_stmt
        self.env: dict[str, frozenset[str]] = {col: C}
        self.block_r = ""
        self.block_c = "BLOCK_C"
        self.cmask = "col_mask"
        self.tl = mod.tl()

    def refuse(self, node: ast.AST, what: str) -> RewriteRefused:
        return RewriteRefused(f"{self.k.name} line {getattr(node, 'lineno', '?')}: {what} "
                              f"(`{ast.unparse(node)[:80]}`)")

    # ---------------------------------------------------------------- kinds
    def kind(self, e: ast.AST) -> frozenset[str]:
        if isinstance(e, ast.Constant):
            return S
        if isinstance(e, ast.Name):
            return self.env.get(e.id, S)
        if isinstance(e, ast.Attribute):
            if self.mod.qualname(e) and self.mod.qualname(e).split(".")[0] in self.mod.aliases.values():  # type: ignore
                return S
            if e.attr in ("dtype", "element_ty") or isinstance(e.value, ast.Attribute) and e.value.attr == "dtype":
                return S
            raise self.refuse(e, "an attribute the lifting does not know")
        if isinstance(e, ast.BinOp):
            return self.kind(e.left) | self.kind(e.right)
        if isinstance(e, ast.UnaryOp):
            return self.kind(e.operand)
        if isinstance(e, ast.BoolOp):
            return frozenset().union(*(self.kind(v) for v in e.values))
        if isinstance(e, ast.Compare):
            return frozenset().union(self.kind(e.left), *(self.kind(v) for v in e.comparators))
        if isinstance(e, ast.Subscript):
            if self.kind(e.value) == S and self.kind(e.slice) == S:
                return S
            raise self.refuse(e, "indexes a block (the kernel is already 2-D)")
        if isinstance(e, (ast.Tuple, ast.List)):
            return frozenset().union(*(self.kind(v) for v in e.elts)) if e.elts else S
        if isinstance(e, ast.Call):
            return self.call_kind(e)
        raise self.refuse(e, f"a {type(e).__name__} expression the lifting does not handle")

    def call_kind(self, e: ast.Call) -> frozenset[str]:
        f = self.mod.tl_func(e)
        if f == "program_id":
            if e is not self.col_stmt.value:
                raise self.refuse(e, "uses tl.program_id outside the column's definition")
            return C
        if f == "arange":
            if any(self.kind(a) != S for a in e.args):
                raise self.refuse(e, "an arange whose bounds depend on the column")
            return R
        if f in ("zeros", "full"):
            shape = call_arg(e, 0, "shape")
            if not isinstance(shape, (ast.List, ast.Tuple)) or len(shape.elts) > 1:
                raise self.refuse(e, f"tl.{f} of a shape other than [BLOCK] or []")
            if f == "full" and self.kind(call_arg(e, 1, "value") or ast.Constant(0)) != S:
                raise self.refuse(e, "tl.full of a value that depends on the column")
            return R if shape.elts else S
        if f in ("range", "static_range", "cdiv"):
            return frozenset().union(*(self.kind(a) for a in e.args))
        if f in REDUCTIONS:
            if any(kw.arg == "keep_dims" for kw in e.keywords):
                raise self.refuse(e, "a reduction with keep_dims")
            a = self.kind(e.args[0]) if e.args else S
            if "r" not in a:
                raise self.refuse(e, "a reduction of a value without the row axis")
            return a - R
        if f in ELEMENTWISE:
            return frozenset().union(*(self.kind(a) for a in [*e.args, *(kw.value for kw in e.keywords)]))
        if f == "load":
            ks = [self.kind(a) for a in [*e.args, *(kw.value for kw in e.keywords)]]
            return frozenset().union(*ks)
        if f is None and isinstance(e.func, ast.Attribute) and e.func.attr == "to":
            return self.kind(e.func.value)
        if f is None and isinstance(e.func, ast.Name) and e.func.id in BUILTINS:
            ks = [self.kind(a) for a in e.args]
            if any(ks):
                raise self.refuse(e, f"{e.func.id}() of a block")
            return S
        raise self.refuse(e, "a call the lifting does not handle")

    def infer(self) -> None:
        """Kinds of every name, to a fixed point (a loop-carried value takes the widest kind
        any of its assignments gives it)."""
        for _ in range(16):
            before = dict(self.env)
            self.visit_kinds(self.k.node.body)
            if self.env == before:
                return
        raise RewriteRefused(f"{self.k.name}: the kinds of its values do not settle")

    def visit_kinds(self, body: list[ast.stmt]) -> None:
        for s in body:
            if s is self.col_stmt:
                continue
            if isinstance(s, ast.Assign):
                if len(s.targets) != 1 or not isinstance(s.targets[0], ast.Name):
                    raise self.refuse(s, "an assignment to something other than one name")
                n = s.targets[0].id
                self.env[n] = self.env.get(n, S) | self.kind(s.value)
            elif isinstance(s, ast.AugAssign):
                if not isinstance(s.target, ast.Name):
                    raise self.refuse(s, "an augmented assignment to something other than a name")
                n = s.target.id
                self.env[n] = self.env.get(n, S) | self.kind(s.value)
            elif isinstance(s, ast.For):
                if not isinstance(s.target, ast.Name) or s.orelse or self.kind(s.iter) != S:
                    raise self.refuse(s.iter, "a loop whose range depends on the column")
                self.env[s.target.id] = S
                self.visit_kinds(s.body)
            elif isinstance(s, ast.If):
                if self.kind(s.test) != S:
                    raise self.refuse(s.test, "a branch that depends on the column")
                self.visit_kinds(s.body)
                self.visit_kinds(s.orelse)
            elif isinstance(s, ast.Expr):
                f = self.mod.tl_func(s.value)
                if f in STORE_TL:
                    assert isinstance(s.value, ast.Call)
                    self.store_kinds(s.value, f)
                elif not (isinstance(s.value, ast.Constant) or f in ("static_assert", "debug_barrier")):
                    raise self.refuse(s, "a statement the lifting does not handle")
            elif not isinstance(s, ast.Pass):
                raise self.refuse(s, f"a {type(s).__name__} statement (the lifting handles assignments, loops, "
                                     "branches and stores)")

    def store_kinds(self, e: ast.Call, f: str) -> tuple[frozenset[str], frozenset[str]]:
        ptr = call_arg(e, 0, "pointer")
        val = call_arg(e, 1, "value" if f == "store" else "val")
        if ptr is None or val is None:
            raise self.refuse(e, f"tl.{f} without pointer and value")
        kp, kv = self.kind(ptr), self.kind(val)
        mask = call_arg(e, 2, "mask")
        km = self.kind(mask) if mask is not None else S
        if "c" not in kp:
            raise self.refuse(e, "a store whose address does not depend on the column")
        return kp, kp | kv | km

    # ---------------------------------------------------------------- lifting
    def lift(self, e: ast.expr, target: frozenset[str]) -> ast.expr:
        k = self.kind(e)
        return self.partial(self.rebuild(e, k), k, target)

    def partial(self, node: ast.expr, k: frozenset[str], target: frozenset[str]) -> ast.expr:
        """Broadcastable form of a value of kind k where kind target is computed."""
        if k == target or not k or target != RC:
            return node
        return _subscript(node, k == R)

    def full(self, node: ast.expr, k: frozenset[str], target: frozenset[str]) -> ast.expr:
        """A value of kind k widened to exactly kind target (loop-carried values must keep
        one shape)."""
        if k == target:
            return node
        if isinstance(node, ast.Call) and self.mod.tl_func(node) in ("zeros", "full"):
            shape = call_arg(node, 0, "shape")
            assert isinstance(shape, (ast.List, ast.Tuple))
            new = copy.deepcopy(node)
            dims = {frozenset(): [], R: [self.block_r], C: [self.block_c], RC: [self.block_r, self.block_c]}[target]
            new_shape = ast.List([ast.Name(d, ast.Load()) for d in dims], ast.Load())
            if new.args:
                new.args[0] = new_shape
            else:
                for kw in new.keywords:
                    if kw.arg == "shape":
                        kw.value = new_shape
            return new
        if k == S and target == C and not (names_in(node) - {"float", "int"}):
            is_float = any(isinstance(x, ast.Constant) and isinstance(x.value, float) or
                           isinstance(x, ast.Call) and isinstance(x.func, ast.Name) and x.func.id == "float"
                           for x in ast.walk(node))
            return _full(self.tl, self.block_c, node, "float32" if is_float else "int32")
        if target == RC and k in (R, C):
            sub = _subscript(node, k == R)
            return ast.Call(_attr(self.tl, "broadcast_to"),
                            [sub, ast.Tuple([ast.Name(self.block_r, ast.Load()), ast.Name(self.block_c, ast.Load())],
                                            ast.Load())], [])
        raise self.refuse(node, f"cannot widen this {sorted(k) or 'scalar'} value to {sorted(target)} for a value "
                                "carried across iterations")

    def rebuild(self, e: ast.expr, k: frozenset[str]) -> ast.expr:
        """e (of kind k) with its sub-expressions lifted."""
        if isinstance(e, (ast.Constant, ast.Name, ast.Attribute)):
            return copy.deepcopy(e)
        if isinstance(e, ast.BinOp):
            return ast.BinOp(self.lift(e.left, k), e.op, self.lift(e.right, k))
        if isinstance(e, ast.UnaryOp):
            return ast.UnaryOp(e.op, self.lift(e.operand, k))
        if isinstance(e, ast.BoolOp):
            return ast.BoolOp(e.op, [self.lift(v, k) for v in e.values])
        if isinstance(e, ast.Compare):
            return ast.Compare(self.lift(e.left, k), e.ops, [self.lift(v, k) for v in e.comparators])
        if isinstance(e, (ast.Subscript, ast.Tuple, ast.List)):
            return copy.deepcopy(e)
        assert isinstance(e, ast.Call)
        f = self.mod.tl_func(e)
        if f in ("program_id", "arange", "zeros", "full") or f is None and isinstance(e.func, ast.Name):
            return copy.deepcopy(e)
        if f in REDUCTIONS:
            a = self.kind(e.args[0])
            new = ast.Call(copy.deepcopy(e.func), [self.rebuild(e.args[0], a), *map(copy.deepcopy, e.args[1:])],
                           [copy.deepcopy(kw) for kw in e.keywords])
            if a == RC:             # the row axis is axis 0 of the tile
                new.args = new.args[:1]
                new.keywords = [kw for kw in new.keywords if kw.arg != "axis"] + [ast.keyword("axis", ast.Constant(0))]
            return new
        if f == "load":
            return self.memory_op(e, "load")
        if f is None:               # x.to(dtype)
            assert isinstance(e.func, ast.Attribute)
            return ast.Call(ast.Attribute(self.lift(e.func.value, k), e.func.attr, ast.Load()),
                            [copy.deepcopy(a) for a in e.args], [copy.deepcopy(kw) for kw in e.keywords])
        return ast.Call(copy.deepcopy(e.func), [self.lift(a, k) for a in e.args],
                        [ast.keyword(kw.arg, self.lift(kw.value, k)) for kw in e.keywords])

    def memory_op(self, e: ast.Call, f: str) -> ast.Call:
        """A load or store: operands lifted to the access's kind, the column mask added when
        the access depends on the column; the pointer is broadcast to the full shape when the
        mask or value is wider."""
        is_load = f == "load"
        names = ["pointer", "mask", "other"] if is_load else ["pointer", "value" if f == "store" else "val", "mask"]
        args = {n: call_arg(e, i, n) for i, n in enumerate(names)}
        k = frozenset().union(*(self.kind(v) for v in args.values() if v is not None))
        ptr = args["pointer"]
        assert ptr is not None
        kp = self.kind(ptr)
        new_ptr = self.lift(ptr, k) if kp == k else self.full(self.rebuild(ptr, kp), kp, k)
        new: dict[str, ast.expr] = {"pointer": new_ptr}
        for n in names[1:]:
            v = args[n]
            if v is not None:
                new[n] = self.lift(v, k)
        if "c" in k:
            cm = self.partial(ast.Name(self.cmask, ast.Load()), C, k)
            new["mask"] = ast.BinOp(new["mask"], ast.BitAnd(), cm) if "mask" in new else cm
        used = set(names) | {"pointer"}
        extra = [copy.deepcopy(kw) for kw in e.keywords if kw.arg not in used]
        pos = [new["pointer"]] + ([new[names[1]]] if names[1] in new and not is_load else [])
        kws = [ast.keyword(n, new[n]) for n in names[1:] if n in new and not (not is_load and n == names[1])]
        return ast.Call(copy.deepcopy(e.func), pos, kws + extra)


def _subscript(node: ast.expr, rows: bool) -> ast.expr:
    none, full = ast.Constant(None), ast.Slice()
    return ast.Subscript(node, ast.Tuple([full, none] if rows else [none, full], ast.Load()), ast.Load())


def _attr(tl: str, name: str) -> ast.expr:
    return ast.parse(f"{tl}.{name}", mode="eval").body


def _full(tl: str, block_c: str, value: ast.expr, dtype: str) -> ast.expr:
    return ast.Call(_attr(tl, "full"), [ast.List([ast.Name(block_c, ast.Load())], ast.Load()), copy.deepcopy(value),
                                        _attr(tl, dtype)], [])


def _terms(e: ast.expr) -> list[ast.expr]:
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
        return _terms(e.left) + _terms(e.right)
    return [e]


def analyze(mod: Module, k: Kernel) -> ColPlan:
    name = k.name
    check_wrappers(mod, k, "launch")
    check_callees(mod, k)
    pids = [c for c in calls(k.node) if program_id_axis(mod, c) is not None]
    if any(program_id_axis(mod, c) != 0 for c in pids) or len(pids) != 1:
        raise RewriteRefused(f"{name}: one program per column needs exactly one tl.program_id(0) "
                             f"(found {len(pids)} program-id calls)")
    if any(mod.tl_func(c) == "num_programs" for c in calls(k.node)):
        raise RewriteRefused(f"{name} uses tl.num_programs, which the column blocks change")
    col_stmt = next((s for s in k.node.body if isinstance(s, ast.Assign) and s.value is pids[0]
                     and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)), None)
    if col_stmt is None:
        raise RewriteRefused(f"{name} line {pids[0].lineno}: tl.program_id(0) is not assigned to a name at the "
                             "top of the kernel")
    col = col_stmt.targets[0].id  # type: ignore[attr-defined]
    if sum(1 for n in ast.walk(k.node) if isinstance(n, ast.Name) and n.id == col and isinstance(n.ctx, ast.Store)) != 1:
        raise RewriteRefused(f"{name}: the column {col} is assigned more than once")
    aranged = {a.id for c in calls(k.node) if mod.tl_func(c) == "arange" for a in c.args[1:2]
               if isinstance(a, ast.Name)}
    if len(aranged) != 1 or not aranged <= k.constexprs:
        raise RewriteRefused(f"{name}: needs exactly one row-block constexpr in tl.arange (found "
                             f"{', '.join(sorted(aranged)) or 'none'})")
    block_r = aranged.pop()
    lifter = Lifter(mod, k, col, col_stmt)
    lifter.block_r = block_r
    lifter.infer()
    # the precondition proper: a strided load along the rows, added to the column
    once = _single_values(k)
    strided = None
    for c in calls(k.node):
        if mod.tl_func(c) != "load":
            continue
        ptr = call_arg(c, 0, "pointer")
        if ptr is None or lifter.kind(ptr) != RC:
            continue
        for t in _terms(_expand(ptr, once)):
            if isinstance(t, ast.BinOp) and isinstance(t.op, ast.Mult) and {lifter.kind(t.left), lifter.kind(t.right)} == {R, S} \
                    and int_const(t.right if lifter.kind(t.left) == R else t.left) != 1:
                strided = (c, t)
    if strided is None:
        raise RewriteRefused(f"{name}: no load adds the program's index {col} to a row offset multiplied by a "
                             "stride (`rows * stride + col`); the reduced axis is not strided")
    if not any(mod.tl_func(c) in REDUCTIONS and c.args and "r" in lifter.kind(c.args[0]) for c in calls(k.node)):
        raise RewriteRefused(f"{name} does not reduce over the rows")
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f in STORE_TL:
            lifter.store_kinds(c, f)
    steps = [n.iter.args[2] for n in ast.walk(k.node) if isinstance(n, ast.For) and isinstance(n.iter, ast.Call)
             and len(n.iter.args) == 3 and int_const(n.iter.args[0]) == 0 and isinstance(n.iter.args[2], ast.Name)
             and n.iter.args[2].id == block_r]
    block_r_free = bool(steps)
    if block_r_free:
        check_block_uses(mod, k, block_r, steps, f"{NAME}'s BLOCK_R")
    site = mod.one_site(name)
    elts = grid_elements(mod, site)
    if len(elts) != 1:
        raise RewriteRefused(f"line {site.call.lineno}: the grid has {len(elts)} axes; one program per column "
                             "needs a 1-D grid")
    grid_elem_text(mod, site, 0)
    grid = mod.recorded_grid(name)
    plan = ColPlan(k, site, "", {}, {}, col, col_stmt, block_r, block_r_free, dict(lifter.env))
    _lift_body(mod, lifter, k.node.body, plan)      # a dry run: refuses what the lifting cannot do
    load, term = strided
    why = (f"{name}: one program per column ({col} = tl.program_id(0), line {col_stmt.lineno}, grid {grid} at line "
           f"{site.call.lineno}); the load at line {load.lineno} steps down the rows by `{ast.unparse(term)}`, "
           f"so neighbouring programs read addresses a row apart; the rows are reduced with {block_r}-wide blocks")
    params = {**DEFAULTS, "kernel": name}
    domain = dict(DOMAIN)
    if not block_r_free:
        del params["BLOCK_R"], domain["BLOCK_R"]
    plan.why, plan.params, plan.domain = why, params, domain
    return plan


def _single_values(k: Kernel) -> dict[str, ast.expr]:
    counts: dict[str, int] = {}
    vals: dict[str, ast.expr] = {}
    for n in ast.walk(k.node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            counts[n.id] = counts.get(n.id, 0) + 1
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            vals[n.targets[0].id] = n.value
    return {n: v for n, v in vals.items() if counts.get(n) == 1}


def _expand(e: ast.expr, once: dict[str, ast.expr], depth: int = 0) -> ast.expr:
    """e with names assigned once replaced by their values (to see the terms of an address
    computed over several statements)."""
    if isinstance(e, ast.Name) and e.id in once and depth < 8:
        return _expand(once[e.id], once, depth + 1)
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
        return ast.BinOp(_expand(e.left, once, depth), e.op, _expand(e.right, once, depth))
    return e


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    for key in ("BLOCK_R", "BLOCK_C", "num_warps"):
        if key in p and not is_pow2(int(p[key])):
            raise RewriteRefused(f"{NAME}: {key}={p[key]} is not a power of two")
    block_r_value = int(p.get("BLOCK_R", mod.recorded_int(plan.kernel.name, plan.block_r)))
    if block_r_value * int(p["BLOCK_C"]) > MAX_TILE:
        raise RewriteRefused(f"{NAME}: a {block_r_value}x{p['BLOCK_C']} tile exceeds {MAX_TILE} elements")
    k, site = plan.kernel, plan.site
    tl, triton = mod.tl(), mod.triton()
    lifter = Lifter(mod, k, plan.col, plan.col_stmt)
    lifter.block_r = plan.block_r
    lifter.block_c = mod.fresh("BLOCK_C")
    lifter.cmask = mod.fresh(f"{plan.col}_mask")
    num_cols = mod.fresh("num_cols")
    lifter.env = dict(plan.kinds)
    edits: list[Edit] = [mod.replace_stmt(plan.col_stmt, from_template(
        "COL = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)\nMASK = COL < NUM_COLS",
        {"COL": plan.col, "tl": tl, "BLOCK_C": lifter.block_c, "MASK": lifter.cmask, "NUM_COLS": num_cols}))]
    edits += _lift_body(mod, lifter, k.node.body, plan)
    edits.append(mod.add_kernel_params(k, [(num_cols, False, "1"), (lifter.block_c, True, str(p["BLOCK_C"]))]))
    g0 = grid_elem_text(mod, site, 0)
    edits.append(mod.replace(site.grid, from_template("(triton.cdiv(G, BC),)", {
        "triton": triton, "G": g0, "BC": ast.Constant(int(p["BLOCK_C"]))})[0]))
    edits.append(mod.add_call_keyword(site.call, f"{num_cols}={g0}, {lifter.block_c}={p['BLOCK_C']}"))
    if "BLOCK_R" in p:
        edits.append(mod.set_launch_arg(site, plan.block_r, str(p["BLOCK_R"])))
    edits.append(mod.set_launch_arg(site, "num_warps", str(p["num_warps"])))
    return apply_edits(mod.source, edits)


def _lift_body(mod: Module, lf: Lifter, body: list[ast.stmt], plan: ColPlan) -> list[Edit]:
    edits: list[Edit] = []
    for s in body:
        if s is plan.col_stmt:
            continue
        old: ast.expr | None = None
        new: ast.expr | None = None
        if isinstance(s, ast.Assign):
            t = lf.env[s.targets[0].id]  # type: ignore[attr-defined]
            old = s.value
            kv = lf.kind(s.value)
            new = lf.full(lf.rebuild(s.value, kv), kv, t) if kv != t else lf.rebuild(s.value, kv)
        elif isinstance(s, ast.AugAssign):
            assert isinstance(s.target, ast.Name)
            old, new = s.value, lf.lift(s.value, lf.env[s.target.id])
        elif isinstance(s, ast.For):
            edits += _lift_body(mod, lf, s.body, plan)
        elif isinstance(s, ast.If):
            edits += _lift_body(mod, lf, s.body, plan) + _lift_body(mod, lf, s.orelse, plan)
        elif isinstance(s, ast.Expr) and mod.tl_func(s.value) in STORE_TL:
            assert isinstance(s.value, ast.Call)
            old, new = s.value, lf.memory_op(s.value, str(mod.tl_func(s.value)))
        if old is not None and new is not None and ast.dump(new) != ast.dump(old):
            edits.append(mod.replace(old, ast.unparse(new)))
    return edits
