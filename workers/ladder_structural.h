/* ladder_structural: the structural rewrites in the diagnosis ladder. The harness surveys
 * which rewrites fit a kernel's syntax (its knobs result's `structural` list); a level
 * justifies one only where its own evidence shows the pathology the rewrite removes, and puts
 * it ahead of the sweeps, which cannot find it (docs/LADDER.md). Split from ladder.c, whose
 * diag and helpers it uses; pure functions over JSON evidence like the rest of the ladder. */
#ifndef KOPT_LADDER_STRUCTURAL_H
#define KOPT_LADDER_STRUCTURAL_H
#include <jansson.h>

#include "ladder.h"

/* rows_per_program's default ROWS (the rows that make a 1024-element tile) from which a
 * program's row counts as short: a block of 256 elements or fewer. */
#define LADDER_ROWS_SHORT 4

/* At L3, where the IR shows nothing wrong and asks for more work per program (a block size
 * to grow), on a kernel with no block knob whose programs each span a short row
 * (rows_per_program fits with a default ROWS of LADDER_ROWS_SHORT or more):
 * rows_per_program first. knobs: the harness's knobs result ({"knobs", "structural"}).
 * Call it after ladder_l3 and before ladder_structural, whose rewrites go ahead of it. */
void ladder_short_rows(struct ladder_diag *d, const json_t *knobs);

/* Structural rewrites the harness found to fit the kernel's syntax (the `structural` list of
 * its knobs result: [{name, fits, why}]), justified where this level's evidence shows the
 * pathology each one removes: at L1 they are named (needing L3 evidence, so the ladder
 * climbs); at L2 a launch-bound kernel justifies a persistent grid, a latency-bound one on
 * fewer than two waves of programs a split of each row (split_rows, first), another one more
 * rows side by side and a persistent grid; at L3 the IR must show a loop re-reading global
 * memory (a row kept in registers), narrow or uncoalesced loads (2-D coalescing tiles) or
 * tensor-core dots (a tile grid), and bound checks a flag can make constant (even_bounds) or
 * a softmax scale folded into exp2 (fold_exp2) on a kernel with tensor-core dots or
 * compute-bound, never on a memory-bound one, or atomics at an acquire/release ordering that
 * only accumulate (relaxed_atomics, behind the level's other rewrites), and narrow accesses
 * of a kernel whose @triton.jit keeps a size or pointer they read from being specialised
 * (specialize_args, ahead of the level's other rewrites). Justified ones go first: a sweep
 * cannot find them. l2_class and ir may be NULL. */
void ladder_structural(struct ladder_diag *d, const json_t *structural, const char *l2_class,
                       const json_t *ir);

/* The last resort after ladder_fallback's launch parameters, once those are spent too: the
 * structural families whose rewrite the survey says fits (structural: the knobs result's
 * list), justified by no evidence, not in skip, added at the diagnosis's own level in the
 * table's order and said so in its why. A rewrite the proposer has already tried on the
 * kernel has nothing left and is spent like any family. Returns how many were added. */
unsigned ladder_structural_fallback(struct ladder_diag *d, const json_t *structural,
                                    const char *const *skip);

/* 1 for the families that ladder_structural justifies from a structural rewrite's fit and
 * the evidence (its table in ladder_structural.c; coalesce_access when it came from
 * strided_reduction_tiles' survey). */
int ladder_is_structural(const char *family);
/* 1 when a structural family may go before the sweeps this round: at once, or, for one the
 * table marks after_sweep (l2_reuse), once history (the job's rounds, [{family, ...}],
 * borrowed) holds a round of a launch-parameter family. */
int ladder_structural_ready(const char *family, const json_t *history);

#endif
