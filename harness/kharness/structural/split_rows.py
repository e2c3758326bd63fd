"""split_rows: a row reduction launched over few programs (one per row, the row walked in blocks)
splits each row over SPLIT programs, and a second kernel combines their partial results: what a
split reduction does when the rows are too few to fill the device (an argmax over a 128K
vocabulary for a decode batch of 1-256 rows runs 1-256 programs).

Precondition: the kernel uses only ``tl.program_id(0)`` and no ``tl.num_programs``, calls no
@triton.jit function that reads them, never returns early and assigns no parameter. Its body
(after the docstring) is PRE, one ``for v in range(0, N, B)`` (B a constexpr the launch passes
by keyword; N read from names PRE or the parameters bind), then POST, with no other loop
anywhere and no loop in the loop's body. The *carried* names are those the loop assigns that
PRE binds first, each by ``c = tl.full([B], value, tl.T)`` or ``c = tl.zeros([B], dtype=tl.T)``
(T a float or integer type), and the loop updates each once, at its top level, by one of ``c =
c + e`` (``c += e``: a sum), ``c = tl.maximum(c, e)``, ``c = tl.minimum(c, e)``, or as a first
extremum: ``t = x > k`` (or ``<``), ``k = tl.where(t, x, k)`` and, for each index kept with it,
``i = tl.where(t, cols, i)`` (``cols`` the loop's ``v + tl.arange(0, B)`` or its ``.to(...)``),
where e and x read no carried name. A carried name may also be a float scalar bound before the
loop (``acc = 0.0``, ``m = -float("inf")``) updated as a running sum (from 0.0), maximum or
minimum: after the merge it is whole, and POST may read it freely. PRE stores nothing; POST
reads no name the loop binds except the carried ones, has no loop and no
``tl.arange``/``tl.full``/ ``tl.zeros`` (nor another shape-making or position-reading
function), and reads each carried name only as its combination over every lane: a sum in
``tl.sum(c)``, a maximum in ``tl.max(c)``, a minimum in ``tl.min(c)``, an extremum k in ``m =
tl.max(k)`` (``tl.min`` for ``<``) and in ``k == m`` inside ``tl.min(tl.where(k == m, i,
other))``, where its index i goes too (each reduction over axis 0 or all). The grid is a 1-D
tuple; the launch is a statement of its own passing at least one tensor as a plain name (its
device holds the scratch). SPLIT times the recorded B is at most MAX_MERGE_LANES (the merge
kernel holds that many lanes).

The rewrite: the kernel becomes two. ``K_split`` runs on a ``(G, SPLIT)`` grid: program (r, s)
walks blocks s, s + SPLIT, s + 2 SPLIT, ... of row r (``range(tl.program_id(1) * B, N, SPLIT *
B)``) and, in place of POST, stores its carried vectors to scratch slot r * SPLIT + s.
``K_merge`` runs on the original grid: PRE with each carried vector loaded as the row's SPLIT
slots side by side (``SPLIT * B`` lanes) and each scalar as the sum, maximum or minimum of its
SPLIT slots (float64 scratch: exact for a float32 or float64 running value), no loop, then
POST. forward allocates the scratch (per carried name ``G * SPLIT * B`` lanes of its type, or
``G * SPLIT`` float64 values for a scalar) and launches both, B bound once to a local name both
launches and the allocation read.

Why it is correct: each lane of the original is a running sum, maximum, minimum or first
extremum (with its column) of the columns it visits; the SPLIT programs' lanes visit disjoint
sets of the row's columns whose union is every column (block j of the row is visited by program
j mod SPLIT, at the lane its offset in the block gives), each in increasing order, so each
split lane holds the same combination over its own columns. POST combines the lanes by the same
operation (a sum of sums, a maximum of maxima; for the first extremum, the smallest column
among the lanes that hold the extremum, which is the first column holding it): the combination
over every column, whichever way the columns were dealt to lanes. A scalar is the same
combination over the blocks its program visits, and the merge combines the programs' values by
that operation. The masks still bound the columns (the loop's loads are unchanged)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    Fit,
    Kernel,
    Module,
    Plan,
    assigned_names,
    body_after_docstring,
    call_arg,
    calls,
    check_callees,
    check_params,
    check_wrappers,
    grid_elem_text,
    grid_elements,
    kernel_span,
    loop_refusal,
    names_in,
    pick,
    program_id_axis,
    sms_device_arg,
    survey_one,
)
from .patterns import is_columns

NAME = "split_rows"
DEFAULT_SPLIT = 8
DEFAULTS = {"kernel": "", "SPLIT": DEFAULT_SPLIT}
DOMAIN = {"SPLIT": [2, 4, 8, 16, 32]}
MAX_MERGE_LANES = 16384   # SPLIT * B: the merge kernel holds that many lanes of each carried vector
COMBINE = {"sum": "sum", "maximum": "max", "minimum": "min"}     # a running update -> POST's reduction
NO_POST = {"arange", "full", "zeros", "zeros_like", "full_like", "argmax", "argmin", "cumsum", "cumprod",
           "sort", "reshape", "view", "trans", "permute", "broadcast_to", "expand_dims", "join", "split",
           "gather", "histogram", "associative_scan", "reduce", "flip", "interleave", "cat"}
TORCH_DTYPES = {"float32", "float16", "bfloat16", "float64", "int32", "int64", "int16", "int8", "uint8"}  # same names


@dataclass
class SplitPlan(Plan):
    loop: ast.For
    post: list[ast.stmt]
    block: str                                   # the loop's step constexpr
    carried: dict[str, tuple[ast.Assign, str]] = field(default_factory=dict)  # name -> (init, torch dtype)
    device_arg: str = ""
    scalars: dict[str, str] = field(default_factory=dict)   # carried scalars -> their running update


def _init(mod: Module, stmt: ast.stmt, block: str) -> tuple[str, str] | None:
    """(name, torch dtype) of ``c = tl.full([B], v, tl.T)`` / ``c = tl.zeros([B], dtype=tl.T)``."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
        return None
    v = stmt.value
    if mod.tl_func(v) not in ("full", "zeros"):
        return None
    assert isinstance(v, ast.Call)
    shape = call_arg(v, 0, "shape")
    dt = call_arg(v, 2, "dtype") if mod.tl_func(v) == "full" else call_arg(v, 1, "dtype")
    if not (isinstance(shape, (ast.List, ast.Tuple)) and len(shape.elts) == 1 and isinstance(shape.elts[0], ast.Name)
            and shape.elts[0].id == block):
        return None
    q = mod.qualname(dt) if isinstance(dt, ast.Attribute) else None
    t = q[len("triton.language."):] if q and q.startswith("triton.language.") else None
    if t not in TORCH_DTYPES:
        return None
    return stmt.targets[0].id, t


def _zero(mod: Module, init: ast.expr) -> bool:
    """The init holds zeros: ``tl.zeros``, ``tl.full`` of 0, or the scalar 0.0."""
    if mod.tl_func(init) == "zeros":
        return True
    v = call_arg(init, 1, "value") if isinstance(init, ast.Call) else init
    return isinstance(v, ast.Constant) and not isinstance(v.value, bool) and v.value == 0


def _float_scalar(init: ast.expr) -> bool:
    """A float literal (``0.0``), ``float("-inf")`` or its negation: a scalar running value
    whose partial results the scratch keeps in float64 (exact for a float32 or float64 one)."""
    if isinstance(init, ast.UnaryOp) and isinstance(init.op, ast.USub):
        init = init.operand
    if isinstance(init, ast.Constant):
        return isinstance(init.value, float)
    return (isinstance(init, ast.Call) and isinstance(init.func, ast.Name) and init.func.id == "float"
            and len(init.args) == 1 and isinstance(init.args[0], ast.Constant)
            and str(init.args[0].value).lstrip("+-") in ("inf", "Infinity"))


def _loop(mod: Module, k: Kernel, body: list[ast.stmt]) -> tuple[int, str]:
    """The index of the one top-level loop in body and its step constexpr."""
    loops = [i for i, s in enumerate(body) if isinstance(s, (ast.For, ast.While))]
    nested = [n for n in ast.walk(k.node) if isinstance(n, (ast.For, ast.While))]
    if len(loops) != 1 or len(nested) != 1:
        raise RewriteRefused(f"{k.name}: {len(nested)} loop(s); the rewrite splits one top-level loop over the row")
    loop = body[loops[0]]
    it = loop.iter if isinstance(loop, ast.For) else None
    if not (isinstance(loop, ast.For) and isinstance(loop.target, ast.Name) and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name) and it.func.id == "range" and len(it.args) == 3 and not it.keywords):
        raise RewriteRefused(f"{k.name} line {loop.lineno}: the loop is not `for v in range(0, N, B)`")
    start, _, step = it.args
    if not (isinstance(start, ast.Constant) and start.value == 0 and not isinstance(start.value, bool)):
        raise RewriteRefused(f"{k.name} line {loop.lineno}: the loop starts at {mod.text(start)}, not 0")
    if not (isinstance(step, ast.Name) and step.id in k.constexprs):
        raise RewriteRefused(f"{k.name} line {loop.lineno}: the loop's step {mod.text(step)} is not a constexpr")
    return loops[0], step.id


def _columns(mod: Module, loop: ast.For, e: ast.expr, block: str) -> bool:
    """e is the loop's column vector: a name the loop binds to ``v + tl.arange(0, B)`` (either
    order), or that name's ``.to(...)``."""
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr == "to":
        e = e.func.value
    if not (isinstance(e, ast.Name) and isinstance(loop.target, ast.Name)):
        return False
    binds = [s for s in loop.body if isinstance(s, ast.Assign) and len(s.targets) == 1
             and isinstance(s.targets[0], ast.Name) and s.targets[0].id == e.id]
    return len(binds) == 1 and is_columns(mod, binds[0].value, loop.target.id, block)


def _update(mod: Module, s: ast.stmt, c: str, carried: set[str]) -> tuple[str, ast.expr | None, str | None]:
    """How the loop updates carried name c in statement s: ("sum"|"maximum"|"minimum", None,
    None), or ("select", the value selected, the condition's name)."""
    if isinstance(s, ast.AugAssign) and isinstance(s.op, ast.Add) and not names_in(s.value) & carried:
        return "sum", None, None
    v = s.value if isinstance(s, ast.Assign) else None
    if isinstance(v, ast.BinOp) and isinstance(v.op, ast.Add):
        for mine, other in ((v.left, v.right), (v.right, v.left)):
            if isinstance(mine, ast.Name) and mine.id == c and not names_in(other) & carried:
                return "sum", None, None
    f = mod.tl_func(v)
    if (isinstance(v, ast.Call) and f in ("maximum", "minimum") and len(v.args) == 2 and not v.keywords
            and isinstance(v.args[0], ast.Name) and v.args[0].id == c and not names_in(v.args[1]) & carried):
        return str(f), None, None
    if isinstance(v, ast.Call) and f == "where" and len(v.args) == 3 and not v.keywords:
        t, x, old = v.args
        if isinstance(t, ast.Name) and isinstance(old, ast.Name) and old.id == c and not names_in(x) & carried:
            return "select", x, t.id
    raise RewriteRefused(f"line {s.lineno}: {c} is not updated as a running sum, maximum, minimum or first "
                         "extremum")


def _targets(n: ast.AST) -> list[ast.expr]:
    if isinstance(n, ast.Assign):
        return list(n.targets)
    if isinstance(n, (ast.AugAssign, ast.AnnAssign)):
        return [n.target]
    return []


def _kinds(mod: Module, loop: ast.For, carried: set[str], block: str) -> dict[str, tuple[str, str]]:
    """Each carried name's combination (kind, key): sum, maximum or minimum (key ""), or a first
    extremum first_max / first_min (key: itself) and its index (kind index, key: the extremum)."""
    for n in ast.walk(loop):
        if n not in loop.body and any(isinstance(t, ast.Name) and t.id in carried for t in _targets(n)):
            raise RewriteRefused(f"line {getattr(n, 'lineno', loop.lineno)}: a carried name is updated inside a "
                                 "nested statement of the loop")
    ups: dict[str, tuple[str, ast.expr | None, str | None]] = {}
    for s in loop.body:
        for c in (t.id for t in _targets(s) if isinstance(t, ast.Name) and t.id in carried):
            if c in ups:
                raise RewriteRefused(f"line {s.lineno}: {c} is updated twice in the loop")
            ups[c] = _update(mod, s, c, carried)
    conds = {cond for kind, _, cond in ups.values() if kind == "select" and cond}
    for st in loop.body:      # a partial lane read for anything but its own update misleads
        own = {t.id for t in _targets(st) if isinstance(t, ast.Name)}
        for n in ast.walk(st):
            if (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in carried
                    and n.id not in own and not own & conds):
                raise RewriteRefused(f"line {st.lineno}: reads {n.id} in the loop other than to update it")
    out = {c: (kind, "") for c, (kind, _, _) in ups.items() if kind != "select"}
    for t in sorted(conds):
        binds = [s for s in loop.body if isinstance(s, ast.Assign) and len(s.targets) == 1
                 and isinstance(s.targets[0], ast.Name) and s.targets[0].id == t]
        cmp = binds[0].value if len(binds) == 1 else None
        group = [c for c, (kind, _, cond) in ups.items() if kind == "select" and cond == t]
        if not (isinstance(cmp, ast.Compare) and len(cmp.ops) == 1 and isinstance(cmp.ops[0], (ast.Gt, ast.Lt))
                and isinstance(cmp.comparators[0], ast.Name) and cmp.comparators[0].id in group
                and not names_in(cmp.left) & carried):
            raise RewriteRefused(f"{t}: the selections' condition is not one strict comparison `x > k` or "
                                 "`x < k` with a carried name k they select")
        key = cmp.comparators[0].id
        kx = ups[key][1]
        if kx is None or ast.dump(kx) != ast.dump(cmp.left):
            raise RewriteRefused(f"{key} does not take the value it is compared with")
        out[key] = ("first_max" if isinstance(cmp.ops[0], ast.Gt) else "first_min", key)
        for c in group:
            x = ups[c][1]
            if c != key and (x is None or not _columns(mod, loop, x, block)):
                raise RewriteRefused(f"{c} keeps something other than the column of its extremum {key}")
            if c != key:
                out[c] = ("index", key)
    return out


def _reduced(mod: Module, node: ast.AST, how: str) -> bool:
    """node is the first argument of ``tl.<how>(node)`` over axis 0 or every axis."""
    call = mod.parents.get(node)
    if not (isinstance(call, ast.Call) and mod.tl_func(call) == how and call.args and call.args[0] is node):
        return False
    axis = call_arg(call, 1, "axis")
    return axis is None or (isinstance(axis, ast.Constant) and axis.value in (0, None))


def _picked(mod: Module, n: ast.Name, kind: str, key: str,
            extremes: dict[str, str]) -> bool:
    """n (an extremum or its index) inside ``tl.min(tl.where(key == m, index, other))``, m the
    name POST bound to the extremum's reduction."""
    where: ast.AST | None
    if kind == "index":
        where = mod.parents.get(n)
        if not (isinstance(where, ast.Call) and mod.tl_func(where) == "where" and len(where.args) == 3
                and where.args[1] is n):
            return False
        cmp: ast.AST | None = where.args[0]
    else:
        cmp = mod.parents.get(n)
        where = mod.parents.get(cmp) if cmp is not None else None
    if not (isinstance(cmp, ast.Compare) and len(cmp.ops) == 1 and isinstance(cmp.ops[0], ast.Eq)):
        return False
    sides = [cmp.left, cmp.comparators[0]]
    if not (any(isinstance(x, ast.Name) and x.id == key for x in sides)
            and any(isinstance(x, ast.Name) and extremes.get(x.id) == key for x in sides)):
        return False
    return (isinstance(where, ast.Call) and mod.tl_func(where) == "where" and len(where.args) == 3
            and where.args[0] is cmp and _reduced(mod, where, "min"))


def _combined(mod: Module, n: ast.Name, kind: str, key: str,
              extremes: dict[str, str]) -> bool:
    """n, a carried name read after the loop, is read as its combination over every lane."""
    if kind in COMBINE:
        return _reduced(mod, n, COMBINE[kind])
    if kind in ("first_max", "first_min") and _reduced(mod, n, "max" if kind == "first_max" else "min"):
        return True
    return _picked(mod, n, kind, key, extremes)


def _check_post(mod: Module, post: list[ast.stmt], kinds: dict[str, tuple[str, str]], loop_names: set[str]) -> None:
    """POST reads no loop name but the carried ones, and each carried one only as its
    combination over every lane (the module docstring)."""
    extremes: dict[str, str] = {}          # a name POST binds to an extremum's reduction -> the extremum
    for s in post:
        if any(isinstance(n, (ast.For, ast.While)) for n in ast.walk(s)):
            raise RewriteRefused(f"line {s.lineno}: a loop after the row loop")
        bad = ((names_in(s) - assigned_names([s])) & loop_names) - set(kinds)
        if bad:
            raise RewriteRefused(f"line {s.lineno}: reads {', '.join(sorted(bad))}, bound in the loop")
        for c in calls(s):
            if (mod.tl_func(c) or "") in NO_POST:
                raise RewriteRefused(f"line {s.lineno}: tl.{mod.tl_func(c)} after the loop")
        if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)):
            continue
        v = s.value
        if isinstance(v, ast.Call) and v.args and isinstance(v.args[0], ast.Name) and \
                kinds.get(v.args[0].id, ("", ""))[0] in ("first_max", "first_min"):
            extremes[s.targets[0].id] = v.args[0].id
    for s in post:
        for n in ast.walk(s):
            if not (isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in kinds):
                continue
            kind, key = kinds[n.id]
            ok = _combined(mod, n, kind, key, extremes)
            if not ok:
                raise RewriteRefused(f"line {s.lineno}: {n.id} is used after the loop other than as its "
                                     f"{kind.replace('_', ' ')} over every lane")


def analyze(mod: Module, k: Kernel) -> SplitPlan:
    name = k.name
    check_wrappers(mod, k, "launch")
    check_callees(mod, k)
    for c in calls(k.node):
        if mod.tl_func(c) == "num_programs" or program_id_axis(mod, c) not in (None, 0):
            raise RewriteRefused(f"{name} line {c.lineno}: uses tl.num_programs or tl.program_id of an axis but 0")
    refusal = loop_refusal(k)
    if refusal:
        raise RewriteRefused(refusal)
    body = body_after_docstring(k)
    at, block = _loop(mod, k, body)
    pre, loop, post = body[:at], body[at], body[at + 1:]
    assert isinstance(loop, ast.For)
    if not post:
        raise RewriteRefused(f"{name}: nothing after the loop combines its lanes")
    for s in pre:
        for c in calls(s):
            f = mod.tl_func(c) or ""
            if f == "store" or f.startswith("atomic"):
                raise RewriteRefused(f"{name} line {s.lineno}: stores before the loop")
    loop_names = assigned_names([loop])
    inits = {r[0]: (s, r[1]) for s in pre if isinstance(s, ast.Assign) and (r := _init(mod, s, block)) is not None}
    floats = {s.targets[0].id: s for s in pre if isinstance(s, ast.Assign) and len(s.targets) == 1
              and isinstance(s.targets[0], ast.Name) and _float_scalar(s.value)}
    inits.update({c: (st, "float64") for c, st in floats.items()})
    carried = {c: inits[c] for c in loop_names if c in inits}
    others = (loop_names & assigned_names(pre)) - set(carried)
    if not carried or others:
        raise RewriteRefused(f"{name}: the loop carries {', '.join(sorted(others)) or 'nothing'}, not a vector "
                             f"of {block} lanes made by tl.full/tl.zeros, nor a float, bound before it")
    for st in pre:            # K_merge makes the carried names wider: nothing before the loop reads them
        late = {n.id for n in ast.walk(st) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} & set(carried)
        if late:
            raise RewriteRefused(f"line {st.lineno}: reads {', '.join(sorted(late))} before the loop")
    kinds = _kinds(mod, loop, set(carried), block)
    scalars = {c: kinds[c][0] for c in carried if c in floats and c in kinds}
    for var, (kind, _) in kinds.items():
        if kind == "sum" and not _zero(mod, carried[var][0].value):
            raise RewriteRefused(f"line {carried[var][0].lineno}: the sum {var} does not start at 0 (each split "
                                 "program would add its start again)")
        if var in scalars and kind not in COMBINE:
            raise RewriteRefused(f"{var}: a scalar kept as a first extremum (only its vector form is split)")
    # a scalar is whole again after K_merge: the code after the loop may read it as it likes
    _check_post(mod, post, {c: kd for c, kd in kinds.items() if c not in scalars}, loop_names - set(scalars))
    if mod.alias_for("torch") is None:
        raise RewriteRefused("the module does not `import torch` (needed for the scratch)")
    site = mod.one_site(name)
    if not (isinstance(site.stmt, ast.Expr) and site.stmt.value is site.call):
        raise RewriteRefused(f"line {site.call.lineno}: the launch of {name} is not a statement of its own")
    mod.check_no_double_star(site.call)
    if len(grid_elements(mod, site)) != 1:
        raise RewriteRefused(f"line {site.call.lineno}: the grid is not 1-D")
    grid_elem_text(mod, site, 0)
    if block not in {kw.arg for kw in site.call.keywords}:
        raise RewriteRefused(f"line {site.call.lineno}: the launch does not pass {block} by keyword")
    device_arg = sms_device_arg(mod, k, site)
    if device_arg is None:
        raise RewriteRefused(f"line {site.call.lineno}: no tensor is passed to {name} as a plain name (its device "
                             "holds the scratch)")
    rows = mod.recorded_grid(name)[0]
    width = mod.recorded_int(name, block)
    splits = [v for v in DOMAIN["SPLIT"] if v * width <= MAX_MERGE_LANES]
    if not splits:
        raise RewriteRefused(f"{name}: at a block of {width}, even SPLIT {DOMAIN['SPLIT'][0]} gives the merge "
                             f"kernel more than {MAX_MERGE_LANES} lanes to combine")
    why = (f"{name}: {rows} program(s) (line {site.call.lineno}) each walk a row in blocks of {block} (line "
           f"{loop.lineno}) keeping {', '.join(sorted(carried))} per lane, combined after the loop by maxima, "
           "minima and sums: each row can be split over several programs and their lanes combined")
    default = max(v for v in splits if v <= DEFAULT_SPLIT)     # the domain's least, 2, always is
    return SplitPlan(k, site, why, {**DEFAULTS, "kernel": name, "SPLIT": default}, {"SPLIT": splits}, loop,
                     post, block, carried, device_arg, scalars)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def _kernel_text(mod: Module, plan: SplitPlan, new_name: str, ws: dict[str, str], split: str,
                 body_edits: list[Edit]) -> str:
    k = plan.kernel
    a, b = kernel_span(mod, k)
    n0, n1 = mod.def_name_token(k.node)
    params = mod.add_kernel_params(k, [*((w, False, "0") for w in ws.values()), (split, True, "1")])
    return mod.edited_range(a, b, [Edit(n0, n1, new_name), params, *body_edits])


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    k, site, loop, b = plan.kernel, plan.site, plan.loop, plan.block
    tl, torch = mod.tl(), str(mod.alias_for("torch"))
    split_name, merge_name = mod.fresh(f"{k.name}_split"), mod.fresh(f"{k.name}_merge")
    split = mod.fresh("SPLIT")
    ws = {c: mod.fresh(f"{c}_ws") for c in sorted(plan.carried)}          # kernel parameters
    bufs = {c: mod.fresh(f"{c}_ws") for c in sorted(plan.carried)}        # forward's locals
    row = f"{tl}.program_id(0).to({tl}.int64)"
    it = loop.iter
    assert isinstance(it, ast.Call)
    # K_split: every SPLIT-th block from its own, then its lanes to its scratch slot
    rng = f"range({tl}.program_id(1) * {b}, {mod.text(it.args[1])}, {split} * {b})"
    ind = mod.stmt_indent(plan.post[0])
    slot = f"{row} * {split} + {tl}.program_id(1)"
    stores = [f"{tl}.store({ws[c]} + {slot}, {c})" if c in plan.scalars else
              f"{tl}.store({ws[c]} + ({slot}) * {b} + {tl}.arange(0, {b}), {c})" for c in sorted(plan.carried)]
    pa, _ = mod.index.span(plan.post[0])
    _, pb = mod.index.span(plan.post[-1])
    split_text = _kernel_text(mod, plan, split_name, ws, split,
                              [mod.replace(it, rng), Edit(pa, pb, f"\n{ind}".join(stores))])
    # K_merge: the row's SPLIT slots side by side as the lanes, no loop
    lanes = f"{split} * {b}"
    loads = [mod.replace_stmt(init, [
        f"{c} = {tl}.{COMBINE[plan.scalars[c]]}({tl}.load({ws[c]} + {row} * {split} + {tl}.arange(0, {split})), axis=0)"
        if c in plan.scalars else f"{c} = {tl}.load({ws[c]} + {row} * ({lanes}) + {tl}.arange(0, {lanes}))"])
        for c, (init, _) in plan.carried.items()]
    merge_text = _kernel_text(mod, plan, merge_name, ws, split, [*loads, mod.delete_stmt(loop)])
    a, z = kernel_span(mod, k)
    # forward: B and SPLIT bound once to locals (one knob each for the search), the scratch,
    # both launches
    kws = {kw.arg: kw for kw in site.call.keywords}
    blk, s = mod.fresh(b.lower()), mod.fresh(split.lower())
    g0 = grid_elem_text(mod, site, 0)
    device = mod.text(site.bound[plan.device_arg])
    before = [f"{blk} = {mod.text(kws[b].value)}", f"{s} = {int(p['SPLIT'])}"]
    before += [f"{bufs[c]} = {torch}.empty((({g0}) * {s}{'' if c in plan.scalars else f' * {blk}'},), "
               f"dtype={torch}.{plan.carried[c][1]}, device={device}.device)" for c in sorted(plan.carried)]
    args = [mod.text(x) for x in site.call.args]
    args += [f"{kw.arg}={blk if kw.arg == b else mod.text(kw.value)}" for kw in site.call.keywords]
    args += [f"{ws[c]}={bufs[c]}" for c in sorted(plan.carried)] + [f"{split}={s}"]
    launches = [f"{split_name}[({g0}, {s})]({', '.join(args)})", f"{merge_name}[({g0},)]({', '.join(args)})"]
    edits = [Edit(a, z, split_text + "\n\n\n" + merge_text), mod.insert_before(site.stmt, before),
             mod.replace_stmt(site.stmt, launches)]
    return apply_edits(mod.source, edits)
