"""What every structural rewrite needs to read a kernel module: its @triton.jit kernels, the
sites that launch them (``kernel[grid](...)``), the values the recorded launch passed, and
helpers that turn syntax-tree positions into edits (``srcedit``).

Nothing here finds code by matching text: kernels, launches, parameters and statements are
syntax-tree nodes; an edit replaces a node's span, or inserts whole lines at a statement's
line. New code is built as syntax trees and printed with ``ast.unparse``."""
from __future__ import annotations

import ast
import copy
import functools
import io
import math
import tokenize
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from .. import kernelinfo
from ..kernelinfo import KernelFacts
from ..knobs import OPTION_DEFAULTS
from ..pyflow import double_star, launch_target
from ..srcedit import Edit, LineIndex, RewriteRefused, apply_edits, parse_module

# Element sizes of the dtypes a recorded tensor argument can have (launches._describe writes
# str(torch.dtype) without the "torch." prefix).
DTYPE_BYTES = {
    "float64": 8, "float32": 4, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "int16": 2, "int8": 1,
    "uint8": 1, "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1, "float8_e4m3fnuz": 1, "float8_e5m2fnuz": 1,
}

# tl functions whose result depends on memory or on a random state: two calls with the same
# arguments are not the same value.
IMPURE_TL = {"load", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor",
             "atomic_xchg", "atomic_cas", "rand", "randn", "randint", "randint4x", "store", "device_print",
             "device_assert", "inline_asm_elementwise"}
STORE_TL = {"store", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or", "atomic_xor",
            "atomic_xchg", "atomic_cas"}
# tl functions whose result mixes the lanes of a block (reductions, scans, dot products,
# sorting): a rewrite that changes which lanes share a block changes what they compute.
LANE_MIXING_TL = {"sum", "max", "min", "argmax", "argmin", "xor_sum", "reduce", "cumsum", "cumprod",
                  "associative_scan", "dot", "dot_scaled", "histogram", "sort"}
# Calls allowed in a launch-site expression that is copied (evaluated again) elsewhere in
# forward: pure reads of sizes.
PURE_METHODS = {"size", "stride", "numel", "dim", "element_size", "nelement"}
PURE_BUILTINS = {"int", "len", "min", "max", "abs"}
# num_warps values a rewrite that sets the launch's warps sweeps (rows_per_program,
# deinterleave_pairs); launch_warps says where the sweep starts.
REWRITE_WARPS = [1, 2, 4, 8, 16]


PlanT = TypeVar("PlanT", bound="Plan")


def is_pow2(v: int) -> bool:
    return v > 0 and v & (v - 1) == 0


def next_pow2(v: int) -> int:
    return 1 if v <= 1 else 1 << (v - 1).bit_length()


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


@dataclass
class Fit:
    """Whether a structural rewrite fits the module: ``why`` names the kernel, the lines and
    the precondition met or failed; ``params`` are the defaults ``apply`` uses (``kernel``
    among them), ``domain`` the values of each parameter a sweep should try."""

    name: str
    fits: bool
    why: str
    params: dict[str, Any]
    domain: dict[str, list[Any]]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class Plan:
    """What ``analyze`` found: the kernel and launch the rewrite acts on, the sentence saying
    why it fits, and the defaults and domain of its parameters."""

    kernel: Kernel
    site: LaunchSite
    why: str
    params: dict[str, Any]
    domain: dict[str, list[Any]]


def pick(mod: Module, name: str, analyze: Callable[[Module, Kernel], PlanT], kernel: str | None = None) -> PlanT:
    """The plan for ``kernel``, or for the first kernel of the module that fits; refused
    with every kernel's reason when none does."""
    if kernel is not None:
        if kernel not in mod.kernels:
            raise RewriteRefused(f"{name}: the module has no @triton.jit kernel {kernel!r}")
        return analyze(mod, mod.kernels[kernel])
    reasons = []
    for k in mod.kernels.values():
        try:
            return analyze(mod, k)
        except RewriteRefused as e:
            reasons.append(str(e))
    if not reasons:
        raise RewriteRefused(f"{name}: the module defines no @triton.jit kernel")
    raise RewriteRefused("; ".join(reasons))


def survey_one(mod: Module, name: str, analyze: Callable[[Module, Kernel], PlanT]) -> Fit:
    try:
        plan = pick(mod, name, analyze)
    except RewriteRefused as e:
        return Fit(name, False, str(e), {}, {})
    return Fit(name, True, plan.why, plan.params, plan.domain)


@dataclass
class Kernel:
    """One module-level @triton.jit function."""

    name: str
    node: ast.FunctionDef
    params: list[str]
    constexprs: set[str]
    defaults: bool          # some parameter has a default value
    autotuned: bool
    heuristics: bool
    jit: ast.expr           # its @triton.jit decorator (a call where it passes options)

    @functools.cached_property
    def facts(self) -> KernelFacts:
        """What the knobs' analysis knows of it (block sizes, what @triton.heuristics sets)."""
        return kernelinfo.analyse(self.node)


@dataclass
class LaunchSite:
    """One ``kernel[grid](args...)`` call outside the kernels."""

    kernel: str
    call: ast.Call
    grid: ast.expr
    stmt: ast.stmt          # the statement that contains the call
    func: ast.FunctionDef | None
    bound: dict[str, ast.expr] = field(default_factory=dict)     # kernel parameter -> argument node
    options: dict[str, ast.keyword] = field(default_factory=dict)  # num_warps=, num_stages=, ...


def launch_warps(site: LaunchSite) -> int:
    """The launch's num_warps when it is a literal of REWRITE_WARPS, else Triton's default
    (knobs.OPTION_DEFAULTS): where a rewrite's sweep of num_warps starts."""
    kw = site.options.get("num_warps")
    warps = int_const(kw.value) if kw is not None else None
    return warps if warps in REWRITE_WARPS else OPTION_DEFAULTS["num_warps"]


def option_domain(mod: Module, site: LaunchSite,
                  options: dict[str, list[int]]) -> tuple[dict[str, Any], dict[str, list[Any]]]:
    """Launch options a rewrite sweeps with its change (``{"num_warps": [4, 8], ...}``): each
    one's default is the launch's literal (Triton's, knobs.OPTION_DEFAULTS, when it sets none),
    its domain the given values plus that one. Refused when the launch computes one."""
    params: dict[str, Any] = {}
    domain: dict[str, list[Any]] = {}
    for opt, values in options.items():
        kw = site.options.get(opt)
        cur = OPTION_DEFAULTS[opt] if kw is None else int_const(kw.value)
        if cur is None:
            raise RewriteRefused(f"line {site.call.lineno}: {opt}={mod.text(kw.value) if kw else ''} is computed at "
                                 "the launch; this rewrite sets it")
        params[opt] = cur
        domain[opt] = sorted({*values, cur})
    return params, domain


def option_edits(mod: Module, plan: Plan, chosen: dict[str, Any], options: Iterable[str]) -> list[Edit]:
    """The launch's options set to the chosen values: those that differ from the plan's
    defaults, and those the launch already names."""
    return [mod.set_launch_arg(plan.site, opt, str(int(chosen[opt]))) for opt in options
            if chosen[opt] != plan.params[opt] or opt in plan.site.options]


class Module:
    """A parsed kernel module together with the launches recorded on a real forward."""

    def __init__(self, source: str, launches: list[dict[str, Any]] | None,
                 aliases: dict[str, str] | None = None) -> None:
        self.source = source
        self.tree = parse_module(source)
        self.index = LineIndex(source)
        self.parents: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
        # a fragment (one kernel's text) resolves names through its module's imports
        self.aliases = {**(aliases or {}), **self._aliases()}
        self.kernels: dict[str, Kernel] = {}
        for node in self.tree.body:
            if isinstance(node, ast.FunctionDef):
                k = self._kernel(node)
                if k is not None:
                    self.kernels[k.name] = k
        self.sites = self._sites()
        self.records: dict[str, dict[str, Any]] = {}
        for rec in launches or []:
            if isinstance(rec, dict) and isinstance(rec.get("kernel"), str):
                self.records[rec["kernel"]] = rec
        self.names = {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name)} | {
            n.name for n in ast.walk(self.tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))} | {
            a.arg for a in ast.walk(self.tree) if isinstance(a, ast.arg)}

    # ---------------------------------------------------------------- names
    def _aliases(self) -> dict[str, str]:
        al: dict[str, str] = {}
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        al[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        al[top] = top
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    al[a.asname or a.name] = f"{node.module}.{a.name}"
        return al

    def qualname(self, node: ast.AST) -> str | None:
        """``tl.load`` -> ``triton.language.load`` (through the module's imports)."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        head = self.aliases.get(node.id, node.id)
        return ".".join([head, *reversed(parts)])

    def tl_func(self, node: ast.AST | None) -> str | None:
        """For a call of a triton.language function, its name relative to the package
        (``load``, ``math.exp``); None for anything else."""
        if not isinstance(node, ast.Call):
            return None
        q = self.qualname(node.func)
        if q and q.startswith("triton.language."):
            return q[len("triton.language."):]
        return None

    def alias_for(self, module: str) -> str | None:
        """The expression text that names ``module`` ("triton" or "triton.language") in this
        source: ``tl`` after ``import triton.language as tl``; None when it is not imported."""
        names = sorted(n for n, target in self.aliases.items() if target == module)
        if names:
            return names[0]
        if module == "triton.language":
            top = self.alias_for("triton")
            return f"{top}.language" if top else None
        return None

    def tl(self) -> str:
        a = self.alias_for("triton.language")
        if a is None:
            raise RewriteRefused("the module does not import triton.language (e.g. `import triton.language as tl`)")
        return a

    def triton(self) -> str:
        a = self.alias_for("triton")
        if a is None:
            raise RewriteRefused("the module does not `import triton` (needed for triton.cdiv in forward)")
        return a

    def fresh(self, base: str) -> str:
        """A name used nowhere in the module; it counts as used from now on, so two calls
        never return the same name."""
        cand = base
        for i in range(2, 1000):
            if cand not in self.names:
                break
            cand = f"{base}_{i}"
        else:
            raise RewriteRefused(f"no free name derived from {base!r}")
        self.names.add(cand)
        return cand

    # ---------------------------------------------------------------- kernels, launches
    def _kernel(self, node: ast.FunctionDef) -> Kernel | None:
        jit: ast.expr | None = None
        autotuned = heur = False
        for d in node.decorator_list:
            q = self.qualname(d.func if isinstance(d, ast.Call) else d)
            if q == "triton.jit" or q == "triton.runtime.jit.jit":
                jit = d
            elif q == "triton.autotune":
                autotuned = True
            elif q == "triton.heuristics":
                heur = True
        if jit is None:
            return None
        a = node.args
        params = [x.arg for x in a.posonlyargs + a.args]
        constexprs = {x.arg for x in a.posonlyargs + a.args
                      if x.annotation is not None and (self.qualname(x.annotation) or "").endswith("constexpr")}
        return Kernel(node.name, node, params, constexprs, bool(a.defaults), autotuned, heur, jit)

    def _sites(self) -> list[LaunchSite]:
        sites = []
        kernel_nodes = {k.node for k in self.kernels.values()}
        for node in ast.walk(self.tree):
            target = launch_target(node)
            if target is None or target.id not in self.kernels:
                continue
            assert isinstance(node, ast.Call) and isinstance(node.func, ast.Subscript)
            stmt: ast.AST = node
            func = None
            while stmt in self.parents and not isinstance(stmt, ast.stmt):
                stmt = self.parents[stmt]
            up: ast.AST = stmt
            while up in self.parents:
                up = self.parents[up]
                if isinstance(up, ast.FunctionDef):
                    func = up
                    break
            if func in kernel_nodes or not isinstance(stmt, ast.stmt):
                continue
            k = self.kernels[target.id]
            site = LaunchSite(k.name, node, node.func.slice, stmt, func)
            for i, arg in enumerate(node.args):
                if isinstance(arg, ast.Starred) or i >= len(k.params):
                    break
                site.bound[k.params[i]] = arg
            for kw in node.keywords:
                if kw.arg is None:
                    continue
                if kw.arg in k.params:
                    site.bound[kw.arg] = kw.value
                else:
                    site.options[kw.arg] = kw
            sites.append(site)
        return sites

    def sites_of(self, kernel: str) -> list[LaunchSite]:
        return [s for s in self.sites if s.kernel == kernel]

    def one_site(self, kernel: str) -> LaunchSite:
        sites = self.sites_of(kernel)
        if not sites:
            raise RewriteRefused(f"{kernel} is never launched as `{kernel}[grid](...)` in this module")
        if len(sites) > 1:
            lines = ", ".join(str(s.call.lineno) for s in sites)
            raise RewriteRefused(f"{kernel} is launched from {len(sites)} places (lines {lines}); "
                                 "this rewrite handles a kernel with one launch site")
        self.check_no_double_star(sites[0].call)
        return sites[0]

    def check_no_double_star(self, call: ast.Call) -> None:
        """A launch `k[grid](..., **cfg)`: a keyword the rewrite adds may repeat one of cfg's."""
        star = double_star(call)
        if star is not None:
            raise RewriteRefused(f"line {call.lineno}: the launch passes **{self.text(star.value)}; "
                                 "a keyword added beside it may repeat one of its keys")

    def record(self, kernel: str) -> dict[str, Any]:
        rec = self.records.get(kernel)
        if rec is None or not isinstance(rec.get("last"), dict):
            raise RewriteRefused(f"{kernel} was not launched on the recorded forward (no runtime sizes for it)")
        return rec

    def recorded_values(self, kernel: str) -> dict[str, dict[str, Any]]:
        """Parameter name -> the recorded argument descriptor of the last launch."""
        k = self.kernels[kernel]
        last = self.record(kernel)["last"]
        out: dict[str, dict[str, Any]] = {}
        for name, d in zip(k.params, last.get("args") or []):
            out[name] = d
        for name, d in (last.get("kwargs") or {}).items():
            out[name] = d
        return out

    def recorded_int(self, kernel: str, param: str) -> int:
        d = self.recorded_values(kernel).get(param)
        if not d or d.get("kind") != "int":
            raise RewriteRefused(f"{kernel}: the recorded launch has no integer value for {param}")
        return int(d["value"])

    def recorded_grid(self, kernel: str) -> list[int]:
        g = self.record(kernel)["last"].get("grid")
        if not isinstance(g, list) or not g:
            raise RewriteRefused(f"{kernel}: the recorded launch has no grid")
        return [int(x) for x in g]

    def min_elem_bytes(self, kernel: str) -> int:
        """Smallest element size among the tensor arguments of the recorded launch."""
        sizes = [DTYPE_BYTES.get(d.get("dtype", ""), 0) for d in self.recorded_values(kernel).values()
                 if d.get("kind") == "tensor"]
        sizes = [s for s in sizes if s]
        if not sizes:
            raise RewriteRefused(f"{kernel}: the recorded launch passed no tensor of a known dtype")
        return min(sizes)

    def tensor_dtypes(self, kernel: str) -> list[str]:
        return [str(d.get("dtype")) for d in self.recorded_values(kernel).values() if d.get("kind") == "tensor"]

    # ---------------------------------------------------------------- positions, edits
    def text(self, node: ast.AST) -> str:
        return self.index.text(node)

    def line_start(self, lineno: int) -> int:
        return self.index.starts[lineno - 1]

    def stmt_indent(self, stmt: ast.stmt) -> str:
        """The indentation of a statement that begins its line (refused otherwise: an edit
        that inserts lines before it would split the line)."""
        ind = self.index.line_indent(stmt.lineno)
        if self.index.offset(stmt.lineno, stmt.col_offset) != self.line_start(stmt.lineno) + len(ind):
            raise RewriteRefused(f"line {stmt.lineno}: the statement shares its line with another one")
        return ind

    def insert_before(self, stmt: ast.stmt, lines: list[str]) -> Edit:
        ind = self.stmt_indent(stmt)
        pos = self.line_start(stmt.lineno)
        return Edit(pos, pos, "".join(f"{ind}{ln}\n" for ln in lines))

    def replace_stmt(self, stmt: ast.stmt, lines: list[str]) -> Edit:
        """Replaces a statement by lines written at its indentation (lines may carry extra
        indentation of their own)."""
        ind = self.stmt_indent(stmt)
        a, b = self.index.span(stmt)
        return Edit(a, b, f"\n{ind}".join(lines))

    def delete_stmt(self, stmt: ast.stmt) -> Edit:
        """Removes a statement's whole lines (it must be the only statement on them)."""
        self.stmt_indent(stmt)
        span = self.index.stmt_lines(stmt)
        if span is None:
            raise RewriteRefused(f"line {stmt.end_lineno or stmt.lineno}: the statement shares its line with "
                                 "another one")
        return Edit(span[0], span[1], "")

    def replace(self, node: ast.AST, text: str) -> Edit:
        a, b = self.index.span(node)
        return Edit(a, b, text)

    def set_launch_arg(self, site: LaunchSite, name: str, text: str) -> Edit:
        """Sets kernel parameter or launch option ``name`` at a launch to the expression
        ``text``: replaces the argument or keyword value, else adds ``name=text``."""
        node = site.bound.get(name)
        if node is None and name in site.options:
            node = site.options[name].value
        if node is not None:
            return self.replace(node, text)
        return self.add_call_keyword(site.call, f"{name}={text}")

    def add_call_keyword(self, call: ast.Call, text: str) -> Edit:
        self.check_no_double_star(call)
        last: ast.AST | None = None
        for n in [*call.args, *call.keywords]:
            if last is None or (n.end_lineno, n.end_col_offset) > (last.end_lineno, last.end_col_offset):  # type: ignore[attr-defined]
                last = n
        if last is None:
            _, end = self.index.span(call)
            return Edit(end - 1, end - 1, text)     # a Call's span ends with its ")"
        _, end = self.index.span(last)
        return Edit(end, end, f", {text}")

    def add_kernel_params(self, kernel: Kernel, specs: list[tuple[str, bool, str | None]]) -> Edit:
        """Appends parameters (name, constexpr, default) to a kernel's signature. A new
        parameter gets its default only when an existing one has a default (Python requires
        it then); the launch passes every new parameter by keyword anyway."""
        a = kernel.node.args
        if a.vararg or a.kwarg or a.kwonlyargs:
            raise RewriteRefused(f"{kernel.name} has *args, **kwargs or keyword-only parameters")
        allp = a.posonlyargs + a.args
        if not allp:
            raise RewriteRefused(f"{kernel.name} has no parameters")
        last: ast.AST = a.defaults[-1] if a.defaults else allp[-1]
        _, end = self.index.span(last)
        tl = self.tl()
        parts = []
        for name, constexpr, default in specs:
            t = f"{name}: {tl}.constexpr" if constexpr else name
            if kernel.defaults:
                if default is None:
                    raise RewriteRefused(f"{kernel.name}: new parameter {name} needs a default")
                t += f" = {default}" if constexpr else f"={default}"
            parts.append(t)
        return Edit(end, end, ", " + ", ".join(parts))

    def edited_text(self, node: ast.AST, edits: list[Edit]) -> str:
        """The text of ``node`` after the edits that fall inside its span."""
        a, b = self.index.span(node)
        return self.edited_range(a, b, edits)

    def edited_range(self, a: int, b: int, edits: list[Edit]) -> str:
        """source[a:b] after the edits that fall inside it."""
        inner = [Edit(e.start - a, e.end - a, e.text) for e in edits if a <= e.start and e.end <= b]
        return apply_edits(self.source[a:b], inner)

    def def_name_token(self, fn: ast.FunctionDef) -> tuple[int, int]:
        """Character span of a function's name in its ``def`` line, from the tokenizer
        (``ast`` gives no position for the name)."""
        start = self.index.offset(fn.lineno, fn.col_offset)
        end = self.index.span(fn)[1]
        toks = tokenize.generate_tokens(io.StringIO(self.source[start:end]).readline)
        saw_def = False
        for tok in toks:
            if tok.type == tokenize.NAME and tok.string == "def":
                saw_def = True
            elif saw_def and tok.type == tokenize.NAME:
                if tok.string != fn.name:
                    break
                line, col = tok.start
                # tokens are counted in characters from the start of the fragment
                before = self.source[start:end].splitlines(keepends=True)[: line - 1]
                off = start + sum(len(x) for x in before) + col
                return off, off + len(fn.name)
        raise RewriteRefused(f"line {fn.lineno}: cannot locate the name of function {fn.name}")

    def check_no_multiline_strings(self, node: ast.AST, what: str) -> None:
        """Re-indenting a fragment is only safe when no string literal spans lines."""
        for n in ast.walk(node):
            if isinstance(n, (ast.Constant, ast.JoinedStr)) and isinstance(getattr(n, "value", ""), str) \
                    and getattr(n, "end_lineno", n.lineno) != n.lineno:
                raise RewriteRefused(f"line {n.lineno}: {what} holds a string literal spanning lines")


def reindent(text: str, add: str) -> str:
    """Adds ``add`` to every line after the first (the first line is placed by the caller)."""
    lines = text.split("\n")
    return "\n".join([lines[0], *[(add + ln) if ln.strip() else ln for ln in lines[1:]]])


def dedent_lines(text: str, remove: int) -> str:
    """Removes up to ``remove`` leading blanks from every line after the first."""
    lines = text.split("\n")
    out = [lines[0]]
    for ln in lines[1:]:
        k = 0
        while k < remove and k < len(ln) and ln[k] in " \t":
            k += 1
        out.append(ln[k:])
    return "\n".join(out)


def calls(node: ast.AST) -> Iterator[ast.Call]:
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            yield n


def call_arg(call: ast.Call, pos: int, name: str) -> ast.expr | None:
    """Argument ``name`` of a call, given by keyword or at position ``pos``."""
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    if pos < len(call.args) and not any(isinstance(a, ast.Starred) for a in call.args[: pos + 1]):
        return call.args[pos]
    return None


def int_const(node: ast.AST | None) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    return None


def names_in(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def assigned_names(stmts: Iterable[ast.stmt]) -> set[str]:
    out: set[str] = set()
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out.add(n.id)
    return out


def body_after_docstring(k: Kernel) -> list[ast.stmt]:
    """The kernel's statements without its docstring (a body of only a docstring keeps it)."""
    body = k.node.body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and len(body) > 1:
        return body[1:]
    return body


def bindings(k: Kernel) -> list[tuple[ast.AST, list[ast.AST], list[ast.AST]]]:
    """Every binding in the kernel, anywhere: (the binding statement, its targets, the values
    it reads) for assignments, augmented ones (their target is read too), annotated ones with
    a value, and loop targets (bound from the iterable)."""
    out: list[tuple[ast.AST, list[ast.AST], list[ast.AST]]] = []
    for n in ast.walk(k.node):
        if isinstance(n, ast.Assign):
            out.append((n, list(n.targets), [n.value]))
        elif isinstance(n, ast.AugAssign):
            out.append((n, [n.target], [n.value, n.target]))
        elif isinstance(n, ast.AnnAssign) and n.value is not None:
            out.append((n, [n.target], [n.value]))
        elif isinstance(n, ast.For):
            out.append((n, [n.target], [n.iter]))
    return out


def derived(k: Kernel, depends: Callable[[ast.AST, set[str]], bool]) -> set[str]:
    """Every name bound anywhere in the kernel to a value for which ``depends(expr, so_far)``
    holds, directly or through other such names: a fixed point over all bindings,
    flow-insensitive, so a name bound twice counts when either binding does. Defs covers only
    names bound once at the top level; here loop and branch bodies count too."""
    binds = bindings(k)
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for _, targets, srcs in binds:
            if any(depends(src, out) for src in srcs):
                new = {x.id for t in targets for x in ast.walk(t)
                       if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store)} - out
                if new:
                    out |= new
                    changed = True
    return out


def program_id_axis(mod: Module, node: ast.AST, funcs: tuple[str, ...] = ("program_id",)) -> int | None:
    """The axis of a ``tl.program_id(axis)`` call (of any of ``funcs``: also
    ``tl.num_programs``); -1 when the axis is not a literal."""
    if mod.tl_func(node) not in funcs:
        return None
    assert isinstance(node, ast.Call)
    ax = call_arg(node, 0, "axis")
    v = int_const(ax)
    return -1 if v is None else v


def pure_expr(mod: Module, node: ast.AST) -> bool:
    """True when evaluating the expression again cannot change anything (names, attributes,
    constants, arithmetic, subscripts, size queries)."""
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            f = n.func
            if isinstance(f, ast.Attribute) and f.attr in PURE_METHODS:
                continue
            if isinstance(f, ast.Name) and f.id in PURE_BUILTINS:
                continue
            q = mod.qualname(f) or ""
            if q in ("triton.cdiv", "triton.next_power_of_2"):
                continue
            return False
        if isinstance(n, (ast.NamedExpr, ast.Lambda, ast.Yield, ast.YieldFrom, ast.Await)):
            return False
    return True


def grid_elements(mod: Module, site: LaunchSite) -> list[ast.expr]:
    """The element expressions of a launch's grid when it is a tuple/list literal, either at
    the launch or in the single assignment of the local name used there."""
    g = site.grid
    if isinstance(g, ast.Name) and site.func is not None:
        assigns = [n for n in ast.walk(site.func) if isinstance(n, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == g.id for t in n.targets)]
        if len(assigns) != 1 or len(assigns[0].targets) != 1:
            raise RewriteRefused(f"line {site.call.lineno}: grid {g.id} is not assigned exactly once in "
                                 f"{site.func.name}")
        g = assigns[0].value
    if isinstance(g, (ast.Tuple, ast.List)):
        return list(g.elts)
    raise RewriteRefused(f"line {site.call.lineno}: the grid `{mod.text(site.grid)}` is not a tuple of sizes")


def grid_elem_text(mod: Module, site: LaunchSite, k: int) -> str:
    """Text that evaluates to the grid's k-th element at the launch: the literal element, or
    ``grid[k]`` when the grid is a local name (its element may use names changed since)."""
    elts = grid_elements(mod, site)
    if k >= len(elts):
        raise RewriteRefused(f"line {site.call.lineno}: the grid has no axis {k}")
    if isinstance(site.grid, ast.Name):
        return f"{site.grid.id}[{k}]"
    if not pure_expr(mod, elts[k]):
        raise RewriteRefused(f"line {site.call.lineno}: grid element `{mod.text(elts[k])}` is not a pure size "
                             "expression")
    return mod.text(elts[k])


def kernel_span(mod: Module, kernel: Kernel) -> tuple[int, int]:
    """Character span of a kernel including its decorators."""
    first = min([d.lineno for d in kernel.node.decorator_list] + [kernel.node.lineno])
    if kernel.node.col_offset != 0:
        raise RewriteRefused(f"{kernel.name} is not defined at module level")
    return mod.line_start(first), mod.index.span(kernel.node)[1]


def check_params(name: str, params: dict[str, Any], defaults: dict[str, Any],
                 domain: dict[str, list[Any]]) -> dict[str, Any]:
    """Merges params over defaults; every name must be known and every integer value must be
    one of the domain's values when the domain lists it (``kernel`` is a string)."""
    if not isinstance(params, dict):
        raise RewriteRefused(f"{name}: params must be an object")
    out = dict(defaults)
    for k, v in params.items():
        if k not in defaults:
            raise RewriteRefused(f"{name}: unknown parameter {k!r} (known: {', '.join(sorted(defaults))})")
        if k == "kernel":
            if not isinstance(v, str):
                raise RewriteRefused(f"{name}: parameter kernel must be a kernel name")
        elif not isinstance(v, int) or isinstance(v, bool):
            raise RewriteRefused(f"{name}: parameter {k} must be an integer, got {v!r}")
        elif k in domain and v not in domain[k]:
            raise RewriteRefused(f"{name}: parameter {k}={v} is outside its domain {domain[k]}")
        out[k] = v
    return out


def log2(v: int) -> int:
    return int(math.log2(v))


def loop_refusal(k: Kernel) -> str | None:
    """Why k's body cannot run once per tile inside a persistent loop, or None: an early
    ``return`` would end the program's later tiles too, and an assignment to a parameter
    would carry into the next tile."""
    for n in ast.walk(k.node):
        if isinstance(n, ast.Return):
            return (f"{k.name} line {n.lineno}: returns early; in a persistent loop the return would end the "
                    "program's later tiles too")
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in k.params:
            return (f"{k.name} line {n.lineno}: assigns parameter {n.id}; in a persistent loop the change would "
                    "carry into the next tile")
    return None


def check_callees(mod: Module, k: Kernel) -> None:
    """Refuses kernel k when a @triton.jit function of the module that k calls (directly or
    through others) reads tl.program_id or tl.num_programs: a rewrite that changes which
    program runs which work rewrites k's own reads only, and the callee's would still see the
    program of the old mapping."""
    seen, todo = {k.name}, [k]
    while todo:
        cur = todo.pop()
        for c in calls(cur.node):
            callee = mod.kernels.get(c.func.id) if isinstance(c.func, ast.Name) else None
            if callee is None or callee.name in seen:
                continue
            seen.add(callee.name)
            for d in calls(callee.node):
                f = mod.tl_func(d)
                if f in ("program_id", "num_programs"):
                    raise RewriteRefused(f"{k.name} line {c.lineno}: calls {callee.name}, which reads tl.{f} "
                                         f"(line {d.lineno}); the rewrite changes which program does what and "
                                         f"rewrites {k.name}'s own reads only")
            todo.append(callee)


def sms_device_arg(mod: Module, k: Kernel, site: LaunchSite) -> str | None:
    """The kernel parameter whose argument, a plain name of a recorded tensor, gives the device
    whose SM count sizes a persistent grid; None when there is none."""
    values = mod.recorded_values(k.name)
    return next((p for p in k.params if values.get(p, {}).get("kind") == "tensor"
                 and isinstance(site.bound.get(p), ast.Name)), None)


def from_template(template: str, names: dict[str, str | ast.expr]) -> list[str]:
    """New statements from a template: each ``Name`` of the template found in ``names`` is
    replaced by the given name or expression (a source fragment is parsed first), and each
    statement is printed with ``ast.unparse`` (one string per statement)."""
    subs: dict[str, ast.expr] = {}
    for k, v in names.items():
        subs[k] = v if isinstance(v, ast.expr) else ast.parse(v, mode="eval").body

    class Sub(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> ast.AST:
            if n.id in subs:
                new = copy.deepcopy(subs[n.id])
                if isinstance(new, ast.Name):
                    new.ctx = n.ctx
                return new
            return n

    tree = Sub().visit(ast.parse(template))
    return [ast.unparse(s) for s in tree.body]


class Defs:
    """The names a kernel binds exactly once, by a top-level ``name = value`` statement (or one
    at the top level of ``also``, a loop's body, say), and what each depends on (through such
    definitions, transitively)."""

    def __init__(self, kernel: Kernel, also: Iterable[ast.stmt] = ()) -> None:
        counts: dict[str, int] = {}
        for n in ast.walk(kernel.node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                counts[n.id] = counts.get(n.id, 0) + 1
        self.stmt: dict[str, ast.Assign] = {}
        for s in [*kernel.node.body, *also]:
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name) \
                    and counts.get(s.targets[0].id) == 1:
                self.stmt[s.targets[0].id] = s
        self._deps: dict[str, frozenset[str]] = {}

    def deps(self, name: str, seen: frozenset[str] = frozenset()) -> frozenset[str]:
        """Names ``name``'s value is computed from (itself included)."""
        if name in self._deps:
            return self._deps[name]
        out = {name}
        s = self.stmt.get(name)
        if s is not None and name not in seen:
            for m in names_in(s.value):
                out |= self.deps(m, seen | {name})
        self._deps[name] = frozenset(out)
        return self._deps[name]

    def expr_deps(self, node: ast.AST) -> frozenset[str]:
        out: set[str] = set()
        for m in names_in(node):
            out |= self.deps(m)
        return frozenset(out)


def grid_edit(mod: Module, site: LaunchSite, text: str) -> Edit:
    """Sets a launch's grid to ``text``: in the assignment of the local name the launch uses
    when that name is assigned once and used only there (the launch stays readable), else at
    the launch."""
    g = site.grid
    if isinstance(g, ast.Name) and site.func is not None:
        assigns = [n for n in ast.walk(site.func) if isinstance(n, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == g.id for t in n.targets)]
        uses = [n for n in ast.walk(site.func) if isinstance(n, ast.Name) and n.id == g.id
                and isinstance(n.ctx, ast.Load)]
        if len(assigns) == 1 and len(assigns[0].targets) == 1 and len(uses) == 1:
            return mod.replace(assigns[0].value, text)
    return mod.replace(g, text)


def header_exprs(s: ast.stmt) -> list[ast.AST]:
    """The expressions a statement evaluates itself (for a compound statement, its header:
    the body's statements are separate)."""
    if isinstance(s, (ast.If, ast.While)):
        return [s.test]
    if isinstance(s, (ast.For, ast.AsyncFor)):
        return [s.target, s.iter]
    if isinstance(s, (ast.With, ast.AsyncWith)):
        return [i.context_expr for i in s.items]
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Try)):
        return []
    return [s]


def check_not_assigned(k: Kernel, names: Iterable[str], why: str) -> None:
    """Refuses when the kernel rebinds one of ``names`` (the rewrite relies on it holding the
    value the launch passed)."""
    for n in ast.walk(k.node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) and n.id in set(names):
            raise RewriteRefused(f"{k.name} line {n.lineno}: assigns {n.id}, {why}")


def check_wrappers(mod: Module, k: Kernel, what: str, sets: Iterable[str] = ()) -> None:
    """Refuses kernel k when a decorator would override what the rewrite chooses: an
    @triton.autotune (it picks the launch), or an @triton.heuristics that sets one of the
    kernel's block sizes (kernelinfo's: a tl.arange's length, a shape or block shape) or a name
    in ``sets``, or whose keys cannot be read. A heuristics that
    sets a flag derived from the block (``EVEN_N: n % BLOCK == 0``) is recomputed by Triton
    for the rewritten launch and does not stop a rewrite."""
    if k.autotuned:
        raise RewriteRefused(f"{k.name} is wrapped in @triton.autotune, which sets its {what}")
    if not k.heuristics:
        return
    if k.facts.heuristics_unread:
        raise RewriteRefused(f"{k.name} is wrapped in @triton.heuristics whose keys are not a literal dict")
    clash = sorted(k.facts.heuristics & (k.facts.blocks | set(sets)))
    if clash:
        raise RewriteRefused(f"{k.name}: its @triton.heuristics sets {', '.join(clash)}, which the rewrite "
                             f"would choose ({what})")


def check_block_uses(mod: Module, k: Kernel, block: str, allowed: Iterable[ast.AST], what: str) -> None:
    """Refuses when block constexpr ``block`` is used as a value: the rewrite changes it, so
    it may only size blocks (``tl.arange(0, B)``, the shape of ``tl.zeros``/``tl.full``) or
    appear where the rewrite accounts for it (``allowed`` nodes)."""
    ok = {id(n) for n in allowed}
    for n in ast.walk(k.node):
        if not (isinstance(n, ast.Name) and n.id == block and isinstance(n.ctx, ast.Load)) or id(n) in ok:
            continue
        up = mod.parents.get(n)
        if mod.tl_func(up) == "arange":
            continue
        if isinstance(up, (ast.List, ast.Tuple)) and mod.tl_func(mod.parents.get(up)) in ("zeros", "full"):
            continue
        raise RewriteRefused(f"{k.name} line {n.lineno}: uses {block} as a value (`{ast.unparse(up or n)}`); "
                             f"{what} changes it, so the result would change")
