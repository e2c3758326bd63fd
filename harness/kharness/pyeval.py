"""Values of launcher expressions (kharness.pyflow's syntax trees) given what a launch
actually received: a grid expression recomputed from the recorded arguments and compared with
the recorded grid, a lambda grid evaluated at a candidate's meta-parameters. Only integer
arithmetic, comparisons, tuples, tensor shapes and the few calls a grid uses (cdiv,
next_power_of_2, min/max, int, math.ceil/floor, len) are evaluated; anything else is
Unevaluable. Nothing here runs user code."""
from __future__ import annotations

import ast
import math
from collections.abc import Callable
from dataclasses import dataclass

from .pyflow import CDIV_NAMES, MAX_RESOLVE_DEPTH, Bound, Env, canon, dotted, short


class Unevaluable(Exception):
    """An expression whose value cannot be computed from the recorded launch."""


@dataclass(frozen=True)
class TensorValue:
    shape: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class LambdaValue:
    node: ast.Lambda
    env: Env




def evaluate(node: ast.AST, env: Env, known: dict[str, object], local: dict[str, object] | None = None,
             depth: int = 0) -> object:
    """Value of `node` where `known` maps canonical expressions to recorded values (the
    launch's arguments) and `local` binds lambda parameters (the grid's meta)."""
    if depth > MAX_RESOLVE_DEPTH:
        raise Unevaluable("too deep")
    local = local or {}
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in local:
        return local[node.id]
    key = canon(node, env)
    if key in known:
        return known[key]
    ev = lambda n: evaluate(n, env, known, local, depth + 1)
    if isinstance(node, ast.Name):
        b = env.lookup(node.id)
        if isinstance(b, Bound):
            return evaluate(b.expr, b.env, known, None, depth + 1)
        raise Unevaluable(node.id)
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self" and env.in_model:
            ab = env.program.attrs.get(node.attr)
            if isinstance(ab, Bound):
                return evaluate(ab.expr, ab.env, known, None, depth + 1)
            raise Unevaluable(f"self.{node.attr}")
        base = ev(node.value)
        if isinstance(base, TensorValue) and node.attr == "shape":
            return base.shape
        raise Unevaluable(short(env.program.text(node)) if hasattr(node, "lineno") else node.attr)
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(ev(e) for e in node.elts)
    if isinstance(node, ast.Lambda):
        return LambdaValue(node, env)
    if isinstance(node, ast.Subscript):
        base = ev(node.value)
        idx = ev(node.slice)
        try:
            if isinstance(base, dict):
                return base[idx]
            if isinstance(base, tuple) and isinstance(idx, int):
                return base[idx]
        except (IndexError, KeyError, TypeError) as e:
            raise Unevaluable(f"index {idx!r}") from e
        raise Unevaluable("subscript")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = ev(node.operand)
        if isinstance(v, (int, float)):
            return -v
        raise Unevaluable("negation")
    if isinstance(node, ast.BinOp):
        return _binop(node.op, ev(node.left), ev(node.right))
    if isinstance(node, ast.IfExp):
        return ev(node.body) if ev(node.test) else ev(node.orelse)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        return _compare(node.ops[0], ev(node.left), ev(node.comparators[0]))
    if isinstance(node, ast.Call):
        return _call(node, env, ev)
    raise Unevaluable(type(node).__name__)


def _ints(*vs: object) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in vs)


def _binop(op: ast.operator, a: object, b: object) -> object:
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        raise Unevaluable("arithmetic on a non-number")
    try:
        if isinstance(op, ast.Add):
            return a + b
        if isinstance(op, ast.Sub):
            return a - b
        if isinstance(op, ast.Mult):
            return a * b
        if isinstance(op, ast.FloorDiv):
            return a // b
        if isinstance(op, ast.Div):
            return a / b
        if isinstance(op, ast.Mod):
            return a % b
        if isinstance(op, ast.LShift) and _ints(a, b):
            return int(a) << int(b)
        if isinstance(op, ast.RShift) and _ints(a, b):
            return int(a) >> int(b)
    except ZeroDivisionError as e:
        raise Unevaluable("division by zero") from e
    raise Unevaluable(type(op).__name__)


def _compare(op: ast.cmpop, a: object, b: object) -> bool:
    if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
        raise Unevaluable("comparison of non-numbers")
    table = {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b, ast.NotEq: a != b}
    for k, v in table.items():
        if isinstance(op, k):
            return v
    raise Unevaluable(type(op).__name__)


def next_pow2(n: int) -> int:
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def _call(node: ast.Call, env: Env, ev: Callable[[ast.AST], object]) -> object:
    name = dotted(node.func) or ""
    if node.keywords:
        raise Unevaluable(f"{name}() with keywords")
    if isinstance(node.func, ast.Attribute) and name not in CDIV_NAMES and not name.startswith(("triton.", "math.")):
        base = ev(node.func.value)
        if isinstance(base, TensorValue):
            args = [ev(a) for a in node.args]
            if node.func.attr == "numel" and not args:
                return math.prod(base.shape)
            if node.func.attr == "dim" and not args:
                return len(base.shape)
            if node.func.attr == "size":
                if not args:
                    return base.shape
                if isinstance(args[0], int) and -len(base.shape) <= args[0] < len(base.shape):
                    return base.shape[args[0]]
        raise Unevaluable(f"{name}()")
    args = [ev(a) for a in node.args]
    short_name = name.split(".")[-1]
    if short_name == "cdiv" and len(args) == 2 and _ints(*args):
        a, b = int(args[0]), int(args[1])  # type: ignore[call-overload]
        if b == 0:
            raise Unevaluable("cdiv by zero")
        return (a + b - 1) // b
    if short_name == "next_power_of_2" and len(args) == 1 and _ints(*args):
        return next_pow2(int(args[0]))  # type: ignore[call-overload]
    if name in ("min", "max") and args and all(isinstance(a, (int, float)) for a in args):
        return min(args) if name == "min" else max(args)  # type: ignore[type-var]
    if name == "int" and len(args) == 1 and isinstance(args[0], (int, float)):
        return int(args[0])
    if name in ("math.ceil", "math.floor") and len(args) == 1 and isinstance(args[0], (int, float)):
        return math.ceil(args[0]) if name == "math.ceil" else math.floor(args[0])
    if name == "len" and len(args) == 1 and isinstance(args[0], tuple):
        return len(args[0])
    raise Unevaluable(f"{name}()")


def describe_value(desc: dict) -> object:
    """The Python value of one recorded argument descriptor (kharness.launches)."""
    kind = desc.get("kind")
    if kind in ("int", "float", "bool", "str"):
        return desc.get("value")
    if kind == "tensor":
        return TensorValue(tuple(int(s) for s in desc.get("shape") or ()))
    if kind == "none":
        return None
    if kind == "tuple":
        return tuple(describe_value(x) for x in desc.get("items") or ())
    raise Unevaluable(f"recorded {kind} argument")
