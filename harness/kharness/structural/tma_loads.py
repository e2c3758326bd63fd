"""tma_loads: the tile loads of a tile kernel (``tl.dot``) go through tensor descriptors
(``tl.make_tensor_descriptor``, the Tensor Memory Accelerator on Hopper-class CUDA parts)
instead of a tensor of pointers.

Precondition: the kernel calls ``tl.dot``; inside a ``for`` loop it has a statement
``x = tl.load(ADDR, mask=MASK, other=0)`` (``other`` 0, 0.0 or absent, no other keyword)
where ADDR is ``P + R[:, None] * S0 + C[None, :] * S1`` in any order, a stride written as
nothing (1) or a name or integer, P a tensor parameter (or a name bound once to one plus
scalars), possibly plus scalar offsets (``base``: a batch's or a head's matrix) made of
parameters and names bound once at the kernel's top level, and R and C index vectors
``start + tl.arange(0, B)`` (directly, or through names the kernel binds once at its top
level; ``tl.multiple_of``/``tl.max_contiguous`` are looked through), B a constexpr; MASK is
``(R[:, None] < D0) & (C[None, :] < D1)`` with the same R and C (either order), which gives
the extent of each axis, or bounds one axis only when the other is a whole
``tl.arange(0, B)`` (no start: its extent is B, as attention's head dimension). One of the two
strides is 1: written so, or a parameter that was 1 on the recorded launch. The recorded
launch passed P 16-byte aligned and the other stride (and any offset) a multiple of 16 bytes
(what the hardware requires of a descriptor). P's pointer parameter is not one the kernel
already reads through a descriptor (such a load is the path tile_grid's TMA=1, or this rewrite,
keeps for a non-unit stride). The module imports torch and triton. The names
the starts read are parameters, the loop's own variables or names bound once at the top level
of the kernel or of the loop.

In a kernel whose body is a persistent loop over its tiles (``for t in range(tl.program_id(0),
n, tl.num_programs(0))``, tile_grid's PERSISTENT=1), that loop's body counts as the top level
(a name bound once there is fixed for a tile), and a descriptor that reads only parameters,
constexprs and names bound before the loop is made before it: once per program, not per tile.
A base that moves with the tile only by one offset ``b * S_b`` (a batch's matrix: S_b known
before the loop, 16-byte aligned on the recorded launch) whose index is bounded by the loop
itself, ``b = t // D`` (or ``tl.cast`` of it) with the loop's stop written ``D * E``, becomes a
leading axis instead: one 3-D descriptor ``(E, D0, D1)`` with strides ``(S_b, S0, 1)`` and block
``(1, B0, B1)``, made before the loop, loaded at ``[b, start0, start1]`` and reshaped to the
tile (0 <= t < D * E gives 0 <= b < E, so the leading axis never clips). Descriptors made per
tile cost a persistent batched matmul 1.3-2.0% of its time on the H200 (bench/gpu/bmm_probe.py,
bench/results/h200-current-tree-2026-12-06); tile_grid's folded batch loop is that form.

The rewrite: before the loop,
``P_desc = tl.make_tensor_descriptor(P, shape=[D0, D1], strides=[S0, 1], block_shape=[B0,
B1])`` (the axes in the other order, and the loaded tile transposed with ``tl.trans``, when
R is the contiguous axis); the load becomes ``x = P_desc.load([start0, start1])``. Where the
unit stride is a parameter, the load becomes ``if S == 1: x = P_desc.load(...)`` ``else:`` the
original load (the descriptor's base is P plus the scalar offsets): Triton specializes an
integer argument equal to 1 into a constant, so the compiled kernel keeps only the branch its
launch needs, and other strides still take the original path. The module gets an allocator
for the descriptors' scratch memory (``triton.set_allocator``, torch memory on the CUDA
device; the interpreter does not call it).

Why it is correct: the descriptor addresses element (i, j) of the block at [s0, s1] as
P + (s0 + i) * S0 + (s1 + j) * 1, the original tile's address, and fills the positions with
s0 + i >= D0 or s1 + j >= D1 with zeros, which is what the mask and ``other=0`` did (without
``other`` the original left them undefined). The 3-D form addresses (0, i, j) of the block at
[b, s0, s1] as P + b * S_b + (s0 + i) * S0 + (s1 + j), the same address, b within its extent."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    DTYPE_BYTES,
    Defs,
    Fit,
    Kernel,
    Module,
    Plan,
    assigned_names,
    body_after_docstring,
    call_arg,
    calls,
    check_params,
    int_const,
    names_in,
    option_domain,
    option_edits,
    pick,
    program_id_axis,
    survey_one,
)

NAME = "tma_loads"
DEFAULTS: dict[str, Any] = {"kernel": ""}
# The pipeline depth and warps are swept with the rewrite: loads through descriptors are
# asynchronous copies into shared memory, so the best depth moves (the launch's own values are
# the defaults and always in the domain; Triton's, knobs.OPTION_DEFAULTS, when it sets none).
OPTION_DOMAIN = {"num_warps": [4, 8], "num_stages": [2, 3, 4, 5]}
TMA_ALIGN_BYTES = 16        # descriptor base and every stride but the last, in bytes
WRAPPERS = ("multiple_of", "max_contiguous")


@dataclass
class Axis:
    stride: str              # the index's stride's text ("1" when written as nothing)
    start: str               # the text of the vector's first element
    block: str               # its length: a constexpr name or an integer
    extent: str = ""         # the mask's bound


@dataclass
class BatchAxis:
    """A per-tile offset ``index * stride`` of a load's base that becomes the descriptor's leading
    axis (module docstring): index < extent by the tile loop's own bounds."""
    index: str               # the tile's batch index as written (a name bound in the tile loop)
    stride: str
    extent: str
    base: str                # the pointer parameter plus the base's offsets known before the loop


@dataclass
class TileLoad:
    stmt: ast.Assign
    loop: ast.For
    ptr: str                 # the descriptor's base as written: a parameter or a name bound to one,
                             # plus the address's own scalar offsets ("k_ptr + base")
    tensor: str              # the pointer parameter under it
    offsets: list[ast.expr]  # what the name adds to the parameter (scalars)
    rows: Axis
    cols: Axis
    unit_param: str | None   # the unit stride when it is a parameter (the load keeps a fallback)
    batch: BatchAxis | None = None   # set when the descriptor is 3-D, made before the tile loop

    @property
    def transposed(self) -> bool:
        """True when R is the contiguous axis: the descriptor's axes are (C, R)."""
        return self.rows.stride == "1" or self.rows.stride == self.unit_param


@dataclass
class TmaPlan(Plan):
    loads: list[TileLoad] = field(default_factory=list)
    tile_loop: ast.For | None = None     # the persistent loop over the tiles, when the kernel has one


def _tile_loop(mod: Module, k: Kernel) -> ast.For | None:
    """The kernel's persistent loop over its tiles (tile_grid's PERSISTENT=1, persistent_grid):
    a top-level ``for t in range(tl.program_id(0), n, tl.num_programs(0))``; None when there is
    none. Its body is the per-tile top level: names bound once there are fixed for a tile."""
    for s in body_after_docstring(k):
        if not (isinstance(s, ast.For) and isinstance(s.iter, ast.Call) and isinstance(s.iter.func, ast.Name)
                and s.iter.func.id == "range" and len(s.iter.args) == 3 and not s.iter.keywords):
            continue
        first, _, step = s.iter.args
        if isinstance(first, ast.Call) and program_id_axis(mod, first) == 0 \
                and isinstance(step, ast.Call) and mod.tl_func(step) == "num_programs":
            return s
    return None


def _unwrap(mod: Module, e: ast.expr) -> ast.expr:
    while isinstance(e, ast.Call) and mod.tl_func(e) in WRAPPERS and e.args:
        e = e.args[0]
    return e


def _vector(mod: Module, e: ast.expr, defs: Defs, depth: int = 0) -> tuple[str | None, str] | None:
    """(start text or None for 0, block) when e is ``start + tl.arange(0, B)``; None when it
    is no index vector (a scalar)."""
    e = _unwrap(mod, e)
    if depth > 8:
        return None
    if isinstance(e, ast.Call) and mod.tl_func(e) == "arange":
        lo, hi = call_arg(e, 0, "start"), call_arg(e, 1, "end")
        if int_const(lo) != 0 or hi is None:
            raise RewriteRefused(f"line {e.lineno}: `{mod.text(e)}` does not start at 0")
        return None, mod.text(hi)
    if isinstance(e, ast.Name) and e.id in defs.stmt:
        return _vector(mod, defs.stmt[e.id].value, defs, depth + 1)
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
        for vec, other in ((e.left, e.right), (e.right, e.left)):
            v = _vector(mod, vec, defs, depth + 1)
            if v is not None and _vector(mod, other, defs, depth + 1) is None:
                if any(mod.tl_func(c) == "arange" for c in calls(other)):
                    raise RewriteRefused(f"line {e.lineno}: `{mod.text(e)}` adds two index vectors")
                o = mod.text(other)
                return (o if v[0] is None else f"({o}) + ({v[0]})"), v[1]
    return None


def _terms(e: ast.expr) -> list[ast.expr]:
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
        return _terms(e.left) + _terms(e.right)
    return [e]


def _broadcast(sub: ast.expr) -> tuple[int, ast.expr] | None:
    """(0, X) for ``X[:, None]``, (1, X) for ``X[None, :]``."""
    if not (isinstance(sub, ast.Subscript) and isinstance(sub.slice, ast.Tuple) and len(sub.slice.elts) == 2):
        return None
    a, b = sub.slice.elts
    is_all = (lambda n: isinstance(n, ast.Slice) and n.lower is None and n.upper is None and n.step is None)
    is_none = (lambda n: isinstance(n, ast.Constant) and n.value is None)
    if is_all(a) and is_none(b):
        return 0, sub.value
    if is_none(a) and is_all(b):
        return 1, sub.value
    return None


def _axis_expr(mod: Module, e: ast.expr, defs: Defs) -> tuple[int, str, str] | None:
    """(axis, start text, block) when e is an index vector broadcast along one axis, plus
    scalars: ``X[:, None]``, ``(k + X)[None, :]``, ``k + X[None, :]``."""
    b = _broadcast(e)
    if b is not None:
        v = _vector(mod, b[1], defs)
        return None if v is None else (b[0], v[0] or "0", v[1])
    if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
        for vec, other in ((e.left, e.right), (e.right, e.left)):
            a = _axis_expr(mod, vec, defs)
            if a is not None and _broadcast(other) is None and _axis_expr(mod, other, defs) is None \
                    and not any(mod.tl_func(c) == "arange" for c in calls(other)):
                o = mod.text(other)
                return a[0], (o if a[1] == "0" else f"({o}) + ({a[1]})"), a[2]
    return None


def _stride_text(mod: Module, k: Kernel, node: ast.expr) -> str:
    if int_const(node) is not None or (isinstance(node, ast.Name) and node.id in k.params):
        return mod.text(node)
    raise RewriteRefused(f"line {node.lineno}: stride `{mod.text(node)}` is neither a parameter nor an integer")


def _base(mod: Module, k: Kernel, node: ast.expr, defs: Defs) -> tuple[str, list[ast.expr]] | None:
    """(pointer parameter, scalar offsets) when node is one, or a name the kernel binds once at
    its top level to ``parameter + scalar ...`` (a batch's matrix, say)."""
    if not isinstance(node, ast.Name):
        return None
    if node.id in k.params:
        return node.id, []
    st = defs.stmt.get(node.id)
    if st is None:
        return None
    terms = _terms(st.value)
    params = [t for t in terms if isinstance(t, ast.Name) and t.id in k.params
              and mod.recorded_values(k.name).get(t.id, {}).get("kind") == "tensor"]
    if len(params) != 1:
        return None
    rest = [t for t in terms if t is not params[0]]
    if any(_vector(mod, t, defs) is not None or any(mod.tl_func(c) == "arange" for c in calls(t)) for t in rest):
        return None
    assert isinstance(params[0], ast.Name)
    return params[0].id, rest


def _scalar_offset(mod: Module, k: Kernel, t: ast.expr, defs: Defs) -> bool:
    """Whether address term t is a scalar the descriptor's base can take before the loop: no
    call, subscript or index vector, only parameters and names bound once at the top."""
    if any(isinstance(sub, (ast.Call, ast.Subscript)) for sub in ast.walk(t)):
        return False
    names = names_in(t)
    if any(n not in k.params and n not in defs.stmt for n in names):
        return False
    if any(mod.recorded_values(k.name).get(n, {}).get("kind") == "tensor" for n in names):
        return False
    return all(_vector(mod, defs.stmt[n].value, defs) is None and
               not any(mod.tl_func(c) == "arange" for c in calls(defs.stmt[n].value))
               for n in names if n in defs.stmt)


def _address(mod: Module, k: Kernel, addr: ast.expr, defs: Defs,
             vdefs: Defs) -> tuple[str, str, list[ast.expr], list[Axis]]:
    ptr: str | None = None
    tensor, offsets = "", list[ast.expr]()
    inline: list[ast.expr] = []
    axes: dict[int, Axis] = {}
    for t in _terms(addr):
        b = _base(mod, k, t, defs) if ptr is None else None
        if b is not None:
            assert isinstance(t, ast.Name)
            ptr, (tensor, offsets) = t.id, b
            continue
        stride, ax = "1", _axis_expr(mod, t, vdefs)
        if ax is None and _scalar_offset(mod, k, t, defs):
            inline.append(t)
            continue
        if ax is None and isinstance(t, ast.BinOp) and isinstance(t.op, ast.Mult):
            for s_node, o in ((t.right, t.left), (t.left, t.right)):
                ax = _axis_expr(mod, o, vdefs)
                if ax is not None:
                    stride = _stride_text(mod, k, s_node)
                    break
        if ax is None or ax[0] in axes:
            raise RewriteRefused(f"line {addr.lineno}: address `{mod.text(addr)}` is not pointer + R[:, None] * S0 + "
                                 "C[None, :] * S1 (R, C: start + tl.arange(0, B))")
        axes[ax[0]] = Axis(stride, ax[1], ax[2])
    if ptr is None or len(axes) != 2:
        raise RewriteRefused(f"line {addr.lineno}: address `{mod.text(addr)}` is not a pointer parameter plus a "
                             "row and a column index")
    if inline:
        ptr = " + ".join([ptr] + [f"({mod.text(t)})" if isinstance(t, ast.BinOp) else mod.text(t) for t in inline])
    return ptr, tensor, offsets + inline, [axes[0], axes[1]]


def _mask(mod: Module, mask: ast.expr | None, axes: list[Axis], defs: Defs, line: int) -> None:
    """Sets each axis's extent from ``(R[:, None] < D0) & (C[None, :] < D1)``, or from one such
    bound when the other axis is a whole ``tl.arange(0, B)`` (its extent B)."""
    if mask is None:
        raise RewriteRefused(f"line {line}: the load has no mask, so the extent of the tile's axes is unknown")
    if isinstance(mask, ast.BinOp) and isinstance(mask.op, ast.BitAnd):
        sides = [mask.left, mask.right]
    elif any(a.start == "0" for a in axes):
        sides = [mask]
    else:
        raise RewriteRefused(f"line {line}: mask `{mod.text(mask)}` is not (R[:, None] < D0) & (C[None, :] < D1)")
    for side in sides:
        ok = (isinstance(side, ast.Compare) and len(side.ops) == 1 and isinstance(side.ops[0], ast.Lt))
        ax = _axis_expr(mod, side.left, defs) if isinstance(side, ast.Compare) else None
        if not ok or ax is None or (ax[1], ax[2]) != (axes[ax[0]].start, axes[ax[0]].block) or axes[ax[0]].extent:
            raise RewriteRefused(f"line {line}: mask `{mod.text(mask)}` does not bound the address's own row and "
                                 "column indices, each once, with <")
        assert isinstance(side, ast.Compare)
        if any(mod.tl_func(c) == "arange" for c in calls(side.comparators[0])):
            raise RewriteRefused(f"line {line}: the bound `{mod.text(side.comparators[0])}` is not a scalar")
        axes[ax[0]].extent = mod.text(side.comparators[0])
    for a in axes:
        if not a.extent:
            if a.start != "0":
                raise RewriteRefused(f"line {line}: mask `{mod.text(mask)}` leaves the axis starting at {a.start} "
                                     "unbounded")
            a.extent = a.block


def _factors(node: ast.expr) -> list[ast.expr]:
    """The factors of a product (``a * b * c``: [a, b, c]); [node] otherwise."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _factors(node.left) + _factors(node.right)
    return [node]


def _aligned(mod: Module, k: Kernel, defs: Defs, text_or_node: str | ast.expr, esize: int, what: str) -> None:
    """Refuses unless the value is, on the recorded launch, a multiple of TMA_ALIGN_BYTES bytes:
    an integer, an integer parameter, or a product with such a factor."""
    node = ast.parse(text_or_node, mode="eval").body if isinstance(text_or_node, str) else text_or_node
    vals = mod.recorded_values(k.name)
    for _ in range(8):            # a name bound once stands for its value (`base = bh * S * D`)
        if not (isinstance(node, ast.Name) and node.id in defs.stmt):
            break
        node = defs.stmt[node.id].value
    factors = _factors(node)
    for f in factors:
        v = int_const(f)
        if v is None and isinstance(f, ast.Name) and (vals.get(f.id) or {}).get("kind") == "int":
            v = int(vals[f.id]["value"])
        if v is not None and (v * esize) % TMA_ALIGN_BYTES == 0:
            return
    raise RewriteRefused(f"{k.name}: {what} `{ast.unparse(node)}` (elements of {esize} bytes) is not known to be a "
                         f"multiple of {TMA_ALIGN_BYTES} bytes on the recorded launch (a descriptor needs it)")


def _check_recorded(mod: Module, k: Kernel, defs: Defs, t: TileLoad) -> None:
    p = mod.recorded_values(k.name).get(t.tensor) or {}
    if p.get("kind") != "tensor":
        raise RewriteRefused(f"{k.name}: {t.tensor} was not a tensor on the recorded launch")
    if not p.get("align16"):
        raise RewriteRefused(f"{k.name}: {t.tensor} was not 16-byte aligned on the recorded launch (a descriptor's "
                             "base must be)")
    esize = DTYPE_BYTES.get(str(p.get("dtype")), 0)
    if not esize:
        raise RewriteRefused(f"{k.name}: {t.tensor} has an element type of unknown size")
    _aligned(mod, k, defs, t.cols.stride if t.transposed else t.rows.stride, esize, "stride")
    for off in t.offsets:
        _aligned(mod, k, defs, off, esize, f"the offset {t.ptr} adds to {t.tensor}")


def _tile_load(mod: Module, k: Kernel, stmt: ast.Assign, loop: ast.For, defs: Defs, vdefs: Defs) -> TileLoad:
    """One tile load; defs: the kernel's names bound once, vdefs: those and the loop's (index
    vectors may be read through the loop's, never the descriptor's base or extents)."""
    call = stmt.value
    assert isinstance(call, ast.Call)
    line = call.lineno
    extra = [kw.arg for kw in call.keywords if kw.arg not in ("mask", "other")]
    if extra or len(call.args) > 1:
        raise RewriteRefused(f"line {line}: the load passes {extra or 'positional mask/other'}; only mask= and "
                             "other= are handled")
    other = call_arg(call, 2, "other")
    if other is not None and not (isinstance(other, ast.Constant) and other.value in (0, 0.0)
                                  and not isinstance(other.value, bool)):
        raise RewriteRefused(f"line {line}: other={mod.text(other)}; a descriptor fills with zeros")
    ptr, tensor, offsets, (rows, cols) = _address(mod, k, call.args[0], defs, vdefs)
    _mask(mod, call_arg(call, 1, "mask"), [rows, cols], vdefs, line)
    unit_param = None
    if "1" not in (rows.stride, cols.stride):
        vals = mod.recorded_values(k.name)
        unit_param = next((a.stride for a in (cols, rows) if a.stride in k.params
                           and (vals.get(a.stride) or {}).get("value") == 1), None)
        if unit_param is None:
            raise RewriteRefused(f"line {line}: neither stride ({rows.stride}, {cols.stride}) is 1 (written so or "
                                 "on the recorded launch); a descriptor's last axis must be contiguous")
    t = TileLoad(stmt, loop, ptr, tensor, offsets, rows, cols, unit_param)
    loop_vars = names_in(loop.target)
    for a in (rows, cols):
        for n in names_in(ast.parse(a.start, mode="eval").body):
            if n not in k.params and n not in vdefs.stmt and n not in loop_vars and n not in k.constexprs:
                raise RewriteRefused(f"line {line}: `{n}` (in the tile's start) is bound more than once "
                                     "or not at the top level of the kernel or the loop")
        for n in names_in(ast.parse(a.extent, mode="eval").body):
            if n in loop_vars or (n in vdefs.stmt and n not in defs.stmt):
                raise RewriteRefused(f"line {line}: the extent `{a.extent}` changes within the loop")
            if n not in k.params and n not in defs.stmt and n not in k.constexprs:
                raise RewriteRefused(f"line {line}: `{n}` (in the tile's extent) is bound more than once "
                                     "or not at the kernel's top level")
    _check_recorded(mod, k, defs, t)
    return t


def analyze(mod: Module, k: Kernel) -> TmaPlan:
    name = k.name
    if not any(mod.tl_func(c) == "dot" for c in calls(k.node)):
        raise RewriteRefused(f"{name} calls no tl.dot (a tile kernel's loads are what this rewrite changes)")
    for lib in ("torch", "triton"):
        if mod.alias_for(lib) is None:
            raise RewriteRefused(f"the module does not `import {lib}` (needed for the descriptors' allocator)")
    tile_loop = _tile_loop(mod, k)
    per_tile = tile_loop.body if tile_loop is not None else []
    defs = Defs(k, per_tile)
    loads: list[TileLoad] = []
    why_not: list[str] = []
    described = _described(mod, k)
    for loop in (n for n in ast.walk(k.node) if isinstance(n, ast.For) and n is not tile_loop):
        vdefs = Defs(k, [*per_tile, *loop.body])
        for s in ast.walk(loop):
            if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
                    and isinstance(s.value, ast.Call) and mod.tl_func(s.value) == "load"):
                continue
            if any(t.stmt is s for t in loads):
                continue                 # a nested loop's load, seen from the outer loop
            try:
                t = _tile_load(mod, k, s, loop, defs, vdefs)
            except RewriteRefused as e:
                why_not.append(str(e))
                continue
            if t.tensor in described:
                why_not.append(f"line {s.lineno}: {t.tensor} is loaded through a tensor descriptor already (line "
                               f"{described[t.tensor]}); this load is the path for another layout")
                continue
            loads.append(t)
    if not loads:
        raise RewriteRefused(f"{name}: no tile load in a loop fits: " + ("; ".join(why_not) if why_not else
                                                                          "no `x = tl.load(...)` in a for loop"))
    for t in loads:
        t.batch = _batch_axis(mod, k, tile_loop, t)
    names = ", ".join(f"{t.ptr} (line {t.stmt.lineno})" for t in loads)
    batched = [t.ptr for t in loads if t.batch]
    why = (f"{name}: the tile loads of {names} are pointer tensors whose masks bound their axes, with a "
           "contiguous axis: tensor descriptors (TMA) can load them" +
           (f" ({', '.join(batched)}: the tile's batch as a leading axis, one 3-D descriptor made before the "
            "tile loop)" if batched else ""))
    site = mod.one_site(name)
    options, domain = option_domain(mod, site, OPTION_DOMAIN)
    return TmaPlan(k, site, why, {**DEFAULTS, "kernel": name, **options}, domain, loads, tile_loop)


def _described(mod: Module, k: Kernel) -> dict[str, int]:
    """The pointer parameters the kernel already reads through a descriptor (``D =
    tl.make_tensor_descriptor(P + offsets, ...)``), with its line. P's pointer loads are then
    the path this rewrite and tile_grid's TMA=1 leave for a non-unit stride (``if S == 1: ...
    else: tl.load(...)``): describing them again changes nothing the compiled kernel runs (at
    the unit stride that path is compiled away)."""
    out: dict[str, int] = {}
    for n in ast.walk(k.node):
        if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and n.value.args
                and mod.tl_func(n.value) == "make_tensor_descriptor"):
            for name in names_in(n.value.args[0]) & set(k.params):
                out.setdefault(name, n.lineno)
    return out


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _allocator(mod: Module) -> Edit:
    """``triton.set_allocator`` after the module's last top-level import."""
    imports = [s for s in mod.tree.body if isinstance(s, (ast.Import, ast.ImportFrom))]
    torch, triton = mod.alias_for("torch"), mod.alias_for("triton")
    fn = mod.fresh("_tma_scratch")
    text = (f"\n\n\ndef {fn}(size, alignment, stream):\n"
            f"    # scratch memory for the kernels' tensor descriptors (tl.make_tensor_descriptor)\n"
            f"    return {torch}.empty(size, dtype={torch}.int8, device=\"cuda\")\n\n\n"
            f"{triton}.set_allocator({fn})")
    end = mod.index.span(imports[-1])[1]
    return Edit(end, end, text)


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    tl = mod.tl()
    edits: list[Edit] = [_allocator(mod)]
    edits += option_edits(mod, plan, p, OPTION_DOMAIN)
    before: dict[int, tuple[ast.For, list[str]]] = {}     # loop -> the descriptors made before it
    for t in plan.loads:
        first, second = (t.cols, t.rows) if t.transposed else (t.rows, t.cols)
        desc = mod.fresh(f"{t.ptr if t.ptr.isidentifier() else t.tensor}_desc")
        if t.batch is None:
            line = (f"{desc} = {tl}.make_tensor_descriptor({t.ptr}, shape=[{first.extent}, {second.extent}], "
                    f"strides=[{first.stride}, 1], block_shape=[{first.block}, {second.block}])")
            load = f"{desc}.load([{first.start}, {second.start}])"
        else:
            b = t.batch
            line = (f"{desc} = {tl}.make_tensor_descriptor({b.base}, shape=[{b.extent}, {first.extent}, "
                    f"{second.extent}], strides=[{b.stride}, {first.stride}, 1], block_shape=[1, {first.block}, "
                    f"{second.block}])")
            load = (f"{tl}.reshape({desc}.load([{b.index}, {first.start}, {second.start}]), "
                    f"[{first.block}, {second.block}])")
        at = _descriptor_loop(mod, plan, t, line)
        assert t.batch is None or at is plan.tile_loop, line       # _batch_axis checked what it reads
        before.setdefault(id(at), (at, []))[1].append(line)
        if t.transposed:
            load = f"{tl}.trans({load})"
        target = mod.text(t.stmt.targets[0])
        if t.unit_param is None:
            edits.append(mod.replace(t.stmt.value, load))
        else:
            edits.append(mod.replace_stmt(t.stmt, [f"if {t.unit_param} == 1:", f"    {target} = {load}",
                                                   "else:", f"    {mod.text(t.stmt)}"]))
    edits += [mod.insert_before(loop, lines) for loop, lines in before.values()]
    return apply_edits(mod.source, edits)


def _known_before(mod: Module, k: Kernel, loop: ast.For) -> set[str]:
    """What a descriptor made before the tile loop may read: parameters, constexprs and names
    the kernel binds once before that loop."""
    bound_before = {n for n, s in Defs(k).stmt.items() if s.lineno < loop.lineno}
    return set(k.params) | set(k.constexprs) | bound_before | {mod.tl()}


def _descriptor_loop(mod: Module, plan: TmaPlan, t: TileLoad, line: str) -> ast.For:
    """Where a descriptor is made: before the persistent loop over the tiles when it reads only
    parameters, constexprs and names the kernel binds once before that loop (then each program
    makes it once, not once per tile), else before the load's own loop."""
    k, loop = plan.kernel, plan.tile_loop
    if loop is None:
        return t.loop
    stmt = ast.parse(line).body[0]
    assert isinstance(stmt, ast.Assign)
    return loop if names_in(stmt.value) <= _known_before(mod, k, loop) else t.loop


def _tile_quotient_extent(mod: Module, k: Kernel, loop: ast.For, idx: ast.expr, known: set[str]) -> str | None:
    """E when ``idx`` is a name bound once in the tile loop's body to ``t // D`` (or
    ``tl.cast(t // D, ...)``), t the loop's variable (not rebound) and the loop's stop ``D * E``
    in either order, D and E known before the loop: then 0 <= idx < E. None otherwise."""
    assert isinstance(loop.iter, ast.Call)             # _tile_loop: range(pid, stop, programs)
    stop, target = loop.iter.args[1], loop.target
    if not (isinstance(idx, ast.Name) and isinstance(target, ast.Name) and isinstance(stop, ast.BinOp)
            and isinstance(stop.op, ast.Mult)) or target.id in assigned_names(loop.body):
        return None
    st = Defs(k, loop.body).stmt.get(idx.id)
    v = st.value if st is not None and st in loop.body else None
    if isinstance(v, ast.Call) and mod.tl_func(v) == "cast" and v.args:
        v = v.args[0]
    if not (isinstance(v, ast.BinOp) and isinstance(v.op, ast.FloorDiv) and isinstance(v.left, ast.Name)
            and v.left.id == target.id and names_in(v.right) <= known):
        return None
    for d, e in ((stop.left, stop.right), (stop.right, stop.left)):
        if ast.dump(d) == ast.dump(v.right) and names_in(e) <= known:
            return mod.text(e)
    return None


def _batch_axis(mod: Module, k: Kernel, loop: ast.For | None, t: TileLoad) -> BatchAxis | None:
    """The load's per-tile base offset ``b * S_b`` as a leading descriptor axis (module
    docstring), or None: no tile loop, no such single offset, b not bounded by the loop, or the
    tile's extents and strides not known before the loop (then the descriptor stays per tile).
    S_b's alignment needs no check of its own: _check_recorded found the offset ``b * S_b`` a
    multiple of 16 bytes, and b, bound to a quotient, is no recorded integer, so S_b is one."""
    if loop is None or not t.offsets:
        return None
    known = _known_before(mod, k, loop)
    per_tile = [o for o in t.offsets if not names_in(o) <= known]
    if len(per_tile) != 1 or not isinstance(per_tile[0], ast.BinOp) or not isinstance(per_tile[0].op, ast.Mult):
        return None
    if any(n not in known for a in (t.rows, t.cols) for x in (a.extent, a.stride, a.block)
           for n in names_in(ast.parse(x, mode="eval").body)):
        return None
    term = per_tile[0]
    for idx, stride in ((term.left, term.right), (term.right, term.left)):
        if not (int_const(stride) is not None or (isinstance(stride, ast.Name) and stride.id in known)):
            continue
        extent = _tile_quotient_extent(mod, k, loop, idx, known)
        if extent is None:
            continue
        before = [mod.text(o) for o in t.offsets if o is not term]
        base = " + ".join([t.tensor] + [f"({b})" for b in before])
        return BatchAxis(mod.text(idx), mod.text(stride), extent, base)
    return None
