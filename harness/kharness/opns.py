"""Custom-operator namespaces of user modules, kept apart per module.

A kernel module may register its function as a PyTorch operator, the way PyTorch recommends
for a Triton kernel torch.compile should trace (`@torch.library.triton_op("mylib::rms", ...)`
with `wrap_triton(kernel)[grid](...)` inside), or with `custom_op`, `torch.library.define`
or a `Library("mylib", "DEF")`. The operator registry is global to the process, and the
harness imports the initial kernel and every candidate (each a variant of the same module)
into one process: each import registers "mylib::rms" again, and PyTorch then dispatches every
module's `rms(...)`, the initial kernel's included, to the implementation registered last.
Checking or timing one candidate would silently run another's kernel.

So a user module is imported from a copy of its syntax tree in which every operator
namespace the module itself defines is renamed for that module (`mylib` -> `mylib__koptns_<tag>`,
the tag naming the module): the string literals that name its operators ("mylib::rms",
"mylib::rms.default", Library("mylib", ...)) and the `torch.ops.mylib` attribute paths that
call them. Namespaces the module only uses (`torch.ops.aten`) are left alone. Only the
imported code changes: the source kopt proposes and returns is the user's, unchanged; edits
replace tokens in place, so line numbers in tracebacks stay the user's.

A namespace built at run time (an f-string, a variable) is not seen and is not isolated:
`isolation_gaps` names such registrations so the import can refuse the module with a reason
instead of measuring the wrong kernel.
"""
from __future__ import annotations

import ast
import importlib.machinery
import re
from types import CodeType
from typing import Any

from .srcedit import Edit, LineIndex, apply_edits

# Callables whose first argument is a qualified operator name "ns::op" that they define.
DEFINING_CALLS = frozenset({"custom_op", "triton_op", "define"})
# torch.library.Library(ns, kind): the namespace is its first argument.
LIBRARY_CALLS = frozenset({"Library", "_scoped_library"})
# Every torch.library entry point that takes an operator name (defining or not); a call of
# one of them with a name that is not a literal cannot be isolated.
NAMED_CALLS = DEFINING_CALLS | LIBRARY_CALLS | frozenset(
    {"impl", "register_fake", "register_kernel", "register_autograd", "register_torch_dispatch",
     "register_vmap", "impl_abstract"})
QUALNAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_]*)(\.[A-Za-z0-9_]+)?$")
TAG_CHARS = re.compile(r"[^A-Za-z0-9_]")
# Between a namespace and its module's tag: marks an operator as registered by a user module
# (is_own_operator). A user's own namespace containing it is renamed like any other.
MARK = "__koptns_"
_installed = {"wrap_triton": False}


def _callee(call: ast.Call) -> str | None:
    f = call.func
    if isinstance(f, ast.Name):
        return f.id
    if isinstance(f, ast.Attribute):
        return f.attr
    return None


def _first_arg(call: ast.Call, keyword: str) -> ast.expr | None:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == keyword), None)


def _str(node: ast.expr | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def defined_namespaces(tree: ast.Module) -> set[str]:
    """The operator namespaces `tree` defines: "ns" of custom_op/triton_op/define("ns::op")
    and of Library("ns", ...) (any kind: a FRAGMENT or IMPL of the module's own namespace is
    registered in this module too)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = _callee(node)
        if name in DEFINING_CALLS:
            m = QUALNAME.match(_str(_name_arg(node)) or "")
            if m:
                out.add(m.group(1))
        elif name in LIBRARY_CALLS:
            ns = _str(_first_arg(node, "ns"))
            if ns and ns.isidentifier():
                out.add(ns)
    return out


def _name_arg(call: ast.Call) -> ast.expr | None:
    return _first_arg(call, "ns") if _callee(call) in LIBRARY_CALLS else (
        _first_arg(call, "name") or _first_arg(call, "qualname") or _first_arg(call, "op"))


def operator_decorated(decorator: ast.expr) -> str | None:
    """ "ns::op" when `decorator` registers the function it decorates as that operator
    (`@custom_op("ns::op", ...)`, `@torch.library.triton_op("ns::op", ...)`), else None."""
    if not (isinstance(decorator, ast.Call) and _callee(decorator) in ("custom_op", "triton_op")):
        return None
    name = _str(_name_arg(decorator))
    return name if name is not None and QUALNAME.match(name) else None


def isolation_gaps(tree: ast.Module) -> list[str]:
    """Registrations whose operator name is computed, so `isolate` cannot see it: 'line N:
    call(...) ...'. A defining call (custom_op, triton_op, define, Library) must name its
    operator with a string literal; the others may also pass the operator object itself
    (`register_fake(my_op)`), which names the module's own, isolated operator."""
    gaps = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and _callee(node) in NAMED_CALLS):
            continue
        arg = _name_arg(node)
        if arg is None or _str(arg) is not None:
            continue
        defining = _callee(node) in DEFINING_CALLS | LIBRARY_CALLS
        if defining or isinstance(arg, (ast.JoinedStr, ast.BinOp)):
            gaps.append(f"line {node.lineno}: {_callee(node)}(...) names its operator with an expression, "
                        "not a string literal")
    return gaps


def _renamed_literal(text: str, spaces: set[str], tag: str) -> str | None:
    """ "ns::op[.overload]" with ns one of `spaces`, renamed; None for any other string."""
    m = QUALNAME.match(text)
    if m and m.group(1) in spaces:
        return f"{m.group(1)}{MARK}{tag}::{text[len(m.group(1)) + 2:]}"
    return None


def isolate(source: str, tag: str) -> str:
    """`source` with every operator namespace it defines renamed to `<ns>_<tag>` (literals
    naming its operators, Library(ns) and torch.ops.ns paths); unchanged when it defines none.
    Raises SyntaxError as compile() would."""
    tree = ast.parse(source)
    spaces = defined_namespaces(tree)
    if not spaces:
        return source
    tag = TAG_CHARS.sub("_", tag)
    index = LineIndex(source)
    edits: list[Edit] = []
    library_ns = {id(a) for n in ast.walk(tree) if isinstance(n, ast.Call) and _callee(n) in LIBRARY_CALLS
                  for a in [_first_arg(n, "ns")] if _str(a) in spaces}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            new = f"{node.value}{MARK}{tag}" if id(node) in library_ns else _renamed_literal(node.value, spaces, tag)
            if new is not None:
                a, b = index.span(node)
                edits.append(Edit(a, b, repr(new)))
        elif (isinstance(node, ast.Attribute) and node.attr in spaces and isinstance(node.value, ast.Attribute)
              and node.value.attr == "ops" and node.end_lineno is not None and node.end_col_offset is not None):
            # torch.ops.ns: the namespace is the last token of the attribute path
            end = index.offset(node.end_lineno, node.end_col_offset)
            edits.append(Edit(end - len(node.attr), end, f"{node.attr}{MARK}{tag}"))
    return apply_edits(source, edits) if edits else source


class IsolatingLoader(importlib.machinery.SourceFileLoader):
    """Imports a user file with its operator namespaces isolated (see the module's doc). No
    bytecode is cached: the code run is compiled from the isolated source each import, under
    the file's own name so tracebacks point at the user's file and lines."""

    def get_code(self, fullname: str) -> CodeType:
        with open(self.path, encoding="utf-8") as f:
            src = f.read()
        return compile(isolate(src, fullname), self.path, "exec", dont_inherit=True)


def is_own_operator(name: str) -> bool:
    """Whether `name` (torch.overrides.resolve_name of an operator: "ns.op.overload", or
    "torch.ops.ns.op...") is an operator a user module registered, isolated by `isolate`."""
    parts = name.split(".")
    if parts[:2] == ["torch", "ops"]:
        parts = parts[2:]
    return len(parts) > 1 and MARK in parts[0]


def own_implementation(func: Any, args: tuple[Any, ...]) -> Any:
    """The Python function an own operator (`is_own_operator`) runs for `args`: the function
    given to custom_op/triton_op, or the kernel it registered for the arguments' device type.
    None for an operator defined otherwise (torch.library.Library: its implementations sit in
    the dispatcher, out of reach) or when torch's layout of custom operators is not the one
    known here (torch._library.custom_ops.OPDEFS of torch 2.11)."""
    import torch
    from torch._library import custom_ops
    # an OpOverload (torch.ops.ns.op.default) has a schema, a packet (torch.ops.ns.op) its name
    qualname = getattr(getattr(func, "_schema", None), "name", None) or getattr(func, "_qualified_op_name", "")
    opdef = custom_ops.OPDEFS.get(qualname)
    if opdef is None:
        return None
    device = next((a.device.type for a in args if isinstance(a, torch.Tensor)), None)
    backend_fns = getattr(opdef, "_backend_fns", {})
    return backend_fns.get(device) if device in backend_fns else getattr(opdef, "_init_fn", None)


def install_interpreter_wrap_triton() -> None:
    """Under the Triton interpreter (TRITON_INTERPRET=1) `triton.jit` makes an
    InterpretedFunction, which torch.library.wrap_triton refuses ("only works on functions
    annotated with triton.jit"), so a module launching through wrap_triton could not run
    there at all. Outside a torch.compile trace wrap_triton(k)[grid](...) is k[grid](...)
    (torch returns the kernel itself when wrapping is disabled), and the interpreter is never
    traced: wrap_triton here returns an InterpretedFunction as it is and hands everything else
    to torch's own. Installed once, before any user module is imported (a module's
    `from torch.library import wrap_triton` binds the function then)."""
    import torch.library
    from torch._library import triton as torch_triton
    from triton.runtime.interpreter import InterpretedFunction

    orig = torch_triton.wrap_triton
    if _installed["wrap_triton"]:
        return

    def wrap_triton(triton_kernel: Any, /) -> Any:
        if isinstance(triton_kernel, InterpretedFunction):
            return triton_kernel
        return orig(triton_kernel)

    wrap_triton.__doc__ = orig.__doc__
    _installed["wrap_triton"] = True
    torch_triton.wrap_triton = wrap_triton
    torch.library.wrap_triton = wrap_triton
