"""tile_grid: a tile kernel (``tl.dot``) gets its grid derived from its tile constexprs, a
grouped program order for L2 reuse, and a standard tile configuration.

Precondition: the kernel calls ``tl.dot``; it maps programs to output tiles through two names
``pid_m``/``pid_n`` (``tl.program_id(0)``/``(1)`` of a 2-D grid, or ``pid // n``/``pid % n`` of
a 1-D one), each multiplied by a block constexpr (BLOCK_M / BLOCK_N); masks bound the M and N
offsets by kernel parameters (``offs_m < M``); every load and store is masked (so any tile
size is correct at the matrix edges); program ids are used for nothing else; the recorded
grid equals cdiv(M, BLOCK_M) x cdiv(N, BLOCK_N) (which confirms the mapping). A batched
kernel may add a third grid axis, ``tl.program_id(2)``, used in any way but never in the tile
indices, its extent a plain expression in the launch's grid tuple.

The rewrite: the definitions of pid_m and pid_n are replaced by the grouped ("swizzled")
order of Triton's matmul tutorial — programs walk GROUP_M tile rows column by column, so the
A rows and B columns a group needs stay in L2 — over a 1-D grid; a ``GROUP_M`` constexpr is
added; the launch's grid becomes
``lambda meta: (triton.cdiv(M, meta['BLOCK_M']) * triton.cdiv(N, meta['BLOCK_N']),)`` (a batched
kernel keeps its batch axis: ``(..., 1, B)``) and the tile sizes, GROUP_M, num_warps and
num_stages are set from one configuration.

With ``PERSISTENT=1`` (a configuration of the sweep, when the kernel meets persistent_grid's
conditions: no early return, no parameter assigned, torch imported, the launch a statement
of its own passing a tensor as a plain name) the body, grouped order included, runs in a loop
``for tile in range(tl.program_id(0), num_tiles, tl.num_programs(0))`` with
``num_tiles = tl.cdiv(M, BLOCK_M) * tl.cdiv(N, BLOCK_N)`` computed in the kernel, and the grid
becomes ``min(NUM_SMS, tiles)`` programs: one wave, each program walking its tiles in grouped
order, as in Triton's persistent matmul tutorial (python/tutorials/09-persistent-matmul.py).
With ``TMA=1`` (configurations of the sweep, when tma_loads fits the rewritten kernel) the
rewritten kernel's tile loads then go through tensor descriptors: tma_loads applied to it,
descriptors of parameters only made once per program before a persistent loop.

Why it is correct: the grouped order is a bijection from [0, cdiv(M,BM)*cdiv(N,BN)) onto the
tile pairs (pid_m, pid_n) — the last group is clipped to the tile rows left — so every output
tile is computed by exactly one program, as before; the body is unchanged and its masks make
every tile size correct. Persistent: program p runs the body for tiles p, p + P, ... (P
programs), so each tile of [0, num_tiles) once, and as the body neither returns nor changes
a parameter, the tiles a program runs do not affect each other. A batch axis is untouched: program (p, 0, b) computes tile p's
pair of batch b, as (pid_m, pid_n, b) did. Persistent and batched, the batch folds into the
loop: a ``NUM_BATCH`` parameter (the grid's batch extent, passed by the launch), tiles
[0, num_tiles * NUM_BATCH), tile t computing tile ``t % num_tiles`` of batch ``t // num_tiles``
(every ``tl.program_id(2)`` becomes that quotient), min(NUM_SMS, all tiles) programs: one
wave over every batch, where keeping the batch axis launched a wave per batch (bmm's 8 x 128
tiles at 2048^2: 1024 programs, each running one tile).

The configurations, most likely first (a smaller candidate budget keeps the head): large tiles
for Hopper-class parts, then the CUDA list of Triton's matrix-multiplication tutorial
(python/tutorials/03-matrix-multiplication.py) for smaller problems. The large tiles are the
same tutorial's fp8 list with BLOCK_K halved for 16-bit inputs (the same bytes per pipeline
stage), plus one stage more for the 8-warp 128x256 and 256x128 tiles and an 8-warp 128x128.
Why: on an H200 the tutorial list's best (128x256x64, 3 stages) stayed 11% behind
torch.compile on a 4096^3 fp16 matmul. Every entry fits 192 KiB of shared memory (the H200
has 227 KiB); a part with less fails to compile the deepest, which the sweep records. For
fp32 inputs the same tiles are used with BLOCK_K halved, which keeps the bytes of every
pipeline stage (and so the shared memory) the same."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from . import tma_loads
from .common import (
    Defs,
    Fit,
    Kernel,
    LaunchSite,
    Module,
    Plan,
    body_after_docstring,
    call_arg,
    calls,
    cdiv,
    check_callees,
    check_not_assigned,
    check_params,
    check_wrappers,
    from_template,
    grid_edit,
    grid_elements,
    header_exprs,
    int_const,
    is_pow2,
    loop_refusal,
    names_in,
    pick,
    program_id_axis,
    pure_expr,
    sms_device_arg,
    survey_one,
)
from .persistent_grid import INTERP_SMS, SMS

NAME = "tile_grid"

# (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages) for 16-bit inputs (module
# docstring: where each group comes from).
CONFIGS_16BIT = [
    # large tiles (Hopper class): 32-64 KiB per stage, 192 KiB in all at most
    (128, 256, 64, 8, 8, 3),
    (256, 128, 64, 8, 8, 3),
    (128, 256, 64, 8, 8, 4),
    (256, 128, 64, 8, 8, 4),
    (128, 128, 64, 8, 8, 4),
    (128, 128, 64, 8, 4, 4),
    (64, 256, 64, 8, 4, 4),
    (256, 64, 64, 8, 4, 4),
    (128, 128, 128, 8, 8, 3),
    # Triton tutorial 03's CUDA list (its first entry leads the list above)
    (64, 256, 32, 8, 4, 4),
    (128, 128, 32, 8, 4, 4),
    (128, 64, 32, 8, 4, 4),
    (64, 128, 32, 8, 4, 4),
    (128, 32, 32, 8, 4, 4),
    (64, 32, 32, 8, 2, 5),
    (32, 64, 32, 8, 2, 5),
]
# fp32 (tf32 dots): BLOCK_K halved, same bytes per stage.
CONFIGS_32BIT = [(m, n, max(16, k // 2), g, w, s) for (m, n, k, g, w, s) in CONFIGS_16BIT]
KEYS = ("BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "num_warps", "num_stages")
# The persistent variants (PERSISTENT=1, module docstring), measured beside the head of the
# list: the two large 3-stage tiles. Why those: on the H200 (bench/gpu/matmul_probe.py, call
# AX) a persistent loop over those tiles took 1.03-1.09x cuBLAS's time where the same tiles
# one program each took 1.09-1.30x, on a 4096^3 matmul and on a linear layer's 8192x4096 by
# 14336 weight. (A deeper pipeline did not fit the shared memory there.)
PERSISTENT_FROM = 2      # the first PERSISTENT_FROM entries of each list get a persistent twin
# The descriptor variants (TMA=1: the tile loads through tensor descriptors, tma_loads applied
# to the rewritten kernel), of the same head tiles, one program per tile and persistent, at
# their stage count and one more. Why in the same sweep: on the H200 the persistent loop paid
# only with descriptors (probe: 1.03x cuBLAS's time with both, 1.09x with descriptors alone),
# and a persistent twin without them lost round 1 to one program per tile by 1.5% (matmul,
# call AZ), after which no round could reach the persistent descriptor kernel.
TMA_STAGES = (0, 1)      # stages added to a head configuration's in its descriptor twins
LIMITS = {"BLOCK_M": (16, 256), "BLOCK_N": (16, 256), "BLOCK_K": (16, 256), "GROUP_M": (1, 64),
          "num_warps": (1, 16), "num_stages": (1, 8)}

SWIZZLE = """
pid = PID0
num_pid_m = tl.cdiv(M, BLOCK_M)
num_pid_n = tl.cdiv(N, BLOCK_N)
num_pid_in_group = GROUP_M * num_pid_n
group_id = pid // num_pid_in_group
first_pid_m = group_id * GROUP_M
group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
PID_M = first_pid_m + pid % num_pid_in_group % group_size_m
PID_N = pid % num_pid_in_group // group_size_m
"""
GRID = "lambda meta: (triton.cdiv(M, meta[BM]) * triton.cdiv(N, meta[BN]),)"
GRID_BATCHED = "lambda meta: (triton.cdiv(M, meta[BM]) * triton.cdiv(N, meta[BN]), 1, B)"
GRID_PERSISTENT = "lambda meta: (min(S, triton.cdiv(M, meta[BM]) * triton.cdiv(N, meta[BN])),)"
GRID_PERSISTENT_BATCHED = "lambda meta: (min(S, triton.cdiv(M, meta[BM]) * triton.cdiv(N, meta[BN]) * B),)"
BATCH_AXIS = 2


@dataclass
class TilePlan(Plan):
    pid_m: str
    pid_n: str
    block_m: str
    block_n: str
    block_k: str | None
    m_param: str
    n_param: str
    feeding: set[str]           # names computed from the program id only for pid_m/pid_n
    batch: str | None = None    # the grid's batch extent (source text) of a batched kernel
    device_arg: str | None = None   # whose device gives the SM count; None: no persistent form
    no_persistent: str = ""         # why there is no persistent form
    no_tma: str = ""                # why there are no descriptor twins ("": there are)


def configs_for(dtypes: list[str], persistent: bool = False, tma: bool = False) -> list[dict[str, int]]:
    """The configurations to sweep, most likely first; with persistent, the persistent twins
    of the list's head come right after it, then, with tma, the descriptor twins of those
    (TMA_STAGES)."""
    table = CONFIGS_32BIT if dtypes and all(d == "float32" for d in dtypes) else CONFIGS_16BIT
    plain = [{**dict(zip(KEYS, c)), "PERSISTENT": 0, "TMA": 0} for c in table]
    twins = [{**c, "PERSISTENT": 1} for c in plain[:PERSISTENT_FROM]] if persistent else []
    head = plain[:PERSISTENT_FROM] + twins
    desc = [{**c, "num_stages": c["num_stages"] + d, "TMA": 1} for c in head for d in TMA_STAGES] if tma else []
    return head + desc + plain[PERSISTENT_FROM:]


def analyze(mod: Module, k: Kernel) -> TilePlan:
    name = k.name
    check_wrappers(mod, k, "tiles", [c for c in k.constexprs if "GROUP" in c.upper()])
    if not any(mod.tl_func(c) == "dot" for c in calls(k.node)):
        raise RewriteRefused(f"{name} does not call tl.dot")
    check_callees(mod, k)
    axes = {program_id_axis(mod, c) for c in calls(k.node)} - {None}
    if not axes:
        raise RewriteRefused(f"{name} never calls tl.program_id")
    batched = axes == {0, 1, BATCH_AXIS}
    if not (axes <= {0, 1} or batched):
        raise RewriteRefused(f"{name} uses tl.program_id axes {sorted(a for a in axes if a is not None)}; "
                             "the grouped order covers a 1-D or 2-D grid of tiles (with a batch on axis 2)")
    if any(p.upper().startswith("GROUP") for p in k.constexprs):
        raise RewriteRefused(f"{name} already has a group constexpr ({', '.join(sorted(k.constexprs))})")
    defs = Defs(k)
    # a batch index (axis 2) is not a program id here: it may go anywhere but the tile indices,
    # which in a 2-D grid are tl.program_id(0) and (1) themselves (_tile_order)
    pid_names = {n for n, s in defs.stmt.items() if any(program_id_axis(mod, c) in (0, 1) for c in calls(s.value))}

    def from_pid(n: str) -> bool:
        return bool(defs.deps(n) & pid_names)

    # tile indices: names multiplied by a block constexpr and derived from the program id
    pairs: dict[str, set[str]] = {}
    for node in ast.walk(k.node):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for x, p in ((node.left, node.right), (node.right, node.left)):
                if isinstance(x, ast.Name) and isinstance(p, ast.Name) and p.id in k.constexprs \
                        and x.id in defs.stmt and from_pid(x.id):
                    pairs.setdefault(p.id, set()).add(x.id)
    if len(pairs) != 2 or any(len(v) != 1 for v in pairs.values()):
        raise RewriteRefused(f"{name}: cannot find two tile indices (a name from tl.program_id multiplied by a "
                             f"block constexpr); found {sorted((p, sorted(v)) for p, v in pairs.items())}")
    (b1, (x1,)), (b2, (x2,)) = sorted((p, tuple(v)) for p, v in pairs.items())
    order = _tile_order(mod, defs, x1, x2, 1 in axes)
    if order is None:
        raise RewriteRefused(f"{name}: cannot tell which of {x1} (line {defs.stmt[x1].lineno}) and {x2} "
                             f"(line {defs.stmt[x2].lineno}) indexes the rows of the output")
    (pm, bm), (pn, bn) = ((x1, b1), (x2, b2)) if order == x1 else ((x2, b2), (x1, b1))
    m_param = _extent(mod, k, defs, pm, pn)
    n_param = _extent(mod, k, defs, pn, pm)
    check_not_assigned(k, (m_param, n_param), "which the grouped order reads as the matrix size")
    rest = k.facts.blocks - {bm, bn}     # tl.arange lengths, shapes, block pointers' block shapes
    if len(rest) > 1:
        raise RewriteRefused(f"{name}: more than one other block constexpr ({', '.join(sorted(rest))}); "
                             "cannot tell BLOCK_K")
    bk = rest.pop() if rest else None
    for c in calls(k.node):
        f = mod.tl_func(c)
        if f in ("load", "store") and call_arg(c, 1, "mask") is None and not _checks_both_bounds(c):
            raise RewriteRefused(f"{name} line {c.lineno}: tl.{f} has no mask; other tile sizes would touch "
                                 "memory past the matrix edge")
    feeding = _check_pid_uses(mod, k, defs, pid_names, {pm, pn}, {BATCH_AXIS} if batched else set())
    site = mod.one_site(name)
    for extent in (m_param, n_param):
        arg = site.bound.get(extent)
        if arg is None or not pure_expr(mod, arg):
            raise RewriteRefused(f"line {site.call.lineno}: the launch does not pass {extent} as a plain size "
                                 "expression")
    vals = {p: mod.recorded_int(name, p) for p in (m_param, n_param, bm, bn)}
    grid = mod.recorded_grid(name)
    tiles = (cdiv(vals[m_param], vals[bm]), cdiv(vals[n_param], vals[bn]))
    expect = [tiles[0], tiles[1]] if 1 in axes else [tiles[0] * tiles[1]]
    tile_grid = grid[:2] if batched else grid
    if (batched and len(grid) != 3) or [g for g in tile_grid if g != 1] != [g for g in expect if g != 1]:
        raise RewriteRefused(f"{name}: the recorded grid {grid} is not cdiv({m_param}, {bm}) x cdiv({n_param}, {bn}) "
                             f"= {expect}; cannot confirm the tile mapping")
    batch = _batch_extent(mod, site) if batched else None
    device_arg, no_persistent = _persistent_fit(mod, k, site)
    cfgs = configs_for(mod.tensor_dtypes(name), device_arg is not None)
    why = (f"{name}: tl.dot tiles indexed by {pm} * {bm} (line {defs.stmt[pm].lineno}) and {pn} * {bn} "
           f"(line {defs.stmt[pn].lineno}), masked by {m_param} and {n_param}; the recorded grid {grid} is "
           f"{'2-D' if 1 in axes else '1-D'} row-major over {tiles[0]}x{tiles[1]} tiles"
           f"{f', times a batch of {grid[2]} on axis 2 ({batch})' if batch else ''} (line {site.call.lineno})")
    plan = TilePlan(k, site, why, {"kernel": name, **cfgs[0]}, {"configs": cfgs}, pm, pn, bm, bn, bk, m_param,
                    n_param, feeding, batch, device_arg, no_persistent)
    plan.no_tma = _tma_refusal(mod, plan)
    if not plan.no_tma:
        plan.domain["configs"] = configs_for(mod.tensor_dtypes(name), device_arg is not None, True)
    return plan


def _tma_refusal(mod: Module, plan: TilePlan) -> str:
    """Why tma_loads would not fit the kernel this rewrite writes (its head configuration),
    or "": the descriptor twins' precondition. The trial rewrite's fresh names are given back,
    so apply's names are those of a module analysed without it (GROUP_M, not GROUP_M_2)."""
    names = set(mod.names)
    try:
        _descriptors(mod, plan.kernel.name, _rewrite(mod, plan, dict(plan.params)))
    except RewriteRefused as e:
        return str(e)
    finally:
        mod.names = names
    return ""


def _descriptors(mod: Module, kernel: str, source: str) -> str:
    """tma_loads applied to ``source`` (this rewrite's output for ``mod``), at its launch's
    warps and stages; the kernel's parameters keep their positions, so the recorded launches
    describe the new module's arguments too."""
    return tma_loads.apply(Module(source, list(mod.records.values())), {"kernel": kernel})


def _persistent_fit(mod: Module, k: Kernel, site: LaunchSite) -> tuple[str | None, str]:
    """The tensor parameter giving the SM count when the tile loop may be persistent, else
    None and why not (persistent_grid's conditions)."""
    refusal = loop_refusal(k)
    if refusal:
        return None, refusal
    if mod.alias_for("torch") is None:
        return None, "the module does not `import torch` (needed for the SM count)"
    if not (isinstance(site.stmt, ast.Expr) and site.stmt.value is site.call):
        return None, f"line {site.call.lineno}: the launch of {k.name} is not a statement of its own"
    device_arg = sms_device_arg(mod, k, site)
    if device_arg is None:
        return None, f"line {site.call.lineno}: no tensor is passed to {k.name} as a plain name"
    return device_arg, ""


def _batch_extent(mod: Module, site: LaunchSite) -> str:
    """The batch axis's extent as written in the grid tuple (not ``grid[2]``: the rewrite
    replaces the grid's assignment with a lambda that must not read the name it rebinds)."""
    elts = grid_elements(mod, site)
    if len(elts) != 3 or not pure_expr(mod, elts[BATCH_AXIS]):
        raise RewriteRefused(f"line {site.call.lineno}: the grid's third element is not a plain size "
                             "expression; cannot keep the batch axis")
    return mod.text(elts[BATCH_AXIS])


def _tile_order(mod: Module, defs: Defs, x1: str, x2: str, two_d: bool) -> str | None:
    """The tile index of the output rows: from tl.program_id(0) in a 2-D grid, the `//` of a
    1-D one."""
    for x in (x1, x2):
        v = defs.stmt[x].value
        if two_d and program_id_axis(mod, v) == 0:
            other = defs.stmt[x2 if x == x1 else x1].value
            return x if program_id_axis(mod, other) == 1 else None
        if not two_d and isinstance(v, ast.BinOp) and isinstance(v.op, ast.FloorDiv):
            other = defs.stmt[x2 if x == x1 else x1].value
            return x if isinstance(other, ast.BinOp) and isinstance(other.op, ast.Mod) else None
    return None


def _checks_both_bounds(c: ast.Call) -> bool:
    """A block-pointer load or store whose ``boundary_check`` covers both axes (0 and 1): it
    masks at the matrix edge as a mask would."""
    kw = next((x.value for x in c.keywords if x.arg == "boundary_check"), None)
    return isinstance(kw, (ast.Tuple, ast.List)) and {int_const(e) for e in kw.elts} >= {0, 1}


def _block_ptr_extents(mod: Module, k: Kernel, defs: Defs, mine: str, other: str) -> set[str]:
    """The parameters a ``tl.make_block_ptr(base, shape, strides, offsets, block_shape, order)``
    gives as the extent of the axis whose offset is built from tile index ``mine`` (its
    boundary_check masks there, as a mask would)."""
    found: set[str] = set()
    for c in calls(k.node):
        if mod.tl_func(c) != "make_block_ptr":
            continue
        shape, offsets = call_arg(c, 1, "shape"), call_arg(c, 3, "offsets")
        if not (isinstance(shape, ast.Tuple) and isinstance(offsets, ast.Tuple)
                and len(shape.elts) == len(offsets.elts)):
            continue
        for dim, off in zip(shape.elts, offsets.elts):
            d = defs.expr_deps(off)
            if mine in d and other not in d and isinstance(dim, ast.Name) and dim.id in k.params \
                    and dim.id not in k.constexprs:
                found.add(dim.id)
    return found


def _extent(mod: Module, k: Kernel, defs: Defs, mine: str, other: str) -> str:
    """The parameter that bounds the offsets built from tile index ``mine`` in a mask (or in a
    block pointer's shape)."""
    found = _block_ptr_extents(mod, k, defs, mine, other)
    for node in ast.walk(k.node):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
            continue
        lhs, rhs = node.left, node.comparators[0]
        if isinstance(node.ops[0], ast.Gt):
            lhs, rhs = rhs, lhs
        elif not isinstance(node.ops[0], ast.Lt):
            continue
        if isinstance(rhs, ast.Name) and rhs.id in k.params and rhs.id not in k.constexprs:
            d = defs.expr_deps(lhs)
            if mine in d and other not in d:
                found.add(rhs.id)
    if len(found) != 1:
        raise RewriteRefused(f"{k.name}: {'no' if not found else 'more than one'} mask bounds the offsets of {mine} "
                             f"by a kernel parameter{' (' + ', '.join(sorted(found)) + ')' if found else ''}")
    return found.pop()


def _check_pid_uses(mod: Module, k: Kernel, defs: Defs, pid_names: set[str], tiles: set[str],
                    free_axes: set[int]) -> set[str]:
    """Program ids may only feed the two tile indices, which the grouped order replaces (the
    ids of ``free_axes``, a batch axis the rewrite keeps, go anywhere). Returns the names
    that only feed them (their definitions can go)."""
    feeding = set()
    for t in tiles:
        feeding |= {n for n in defs.deps(t) if n in defs.stmt and defs.deps(n) & pid_names} - tiles
    allowed = {id(defs.stmt[n]) for n in feeding | tiles}
    for s in ast.walk(k.node):
        if not isinstance(s, ast.stmt) or s is k.node or id(s) in allowed:
            continue
        heads = header_exprs(s)
        used = set().union(*(names_in(h) for h in heads)) & feeding if heads else set()
        if used or any(program_id_axis(mod, c) not in (None, *free_axes) for h in heads for c in calls(h)):
            raise RewriteRefused(f"{k.name} line {s.lineno}: uses the program id "
                                 f"{'through ' + ', '.join(sorted(used)) if used else 'directly'} outside the "
                                 "tile indices")
    return feeding


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, {})
    for key, (lo, hi) in LIMITS.items():
        v = int(p[key])
        if not (lo <= v <= hi) or (key != "num_stages" and not is_pow2(v) and key != "GROUP_M"):
            raise RewriteRefused(f"{NAME}: {key}={v} must be {'a power of two ' if key != 'num_stages' else ''}"
                                 f"in [{lo}, {hi}]")
    for flag in ("PERSISTENT", "TMA"):
        if int(p.get(flag, 0)) not in (0, 1):
            raise RewriteRefused(f"{NAME}: {flag}={p.get(flag)} must be 0 or 1")
    if int(p.get("PERSISTENT", 0)) and plan.device_arg is None:
        raise RewriteRefused(f"{NAME}: PERSISTENT=1 but the tile loop cannot be persistent: {plan.no_persistent}")
    if int(p.get("TMA", 0)) and plan.no_tma:
        raise RewriteRefused(f"{NAME}: TMA=1 but tensor descriptors do not fit the rewritten kernel: {plan.no_tma}")
    out = _rewrite(mod, plan, p)
    return _descriptors(mod, plan.kernel.name, out) if int(p.get("TMA", 0)) else out


def _rewrite(mod: Module, plan: TilePlan, p: dict[str, Any]) -> str:
    """The module with the grouped tile order at configuration ``p`` (checked)."""
    persistent = int(p.get("PERSISTENT", 0))
    k, site = plan.kernel, plan.site
    tl, triton = mod.tl(), mod.triton()
    group = mod.fresh("GROUP_M")
    tile = mod.fresh("tile") if persistent else ""
    num_tiles = mod.fresh("num_tiles") if persistent else ""
    # persistent and batched: the batch folds into the tile loop (tile = batch * num_tiles +
    # tile in batch), so one wave of programs walks every batch's tiles
    fold = mod.fresh("NUM_BATCH") if persistent and plan.batch else ""
    temps = {t: t if t in plan.feeding else mod.fresh(t) for t in ("pid", "num_pid_m", "num_pid_n", "num_pid_in_group", "group_id",
                                       "first_pid_m", "group_size_m")}
    # tl.cast: the loop variable as tl.program_id's int32 (persistent_grid says why)
    tile_in_batch = f"{tile} % {num_tiles}" if fold else tile
    pid0 = f"{tl}.cast({tile_in_batch}, {tl}.int32)" if persistent else f"{tl}.program_id(0)"
    lines = from_template(SWIZZLE, {**temps, "tl": tl, "PID0": pid0, "M": plan.m_param, "N": plan.n_param,
                                    "BLOCK_M": plan.block_m, "BLOCK_N": plan.block_n, "GROUP_M": group,
                                    "PID_M": plan.pid_m, "PID_N": plan.pid_n})
    defs = Defs(k)
    first, second = sorted((defs.stmt[plan.pid_m], defs.stmt[plan.pid_n]), key=lambda s: s.lineno)
    sizes: dict[str, str | ast.expr] = {"triton": triton, "M": mod.text(site.bound[plan.m_param]), "N": mod.text(site.bound[plan.n_param]),
             "BM": ast.Constant(plan.block_m), "BN": ast.Constant(plan.block_n),
             **({"B": plan.batch} if plan.batch else {})}
    body_edits = [mod.replace_stmt(first, lines), mod.delete_stmt(second),
                  *(mod.delete_stmt(defs.stmt[n]) for n in sorted(plan.feeding))]
    if fold:
        body_edits += [mod.replace(c, f"{tl}.cast({tile} // {num_tiles}, {tl}.int32)") for c in calls(k.node)
                       if program_id_axis(mod, c) == BATCH_AXIS]
    if persistent:
        num_sms = mod.fresh("num_sms")
        grid = from_template(GRID_PERSISTENT_BATCHED if plan.batch else GRID_PERSISTENT,
                             {**sizes, "S": num_sms})[0]
        body_edits = (_persistent_edits(mod, plan, tile, num_tiles, fold, body_edits)
                      + [_sms_edit(mod, plan, num_sms)])
    else:
        grid = from_template(GRID_BATCHED if plan.batch else GRID, sizes)[0]
    new_params: list[tuple[str, bool, str | None]] = [(group, True, str(p["GROUP_M"]))]
    keywords = f"{group}={p['GROUP_M']}"
    if fold:
        assert plan.batch is not None
        new_params.append((fold, False, "1"))
        keywords += f", {fold}={plan.batch}"
    edits = [*body_edits,
             mod.add_kernel_params(k, new_params),
             grid_edit(mod, site, grid),
             mod.set_launch_arg(site, plan.block_m, str(p["BLOCK_M"])),
             mod.set_launch_arg(site, plan.block_n, str(p["BLOCK_N"])),
             mod.add_call_keyword(site.call, keywords),
             mod.set_launch_arg(site, "num_warps", str(p["num_warps"])),
             mod.set_launch_arg(site, "num_stages", str(p["num_stages"]))]
    if plan.block_k is not None:
        edits.append(mod.set_launch_arg(site, plan.block_k, str(p["BLOCK_K"])))
    return apply_edits(mod.source, edits)


def _persistent_edits(mod: Module, plan: TilePlan, tile: str, num_tiles: str, fold: str,
                      body_edits: list[Edit]) -> list[Edit]:
    """The kernel's body, with body_edits applied, inside a loop over the tiles: program p
    takes tiles p, p + P, ... of cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) for P programs (times
    the batch parameter ``fold`` when the batch is folded into the loop)."""
    k, tl = plan.kernel, mod.tl()
    body = body_after_docstring(k)      # the docstring stays outside the loop
    mod.check_no_multiline_strings(k.node, k.name)
    ind = mod.stmt_indent(body[0])
    # from the start of the body's first line: deleting a statement takes its whole lines
    start = mod.line_start(body[0].lineno)
    end = mod.index.span(body[-1])[1]
    assert all(start <= e.start and e.end <= end for e in body_edits), "an edit outside the kernel's body"
    text = mod.edited_range(start, end, body_edits)
    total = f"{num_tiles} * {fold}" if fold else num_tiles
    head = (f"{ind}{num_tiles} = {tl}.cdiv({plan.m_param}, {plan.block_m}) * {tl}.cdiv({plan.n_param}, "
            f"{plan.block_n})\n{ind}for {tile} in range({tl}.program_id(0), {total}, {tl}.num_programs(0)):\n")
    return [Edit(start, end, head + "\n".join(f"    {ln}" if ln.strip() else ln for ln in text.split("\n")))]


def _sms_edit(mod: Module, plan: TilePlan, num_sms: str) -> Edit:
    """The SM count, computed before the launch from its tensor's device."""
    assert plan.device_arg is not None
    device = mod.text(plan.site.bound[plan.device_arg])
    return mod.insert_before(plan.site.stmt, from_template(SMS, {"NUM_SMS": num_sms, "torch": str(mod.alias_for("torch")),
                                                                "X": device, "FALLBACK": ast.Constant(INTERP_SMS)}))
