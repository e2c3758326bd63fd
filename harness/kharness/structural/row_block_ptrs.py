"""Block pointers in a row kernel's loops, for row_single_block: which names hold a 1-D block
pointer over the row, and whether widening the row loop's block to cover the row keeps every
access the loop made, and no other.

A row walked through a block pointer::

    x_blk = tl.make_block_ptr(base=x_ptr + row * stride, shape=(N,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK,), order=(0,))
    for _ in range(0, N, BLOCK):
        x = tl.load(x_blk, boundary_check=(0,), padding_option="zero")
        ...
        x_blk = tl.advance(x_blk, (BLOCK,))

Accepted when every block pointer a row loop loads or stores through is bound to a name only
by ``tl.make_block_ptr`` with ``shape=(N,)`` (the loop's own bound), ``offsets=(0,)`` and
``block_shape=(BLOCK,)`` (the loop's own step), and by ``p = tl.advance(p, (BLOCK,))`` inside
a row loop at the kernel's top level, p not read after that loop before a new
``tl.make_block_ptr`` rebinds it; or made inside the row loop at the loop's own offset
(``offsets=(off,)`` for ``for off in range(0, N, BLOCK)``), never advanced, and not read after
the loop before a new binding; and every such access has ``boundary_check`` on axis 0.

Why widening is then correct: the pointer starts at 0 and moves by BLOCK per pass, so the
loop's passes cover ``[0, ceil(N / BLOCK) * BLOCK)`` clipped to the shape ``[0, N)``: the whole
row, lanes past it read as padding and never written (a pointer made at each pass's offset
covers the same); one block of ``next_power_of_2(N) >= N`` from 0 covers the same row, clipped
the same way. The advance after the single pass moves a
pointer nobody reads again (it is dropped as unread)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..srcedit import RewriteRefused
from .common import Kernel, Module, call_arg, int_const, names_in

# tl.make_block_ptr(base, shape, strides, offsets, block_shape, order)
MAKE_ARGS = {"shape": 1, "offsets": 3, "block_shape": 4}
ACCESS_TL = ("load", "store")


@dataclass
class RowBlockPtrs:
    names: set[str] = field(default_factory=set)        # names holding a row's block pointer
    sizing: list[ast.AST] = field(default_factory=list)  # the block's uses they account for


def _one(node: ast.expr | None) -> ast.expr | None:
    """The element of a one-element tuple or list, else None."""
    if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 1:
        return node.elts[0]
    return None


def is_block_ptr_access(mod: Module, c: ast.Call, names: set[str]) -> bool:
    """c is a tl.load or tl.store through a pointer named in names."""
    ptr = call_arg(c, 0, "pointer")
    return mod.tl_func(c) in ACCESS_TL and isinstance(ptr, ast.Name) and ptr.id in names


def bounds_checked(mod: Module, c: ast.Call) -> bool:
    """A block pointer access checks axis 0 against the pointer's shape."""
    check = call_arg(c, 3, "boundary_check")
    return isinstance(check, (ast.Tuple, ast.List)) and any(int_const(e) == 0 for e in check.elts)


def _bindings(k: Kernel, name: str) -> list[ast.Name]:
    """Every name node of the kernel that binds name."""
    return [n for n in ast.walk(k.node) if isinstance(n, ast.Name) and n.id == name
            and isinstance(n.ctx, ast.Store)]


def _enclosing(loops: list[ast.For], stmt: ast.stmt) -> ast.For | None:
    return next((lp for lp in loops if any(n is stmt for n in ast.walk(lp))), None)


def _check_left(k: Kernel, name: str, loop: ast.For | None, where: str, how: str) -> None:
    """name, bound in the row loop (how), is not read after it before a new binding."""
    if loop is None or loop not in k.node.body:
        raise RewriteRefused(f"{where}: {name} is {how} outside a row loop at the kernel's top level")
    for later in k.node.body[k.node.body.index(loop) + 1:]:
        if isinstance(later, ast.Assign) and len(later.targets) == 1 and isinstance(later.targets[0], ast.Name) \
                and later.targets[0].id == name and name not in names_in(later.value):
            break
        if name in names_in(later):
            raise RewriteRefused(f"{k.name} line {later.lineno}: reads {name} where the row loop (line "
                                 f"{loop.lineno}) left it; one wider block would leave it elsewhere")


def _check_make(mod: Module, k: Kernel, stmt: ast.Assign, name: str, n_param: str, block: str,
                loops: list[ast.For], out: RowBlockPtrs) -> ast.For | None:
    """Checks one tl.make_block_ptr binding of name; the row loop when it is made inside one at
    the loop's own offset (``offsets=(off,)``: that loop must not also advance it), else None."""
    c = stmt.value
    assert isinstance(c, ast.Call)
    where = f"{k.name} line {c.lineno}"
    shape, offsets, bshape = (_one(call_arg(c, pos, key)) for key, pos in MAKE_ARGS.items())
    if not (isinstance(shape, ast.Name) and shape.id == n_param):
        raise RewriteRefused(f"{where}: a block pointer the row loop walks has a shape other than ({n_param},)")
    loop = _enclosing(loops, stmt)
    at_loop = loop is not None and isinstance(loop.target, ast.Name) and isinstance(offsets, ast.Name) \
        and offsets.id == loop.target.id
    if at_loop:
        _check_left(k, name, loop, where, "made at the loop's offset")
    elif int_const(offsets) != 0:
        raise RewriteRefused(f"{where}: a block pointer the row loop walks starts neither at offsets=(0,) nor at "
                             "its loop's offset")
    if not (isinstance(bshape, ast.Name) and bshape.id == block):
        raise RewriteRefused(f"{where}: a block pointer the row loop walks has a block_shape other than ({block},)")
    out.sizing.append(bshape)
    return loop if at_loop else None


def _check_advance(k: Kernel, stmt: ast.Assign, name: str, block: str, loops: list[ast.For],
                   out: RowBlockPtrs) -> ast.For | None:
    """Checks one ``tl.advance`` binding of name; the row loop it is in."""
    c = stmt.value
    assert isinstance(c, ast.Call)
    where = f"{k.name} line {stmt.lineno}"
    src, step = (c.args + [None, None])[:2] if not c.keywords else (None, None)
    by = _one(step) if isinstance(step, ast.expr) else None
    if not (isinstance(src, ast.Name) and src.id == name and isinstance(by, ast.Name) and by.id == block):
        raise RewriteRefused(f"{where}: {name} is advanced by other than `tl.advance({name}, ({block},))`")
    loop = _enclosing(loops, stmt)
    _check_left(k, name, loop, where, "advanced")
    out.sizing.append(by)
    return loop


def check_row_block_ptrs(mod: Module, k: Kernel, loops: list[ast.For], n_param: str, block: str) -> RowBlockPtrs:
    """The block pointers the row loops access, checked as the module's docstring says."""
    out = RowBlockPtrs()
    for loop in loops:
        for c in ast.walk(loop):
            if not (isinstance(c, ast.Call) and mod.tl_func(c) in ACCESS_TL):
                continue
            ptr = call_arg(c, 0, "pointer")
            if isinstance(ptr, ast.Call) and mod.tl_func(ptr) in ("make_block_ptr", "advance"):
                raise RewriteRefused(f"{k.name} line {c.lineno}: a block pointer made inside the access; "
                                     "bind it to a name")
            if isinstance(ptr, ast.Name) and any(isinstance(st := mod.parents.get(n), ast.Assign) and
                                                 mod.tl_func(st.value) == "make_block_ptr"
                                                 for n in _bindings(k, ptr.id)):
                out.names.add(ptr.id)
    for name in sorted(out.names):
        made_at: list[ast.For | None] = []
        advanced: list[ast.For | None] = []
        for node in _bindings(k, name):
            stmt = mod.parents.get(node)
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and stmt.targets[0] is node):
                raise RewriteRefused(f"{k.name} line {node.lineno}: block pointer {name} is bound by other "
                                     "than `=`")
            f = mod.tl_func(stmt.value)
            if f == "make_block_ptr":
                made_at.append(_check_make(mod, k, stmt, name, n_param, block, loops, out))
            elif f == "advance":
                advanced.append(_check_advance(k, stmt, name, block, loops, out))
            else:
                raise RewriteRefused(f"{k.name} line {stmt.lineno}: block pointer {name} is bound to other "
                                     "than tl.make_block_ptr or tl.advance")
        both = [lp for lp in made_at if lp is not None and any(lp is a for a in advanced)]
        if both:
            raise RewriteRefused(f"{k.name} line {both[0].lineno}: the row loop both makes block pointer {name} "
                                 "at its offset and advances it")
    return out

