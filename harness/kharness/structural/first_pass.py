"""first_pass: the arithmetic of a row loop's single pass folded where it reads accumulators
still at their starting constants (row_single_block applies it to its copy, whose row loops
run once). An online softmax's running maximum starts at -inf and its running sum at 0, so in
that pass ``m_new = tl.maximum(m, x)`` is ``x`` and ``s = s * tl.exp(m - m_new) + tl.exp(x -
m_new)`` is exp(0) = 1 in each lane: of the loop's three exponentials per element only the
final combine's is left, and so is none of the vector state that made the unrolled copy spill
(log_softmax on the H200: 30-114 registers spilled, 0.28-0.47 ms against 0.19 for its loop).

K(c) below is a value known to be c in every lane: a name bound to ``tl.full(shape, c,
dtype)``, ``tl.zeros(shape, dtype)``, a number or ``float("inf")``/``-float("inf")``, and not
bound again since; T(c) one whose shape is known (a tensor constant or a scalar), t(c) a
tensor constant (a number 1.0 times an integer e is a float). The rules,
applied bottom-up to each statement at the kernel's top level, in order:

    maximum(T(-inf), e) = e, minimum(T(+inf), e) = e        exact but for a NaN e
    T(0) + e = e + T(0) = e - T(0) = e                       exact (but -0.0 + 0 is +0.0, and an
                                                             integer e stays integer)
    t(1) * e = e * t(1) = e                                  exact
    t(0) * e = e * t(0) = K(0), e - e = K(0)                 for finite e
    exp(K(0)) = K(1), exp(K(-inf)) = K(0) (exp2 alike), where(c, K(a), K(a)) = K(a)
    where(c, s * e, y) = where(c, e, y) (e * s alike),       exact: s is a selector of c, so 1
      where(c, y, s * e) = where(c, y, e)                    wherever that operand is chosen
    where(v > -inf, exp(v - M), 0)                           exact but for a NaN lane of v (M
      = where(M > -inf, exp(v - M), 0)                       skips it; exp(NaN - M) is NaN)

with K(0)'s shape that of e. In the last rule M is a name bound to ``tl.max(v, axis=0)`` (or
``tl.max(v, 0)``), v and M not bound again since, ``-inf < v`` alike, exp2 alike and the
exponential optionally ``.to(dtype)``: M is at least v in every lane it is broadcast to, so
where v is -inf the exponential is already 0 unless M is -inf too, and then every lane of v is.
The online pass's guard against its own -inf lanes is one predicate per element kept across
the row's sum; the row's guard is one (log_softmax at 32768 x 32 warps for cuda:90: 64
registers and 648 instructions per thread against 51 and 504).

A selector of c is a name bound to ``where(c', 1, 0)`` (or ``where(c', 0, 1)`` for the false
operand), optionally ``.to(dtype)``, with c' the same comparison as c once names bound to
other names are read as those names (``m_new = x; alive = m_new > -inf; m = m_new`` makes
``alive`` and ``m > -inf`` the same), none of them bound again since: the online pass's
``s`` is one, so the final combine's ``s * exp(m - max)`` is the plain ``exp(m - max)`` and s
is dead (the state kept live across the row's max, else). e is cast to the selector's dtype
as above; the operand's shape may shrink to e's, never the where's (the
selector's shape is c's). A statement whose value changed is written out again; one whose
value became a constant of known shape binds it (``tl.full`` or a number), else it is left
as written. Where an operand takes a tensor constant's place it is cast to the constant's
dtype (``.to(dtype)``) unless it is known to have it (a name bound to ``E.to(dtype)``), so an
accumulator keeps its precision; its shape is the operand's (a row's block in the kernels this
serves: a mismatch fails to compile or to validate).

Correctness: the rules marked exact compute the same value; the others hold for finite
values, so lanes holding an infinity or a NaN can differ (exp(x - x) is NaN for x = inf, 1
after the fold). Every candidate is validated against the reference, as for any rewrite that
reorders arithmetic (fold_exp2)."""
from __future__ import annotations

import ast
import copy
import math
from collections.abc import Callable
from dataclasses import dataclass

from ..srcedit import Edit, RewriteRefused
from .common import Kernel, Module, assigned_names, body_after_docstring, call_arg

SCALAR = ""             # _K.shape of a plain number
INT_LITERAL, FLOAT_LITERAL = "int", "float"     # _K.dtype of a plain number
EXPONENTIALS = ("exp", "exp2", "math.exp", "math.exp2")
CANON_NODES = (ast.Compare, ast.Name, ast.Constant, ast.BinOp, ast.UnaryOp, ast.cmpop, ast.operator,
               ast.unaryop, ast.expr_context)      # a comparison's parts other than numbers


@dataclass(frozen=True)
class _K:
    value: float
    shape: str | None       # the tensor's shape text, SCALAR, or None (that of an expression)
    dtype: str | None       # the tensor's dtype text, where known; a number's kind


@dataclass(frozen=True)
class _Cond:
    text: str               # the comparison's dump, names read as their roots
    names: frozenset[str]   # the roots it reads: binding one again forgets it
    guarded: str | None     # v's root where the comparison is v > -inf (or -inf < v)


@dataclass(frozen=True)
class _Selector:
    cond: _Cond
    one_when: bool          # the comparison's value where the selector is 1
    dtype: str


class _Rooted(ast.NodeTransformer):
    """Names replaced by the names their values were bound to."""
    def __init__(self, root: Callable[[str], str]) -> None:
        self.root = root

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.root(node.id), ast.Load())


@dataclass(frozen=True)
class _Folded:
    expr: ast.expr          # computes the value (the original node where nothing changed)
    k: _K | None            # the value, where constant


def _number(node: ast.expr) -> float | None:
    """The float a literal spells: 2, 0.0, float("-inf"), -float("inf"), -1.5."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _number(node.operand)
        return None if v is None else -v
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float"
            and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)):
        try:
            v = float(node.args[0].value)
        except ValueError:
            return None
        return None if math.isnan(v) else v
    return None


def _literal(node: ast.expr) -> _K | None:
    """A number's constant, its kind (int or float: adding a float 0 to an integer changes its
    type) kept as its dtype."""
    v = _number(node)
    if v is None:
        return None
    core = node.operand if isinstance(node, ast.UnaryOp) else node
    integral = isinstance(core, ast.Constant) and isinstance(core.value, int)
    return _K(v, SCALAR, INT_LITERAL if integral else FLOAT_LITERAL)


def _spell(v: float) -> str:
    return f'float("{"-" if v < 0 else ""}inf")' if math.isinf(v) else repr(v)


class _Folder:
    def __init__(self, mod: Module) -> None:
        self.mod = mod
        self.const: dict[str, _K] = {}
        self.same: dict[str, str] = {}     # a name -> the name whose value it was bound to
        self.dtype: dict[str, str] = {}    # a name bound to `E.to(dtype)` -> the dtype's text
        self.inexact = False               # a rule for finite values only was applied
        self.cond: dict[str, _Cond] = {}   # a name bound to a comparison -> the comparison
        self.selector: dict[str, _Selector] = {}
        self.assumed: dict[str, bool] = {}  # comparison -> its value in the operand being folded
        self.maxof: dict[str, str] = {}    # a name bound to tl.max(v, axis=0) -> v's root

    # -------------------------------------------------------------- statements
    def statement(self, stmt: ast.stmt) -> list[Edit]:
        target, value = _binding(stmt)
        if target is None or value is None:
            self.forget(assigned_names([stmt]))
            return []
        init = self.initial(value)
        if init is not None:
            self.forget({target})
            self.const[target] = init
            return []
        f = self.fold(value)
        # a constant the rules computed comes back on the original node: changed all the same
        changed = f.expr is not value or (f.k is not None and not isinstance(value, ast.Name)
                                          and _number(value) is None)
        cond, sel = self.canon(f.expr), self.as_selector(f.expr)
        self.forget({target})
        if cond is not None and target not in cond.names:
            self.cond[target] = cond
        if sel is not None and target not in sel.cond.names:
            self.selector[target] = sel
        if (v := self.max_along_0(f.expr)) is not None and v != target:
            self.maxof[target] = v
        if f.k is not None and f.k.shape is not None:
            self.const[target] = f.k
        elif isinstance(f.expr, ast.Name):
            self.same[target] = self.root(f.expr.id)
            if f.expr.id in self.dtype:
                self.dtype[target] = self.dtype[f.expr.id]
        elif dt := _cast_dtype(f.expr):
            self.dtype[target] = dt
        if not changed or isinstance(stmt, ast.AnnAssign) or (f.k is not None and f.k.shape is None):
            return []               # (a constant of unknown shape is only ever an operand)
        text = self.spell(f.k) if f.k is not None else ast.unparse(f.expr)
        try:
            return [self.mod.replace_stmt(stmt, [f"{target} = {text}"])]
        except RewriteRefused:      # the statement shares its line: left as written
            return []

    def initial(self, value: ast.expr) -> _K | None:
        """The constant a starting value spells: tl.full(shape, c, dtype), tl.zeros(shape,
        dtype), a number."""
        lit = _literal(value)
        if lit is not None:
            return lit
        if not isinstance(value, ast.Call) or any(isinstance(x, ast.Starred) for x in value.args):
            return None
        f = self.mod.tl_func(value)
        names = {"zeros": ("shape", "dtype"), "full": ("shape", "value", "dtype")}.get(f or "")
        if names is None or len(value.args) + len(value.keywords) != len(names) or \
                any(kw.arg not in names for kw in value.keywords):
            return None
        got = [call_arg(value, i, n) for i, n in enumerate(names)]
        if any(g is None for g in got):
            return None
        v = 0.0 if f == "zeros" else _number(got[1])  # type: ignore[arg-type]
        if v is None:
            return None
        shape, dtype = got[0], got[-1]
        assert shape is not None and dtype is not None
        return _K(v, self.mod.text(shape), self.mod.text(dtype))

    def forget(self, names: set[str]) -> None:
        for n in names:
            self.const.pop(n, None)
            self.same.pop(n, None)
            self.dtype.pop(n, None)
            self.cond.pop(n, None)
            self.selector.pop(n, None)
            self.maxof.pop(n, None)
        for n in [a for a, b in self.same.items() if b in names]:
            del self.same[n]
        for n in [a for a, v in self.maxof.items() if v in names]:
            del self.maxof[n]
        for n in [a for a, c in self.cond.items() if c.names & names]:
            del self.cond[n]
        for n in [a for a, sel in self.selector.items() if sel.cond.names & names]:
            del self.selector[n]

    # ------------------------------------------------------------- comparisons
    def canon(self, e: ast.expr) -> _Cond | None:
        """The comparison e is (a name bound to one, or one of names, numbers and arithmetic)
        with every name read as the name its value was bound to: equal texts, equal values."""
        if isinstance(e, ast.Name):
            return self.cond.get(e.id)
        if not isinstance(e, ast.Compare) or len(e.ops) != 1:
            return None
        names: set[str] = set()
        for sub in ast.walk(e):
            if isinstance(sub, ast.Name):
                names.add(self.root(sub.id))
            elif not isinstance(sub, CANON_NODES) and _number(sub) is None:  # type: ignore[arg-type]
                return None
        rooted = _Rooted(self.root).visit(copy.deepcopy(e))
        return _Cond(ast.dump(rooted, annotate_fields=False), frozenset(names), _guarded(rooted))

    def as_selector(self, e: ast.expr) -> _Selector | None:
        """e as ``where(c, 1, 0)`` or ``where(c, 0, 1)``, optionally ``.to(dtype)``; its dtype
        is the cast's, float32 for two float numbers."""
        dt = _cast_dtype(e)
        if dt is not None:
            assert isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute)
            e = e.func.value
        if not isinstance(e, ast.Call) or self.mod.tl_func(e) != "where" or len(e.args) != 3 or e.keywords:
            return None
        cond, a, b = self.canon(e.args[0]), _literal(e.args[1]), _literal(e.args[2])
        if cond is None or a is None or b is None or {a.value, b.value} != {0.0, 1.0}:
            return None
        if dt is None and a.dtype == b.dtype == FLOAT_LITERAL:
            dt = f"{self.mod.tl()}.float32"
        return None if dt is None else _Selector(cond, a.value == 1.0, dt)

    def selected_one(self, e: ast.expr) -> str | None:
        """The dtype of a selector that is 1 in the operand being folded, else None."""
        sel = self.selector.get(e.id) if isinstance(e, ast.Name) else None
        if sel is None or self.assumed.get(sel.cond.text) is None:
            return None
        return sel.dtype if self.assumed[sel.cond.text] == sel.one_when else None

    def root(self, name: str) -> str:
        return self.same.get(name, name)

    def max_along_0(self, e: ast.expr) -> str | None:
        """v's root where e is ``tl.max(v, axis=0)`` or ``tl.max(v, 0)`` with v a name."""
        if not isinstance(e, ast.Call) or self.mod.tl_func(e) != "max" or len(e.args) + len(e.keywords) != 2:
            return None
        v, axis = call_arg(e, 0, "input"), call_arg(e, 1, "axis")
        if not isinstance(v, ast.Name) or axis is None or _number(axis) != 0.0:
            return None
        return self.root(v.id)

    def row_guard(self, cond: _Cond | None, a: ast.expr, b: _Folded) -> ast.expr | None:
        """``M > -inf`` for ``where(v > -inf, exp(v - M), 0)`` with M bound to the maximum of
        v along axis 0 (the last rule), else None."""
        if cond is None or cond.guarded is None or b.k is None or b.k.value != 0.0:
            return None
        e = a.func.value if _cast_dtype(a) is not None else a    # type: ignore[attr-defined]
        if not isinstance(e, ast.Call) or self.mod.tl_func(e) not in EXPONENTIALS or len(e.args) != 1 or e.keywords:
            return None
        d = e.args[0]
        if not (isinstance(d, ast.BinOp) and isinstance(d.op, ast.Sub) and isinstance(d.left, ast.Name)
                and isinstance(d.right, ast.Name)):
            return None
        if self.root(d.left.id) != cond.guarded or self.maxof.get(d.right.id) != cond.guarded:
            return None
        minus_inf = ast.parse(_spell(-math.inf), mode="eval").body
        return ast.Compare(ast.Name(d.right.id, ast.Load()), [ast.Gt()], [minus_inf])

    # ------------------------------------------------------------- expressions
    def fold(self, node: ast.expr) -> _Folded:
        if isinstance(node, ast.Name):
            return _Folded(node, self.const.get(node.id))
        lit = _literal(node)
        if lit is not None:
            return _Folded(node, lit)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
            return self.binop(node)
        if isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred)
                                                                         for a in node.args):
            f = self.mod.tl_func(node)
            if f in ("maximum", "minimum") and len(node.args) == 2:
                return self.extremum(node, f)
            if f in EXPONENTIALS and len(node.args) == 1:
                return self.exp(node)
            if f == "where" and len(node.args) == 3:
                return self.where(node)
        return self.rebuild(node)

    def rebuild(self, node: ast.expr) -> _Folded:
        """node with its direct operands folded (no rule of its own): the same node where none
        changed, a shallow copy with the changed operands otherwise."""
        changes: dict[str, object] = {}
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                e = self.materialize(self.fold(value))
                if e is not value:
                    changes[field] = e
            elif isinstance(value, list):
                items = [self.operand(item) for item in value]
                if any(x is not y for x, y in zip(items, value)):
                    changes[field] = items
        if not changes:
            return _Folded(node, None)
        new = copy.copy(node)
        for field, value in changes.items():
            setattr(new, field, value)
        return _Folded(new, None)

    def operand(self, item: object) -> object:
        """A list element of an expression folded: an expression, a keyword's value."""
        if isinstance(item, ast.expr):
            return self.materialize(self.fold(item))
        if isinstance(item, ast.keyword):
            e = self.materialize(self.fold(item.value))
            return item if e is item.value else ast.keyword(item.arg, e)
        return item

    def binop(self, node: ast.BinOp) -> _Folded:
        a, b = self.fold(node.left), self.fold(node.right)
        op = node.op
        if isinstance(op, ast.Add):
            for k_, e in ((a, b), (b, a)):
                if _is(k_, 0.0) and (kept := self.keep(e, k_)) is not None:
                    return kept
        if isinstance(op, ast.Sub):
            if _is(b, 0.0) and (kept := self.keep(a, b)) is not None:
                return kept
            if isinstance(a.expr, ast.Name) and isinstance(b.expr, ast.Name) and \
                    self.root(a.expr.id) == self.root(b.expr.id) and a.k is None:
                self.inexact = True
                return _Folded(node, _K(0.0, None, None))
        if isinstance(op, ast.Mult):
            for sel, e in ((node.left, b), (node.right, a)):
                dt = self.selected_one(sel)
                if dt is not None and e.k is None:
                    return self.cast(e, dt)
            for k_, e in ((a, b), (b, a)):
                if _is(k_, 1.0, tensor=True) and (kept := self.keep(e, k_)) is not None:
                    return kept
                if _is(k_, 0.0, tensor=True):
                    assert k_.k is not None
                    self.inexact = True
                    return _Folded(node, k_.k)
        return self.with_operands(node, [a, b])

    def extremum(self, node: ast.Call, f: str) -> _Folded:
        a, b = (self.fold(x) for x in node.args)
        neutral = -math.inf if f == "maximum" else math.inf
        for k_, e in ((a, b), (b, a)):
            if _is(k_, neutral) and (kept := self.keep(e, k_)) is not None:
                return kept
        return self.with_operands(node, [a, b])

    def exp(self, node: ast.Call) -> _Folded:
        a = self.fold(node.args[0])
        if a.k is not None and a.k.value in (0.0, -math.inf):     # 1 and 0 in either base
            return _Folded(node, _K(math.exp(a.k.value), a.k.shape, a.k.dtype))
        return self.with_operands(node, [a])

    def where(self, node: ast.Call) -> _Folded:
        c = self.fold(node.args[0])
        cond = self.canon(c.expr)
        a, b = (self.fold_assuming(cond, truth, x) for truth, x in ((True, node.args[1]), (False, node.args[2])))
        if a.k is not None and b.k is not None and a.k.value == b.k.value:
            tensor = next((k_.k for k_ in (a, b) if k_.k is not None and k_.k.shape), None)
            return _Folded(node, tensor if tensor is not None else _K(a.k.value, None, None))
        guard = self.row_guard(cond, self.materialize(a), b)
        return self.with_operands(node, [c if guard is None else _Folded(guard, None), a, b])

    def fold_assuming(self, cond: _Cond | None, truth: bool, node: ast.expr) -> _Folded:
        """node folded where cond is known to be truth (a where's operand)."""
        if cond is None or cond.text in self.assumed:
            return self.fold(node)
        self.assumed[cond.text] = truth
        try:
            return self.fold(node)
        finally:
            del self.assumed[cond.text]

    def with_operands(self, node: ast.expr, ops: list[_Folded]) -> _Folded:
        """node over its folded operands: unchanged where none changed."""
        exprs = [self.materialize(o) for o in ops]
        olds = [node.left, node.right] if isinstance(node, ast.BinOp) else list(node.args)  # type: ignore[attr-defined]
        if all(e is o for e, o in zip(exprs, olds)):
            return _Folded(node, None)
        new = copy.copy(node)
        if isinstance(new, ast.BinOp):
            new.left, new.right = exprs
        else:
            assert isinstance(new, ast.Call)
            new.args = exprs
        return _Folded(new, None)

    def materialize(self, f: _Folded) -> ast.expr:
        """An operand's expression: a constant a rule produced is written as a number (its
        surroundings give the shape) or, shaped, as tl.full."""
        if f.k is None or isinstance(f.expr, ast.Name) or _number(f.expr) is not None:
            return f.expr
        text = self.spell(f.k) if f.k.shape else _spell(f.k.value)
        return ast.parse(text, mode="eval").body

    def keep(self, e: _Folded, k_: _Folded) -> _Folded | None:
        """e in the place of the operation with constant k_: cast to k_'s dtype where k_ is a
        tensor constant and e is not known to have it; None (no fold) where k_ is a float
        number and e is not known to be floating (an integer e would change type)."""
        assert k_.k is not None
        if e.k is not None:
            if e.k.shape is None and k_.k.shape:
                return _Folded(e.expr, _K(e.k.value, k_.k.shape, k_.k.dtype))
            return e
        dt = k_.k.dtype
        if k_.k.shape == SCALAR:
            return e if dt == INT_LITERAL or "float" in (self.dtype_of(e.expr) or "") else None
        return _Folded(e.expr, None) if dt is None else self.cast(e, dt)

    def cast(self, e: _Folded, dt: str) -> _Folded:
        """e as dtype dt: ``e.to(dt)`` unless e is known to have it."""
        if self.dtype_of(e.expr) == dt:
            return _Folded(e.expr, None)
        cast = ast.Call(ast.Attribute(e.expr, "to", ast.Load()), [ast.parse(dt, mode="eval").body], [])
        return _Folded(cast, None)

    def dtype_of(self, e: ast.expr) -> str | None:
        """The dtype text of a name bound to `E.to(dtype)`, or of such an expression."""
        return self.dtype.get(e.id) if isinstance(e, ast.Name) else _cast_dtype(e)

    def spell(self, k_: _K) -> str:
        if k_.shape == SCALAR or k_.shape is None or k_.dtype is None:
            return _spell(k_.value)
        return f"{self.mod.tl()}.full({k_.shape}, {_spell(k_.value)}, {k_.dtype})"


def _is(f: _Folded, v: float, tensor: bool = False) -> bool:
    """f is T(v) (a constant of known shape) or, with tensor, t(v) (a tensor constant)."""
    return f.k is not None and f.k.value == v and f.k.shape is not None and not (tensor and f.k.shape == SCALAR)


def _cast_dtype(e: ast.expr) -> str | None:
    """The dtype text of ``E.to(dtype)``."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "to" and \
            len(e.args) == 1 and not e.keywords:
        return ast.unparse(e.args[0])
    return None


def _guarded(c: ast.Compare) -> str | None:
    """v where c is ``v > -inf`` or ``-inf < v`` with v a name."""
    (op,), left, right = c.ops, c.left, c.comparators[0]
    v, bound = (left, right) if isinstance(op, ast.Gt) else (right, left) if isinstance(op, ast.Lt) else (None, None)
    if isinstance(v, ast.Name) and bound is not None and _number(bound) == -math.inf:
        return v.id
    return None


def _binding(stmt: ast.stmt) -> tuple[str | None, ast.expr | None]:
    """(target, value) of `t = E`, `t: A = E` and `t op= E` (value `t op E`), else (None, None)."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
        return stmt.targets[0].id, stmt.value
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        return stmt.target.id, stmt.value
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        value = ast.BinOp(ast.Name(stmt.target.id, ast.Load()), stmt.op, stmt.value)
        return stmt.target.id, ast.copy_location(value, stmt.value)
    return None, None


@dataclass
class FirstPass:
    edits: list[Edit]
    inexact: bool           # a rule for finite values only was applied (see the module doc)


def fold_first_pass(mod: Module, k: Kernel) -> FirstPass:
    """The edits folding the kernel's top-level statements by the rules above."""
    f = _Folder(mod)
    edits: list[Edit] = []
    for stmt in body_after_docstring(k):
        edits.extend(f.statement(stmt))
    return FirstPass(edits, f.inexact)
