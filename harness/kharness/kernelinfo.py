"""What a `@triton.jit` kernel's own syntax tree says about its constexpr parameters.

For each constexpr: is it a *block* (it sizes a `tl.arange` or a tensor shape), which
program axis it tiles (`pid_m * BLOCK_M`), whether it steps the K loop of a `tl.dot` kernel,
whether it is a program-order group size or a split factor, and which runtime argument bounds
it through a mask (`offs < n`). Also the `@triton.autotune` decorator's configs and the
kernel's shape (dot, loops, reductions, atomics). Flow-insensitive: kernels are short and
mostly straight-line, and a wrong guess only changes a knob's kind or role, never a rewrite
(rewrites are located by the launcher's data flow, kharness.pyflow)."""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from .pyflow import CONSTEXPR_NAMES, dotted, is_int_constant, ival

REDUCTIONS = frozenset({"sum", "max", "min", "reduce", "argmax", "argmin", "xor_sum", "cumsum", "cumprod",
                        "associative_scan"})
SHAPE_CALLS = frozenset({"zeros", "full", "empty", "reshape", "view", "broadcast_to", "zeros_like"})
SHAPE_KEYWORDS = frozenset({"shape", "block_shape"})
# where block_shape stands among the positional arguments: tl.make_block_ptr(base, shape,
# strides, offsets, block_shape, order), tl.make_tensor_descriptor(base, shape, strides,
# block_shape)
BLOCK_SHAPE_ARG = {"make_block_ptr": 4, "make_tensor_descriptor": 3}
ROLE_BY_NAME = re.compile(r"(?:BLOCK|TILE|BLK|BS)_?(?:SIZE_?)?([MNK])$|^B([MNK])$")
AXIS_NAME = re.compile(r"(?:^|_)([mnk])$")


@dataclass
class KernelParam:
    name: str
    index: int
    constexpr: bool
    default: ast.expr | None
    node: ast.arg


@dataclass
class AutotuneConfig:
    node: ast.Call
    values: dict[str, int]          # kwargs dict plus num_warps/num_stages when written


@dataclass
class Autotune:
    decorator: ast.Call
    configs_expr: ast.expr          # the expression replaced by a single config on a change
    configs: list[AutotuneConfig]   # parsed when the list is literal, else empty
    config_func: str                # how the module spells triton.Config
    keys: list[str]                 # the kernel parameters the configs set


@dataclass
class KernelFacts:
    name: str
    node: ast.FunctionDef
    params: list[KernelParam]
    autotune: Autotune | None = None
    heuristics: set[str] = field(default_factory=set)
    heuristics_unread: bool = False   # an @triton.heuristics whose dict is not a literal of strings
    blocks: set[str] = field(default_factory=set)
    roles: dict[str, str] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)
    bounds: dict[str, str] = field(default_factory=dict)         # block -> runtime param of its mask
    axis_blocks: dict[int, list[str]] = field(default_factory=dict)
    num_programs_axes: set[int] = field(default_factory=set)
    uses_dot: bool = False
    loops: int = 0
    # (the tl.range call, its num_stages literal) of each `tl.range(..., num_stages=<int>)` loop:
    # a loop's own pipeline depth, which overrides the launch's num_stages for that loop (a
    # knob, kharness.knobs)
    loop_stages: list[tuple[ast.Call, ast.Constant]] = field(default_factory=list)
    reductions: int = 0
    atomics: bool = False

    @property
    def param_names(self) -> list[str]:
        return [p.name for p in self.params]

    def param(self, name: str) -> KernelParam | None:
        for p in self.params:
            if p.name == name:
                return p
        return None

    def to_json(self) -> dict:
        return {"uses_dot": self.uses_dot, "loops": self.loops, "reductions": self.reductions,
                "atomics": self.atomics}


def _is_constexpr(ann: ast.expr | None) -> bool:
    return ann is not None and (dotted(ann) in CONSTEXPR_NAMES
                                or (isinstance(ann, ast.Constant) and ann.value in CONSTEXPR_NAMES))


def _tl_call(node: ast.AST) -> str | None:
    """`arange` for tl.arange(...) / triton.language.arange(...); None otherwise."""
    if isinstance(node, ast.Call):
        name = dotted(node.func) or ""
        if name.startswith(("tl.", "triton.language.")):
            return name.split(".")[-1]
    return None


def analyse(fn: ast.FunctionDef) -> KernelFacts:
    a = fn.args
    pos = list(a.posonlyargs) + list(a.args)
    defaults: dict[str, ast.expr] = {arg.arg: d for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults)}
    params = [KernelParam(arg.arg, i, _is_constexpr(arg.annotation), defaults.get(arg.arg), arg)
              for i, arg in enumerate(pos)]
    k = KernelFacts(fn.name, fn, params)
    _decorators(k, fn)
    constexprs = {p.name for p in params if p.constexpr}
    runtime = {p.name for p in params if not p.constexpr}
    assigns: dict[str, list[ast.expr]] = {}
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Name):
                        assigns.setdefault(sub.id, []).append(node.value)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) and node.value:
            assigns.setdefault(node.target.id, []).append(node.value)
    _shape_uses(k, fn, constexprs)
    pid_axis = _pid_vars(fn, assigns)
    derived = _block_derived(assigns, k.blocks)
    loop_blocks = _loops_and_calls(k, fn, constexprs)
    _masks(k, fn, derived, runtime)
    role_hint: dict[str, str] = {}
    group_like: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for x, y in ((node.left, node.right), (node.right, node.left)):
                if not (isinstance(y, ast.Name) and y.id in k.blocks):
                    continue
                x = _uncast(x)
                ax = pid_axis.get(x.id) if isinstance(x, ast.Name) else _program_id_axis(x)
                if ax is None:
                    continue
                axis = k.axis_blocks.setdefault(ax, [])
                if y.id not in axis:
                    axis.append(y.id)
                m = AXIS_NAME.search(x.id.lower()) if isinstance(x, ast.Name) else None
                if m:
                    role_hint.setdefault(y.id, "block_" + m.group(1))
    for name, values in assigns.items():
        if name in pid_axis:
            for v in values:
                for sub in ast.walk(v):
                    if isinstance(sub, ast.Name) and sub.id in constexprs and sub.id not in k.blocks:
                        group_like.add(sub.id)
    for c in sorted(constexprs):
        if c in k.blocks:
            k.kinds[c] = "block"
            k.roles[c] = _role(c, k, loop_blocks, role_hint)
        elif "SPLIT" in c.upper():
            k.kinds[c] = "split"
        elif c in group_like or "GROUP" in c.upper():
            k.kinds[c] = "group"
        else:
            k.kinds[c] = "int"
    return k


def _role(c: str, k: KernelFacts, loop_blocks: set[str], hint: dict[str, str]) -> str:
    if k.uses_dot and c in loop_blocks:
        return "block_k"
    if c in hint:
        return hint[c]
    m = ROLE_BY_NAME.search(c.upper())
    if m:
        return "block_" + (m.group(1) or m.group(2)).lower()
    if k.uses_dot:
        for axis, blocks in k.axis_blocks.items():
            if c in blocks and axis in (0, 1):
                return "block_m" if axis == 0 else "block_n"
    return "block"


def _decorators(k: KernelFacts, fn: ast.FunctionDef) -> None:
    for dec in fn.decorator_list:
        if not isinstance(dec, ast.Call):
            continue
        name = (dotted(dec.func) or "").split(".")[-1]
        if name == "heuristics":
            src = dec.args[0] if dec.args else next((kw.value for kw in dec.keywords if kw.arg == "values"), None)
            named = [kk.value for kk in src.keys if isinstance(kk, ast.Constant) and isinstance(kk.value, str)] \
                if isinstance(src, ast.Dict) else []
            k.heuristics |= set(named)
            k.heuristics_unread |= not isinstance(src, ast.Dict) or len(named) != len(src.keys)
        elif name == "autotune":
            expr = dec.args[0] if dec.args else next((kw.value for kw in dec.keywords if kw.arg == "configs"), None)
            if expr is None:
                continue
            configs: list[AutotuneConfig] = []
            func = "triton.Config"
            keys: list[str] = []
            if isinstance(expr, (ast.List, ast.Tuple)):
                for c in expr.elts:
                    parsed = _config(c)
                    if parsed is None:
                        configs = []
                        break
                    configs.append(parsed)
                    func = dotted(parsed.node.func) or func
                    for key in parsed.values:
                        if key not in keys and key not in ("num_warps", "num_stages"):
                            keys.append(key)
            k.autotune = Autotune(dec, expr, configs, func, keys)


def _config(node: ast.expr) -> AutotuneConfig | None:
    if not isinstance(node, ast.Call) or (dotted(node.func) or "").split(".")[-1] != "Config":
        return None
    values: dict[str, int] = {}
    first = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "kwargs"), None)
    if not isinstance(first, ast.Dict):
        return None
    for key, val in zip(first.keys, first.values):
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str) and is_int_constant(val)):
            return None
        values[key.value] = ival(val)
    for i, extra in enumerate(node.args[1:3]):
        if is_int_constant(extra):
            values[("num_warps", "num_stages")[i]] = ival(extra)
    for kw in node.keywords:
        if kw.arg in ("num_warps", "num_stages"):
            if not is_int_constant(kw.value):
                return None
            values[kw.arg] = ival(kw.value)
    return AutotuneConfig(node, values)


def _shape_uses(k: KernelFacts, fn: ast.FunctionDef, constexprs: set[str]) -> None:
    for node in ast.walk(fn):
        call = _tl_call(node)
        if call is None:
            continue
        assert isinstance(node, ast.Call)
        if call == "arange" and len(node.args) >= 2:
            for sub in ast.walk(node.args[1]):
                if isinstance(sub, ast.Name) and sub.id in constexprs:
                    k.blocks.add(sub.id)
                    break
        shapes: list[ast.expr] = []
        if call in SHAPE_CALLS and node.args:
            shapes.append(node.args[0] if call in ("zeros", "full", "empty") else node.args[-1])
        shapes += [kw.value for kw in node.keywords if kw.arg in SHAPE_KEYWORDS]
        if call in BLOCK_SHAPE_ARG and len(node.args) > BLOCK_SHAPE_ARG[call]:
            shapes.append(node.args[BLOCK_SHAPE_ARG[call]])   # block_shape given positionally
        for sh in shapes:
            if isinstance(sh, (ast.Tuple, ast.List)):
                for e in sh.elts:
                    if isinstance(e, ast.Name) and e.id in constexprs:
                        k.blocks.add(e.id)


def _uncast(node: ast.expr) -> ast.expr:
    """x for x.to(...) (as in `pid.to(tl.int64) * BLOCK`, for 64-bit offsets), else node."""
    while (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
           and node.func.attr == "to"):
        node = node.func.value
    return node


def _program_id_axis(node: ast.AST) -> int | None:
    """The axis of a tl.program_id(axis) call; None for anything else."""
    if _tl_call(node) != "program_id":
        return None
    assert isinstance(node, ast.Call)
    ax = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "axis"), None)
    return ival(ax) if is_int_constant(ax) else None


def _pid_vars(fn: ast.FunctionDef, assigns: dict[str, list[ast.expr]]) -> dict[str, int]:
    """Names derived from tl.program_id(axis), with their axis."""
    out: dict[str, int] = {}
    for name, values in assigns.items():
        for v in values:
            for sub in ast.walk(v):
                ax = _program_id_axis(sub)
                if ax is not None:
                    out.setdefault(name, ax)
    for _ in range(len(assigns)):
        grew = False
        for name, values in assigns.items():
            if name in out or len(values) != 1:
                continue
            axes = {out[s.id] for s in ast.walk(values[0]) if isinstance(s, ast.Name) and s.id in out}
            if len(axes) == 1:
                out[name] = axes.pop()
                grew = True
        if not grew:
            break
    return out


def _block_derived(assigns: dict[str, list[ast.expr]], blocks: set[str]) -> dict[str, set[str]]:
    """Names whose value contains tl.arange(0, B) for a block B (through assignments)."""
    out: dict[str, set[str]] = {}

    def direct(v: ast.expr) -> set[str]:
        s: set[str] = set()
        for sub in ast.walk(v):
            if _tl_call(sub) == "arange":
                assert isinstance(sub, ast.Call)
                if len(sub.args) >= 2:
                    s |= {n.id for n in ast.walk(sub.args[1]) if isinstance(n, ast.Name) and n.id in blocks}
            elif isinstance(sub, ast.Name) and sub.id in out:
                s |= out[sub.id]
        return s

    for _ in range(len(assigns) + 1):
        grew = False
        for name, values in assigns.items():
            s: set[str] = set()
            for v in values:
                s |= direct(v)
            if s and s != out.get(name):
                out[name] = s
                grew = True
        if not grew:
            break
    return out


def _loops_and_calls(k: KernelFacts, fn: ast.FunctionDef, constexprs: set[str]) -> set[str]:
    loop_blocks: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, (ast.For, ast.While)):
            k.loops += 1
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call):
            if _tl_call(node.iter) == "range":
                k.loop_stages += [(node.iter, kw.value) for kw in node.iter.keywords
                                  if kw.arg == "num_stages" and is_int_constant(kw.value)]
            name = (dotted(node.iter.func) or "").split(".")[-1]
            if name in ("range", "static_range"):
                args = node.iter.args
                if len(args) >= 3:
                    loop_blocks |= {n.id for n in ast.walk(args[2]) if isinstance(n, ast.Name) and n.id in constexprs}
                if len(args) >= 2:
                    for sub in ast.walk(args[1]):
                        if isinstance(sub, ast.Call) and (dotted(sub.func) or "").endswith("cdiv") and len(
                                sub.args) == 2:
                            loop_blocks |= {n.id for n in ast.walk(sub.args[1])
                                            if isinstance(n, ast.Name) and n.id in constexprs}
        call = _tl_call(node)
        if call == "num_programs":
            assert isinstance(node, ast.Call)
            ax = node.args[0] if node.args else next((kw.value for kw in node.keywords if kw.arg == "axis"), None)
            if is_int_constant(ax):
                k.num_programs_axes.add(ival(ax))
        if call == "dot":
            k.uses_dot = True
        elif call is not None and call.startswith("atomic_"):
            k.atomics = True
        elif call in REDUCTIONS:
            k.reductions += 1
        elif (call is None and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in REDUCTIONS
              and not (isinstance(node.func.value, ast.Name) and node.func.value.id in ("tl", "triton", "math"))):
            k.reductions += 1          # x.sum(axis=0)
    return loop_blocks


def _masks(k: KernelFacts, fn: ast.FunctionDef, derived: dict[str, set[str]], runtime: set[str]) -> None:
    """bounds[B] = n for a comparison `offs < n` where offs is built from tl.arange(0, B)."""
    for node in ast.walk(fn):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        op = node.ops[0]
        left, right = node.left, node.comparators[0]
        if isinstance(op, (ast.Gt, ast.GtE)):
            left, right = right, left
        elif not isinstance(op, (ast.Lt, ast.LtE)):
            continue
        blocks: set[str] = set()
        for sub in ast.walk(left):
            if isinstance(sub, ast.Name) and sub.id in derived:
                blocks |= derived[sub.id]
            elif _tl_call(sub) == "arange":
                assert isinstance(sub, ast.Call)
                if len(sub.args) >= 2:
                    blocks |= {n.id for n in ast.walk(sub.args[1]) if isinstance(n, ast.Name) and n.id in k.blocks}
        bound = _leftmost_runtime(right, runtime)
        if len(blocks) == 1 and bound is not None:
            k.bounds.setdefault(blocks.pop(), bound)


def _leftmost_runtime(node: ast.expr, runtime: set[str]) -> str | None:
    if isinstance(node, ast.Name):
        return node.id if node.id in runtime else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return _leftmost_runtime(node.left, runtime)
    return None
