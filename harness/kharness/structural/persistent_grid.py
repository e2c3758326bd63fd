"""persistent_grid: when each program does little work, a 1-D grid of num_tiles programs
becomes min(num_tiles, NUM_SMS * k) programs, each looping over the tiles
``for tile in range(tl.program_id(0), num_tiles, tl.num_programs(0))`` with the original body.

Precondition: the grid is a 1-D tuple (recorded as [num_tiles]); the kernel uses only
``tl.program_id(0)``, never ``tl.num_programs``; its body has no ``return`` (an early return
would end all the program's later tiles) and assigns none of the kernel's parameters (the
change would carry into the next tile); the module imports torch; the launch is a statement
of its own and passes at least one tensor as a plain name (whose device gives the SM count).

The rewrite: the body moves into the tile loop with every ``tl.program_id(0)`` replaced by
``tl.cast(tile, tl.int32)``; the kernel gets a ``num_tiles`` parameter; forward computes
``num_sms = torch.cuda.get_device_properties(x.device).multi_processor_count if x.is_cuda
else 4`` (the interpreter has no SMs: 4 programs then) and launches
``(min(num_tiles, num_sms * k),)`` programs with ``num_tiles`` = the original grid size.

Why it is correct: the loop visits each tile t in [0, num_tiles) exactly once (program p
takes p, p + P, p + 2P, ... for P programs), and the body for tile t is the original
program t's body; as the body neither returns nor changes a parameter, the tiles a program
runs do not affect each other.

``hoist`` (offered, default 1, where the body adds into shared addresses with ``tl.atomic_add``
that hoist_atomics says may leave the loop): each such sum is kept in registers across the
program's tiles and added once after the loop (hoist_atomics.py says why that is the same)."""
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
    body_after_docstring,
    calls,
    check_callees,
    check_params,
    check_wrappers,
    from_template,
    grid_elem_text,
    grid_elements,
    loop_refusal,
    pick,
    program_id_axis,
    reindent,
    sms_device_arg,
    survey_one,
)
from .hoist_atomics import Hoist, accumulate_text, hoist_texts, hoistable

NAME = "persistent_grid"
DEFAULTS = {"kernel": "", "k": 4}
DOMAIN = {"k": [1, 2, 4, 8, 16]}
INTERP_SMS = 4          # programs per "SM" count used when the tensors are not on a CUDA device

SMS = "NUM_SMS = torch.cuda.get_device_properties(X.device).multi_processor_count if X.is_cuda else FALLBACK"


@dataclass
class PersistentPlan(Plan):
    device_arg: str
    tiles: int
    hoists: list[Hoist] = field(default_factory=list)


def analyze(mod: Module, k: Kernel) -> PersistentPlan:
    name = k.name
    check_wrappers(mod, k, "launch")
    check_callees(mod, k)
    axes = [program_id_axis(mod, c) for c in calls(k.node) if program_id_axis(mod, c) is not None]
    if not axes:
        raise RewriteRefused(f"{name} never calls tl.program_id")
    if any(a != 0 for a in axes):
        raise RewriteRefused(f"{name} uses tl.program_id of another axis than 0; the persistent loop covers a "
                             "1-D grid")
    for c in calls(k.node):
        if mod.tl_func(c) == "num_programs":
            raise RewriteRefused(f"{name} line {c.lineno}: uses tl.num_programs, which the persistent grid changes")
    refusal = loop_refusal(k)
    if refusal:
        raise RewriteRefused(refusal)
    if mod.alias_for("torch") is None:
        raise RewriteRefused("the module does not `import torch` (needed for the SM count)")
    site = mod.one_site(name)
    if not (isinstance(site.stmt, ast.Expr) and site.stmt.value is site.call):
        raise RewriteRefused(f"line {site.call.lineno}: the launch of {name} is not a statement of its own")
    elts = grid_elements(mod, site)
    if len(elts) != 1:
        raise RewriteRefused(f"line {site.call.lineno}: the grid has {len(elts)} axes; the persistent loop covers "
                             "a 1-D grid")
    grid_elem_text(mod, site, 0)
    device_arg = sms_device_arg(mod, k, site)
    if device_arg is None:
        raise RewriteRefused(f"line {site.call.lineno}: no tensor is passed to {name} as a plain name (its device "
                             "gives the SM count)")
    tiles = mod.recorded_grid(name)[0]
    why = (f"{name}: a 1-D grid of {tiles} programs (line {site.call.lineno}) over a body with no early return, "
           "no use of tl.num_programs and no assignment to a parameter: the programs can loop over the tiles")
    params: dict[str, Any] = {**DEFAULTS, "kernel": name}
    domain: dict[str, list[Any]] = dict(DOMAIN)
    try:
        hoists = hoistable(mod, k)
    except RewriteRefused:
        hoists = []
    if hoists:
        params["hoist"], domain["hoist"] = 1, [1, 0]
        lines = ", ".join(str(h.call.lineno) for h in hoists)
        why += (f"; the atomic sum(s) at line {lines} add into the same addresses from every tile, so each "
                "program can add its tiles' sum once")
    return PersistentPlan(k, site, why, params, domain, device_arg, tiles, hoists)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, Any]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, plan.domain)
    k, site = plan.kernel, plan.site
    tl = mod.tl()
    tile = mod.fresh("tile")
    num_tiles = mod.fresh("num_tiles")
    num_sms = mod.fresh("num_sms")
    body = body_after_docstring(k)      # the docstring stays outside the loop
    mod.check_no_multiline_strings(k.node, k.name)
    ind = mod.stmt_indent(body[0])
    start = mod.index.offset(body[0].lineno, body[0].col_offset)
    end = mod.index.span(body[-1])[1]
    # tl.cast: the loop variable as tl.program_id's int32 (under the interpreter `range` yields
    # Python ints, on which `pid.to(tl.int64)` fails; compiled, the cast of an int32 is free)
    pid_edits = [mod.replace(c, f"{tl}.cast({tile}, {tl}.int32)") for c in calls(k.node)
                 if program_id_axis(mod, c) == 0]
    hoists = plan.hoists if int(p.get("hoist", 0)) else []
    accs = [mod.fresh("atomic_acc") for _ in hoists]
    acc_edits = [mod.replace(h.stmt, accumulate_text(mod, h, acc)) for h, acc in zip(hoists, accs)]
    text = mod.edited_range(start, end, pid_edits + acc_edits)
    before, after = hoist_texts(mod, hoists, accs)
    loop = "".join(f"{line}\n{ind}" for line in before)
    loop += f"for {tile} in range({tl}.program_id(0), {num_tiles}, {tl}.num_programs(0)):\n{ind}    "
    text = reindent(text, "    ") + "".join(f"\n{ind}{line}" for line in after)
    g0 = grid_elem_text(mod, site, 0)
    device = mod.text(site.bound[plan.device_arg])
    sms = from_template(SMS, {"NUM_SMS": num_sms, "torch": str(mod.alias_for("torch")), "X": device,
                              "FALLBACK": ast.Constant(INTERP_SMS)})
    edits = [Edit(start, end, loop + text),
             mod.add_kernel_params(k, [(num_tiles, False, "1")]),
             mod.insert_before(site.stmt, sms),
             mod.replace(site.grid, from_template("(min(G, S * K),)", {"G": g0, "S": num_sms,
                                                                         "K": ast.Constant(int(p["k"]))})[0]),
             mod.add_call_keyword(site.call, f"{num_tiles}={g0}")]
    return apply_edits(mod.source, edits)
