"""Small syntactic patterns that several structural rewrites recognise in a kernel: a vector
broadcast by indexing with ``None`` and ``:``, a block's ``tl.arange(0, B)``, a loop's column
vector ``v + tl.arange(0, B)``, and the text that replaces an expression so that it stays
grouped; the tensor parameters a kernel gets and those it writes through. Split from common.py, which holds the Module and the checks every rewrite runs."""
from __future__ import annotations

import ast
from collections.abc import Callable

from .common import (
    STORE_TL,
    Kernel,
    Module,
    call_arg,
    calls,
    derived,
    int_const,
    names_in,
)


def strip_broadcast(e: ast.expr) -> ast.expr:
    """``C[:, None]``, ``C[None, :]``, ``C[None]`` (any depth of such indexes) -> C; any other
    expression is returned as it is."""
    while isinstance(e, ast.Subscript):
        parts = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        if not all((isinstance(p, ast.Constant) and p.value is None) or
                   (isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None)
                   for p in parts):
            break
        e = e.value
    return e


def is_arange(mod: Module, e: ast.AST, block: str, aranges: dict[str, str] | None = None) -> bool:
    """e is ``tl.arange(0, block)``, or a name that ``aranges`` (name -> its block, for names
    the kernel binds once to such a range) gives that block."""
    if isinstance(e, ast.Name):
        return (aranges or {}).get(e.id) == block
    return (isinstance(e, ast.Call) and mod.tl_func(e) == "arange" and len(e.args) == 2 and not e.keywords
            and int_const(e.args[0]) == 0 and isinstance(e.args[1], ast.Name) and e.args[1].id == block)


def is_columns(mod: Module, e: ast.AST, var: str, block: str, aranges: dict[str, str] | None = None) -> bool:
    """e is a loop's column vector, ``var + A`` or ``A + var``, A the block's arange."""
    if not (isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add)):
        return False
    return any(isinstance(v, ast.Name) and v.id == var and is_arange(mod, a, block, aranges)
               for v, a in ((e.left, e.right), (e.right, e.left)))


def grouped(mod: Module, node: ast.AST, text: str) -> str:
    """``text`` as the replacement of ``node``, parenthesised unless node is written right
    inside a pair of parentheses: node's text is balanced, so the two characters around it
    match each other and that pair groups the replacement (``~(c < N)`` -> ``~(text)``)."""
    a, b = mod.index.span(node)
    if mod.source[a - 1:a] == "(" and mod.source[b:b + 1] == ")":
        return text
    return f"({text})"


def tensor_params(mod: Module, k: Kernel) -> set[str]:
    """The parameters the recorded launch passed a tensor to."""
    return {p for p, d in mod.recorded_values(k.name).items() if d.get("kind") == "tensor"}


def stored_params(mod: Module, k: Kernel) -> set[str]:
    """The tensor parameters whose memory the kernel may write: those the pointer of some store
    or atomic is computed from (through any binding, common.derived); a pointer that cannot be
    read counts as every tensor."""
    tensors = tensor_params(mod, k)
    ptrs = [call_arg(c, 0, "pointer") for c in calls(k.node) if mod.tl_func(c) in STORE_TL]
    if any(p is None for p in ptrs):
        return tensors
    used = set().union(*(names_in(p) for p in ptrs if p is not None))

    def from_param(t: str) -> Callable[[ast.AST, set[str]], bool]:
        return lambda node, so_far: bool(names_in(node) & (so_far | {t}))

    return {t for t in tensors if t in used or used & derived(k, from_param(t))}
