"""Data flow of the launcher code of a kernel module, read from its syntax tree.

The launcher is the Python around the Triton kernels: module constants, `ModelNew.__init__`,
`ModelNew.forward` and the helper methods and module functions it calls. This module finds
every launch `kernel[grid](...)` reachable from `forward` and, for every expression at a
launch, answers two questions:

- where does its value live (`origin`): an integer literal somewhere in the source (at the
  launch, in a local variable, a module constant, an attribute set in `__init__`, a helper's
  parameter default), a constructor parameter, or something computed at run time;
- what is its value given the values the launch actually received (`evaluate`, in
  kharness.pyeval), so that a grid expression can be recomputed and compared with the
  recorded grid.

The analysis is deliberately small: straight-line assignments are followed in order; a name
assigned in a branch or a loop, augmented, or bound by anything else is *unknown*. Helper
calls are analysed once per call site with their parameters bound to the caller's argument
expressions. Nothing here runs user code."""
from __future__ import annotations

import ast
import functools
from collections import Counter
from dataclasses import dataclass, field
from typing import TypeGuard

from .opns import operator_decorated
from .srcedit import LineIndex, parse_module

MODEL_CLASS = "ModelNew"
MAX_CALL_DEPTH = 6          # helper calls followed from forward
MAX_RESOLVE_DEPTH = 32      # chained name -> expression resolutions
TEXT_CAP = 120              # characters of source shown in a record

CDIV_NAMES = ("triton.cdiv", "cdiv", "tl.cdiv", "triton.language.cdiv")
CONSTEXPR_NAMES = ("tl.constexpr", "triton.language.constexpr", "constexpr")


# ---------------------------------------------------------------------------- bindings


@dataclass(frozen=True, eq=False)
class Bound:
    """A name bound to an expression, evaluated in `env` (the environment just before it)."""

    expr: ast.expr
    env: Env
    holder: ast.AST          # the statement, call or parameter that shows the binding
    function: str            # where the binding is written
    how: str                 # assign | argument | default | module


@dataclass(frozen=True, eq=False)
class Param:
    """A parameter with no known value (forward inputs, __init__ parameters)."""

    function: str
    name: str
    node: ast.arg
    default: ast.expr | None


@dataclass(frozen=True, eq=False)
class Unknown:
    why: str
    line: int


Binding = Bound | Param | Unknown


@dataclass(eq=False)
class Env:
    vars: dict[str, Binding]
    function: str
    program: Program
    in_model: bool                     # `self` is the ModelNew instance

    def copy(self) -> Env:
        return Env(dict(self.vars), self.function, self.program, self.in_model)

    def lookup(self, name: str) -> Binding | None:
        b = self.vars.get(name)
        if b is None and self.function != "<module>":
            b = self.program.module_env.vars.get(name)
        return b


# ---------------------------------------------------------------------------- origins


@dataclass(frozen=True, eq=False)
class Lit:
    """An integer literal of the source that holds the value."""

    node: ast.Constant
    via: str                 # launch_literal | local_var | module_constant | attr_literal | call_literal | param_default
    holder: ast.AST
    function: str

    @property
    def key(self) -> tuple[str, int, int]:
        return ("lit", self.node.lineno, self.node.col_offset)


@dataclass(frozen=True, eq=False)
class Ctor:
    """A ModelNew constructor parameter, read at the launch as `self.<attr>`."""

    param: str
    attr: str
    node: ast.arg
    default: ast.expr | None

    @property
    def key(self) -> tuple[str, str]:
        return ("ctor", self.param)


@dataclass(frozen=True)
class Computed:
    why: str
    line: int
    text: str


Origin = Lit | Ctor | Computed


def is_int_constant(node: ast.AST | None) -> TypeGuard[ast.Constant]:
    return (isinstance(node, ast.Constant) and isinstance(node.value, int)
            and not isinstance(node.value, bool))


def ival(node: ast.Constant) -> int:
    """The value of a constant that is_int_constant accepted."""
    v = node.value
    assert isinstance(v, int)
    return v


def dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a chain of attributes over a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


# Functions of one kernel that return something launched as the kernel: torch.library's
# wrap_triton (capture_triton before torch 2.6), which torch.compile traces and which is the
# kernel itself outside a trace.
LAUNCH_WRAPPERS = frozenset({"wrap_triton", "capture_triton"})


def launched_expr(node: ast.AST) -> ast.expr | None:
    """What a launch `E[grid](...)` or `wrap_triton(E)[grid](...)` launches (E), else None
    (node not such a call)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript)):
        return None
    v = node.func.value
    if (isinstance(v, ast.Call) and len(v.args) == 1 and not v.keywords
            and (dotted(v.func) or "").rsplit(".", 1)[-1] in LAUNCH_WRAPPERS):
        return v.args[0]
    return v


def launch_target(node: ast.AST) -> ast.Name | None:
    """The kernel's name in a launch `k[grid](...)` or `wrap_triton(k)[grid](...)`, else None."""
    v = launched_expr(node)
    return v if isinstance(v, ast.Name) else None


def short(text: str) -> str:
    """Source text for a record: whitespace runs collapsed, at most TEXT_CAP characters."""
    one = " ".join(text.split())
    return one if len(one) <= TEXT_CAP else one[:TEXT_CAP].rstrip() + " ..."


# ---------------------------------------------------------------------------- launches


@dataclass(eq=False)
class LaunchSite:
    """One `kernel[grid](...)` call as reached from forward (one per call context)."""

    call: ast.Call
    kernel: str
    grid: ast.expr
    env: Env
    function: str

    @property
    def line(self) -> int:
        return self.call.lineno

    def arg_for(self, params: list[str], name: str) -> ast.expr | None:
        """The expression passed for kernel parameter `name`, or None when it is omitted."""
        kw = self.keyword(name)
        if kw is not None:
            return kw.value
        if name in params:
            i = params.index(name)
            for j, a in enumerate(self.call.args):
                if isinstance(a, ast.Starred):
                    return None
                if j == i:
                    return a
        return None

    @functools.cached_property
    def spread(self) -> list[ast.keyword] | None:
        """The entries of the call's `**cfg` when the source shows its keys (spread_keywords),
        read once per site."""
        return spread_keywords(self.env.program.tree, self.call)

    def keyword(self, name: str) -> ast.keyword | None:
        """The keyword that passes `name`, written at the call or as an entry of a `**cfg`
        whose keys the source shows."""
        for kw in [*self.call.keywords, *(self.spread or [])]:
            if kw.arg == name:
                return kw
        return None


@dataclass
class Program:
    source: str
    tree: ast.Module
    index: LineIndex
    jit: dict[str, ast.FunctionDef] = field(default_factory=dict)
    functions: dict[str, ast.FunctionDef] = field(default_factory=dict)
    model: ast.ClassDef | None = None
    methods: dict[str, ast.FunctionDef] = field(default_factory=dict)
    autograd: dict[str, ast.FunctionDef] = field(default_factory=dict)    # autograd_forwards
    # "ns.op" -> the module function @custom_op/@triton_op("ns::op") registers, which a call
    # torch.ops.ns.op(...) runs
    own_ops: dict[str, str] = field(default_factory=dict)
    module_env: Env = field(init=False)
    attrs: dict[str, Binding] = field(default_factory=dict)
    sites: list[LaunchSite] = field(default_factory=list)
    triton_alias: str | None = None     # the name the module binds to the triton package
    cdiv_name: str | None = None        # how the module can call triton.cdiv

    def text(self, node: ast.AST) -> str:
        return self.index.text(node)


def double_star(call: ast.Call) -> ast.keyword | None:
    """The `**cfg` of a call `f(..., **cfg)`, if any: a keyword added beside it may repeat one
    of its keys."""
    return next((kw for kw in call.keywords if kw.arg is None), None)


def spread_keywords(tree: ast.Module, call: ast.Call) -> list[ast.keyword] | None:
    """The keywords a call's one `**cfg` passes, when the source shows them all: cfg a dict
    display written at the call, or a name bound once, by a statement of the function that
    makes the call (or of the module), to a dict display, and read nowhere but at this `**`,
    so nothing can add, drop or change an entry in between. Every key must be a string naming
    a keyword no other argument of the call names, every value a constant. Each entry comes
    back as an ast.keyword spanning `"key": value` (its value the source's node, so an edit of
    the value lands in the dict). None when the call has no `**` or its keys are not known."""
    stars = [kw for kw in call.keywords if kw.arg is None]
    if len(stars) != 1:
        return None
    d: ast.expr | None = stars[0].value
    if isinstance(d, ast.Name):
        binding = sole_dict_binding(tree, call, d.id)
        d = binding.value if binding is not None else None
    if not isinstance(d, ast.Dict):
        return None
    named = {kw.arg for kw in call.keywords if kw.arg is not None}
    out: list[ast.keyword] = []
    for k, v in zip(d.keys, d.values):
        if not (isinstance(k, ast.Constant) and isinstance(k.value, str) and k.value.isidentifier()
                and isinstance(v, ast.Constant) and k.value not in named):
            return None
        named.add(k.value)
        kw = ast.keyword(arg=k.value, value=v)
        kw.lineno, kw.col_offset = k.lineno, k.col_offset
        kw.end_lineno, kw.end_col_offset = v.end_lineno, v.end_col_offset
        out.append(kw)
    return out


def sole_dict_binding(tree: ast.Module, call: ast.Call, name: str) -> ast.Assign | None:
    """The statement `name = {...}` when it is the one binding of `name` in the body of the
    function holding `call` (or of the module, when that function binds no `name`), before
    the call, and the call's `**name` is the only read of it there."""
    scope: ast.Module | ast.FunctionDef = tree
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and any(n is call for n in ast.walk(fn)):
            scope = fn      # ast.walk is breadth-first: the last match is the innermost
    uses = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id == name]
    if isinstance(scope, ast.FunctionDef) and not any(isinstance(n.ctx, ast.Store) for n in uses):
        scope = tree
        uses = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name]
    if any(isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in ast.walk(tree)):
        return None
    if [isinstance(n.ctx, ast.Store) for n in uses].count(True) != 1 or len(uses) != 2:
        return None
    for s in scope.body:
        if (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                and s.targets[0].id == name and isinstance(s.value, ast.Dict) and s.lineno < call.lineno):
            return s
    return None


def autograd_forwards(tree: ast.Module) -> dict[str, ast.FunctionDef]:
    """{class name: its forward} for the module's `torch.autograd.Function` subclasses: forward
    calls `Cls.apply(...)`, which runs `Cls.forward(ctx, ...)` with the call's arguments after
    ctx (the usual way to give a Triton kernel a backward)."""
    out: dict[str, ast.FunctionDef] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        if not any((dotted(b) or "").split(".")[-2:] in (["autograd", "Function"], ["Function"])
                   for b in node.bases):
            continue
        fwd = next((m for m in node.body if isinstance(m, ast.FunctionDef) and m.name == "forward"), None)
        if fwd is not None and (fwd.args.posonlyargs or fwd.args.args):
            out[node.name] = fwd
    return out


def is_jit(fn: ast.FunctionDef) -> bool:
    for dec in fn.decorator_list:
        d = dec.func if isinstance(dec, ast.Call) else dec
        name = dotted(d) or ""
        if name.split(".")[-1] == "jit":
            return True
    return False


def load_program(source: str) -> Program:
    tree = parse_module(source)
    prog = Program(source, tree, LineIndex(source))
    prog.module_env = Env({}, "<module>", prog, False)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            (prog.jit if is_jit(node) else prog.functions)[node.name] = node
            for op in filter(None, map(operator_decorated, node.decorator_list)):
                prog.own_ops[op.replace("::", ".")] = node.name
        elif isinstance(node, ast.ClassDef) and node.name == MODEL_CLASS:
            prog.model = node
            for m in node.body:
                if isinstance(m, ast.FunctionDef):
                    prog.methods[m.name] = m
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "triton":
                    prog.triton_alias = a.asname or "triton"
        elif isinstance(node, ast.ImportFrom) and node.module == "triton":
            for a in node.names:
                if a.name == "cdiv":
                    prog.cdiv_name = a.asname or "cdiv"
    prog.autograd = autograd_forwards(tree)
    if prog.cdiv_name is None and prog.triton_alias:
        prog.cdiv_name = f"{prog.triton_alias}.cdiv"
    _Walker(prog, set()).block(tree.body, prog.module_env, in_function=False)
    _analyse_init(prog)
    fwd = prog.methods.get("forward")
    if fwd is not None:
        env = Env({}, f"{MODEL_CLASS}.forward", prog, True)
        _bind_params(fwd, env, None, None)
        # forward is called with the case's inputs: an integer-defaulted parameter past them
        # (`def forward(self, x, block=256)`) runs with its default. Where an input does fill
        # it, the launch records another value and the knob is frozen for the difference.
        defaults = _defaults(fwd)
        for p in _param_list(fwd):
            if is_int_constant(defaults.get(p.arg)):
                env.vars[p.arg] = Bound(defaults[p.arg], prog.module_env, p, env.function, "default")
        _Walker(prog, {id(fwd)}).block(fwd.body, env, in_function=True)
    return prog


def _param_list(fn: ast.FunctionDef) -> list[ast.arg]:
    a = fn.args
    return list(a.posonlyargs) + list(a.args) + list(a.kwonlyargs)


def _defaults(fn: ast.FunctionDef) -> dict[str, ast.expr]:
    a = fn.args
    pos = list(a.posonlyargs) + list(a.args)
    out: dict[str, ast.expr] = {}
    for arg, d in zip(pos[len(pos) - len(a.defaults):], a.defaults):
        out[arg.arg] = d
    for arg, kd in zip(a.kwonlyargs, a.kw_defaults):
        if kd is not None:
            out[arg.arg] = kd
    return out


def _bind_params(fn: ast.FunctionDef, env: Env, call: ast.Call | None, caller: Env | None,
                 implicit_first: bool = False) -> None:
    """Binds fn's parameters in env: to the caller's argument expressions when called from
    a known site, to their defaults when not passed, else as unknown parameters. The first
    parameter is not among the call's arguments for a method of the model (self) or when
    `implicit_first` (an autograd Function's ctx); it is left unknown."""
    params = _param_list(fn)
    defaults = _defaults(fn)
    bound_self = bool(params) and (implicit_first or (env.in_model and params[0].arg == "self"))
    given: dict[str, ast.expr] = {}
    starred = False
    if call is not None:
        pos_params = [p.arg for p in (list(fn.args.posonlyargs) + list(fn.args.args))]
        if bound_self:
            pos_params = pos_params[1:]
        for i, a in enumerate(call.args):
            if isinstance(a, ast.Starred):
                starred = True
                break
            if i < len(pos_params):
                given[pos_params[i]] = a
        for kw in call.keywords:
            if kw.arg is None:
                starred = True
            else:
                given[kw.arg] = kw.value
    for i, p in enumerate(params):
        if i == 0 and bound_self:
            if implicit_first:
                env.vars[p.arg] = Param(env.function, p.arg, p, None)
            continue
        if call is not None and caller is not None and p.arg in given:
            env.vars[p.arg] = Bound(given[p.arg], caller, call, caller.function, "argument")
        elif call is not None and not starred and p.arg in defaults:
            env.vars[p.arg] = Bound(defaults[p.arg], env.program.module_env, p, env.function, "default")
        else:
            env.vars[p.arg] = Param(env.function, p.arg, p, defaults.get(p.arg))


def _analyse_init(prog: Program) -> None:
    """self.X bindings made in __init__; attributes assigned in other methods are unknown."""
    init = prog.methods.get("__init__")
    if init is not None:
        env = Env({}, f"{MODEL_CLASS}.__init__", prog, True)
        _bind_params(init, env, None, None)
        _Walker(prog, {id(init)}, attrs=prog.attrs).block(init.body, env, in_function=True)
    # class attributes (`BLOCK = 256` in the class body) read as self.BLOCK where __init__
    # sets no instance attribute of that name; assigned in a method, they are unknown (below)
    if prog.model is not None:
        cenv = Env({}, MODEL_CLASS, prog, False)
        assigned = Counter(t.id for st in prog.model.body if isinstance(st, (ast.Assign, ast.AnnAssign))
                           for t in (st.targets if isinstance(st, ast.Assign) else [st.target])
                           if isinstance(t, ast.Name))      # name -> how many times the body binds it
        for st in prog.model.body:
            if not (isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None):
                continue
            lhs = st.targets if isinstance(st, ast.Assign) else [st.target]
            if len(lhs) != 1 or not isinstance(lhs[0], ast.Name) or lhs[0].id in prog.attrs:
                continue
            name = lhs[0].id
            prog.attrs[name] = (Bound(st.value, cenv, st, MODEL_CLASS, "class") if assigned.get(name) == 1 else
                                Unknown(f"{MODEL_CLASS}.{name} is assigned twice in the class body", st.lineno))
    for name, m in prog.methods.items():
        if name == "__init__":
            continue
        for node in ast.walk(m):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                targets = [node.target]
            for t in targets:
                for sub in ast.walk(t):
                    if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
                            and sub.value.id == "self"):
                        prog.attrs[sub.attr] = Unknown(f"self.{sub.attr} is assigned in {MODEL_CLASS}.{name}",
                                                       sub.lineno)


def _assigned_names(stmts: list[ast.stmt]) -> dict[str, int]:
    out: dict[str, int] = {}
    for s in stmts:
        for node in ast.walk(s):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                out.setdefault(node.id, node.lineno)
    return out


class _Walker:
    """Walks statements in order, keeping the environment, and records launch sites and
    helper calls. `attrs` collects `self.X = ...` bindings (used for __init__)."""

    def __init__(self, prog: Program, stack: set[int], attrs: dict[str, Binding] | None = None) -> None:
        self.prog = prog
        self.stack = stack
        self.attrs = attrs

    def block(self, stmts: list[ast.stmt], env: Env, in_function: bool) -> None:
        for s in stmts:
            self.stmt(s, env, in_function)

    def _merge(self, env: Env, branches: list[Env], line: int) -> None:
        names = set()
        for b in branches:
            names |= set(b.vars)
        for n in names:
            seen = [b.vars.get(n) for b in branches]
            if all(x is seen[0] for x in seen):
                if seen[0] is not None:
                    env.vars[n] = seen[0]
            else:
                env.vars[n] = Unknown(f"{n} is assigned in a branch (line {line})", line)

    def stmt(self, s: ast.stmt, env: Env, in_function: bool) -> None:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if in_function:
                env.vars[s.name] = Unknown(f"{s.name} is a nested definition", s.lineno)
            return
        if isinstance(s, ast.If):
            self.scan(s.test, env)
            a, b = env.copy(), env.copy()
            self.block(s.body, a, in_function)
            self.block(s.orelse, b, in_function)
            self._merge(env, [a, b], s.lineno)
            return
        if isinstance(s, (ast.For, ast.AsyncFor, ast.While)):
            if isinstance(s, (ast.For, ast.AsyncFor)):
                self.scan(s.iter, env)
            else:
                self.scan(s.test, env)
            changed = _assigned_names(list(s.body) + list(s.orelse))
            if isinstance(s, (ast.For, ast.AsyncFor)):
                for n in _assigned_names([ast.Expr(s.target)]):
                    changed.setdefault(n, s.lineno)
            for n, line in changed.items():
                env.vars[n] = Unknown(f"{n} changes inside the loop at line {s.lineno}", line)
            inner = env.copy()
            self.block(s.body, inner, in_function)
            self.block(s.orelse, inner, in_function)
            for n, line in changed.items():
                env.vars[n] = Unknown(f"{n} changes inside the loop at line {s.lineno}", line)
            return
        if isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.scan(item.context_expr, env)
                if item.optional_vars is not None:
                    for n in _assigned_names([ast.Expr(item.optional_vars)]):
                        env.vars[n] = Unknown(f"{n} is bound by a with statement", s.lineno)
            self.block(s.body, env, in_function)
            return
        if isinstance(s, ast.Try):
            parts = [list(s.body)] + [list(h.body) for h in s.handlers] + [list(s.orelse), list(s.finalbody)]
            envs = []
            for p in parts:
                e = env.copy()
                self.block(p, e, in_function)
                envs.append(e)
            self._merge(env, envs, s.lineno)
            return
        if isinstance(s, ast.Assign):
            self.scan(s.value, env)
            for t in s.targets:
                self.bind(t, s.value, s, env)
            return
        if isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.scan(s.value, env)
                self.bind(s.target, s.value, s, env)
            return
        if isinstance(s, ast.AugAssign):
            self.scan(s.value, env)
            for n in _assigned_names([ast.Expr(s.target)]):
                env.vars[n] = Unknown(f"{n} is changed in place at line {s.lineno}", s.lineno)
            self._attr_unknown(s.target, s.lineno)
            return
        for child in ast.iter_child_nodes(s):
            if isinstance(child, ast.expr):
                self.scan(child, env)

    def _attr_unknown(self, target: ast.expr, line: int) -> None:
        if self.attrs is None:
            return
        for sub in ast.walk(target):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                self.attrs[sub.attr] = Unknown(f"self.{sub.attr} is changed in place at line {line}", line)

    def bind(self, target: ast.expr, value: ast.expr, holder: ast.AST, env: Env) -> None:
        before = env.copy()
        how = "module" if env.function == "<module>" else "assign"
        if isinstance(target, ast.Name):
            env.vars[target.id] = Bound(value, before, holder, env.function, how)
        elif isinstance(target, (ast.Tuple, ast.List)):
            elts = target.elts
            if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(elts):
                for t, v in zip(elts, value.elts):
                    self.bind(t, v, holder, env)
                return
            for i, t in enumerate(elts):
                if isinstance(t, ast.Starred):
                    for n in _assigned_names([ast.Expr(t)]):
                        env.vars[n] = Unknown(f"{n} is a starred target", getattr(holder, "lineno", 0))
                    continue
                sub = ast.Subscript(value=value, slice=ast.Constant(i), ctx=ast.Load())
                self.bind(t, sub, holder, env)
        elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
              and target.value.id == "self" and self.attrs is not None):
            if target.attr in self.attrs:
                self.attrs[target.attr] = Unknown(f"self.{target.attr} is assigned twice in __init__",
                                                  target.lineno)
            else:
                self.attrs[target.attr] = Bound(value, before, holder, env.function, how)
        else:
            for n in _assigned_names([ast.Expr(target)]):
                env.vars[n] = Unknown(f"{n} is bound by an unpacking the analysis does not follow",
                                      getattr(holder, "lineno", 0))

    def scan(self, expr: ast.expr, env: Env) -> None:
        """Records launches and follows helper calls inside one expression."""
        todo: list[ast.AST] = [expr]
        while todo:
            node = todo.pop()
            if isinstance(node, ast.Lambda):
                continue        # runs later (a grid function); its calls are not followed
            if isinstance(node, ast.Call):
                self.call(node, env)
            todo.extend(reversed(list(ast.iter_child_nodes(node))))

    def call(self, node: ast.Call, env: Env) -> None:
        prog = self.prog
        f = node.func
        if env.function == "<module>":
            return              # code run at import is not a launch of forward
        target = launch_target(node)
        if target is not None and target.id in prog.jit and target.id not in env.vars:
            assert isinstance(f, ast.Subscript)
            prog.sites.append(LaunchSite(node, target.id, f.slice, env.copy(), env.function))
            return
        callee: ast.FunctionDef | None = None
        in_model = implicit_first = False
        qual = ""
        path = (dotted(f) or "").split(".")
        if isinstance(f, ast.Name) and f.id in prog.functions and f.id not in env.vars:
            callee, qual = prog.functions[f.id], f.id
        elif path[1:2] == ["ops"] and ".".join(path[2:4]) in prog.own_ops:
            # torch.ops.ns.op(...) (or .default) of an operator the module registers
            qual = prog.own_ops[".".join(path[2:4])]
            callee = prog.functions[qual]
        elif (isinstance(f, ast.Attribute) and f.attr == "apply" and isinstance(f.value, ast.Name)
              and f.value.id in prog.autograd and f.value.id not in env.vars):
            callee, qual, implicit_first = prog.autograd[f.value.id], f"{f.value.id}.forward", True
        elif (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "self"
              and env.in_model and f.attr in prog.methods and f.attr not in ("__init__", "forward")):
            callee, qual, in_model = prog.methods[f.attr], f"{MODEL_CLASS}.{f.attr}", True
        if callee is None or id(callee) in self.stack or len(self.stack) >= MAX_CALL_DEPTH:
            return
        inner = Env({}, qual, prog, in_model)
        _bind_params(callee, inner, node, env.copy(), implicit_first)
        _Walker(prog, self.stack | {id(callee)}).block(callee.body, inner, in_function=True)


# ---------------------------------------------------------------------------- origin


def origin(node: ast.expr, env: Env, depth: int = 0, holder: ast.AST | None = None) -> Origin:
    """Where the value of `node` (an expression at a launch) lives."""
    prog = env.program
    if depth > MAX_RESOLVE_DEPTH:
        return Computed("too many indirections", getattr(node, "lineno", 0), short(prog.text(node)))
    if is_int_constant(node):
        return Lit(node, "launch_literal", holder or node, env.function)
    if isinstance(node, ast.Call) and dotted(node.func) in CONSTEXPR_NAMES and len(node.args) == 1:
        return origin(node.args[0], env, depth + 1, holder)
    if isinstance(node, ast.Name):
        return _origin_of_binding(env.lookup(node.id), node.id, node, env, depth)
    if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"
            and env.in_model):
        b = prog.attrs.get(node.attr)
        if isinstance(b, Bound):
            if is_int_constant(b.expr):
                return Lit(b.expr, "attr_literal", b.holder, b.function)
            if isinstance(b.expr, ast.Name):
                pb = b.env.lookup(b.expr.id)
                if isinstance(pb, Param) and pb.function.endswith(".__init__"):
                    return Ctor(pb.name, node.attr, pb.node, pb.default)
            return origin(b.expr, b.env, depth + 1)
        if isinstance(b, Unknown):
            return Computed(b.why, b.line, f"self.{node.attr}")
        return Computed(f"self.{node.attr} is not set in __init__", node.lineno, f"self.{node.attr}")
    line = getattr(node, "lineno", 0)
    return Computed("computed at run time", line, short(prog.text(node)) if line else "")


def _origin_of_binding(b: Binding | None, name: str, node: ast.expr, env: Env, depth: int) -> Origin:
    prog = env.program
    if b is None:
        return Computed(f"{name} is not defined in the module", node.lineno, name)
    if isinstance(b, Unknown):
        return Computed(b.why, b.line, name)
    if isinstance(b, Param):
        if b.function.endswith(".__init__"):
            return Computed(f"{name} is a constructor parameter", b.node.lineno, name)
        return Computed(f"{name} is a parameter of {b.function}", b.node.lineno, name)
    expr = b.expr
    if isinstance(expr, ast.Call) and dotted(expr.func) in CONSTEXPR_NAMES and len(expr.args) == 1:
        expr = expr.args[0]
    if is_int_constant(expr):
        via = {"module": "module_constant", "argument": "call_literal", "default": "param_default"}.get(b.how,
                                                                                                    "local_var")
        return Lit(expr, via, b.holder, b.function)
    if isinstance(expr, (ast.Name, ast.Attribute)):
        return origin(expr, b.env, depth + 1)
    line = getattr(b.holder, "lineno", node.lineno)
    return Computed("computed at run time", line, short(prog.text(b.holder)) if hasattr(b.holder, "lineno") else name)


# ---------------------------------------------------------------------------- canonical form


def canon(node: ast.AST, env: Env, depth: int = 0) -> str:
    """A string naming what `node` computes, with local names replaced by their definitions,
    so that `n` (after `n = x.numel()`) and `x.numel()` compare equal."""
    if depth > MAX_RESOLVE_DEPTH:
        return f"<deep@{id(node)}>"
    if isinstance(node, ast.Constant):
        return repr(node.value)
    if isinstance(node, ast.Name):
        b = env.lookup(node.id)
        if isinstance(b, Bound):
            return canon(b.expr, b.env, depth + 1)
        if isinstance(b, Param):
            return f"<param {b.function}.{b.name}>"
        if isinstance(b, Unknown):
            return f"<unknown {node.id}@{b.line}>"
        return f"<global {node.id}>"
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id == "self" and env.in_model:
            ab = env.program.attrs.get(node.attr)
            if isinstance(ab, Bound):
                return canon(ab.expr, ab.env, depth + 1)
            return f"<self.{node.attr}>"
        return f"{canon(node.value, env, depth + 1)}.{node.attr}"
    if isinstance(node, ast.Lambda):
        return f"<lambda@{id(node)}>"
    parts = [canon(c, env, depth + 1) for c in ast.iter_child_nodes(node)]
    return f"{type(node).__name__}({','.join(parts)})"
