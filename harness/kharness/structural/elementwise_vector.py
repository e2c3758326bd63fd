"""elementwise_vector: an elementwise kernel gets the block size and warps that give every
thread whole 128-bit accesses, contiguity hints on its offsets, and a grid that follows the
block.

Precondition: a 1-D elementwise kernel — ``offs = pid * BLOCK + tl.arange(0, BLOCK)`` (also
through ``block_start = pid * BLOCK``) with ``pid = tl.program_id(0)`` and BLOCK a constexpr,
no loops, no reductions, no ``tl.dot``; every load and store addresses ``ptr + offs`` for a
pointer parameter and is masked by ``offs < n`` for one size parameter n; the recorded grid is
cdiv(n, BLOCK) (one program per block of elements).

The rewrite: ``offs`` becomes ``tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)``; the
launch passes BLOCK = 32 * num_warps * (16 // element size) * m — the smallest element size
of the tensor arguments, so each thread holds m whole 16-byte vectors of every tensor — and
num_warps; the grid becomes ``lambda meta: (triton.cdiv(n, meta['BLOCK']),)``.

Why it is correct: the kernel computes each element independently from the elements at the
same offset, so any block size with a grid of cdiv(n, BLOCK) programs covers every element
once, and the mask keeps the last block inside n; the hints state what the offsets are — a
run of BLOCK consecutive values starting at a multiple of BLOCK.

Where the kernel's ``@triton.jit`` lists n or an accessed pointer in ``do_not_specialize`` (or
``do_not_specialize_on_alignment``), the candidate also drops it from the list
(structural/specialize.py): an unspecialised n leaves the mask without a known divisibility and
every access one element wide, whatever the block and the hints."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..srcedit import RewriteRefused, apply_edits
from . import specialize
from .common import (
    LANE_MIXING_TL,
    Defs,
    Fit,
    Kernel,
    Module,
    Plan,
    call_arg,
    calls,
    cdiv,
    check_block_uses,
    check_callees,
    check_params,
    check_wrappers,
    from_template,
    grid_edit,
    header_exprs,
    int_const,
    pick,
    program_id_axis,
    pure_expr,
    survey_one,
)

NAME = "elementwise_vector"
DEFAULTS = {"kernel": "", "num_warps": 4, "m": 2}
DOMAIN = {"num_warps": [1, 2, 4, 8, 16], "m": [1, 2, 4, 8]}
VECTOR_BYTES = 16               # one 128-bit access per thread
MAX_BLOCK = 65536


@dataclass
class VectorPlan(Plan):
    offs: str
    block: str
    n_param: str
    elem_bytes: int
    hinted: bool
    unspec: specialize.Unspecialized | None


def _offsets(mod: Module, k: Kernel, defs: Defs) -> tuple[str, str, set[int]]:
    """(offsets name, block constexpr, ids of the statements computing the offsets) of
    ``offs = pid * BLOCK + tl.arange(0, BLOCK)``; the program id and the block start must be
    used nowhere else (a value computed from them would change with the block)."""
    def pid_stmt(e: ast.AST) -> ast.stmt | None:
        if isinstance(e, ast.Name) and e.id in defs.stmt and program_id_axis(mod, defs.stmt[e.id].value) == 0:
            return defs.stmt[e.id]
        return None

    def start_block(e: ast.AST) -> tuple[ast.Name, list[ast.stmt]] | None:
        chain: list[ast.stmt] = []
        if isinstance(e, ast.Name) and e.id in defs.stmt:
            chain.append(defs.stmt[e.id])
            e = defs.stmt[e.id].value
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
            for a, b in ((e.left, e.right), (e.right, e.left)):
                direct = program_id_axis(mod, a) == 0
                st = pid_stmt(a)
                if (direct or st is not None) and isinstance(b, ast.Name) and b.id in k.constexprs:
                    return b, chain + ([st] if st is not None else [])
        return None

    found = []
    for name, s in defs.stmt.items():
        v = s.value
        if not (isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add)):
            continue
        for a, b in ((v.left, v.right), (v.right, v.left)):
            if mod.tl_func(b) == "arange" and isinstance(b, ast.Call) and len(b.args) == 2 \
                    and int_const(b.args[0]) == 0 and isinstance(b.args[1], ast.Name):
                sb = start_block(a)
                if sb is not None and sb[0].id == b.args[1].id:
                    found.append((name, sb[0], [s, *sb[1]]))
    if len(found) != 1:
        raise RewriteRefused(f"{k.name}: {'no' if not found else 'more than one'} `offs = pid * BLOCK + "
                             "tl.arange(0, BLOCK)` with pid = tl.program_id(0)")
    offs, block_node, chain = found[0]
    chain_ids = {id(s) for s in chain}
    inner = {t.targets[0].id for t in chain if t is not defs.stmt[offs] and isinstance(t.targets[0], ast.Name)}  # type: ignore[attr-defined]
    for n in ast.walk(k.node):
        if isinstance(n, ast.stmt) and id(n) not in chain_ids and n is not k.node:
            heads = header_exprs(n)
            used = {x.id for h in heads for x in ast.walk(h) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)}
            pids = [c for h in heads for c in calls(h) if program_id_axis(mod, c) is not None]
            if used & inner or pids:
                raise RewriteRefused(f"{k.name} line {n.lineno}: uses the program id or block start "
                                     f"({', '.join(sorted(used & inner)) or 'tl.program_id'}) beyond the offsets")
    check_block_uses(mod, k, block_node.id, [block_node], NAME)
    return offs, block_node.id, chain_ids


def analyze(mod: Module, k: Kernel) -> VectorPlan:
    name = k.name
    check_wrappers(mod, k, "block")
    check_callees(mod, k)
    for n in ast.walk(k.node):
        if isinstance(n, (ast.For, ast.While)):
            raise RewriteRefused(f"{name} line {n.lineno}: has a loop; not an elementwise kernel")
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f in LANE_MIXING_TL:
            raise RewriteRefused(f"{name} line {c.lineno}: calls tl.{f}; not an elementwise kernel")
        if f == "program_id" and program_id_axis(mod, c) != 0:
            raise RewriteRefused(f"{name} line {c.lineno}: uses a program id of another axis than 0")
    defs = Defs(k)
    offs, block, _ = _offsets(mod, k, defs)
    n_params = set()
    pointers: set[str] = set()
    accesses = 0
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f not in ("load", "store"):
            continue
        accesses += 1
        ptr = call_arg(c, 0, "pointer")
        if not (isinstance(ptr, ast.BinOp) and isinstance(ptr.op, ast.Add) and {
                type(ptr.left), type(ptr.right)} == {ast.Name} and offs in (ptr.left.id, ptr.right.id)  # type: ignore
                and ({ptr.left.id, ptr.right.id} - {offs}) <= set(k.params)):  # type: ignore
            raise RewriteRefused(f"{name} line {c.lineno}: tl.{f} does not address `ptr + {offs}` (a 1-D block of "
                                 "consecutive elements)")
        pointers |= {ptr.left.id, ptr.right.id} - {offs}  # type: ignore[attr-defined]
        mask = call_arg(c, 1, "mask")
        if isinstance(mask, ast.Name) and mask.id in defs.stmt:
            mask = defs.stmt[mask.id].value
        if not (isinstance(mask, ast.Compare) and len(mask.ops) == 1 and isinstance(mask.ops[0], ast.Lt)
                and isinstance(mask.left, ast.Name) and mask.left.id == offs
                and isinstance(mask.comparators[0], ast.Name) and mask.comparators[0].id in k.params):
            raise RewriteRefused(f"{name} line {c.lineno}: tl.{f} is not masked by `{offs} < n`")
        n_params.add(mask.comparators[0].id)
    if accesses == 0 or len(n_params) != 1:
        raise RewriteRefused(f"{name}: the loads and stores are not all masked by one size parameter")
    n_param = n_params.pop()
    site = mod.one_site(name)
    n_arg = site.bound.get(n_param)
    if n_arg is None or not pure_expr(mod, n_arg):
        raise RewriteRefused(f"line {site.call.lineno}: the launch does not pass {n_param} as a plain size expression")
    n_value = mod.recorded_int(name, n_param)
    b_value = mod.recorded_int(name, block)
    grid = mod.recorded_grid(name)
    if [g for g in grid if g != 1] != [g for g in [cdiv(n_value, b_value)] if g != 1]:
        raise RewriteRefused(f"{name}: the recorded grid {grid} is not cdiv({n_param}, {block}) = "
                             f"{cdiv(n_value, b_value)}; not one program per block")
    elem = mod.min_elem_bytes(name)
    hinted = any(mod.tl_func(c) in ("multiple_of", "max_contiguous") for c in calls(defs.stmt[offs].value))
    vec = VECTOR_BYTES // elem
    why = (f"{name}: elementwise over `{offs}` = program_id(0) * {block} + arange (line {defs.stmt[offs].lineno}), "
           f"every access `ptr + {offs}` masked by `{offs} < {n_param}`; {block} = {b_value} with "
           f"{_warps(mod, site)} warps gives {max(1, b_value // (32 * _warps(mod, site)))} element(s) per thread, "
           f"a 128-bit access needs {vec} ({elem}-byte elements)")
    unspec = specialize.find(k, pointers | {n_param})
    return VectorPlan(k, site, why + specialize.describe(unspec), {**DEFAULTS, "kernel": name}, DOMAIN, offs, block,
                      n_param, elem, hinted, unspec)


def _warps(mod: Module, site: Any) -> int:
    kw = site.options.get("num_warps")
    v = int_const(kw.value) if kw is not None else 4
    return v if v else 4


def block_for(elem_bytes: int, num_warps: int, m: int) -> int:
    return 32 * num_warps * max(1, VECTOR_BYTES // elem_bytes) * m


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    block = block_for(plan.elem_bytes, int(p["num_warps"]), int(p["m"]))
    if block > MAX_BLOCK:
        raise RewriteRefused(f"{NAME}: BLOCK = 32 x {p['num_warps']} x {VECTOR_BYTES // plan.elem_bytes} x {p['m']} "
                             f"= {block} exceeds {MAX_BLOCK}")
    k, site = plan.kernel, plan.site
    tl, triton = mod.tl(), mod.triton()
    edits = []
    if not plan.hinted:
        value = Defs(k).stmt[plan.offs].value
        edits.append(mod.replace(value, from_template("tl.max_contiguous(tl.multiple_of(V, B), B)", {
            "tl": tl, "V": mod.text(value), "B": plan.block})[0]))
    edits += [
        grid_edit(mod, site, from_template("lambda meta: (triton.cdiv(N, meta[B]),)", {
            "triton": triton, "N": mod.text(site.bound[plan.n_param]), "B": ast.Constant(plan.block)})[0]),
        mod.set_launch_arg(site, plan.block, str(block)),
        mod.set_launch_arg(site, "num_warps", str(p["num_warps"])),
    ]
    if plan.unspec is not None:
        edits += specialize.edit(mod, k, plan.unspec)
    return apply_edits(mod.source, edits)
