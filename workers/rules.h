/* rules: the built-in proposer. It needs no model: the ladder's family (and direction)
 * becomes a bounded sweep over the kernel's knobs as the harness discovered them from the
 * syntax tree (docs/SEARCH.md), or a structural rewrite whose syntactic precondition the
 * harness confirmed and whose evidence the ladder found.
 *
 * The sweep is a neighbourhood: the family's knobs (primary) and their natural partners
 * (block sizes with num_warps; tile sizes with num_warps and num_stages), each over a window
 * of its domain around the best configuration measured so far, widened in the direction the
 * evidence points; configurations already measured are skipped, and so are those that
 * dominate one that spilled registers or ran out of shared memory (larger tiles, more
 * stages, fewer warps can only need more). The nearest configurations are kept, up to the
 * job's candidate budget. A structural rewrite's points leave the rest of the budget to the
 * kernel as written (its family's sweep), so the two compete in one round. Deterministic
 * for given knobs, evidence and memory. */
#ifndef KOPT_RULES_H
#define KOPT_RULES_H
#include <jansson.h>
#include <stddef.h>

struct evidence; /* evidence.h: only rules_tile reads it */

#define RULES_MAX_KNOBS 24
#define RULES_MAX_VALUES 24
#define RULES_ENUM_MAX 20000    /* configurations enumerated before ranking */

/* A structural round's fill candidates (the kernel as written, swept over its block
 * constexprs with num_warps) carry this origin; a round they win is credited to
 * RULES_FILL_FAMILY in its record (evidence.credited_family), which synthesis reads. */
#define RULES_ORIGIN_AS_WRITTEN "as-written"
#define RULES_FILL_FAMILY "block_size"

/* One knob of the incumbent, with the values the search may give it. */
struct rules_knob {
  char id[64];
  char kind[16];            /* block, num_warps, num_stages, group, split, int */
  char role[16];            /* block_m, block_n, block_k, block, or "" */
  long value;               /* current */
  long dom[RULES_MAX_VALUES];
  unsigned ndom;
  unsigned cur;             /* index of value in dom */
  int dot;                  /* one of its kernels calls tl.dot (the knobs result's facts) */
  char kernel[64];          /* the first kernel it reaches ("" when the result names none) */
};

struct rules_plan_in {
  const json_t *knobs;      /* the harness's knobs result */
  const char *family, *direction;
  const json_t *memory;     /* search memory (search.h); may be NULL */
  const char *structure;    /* the incumbent's structure id */
  const json_t *tried;      /* signatures tried this job (array of strings); may be NULL */
  unsigned max_candidates;
  int round;
  int no_gpu_partners;      /* the IR is triton-ascend's: it ignores num_warps/num_stages outside
                             * its SIMT mode, so they are not swept as partners */
  const json_t *prefer;     /* a matched pattern's preferred values ({knob id, role or kind, or a
                             * structural parameter: value or [values]}), or NULL: the first
                             * sweep of a structure is centred there, later ones rank by it
                             * after the distance from the best measured; structural points
                             * are ordered by it */
  const char *pattern;      /* that pattern's name, for the summary */
  const json_t *tile;       /* {kernel, elems, at: {knob id: value}}: the incumbent's largest
                             * register tensor (its TTGIR) and the launch values it was compiled
                             * with (rules_tile), or NULL: sizes the per-thread cap */
};

struct rules_plan_out {
  json_t *candidates;       /* owned */
  char summary[600];        /* what is swept, for the hypothesis */
  char signature[128];
};

/* Parses the knobs result into ks (at most RULES_MAX_KNOBS); returns how many. */
unsigned rules_parse_knobs(const json_t *knobs, struct rules_knob *ks);
/* Plans one round's candidates. 0 (out->candidates non-empty), -ENOENT (why says what is
 * missing or exhausted), -ENOMEM. */
int rules_plan(const struct rules_plan_in *in, struct rules_plan_out *out, char *why,
               size_t whylen);
/* The incumbent's tile as rules_plan_in.tile wants it (new reference): from the L3 evidence's
 * TTGIR features, else from ev->tile_hint at the knobs' values (knobs: the harness's knobs
 * result of the incumbent), else NULL. */
json_t *rules_tile(const struct evidence *ev, const json_t *knobs);
/* The structural rewrite the harness implements for a family, or NULL. */
const char *rules_structural_for(const char *family);

#endif
