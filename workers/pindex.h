/* pindex: the pattern index as a job's L1 reads it (docs/PATTERNS.md). A job pins one
 * version of the index when it starts ("latest" and "frozen" are resolved then and recorded
 * in jobs.pattern_version; a job taken over keeps it). Each round, L1 describes the
 * incumbent by its features -- the target whose compiler the evidence comes from, the
 * kernel's class, and symptoms of the source, of the structural rewrites the harness found
 * to fit, and of evidence already in hand -- and asks the database which active patterns of
 * the pinned version match (kopt_pattern_matches, migrations/005_patterns.sql: one
 * definition for the worker and for synthesis), leaving out, when the job asks, every
 * pattern whose provenance includes its own operator. A match whose statistics on this
 * backend show enough support settles the round at L1: its family is the only one L1
 * justifies, with evidence enough. Weaker matches only put their families first. The
 * matched pattern of the chosen family hands its action (preferred knob values, a
 * structural rewrite's parameters) to the proposer. */
#ifndef KOPT_PINDEX_H
#define KOPT_PINDEX_H
#include <jansson.h>
#include <stddef.h>

#include "evidence.h"
#include "job.h"
#include "ladder.h"

#define PINDEX_MIN_SUPPORT_DEFAULT 2 /* distinct operators with an accepted round */
#define PINDEX_MIN_RATE 0.5          /* accepted / tried on this backend */
#define PINDEX_MAX_MATCHES 32        /* patterns one round reads (the LIMIT in pindex.c) */
#define PINDEX_NAME_LEN 129          /* a pattern's name (128) and the NUL */
#define PINDEX_MAX_SYMPTOMS 32       /* features.symptoms */

struct pindex {
  int version;                      /* pinned; 0: the index has no version (no L1 patterns) */
  char backend[KOPT_BACKEND_SIZE];  /* the device's: statistics are read for it */
  char target[8];                   /* "cuda" or "ascend": whose IR the evidence is */
  char exclude_op[160];             /* the operator whose patterns are left out, or "" */
  unsigned min_support;             /* the worker's KOPT_PATTERN_MIN_SUPPORT */
};

/* What one round's L1 made of the index (owned members). */
struct pindex_round {
  json_t *features;                 /* {"backend", "target", "class", "symptoms": [...]} */
  json_t *matches;                  /* [{name, family, action, guidance, when, support, ...}] */
  char settled_by[PINDEX_NAME_LEN]; /* the match that settled L1, or "" */
};

/* Pins the job's version (jobs.pattern_version, else the spec's pattern_index resolved and
 * written there). 0; -ENOENT when the spec names a version that does not exist (j->fail_msg
 * says which exist); -EIO, -ESTALE (lease lost). */
int pindex_pin(struct job_ctx *j, struct pindex *ix);

/* The incumbent's L1 features (new reference). knobs: the harness's knobs result (may be
 * NULL); ev: evidence in hand from earlier rounds on this incumbent (may be empty). Pure. */
json_t *pindex_features(const struct pindex *ix, const char *source, const json_t *launch,
                        const json_t *knobs, const struct evidence *ev);

/* The active patterns of the pinned version that match features, best supported first
 * (new reference; an empty array without a version). 0 or -EIO. */
int pindex_match(struct job_ctx *j, const struct pindex *ix, const json_t *features,
                 json_t **matches);

/* Applies the matches to L1's diagnosis d. The first match whose family is not in skip
 * settles L1 when its support and rate suffice (settled_by gets its name), unless its family
 * is a launch parameter while d holds unspent structural families (then it joins them and
 * nothing settles); otherwise the matched families go first, each needing the evidence
 * its action names. Pure. */
void pindex_apply(const struct pindex *ix, const json_t *matches, const char *const *skip,
                  struct ladder_diag *d, char *settled_by, size_t len);

/* The first match of family (borrowed from matches), or NULL. */
const json_t *pindex_for_family(const json_t *matches, const char *family);

/* Adds the round's pattern record to L1's escalation entry (esc1) and to the round's
 * evidence ("l1": features, version, matched names, settled_by when the round stopped at L1,
 * applied: the pattern whose action the proposer used, direction: the family's). */
void pindex_record(const struct pindex *ix, const struct pindex_round *pr, int level,
                   const char *applied, const char *direction, json_t *esc1, json_t *evidence);

void pindex_round_clear(struct pindex_round *pr);

#endif
