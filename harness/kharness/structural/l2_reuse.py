"""l2_reuse: a kernel that reads the same tensor in two or more passes (a row walked once for
its maximum, again for its sum, again to write it: the loop form of softmax, log-softmax and
norms whose row does not fit in registers) gets cache-eviction hints, so that the data of an
earlier pass stays in L2 for the later one and the last pass does not push it out.

Precondition (syntax and the recorded launch): two or more ``for`` statements at the top level
of the kernel's body each load (``tl.load``) through a pointer computed from the same
parameter, one the recorded launch passed a tensor; none
of those loads, nor a store in the last such loop, already names an ``eviction_policy`` (the
author chose). A row kept in registers (row_single_block) reads memory once and needs no hint:
the ladder lists that rewrite ahead of this one.

The rewrite, per parameter (each 0 or 1; ``configs`` lists the seven non-empty sets):

    keep     the loads of such a pointer in every loop but the last one that loads it get
             ``eviction_policy="evict_last"`` (kept in L2 ahead of other data)
    stream   the loads in that last loop get ``eviction_policy="evict_first"`` (read for the
             last time: first out)
    stores   the stores in the last loop that loads any such pointer get
             ``eviction_policy="evict_first"`` (written once, not read again by the kernel)

Why it is correct: an eviction policy is a cache hint. It changes which lines L2 keeps, never
the value a load returns or a store writes (Triton documents it as a hint; PTX's
``L2::evict_last``/``evict_first`` qualifiers are cache priorities), so every output is the
one the kernel computed before. The interpreter ignores it. Whether it is faster depends on
the data in flight against the L2's size, which the sweep measures."""
from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from ..srcedit import Edit, RewriteRefused, apply_edits
from .common import (
    Fit,
    Kernel,
    Module,
    Plan,
    body_after_docstring,
    call_arg,
    calls,
    check_params,
    derived,
    names_in,
    pick,
    survey_one,
)

NAME = "l2_reuse"
HINT_KEY = "eviction_policy"
KEEP, STREAM = "evict_last", "evict_first"
DEFAULTS = {"kernel": "", "keep": 1, "stream": 1, "stores": 0}
# whole parameter sets, the likeliest first: the passes' reuse, then streaming the last pass
CONFIGS = [{"keep": 1, "stream": 1, "stores": 0}, {"keep": 1, "stream": 0, "stores": 0},
           {"keep": 1, "stream": 1, "stores": 1}, {"keep": 0, "stream": 1, "stores": 0},
           {"keep": 0, "stream": 1, "stores": 1}, {"keep": 1, "stream": 0, "stores": 1},
           {"keep": 0, "stream": 0, "stores": 1}]
DOMAIN = {"keep": [0, 1], "stream": [0, 1], "stores": [0, 1]}


@dataclass
class ReusePlan(Plan):
    kept: list[ast.Call]          # loads re-read by a later loop
    streamed: list[ast.Call]      # the last loop's loads of a re-read pointer
    stores: list[ast.Call]        # stores of the last loop that re-reads


def _reads_from(mod: Module, param: str) -> Callable[[ast.AST, set[str]], bool]:
    """`derived`'s test: an address computed from param or a name already derived from it. A
    value loaded from memory is data, not an address into param's tensor (an index loaded
    from one tensor and used to address another does not make the first read twice)."""
    def depends(e: ast.AST, so_far: set[str]) -> bool:
        if any(mod.tl_func(c) == "load" for c in calls(e)):
            return False
        return bool(names_in(e) & ({param} | so_far))
    return depends


def _loads_of(mod: Module, node: ast.AST, roots: set[str]) -> list[ast.Call]:
    found = []
    for c in calls(node):
        ptr = call_arg(c, 0, "pointer") if mod.tl_func(c) == "load" else None
        if ptr is not None and names_in(ptr) & roots:
            found.append(c)
    return found


def _check_unhinted(mod: Module, k: Kernel, c: ast.Call) -> None:
    if any(kw.arg == HINT_KEY for kw in c.keywords):
        raise RewriteRefused(f"{k.name} line {c.lineno}: tl.{mod.tl_func(c)} already names an {HINT_KEY} "
                             "(the author's choice is kept)")


def analyze(mod: Module, k: Kernel) -> ReusePlan:
    loops = [s for s in body_after_docstring(k) if isinstance(s, ast.For)]
    kept: list[ast.Call] = []
    streamed: list[ast.Call] = []
    tensors: list[str] = []
    last_loop: ast.For | None = None
    values = mod.recorded_values(k.name)        # refused when the forward did not launch it
    for p in [q for q in k.params if values.get(q, {}).get("kind") == "tensor"]:
        roots = {p} | derived(k, _reads_from(mod, p))
        per_loop = [(loop, _loads_of(mod, loop, roots)) for loop in loops]
        per_loop = [(loop, loads) for loop, loads in per_loop if loads]
        if len(per_loop) < 2:
            continue
        tensors.append(p)
        for loop, loads in per_loop[:-1]:
            kept += loads
        streamed += per_loop[-1][1]
        if last_loop is None or per_loop[-1][0].lineno > last_loop.lineno:
            last_loop = per_loop[-1][0]
    if not tensors or last_loop is None:
        raise RewriteRefused(f"{k.name}: no tensor is loaded in two or more loops at the top level of the kernel "
                             "(nothing is read again in a later pass)")
    stores = [c for c in calls(last_loop) if mod.tl_func(c) == "store"]
    # one hint per call: a load re-read for one tensor and read last for another streams
    streamed = list({id(c): c for c in streamed}.values())
    kept = [c for c in {id(c): c for c in kept}.values() if all(c is not s for s in streamed)]
    for c in [*kept, *streamed, *stores]:
        _check_unhinted(mod, k, c)
    sites = mod.sites_of(k.name)
    if not sites:
        raise RewriteRefused(f"{k.name} is never launched in this module")
    first = ", ".join(f"line {n}" for n in sorted({c.lineno for c in kept}))
    again = ", ".join(f"line {n}" for n in sorted({c.lineno for c in streamed}))
    why = (f"{k.name}: {', '.join(tensors)} loaded in a pass ({first}) and again in a later one ({again}): "
           "hints can keep the earlier pass's lines in L2 for the later one")
    return ReusePlan(k, sites[0], why, {**DEFAULTS, "kernel": k.name}, {"configs": list(CONFIGS)},
                     kept, streamed, stores)


def survey(mod: Module) -> Fit:
    return survey_one(mod, NAME, analyze)


def apply(mod: Module, params: dict[str, object]) -> str:
    kernel = params.get("kernel")
    plan = pick(mod, NAME, analyze, kernel if isinstance(kernel, str) and kernel else None)
    p = check_params(NAME, dict(params), plan.params, DOMAIN)
    if not (p["keep"] or p["stream"] or p["stores"]):
        raise RewriteRefused(f"{NAME}: keep, stream and stores are all 0; the kernel would not change")
    edits: list[Edit] = []
    for on, hint, nodes in ((p["keep"], KEEP, plan.kept), (p["stream"], STREAM, plan.streamed),
                            (p["stores"], STREAM, plan.stores)):
        if on:
            edits += [mod.add_call_keyword(c, f'{HINT_KEY}="{hint}"') for c in nodes]
    if not edits:
        raise RewriteRefused(f"{NAME}: {plan.kernel.name} has nothing the chosen hints apply to "
                             f"(no store in its last pass for stores={p['stores']})")
    return apply_edits(mod.source, edits)
