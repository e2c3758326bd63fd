/* search: a round's sweep and the memory of every configuration measured in this job.
 *
 * A configuration is the full assignment of the incumbent's knobs (the harness's `knobs`
 * ids) a candidate ran with, tagged with the *structure* it belongs to: the incumbent's
 * kernel up to knob values. A structural rewrite that is accepted starts a new structure
 * (its knobs are other knobs); a change of knob values does not. The rules proposer reads
 * the memory to never measure a configuration twice, to centre the next neighbourhood on
 * the best configuration measured so far, and to prune configurations that dominate one
 * that spilled registers or ran out of shared memory. */
#ifndef KOPT_SEARCH_H
#define KOPT_SEARCH_H
#include <jansson.h>

#include "job.h"

#define SEARCH_STRUCTURE_LEN 16   /* hex digits of a structure id */
#define SEARCH_MEMORY_MAX 4096    /* configurations remembered per job */
#define SEARCH_SHORTLIST 3        /* candidates checked in full per round */
#define SEARCH_MIN_GAIN 0.01      /* screen time must beat the incumbent's by this fraction */
#define SEARCH_REPROFILE_GAIN 1.25 /* incumbent this much faster than the profiled one: again */
#define SEARCH_ROLE_MAX 32        /* bytes of a knob's role, as a structural param's name */

struct search {
  json_t *memory;                              /* owned: array of measured configurations */
  char structure[SEARCH_STRUCTURE_LEN + 1];    /* the incumbent's structure id */
  json_t *siblings;                            /* owned: pending structural siblings, or NULL */
};

void search_init(struct search *s, const char *kernel_sha256);
void search_free(struct search *s);
/* A new structure (after an accepted structural rewrite): the id from the new source's
 * sha256. */
void search_new_structure(struct search *s, const char *kernel_sha256);

/* Whether a profile (L2) still describes the incumbent: it was taken of the incumbent's
 * structure, when the job's cumulative speedup was profiled_speedup, and the incumbent is
 * less than SEARCH_REPROFILE_GAIN times faster since (speedup). Knob values usually keep a
 * kernel's bottleneck (an elementwise kernel stays memory-bound at any block), and a profile
 * costs more than a sweep on short kernels, so a profile is kept across knob changes; but not
 * when they changed the kernel a lot: the unseen attention on the H200 went from 32 x 32 to
 * 128 x 64 tiles (2.8x faster) and its rounds 3-5 still read the 32 x 32 kernel's
 * "memory-bound (631.3 us; memory 85%)" (bench/results/h200-unseen-2026-12-02). */
int search_profile_current(const struct search *s, const char *profiled_structure, double profiled_speedup,
                           double speedup);

/* The incumbent's knob values {id: value} from a `knobs` result (new reference). */
json_t *search_knob_values(const json_t *knobs);
/* Remembers every measured candidate of a sweep result: configuration (the incumbent's
 * knob values overridden by the candidate's changes), time, status, compile facts. Not a
 * structural or a model's candidate (other knobs), nor one the harness marked noisy (its
 * time is not known: a later round may measure it again). */
void search_remember(struct search *s, const json_t *knobs, const json_t *sweep, int round);
/* Remembers the proposed candidates of a sweep that failed as a whole (the harness timed
 * out or died; why says so) as configurations that errored, so later rounds move on instead
 * of proposing the same sweep again (measured on the H200: three rounds of one job each
 * spent their limit on the same block-size sweep). */
void search_remember_failed(struct search *s, const json_t *knobs, const json_t *candidates,
                            int round, const char *why);
/* Forgets a sweep candidate's configuration of the current structure (not the incumbent's
 * own entry): its measurement is not to be trusted, so it may be proposed again. Returns how
 * many entries went. */
unsigned search_forget(struct search *s, const json_t *knobs, const json_t *cand);
/* Structural siblings. A structural rewrite sweeps several points of one rewrite (tile_grid:
 * tiles, warps, stages, with and without descriptors); the accepted one starts a structure
 * whose first sweep would otherwise know none of them, and centre on a pattern's region
 * instead (the H200's linear_bias: round 1 measured four points of the descriptor kernel it
 * chose, round 2 swept 32 tutorial-sized tiles, the fastest 1.69x slower, in runs 13 and 14). Adopting
 * keeps, pending the new structure's knobs, the accepted point's rewrite and params and a
 * reference to the sweep's candidates (their times, statuses and compile facts are read when
 * the knobs come); it replaces what was pending. Nothing when chosen_id is not a structural
 * candidate of sweep. */
void search_adopt_siblings(struct search *s, const json_t *sweep, const char *chosen_id, int round);
/* Remembers the pending siblings as configurations of the current structure, once its knobs
 * are known, and drops them. A point counts when (1) the structure is still the one they were
 * adopted for, (2) the rewrite's params name every knob of it, by the knob's id or its role in
 * capitals (a rewrite sets what its params say: a value it derives, e.g. warps from a row
 * length, would be unknown), (3) the accepted point, read so, is the incumbent's knob values,
 * and (4) the point's params that no knob takes equal the accepted point's (tile_grid's TMA,
 * PERSISTENT: another kernel). The configuration is the point's values of the knobs. Returns
 * how many. */
unsigned search_remember_siblings(struct search *s, const json_t *knobs);
/* 1 if cfg ({id: value}) of the current structure was measured already. */
int search_measured(const struct search *s, const json_t *cfg);

/* Candidate ids worth checking on every case: status ok, screen time below the incumbent's
 * by more than min_gain, fastest first, at most n (new reference: array of strings). */
json_t *search_shortlist(const json_t *sweep, unsigned n, double min_gain);
/* The sweep's record of candidate id (borrowed), or NULL. */
const json_t *search_candidate(const json_t *sweep, const char *id);
/* The sweep as round evidence: every candidate without its source (new reference). */
json_t *search_record(const json_t *sweep);

#endif
