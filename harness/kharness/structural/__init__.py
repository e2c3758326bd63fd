"""Structural rewrites: changes to a kernel's code that no sweep of its launch parameters can
find (docs/SEARCH.md, "Structural rewrites"). One module per rewrite; each module has

    analyze(mod, kernel) -> Plan     raises RewriteRefused with the precondition that failed
    survey(mod) -> Fit               whether some kernel of the module fits
    apply(mod, params) -> str        the rewritten module source

``survey`` checks the syntactic precondition only (with the sizes of the recorded launch);
whether the rewrite is worth trying (uncoalesced loads, a launch-bound kernel, ...) is the
evidence's call, made by the C proposer."""
from __future__ import annotations

from typing import Any

from ..normalize import inline_spreads, name_kernel_attributes, tuple_grids
from ..srcedit import RewriteRefused, check_parses
from . import (
    batch_launches,
    deinterleave_pairs,
    elementwise_vector,
    even_bounds,
    fold_exp2,
    fuse_kernels,
    l2_reuse,
    persistent_grid,
    relaxed_atomics,
    row_single_block,
    rows_per_program,
    specialize,
    split_rows,
    strided_reduction_tiles,
    tile_grid,
    tma_loads,
)
from .common import Fit, Module

__all__ = ["REWRITES", "Fit", "RewriteRefused", "apply", "survey"]

REWRITES = {
    m.NAME: m for m in (row_single_block, tile_grid, strided_reduction_tiles, persistent_grid, elementwise_vector,
                        rows_per_program, tma_loads, deinterleave_pairs, fuse_kernels, l2_reuse, split_rows,
                        even_bounds, fold_exp2, batch_launches, relaxed_atomics, specialize)
}


def normalized(source: str) -> str:
    """The module as the rewrites read it (normalize.py: each step computes the same): a
    kernel held in an attribute named, `**cfg` written out, grid functions as tuples. A
    candidate carries these changes."""
    return tuple_grids(inline_spreads(name_kernel_attributes(source)))


def survey(source: str, launches: list[dict[str, Any]]) -> list[Fit]:
    """For each rewrite, whether the module's syntax fits its precondition. A module that
    does not parse fits nothing (the reason says so)."""
    try:
        mod = Module(normalized(source), launches)
    except RewriteRefused as e:
        return [Fit(name, False, str(e), {}, {}) for name in REWRITES]
    return [m.survey(mod) for m in REWRITES.values()]


def apply(source: str, name: str, params: dict[str, Any], launches: list[dict[str, Any]]) -> str:
    """The module rewritten by structural rewrite ``name`` with ``params`` (over the
    defaults that ``survey`` reports); raises RewriteRefused with a precise reason."""
    m = REWRITES.get(name)
    if m is None:
        raise RewriteRefused(f"unknown structural rewrite {name!r} (known: {', '.join(REWRITES)})")
    mod = Module(normalized(source), launches)
    out = m.apply(mod, params or {})
    check_parses(out, f"module rewritten by {name}")
    return out
