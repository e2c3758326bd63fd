/* rules: the built-in proposer. Deterministic for given evidence: it maps the family the
 * ladder chose (and its direction) to a change of a tunable — a ModelNew constructor
 * parameter, a declared tunable, or a literal at a kernel launch site in ModelNew.forward —
 * or to a mechanical rewrite (contiguity hints). Needs no model; it is also the baseline an
 * LLM must beat. */
#ifndef KOPT_RULES_H
#define KOPT_RULES_H
#include <jansson.h>

#include "proposal.h"

#define RULES_MAX_KNOBS 16

enum rules_via { RULES_CTOR = 0, RULES_LAUNCH = 1 };

struct rules_knob {
  char name[64];
  long value;
  enum rules_via via;
  long choices[32];   /* declared values (spec.tunables), else empty = defaults */
  unsigned nchoices;
};

struct rules_knobs {
  struct rules_knob k[RULES_MAX_KNOBS];
  unsigned n;
};

/* Finds the tunables of a ModelNew module: constructor parameters with integer defaults
 * (overridden by current, the incumbent's tunables object), declared spec tunables
 * ({"NAME": [values]}), and integer literals of BLOCK..., num_warps, num_stages keywords at the
 * kernel launches in forward. */
void rules_discover(const char *source, const json_t *declared, const json_t *current,
                    struct rules_knobs *out);

/* Proposes one change for family (direction "up"/"down"/""). tried: array of change
 * signatures already tried this job ("BLOCK_SIZE=512"); evidence_words: the diagnosis in
 * words, quoted in the hypothesis. On success fills p (source = the candidate module,
 * tunables_json = the candidate's constructor tunables) and *signature (caller frees) and
 * returns 0; -ENOENT when the rules have nothing for this family (why says so). */
int rules_propose(const char *family, const char *direction, const char *source,
                  const json_t *declared, const json_t *current, const json_t *tried,
                  const char *evidence_words, int level, struct proposal *p, char **signature,
                  char *why, size_t whylen);

/* Sets NAME=value at the launch sites of forward (replacing an integer literal, or adding
 * the keyword to each launch). Returns a new string (caller frees) or NULL if no launch. */
char *rules_set_launch_kwarg(const char *source, const char *name, long value);
/* Adds tl.max_contiguous(tl.multiple_of(...)) hints to `offsets = ... tl.arange(0, BLOCK)`
 * lines; a new string, or NULL when no such line or already hinted. */
char *rules_add_contiguity_hints(const char *source);

#endif
