/* proposer: the one interface through which a round gets its candidates. The ladder has
 * chosen a rewrite family (and a direction) from the evidence; a proposer turns that into a
 * bounded set of candidates for the harness's `sweep` (docs/SEARCH.md) and a hypothesis tied
 * to the evidence. Built in: `rules` (workers/rules.c: knob neighbourhoods and structural
 * rewrites, no model), `llm` (workers/proposer_llm.c) and `agent` (workers/proposer_agent.c).
 * A new proposer is one file defining a `struct proposer` and one line in proposer.c. */
#ifndef KOPT_PROPOSER_H
#define KOPT_PROPOSER_H
#include <jansson.h>
#include <stddef.h>

#include "evidence.h"
#include "job.h"

#include "spec.h"   /* SPEC_MAX_CANDIDATES, SPEC_DEFAULT_CANDIDATES: the one definition */
#define PROPOSER_SIGNATURE_MAX 128

/* What a round knows when it asks for candidates. Everything is borrowed. */
struct proposer_input {
  struct job_ctx *j;
  const char *family;        /* chosen by the ladder */
  const char *direction;     /* "up", "down" or "" */
  int level;                 /* deepest level reached this round */
  int from_level;            /* the level that justified the family */
  int round;
  const char *diagnosis;     /* the evidence in words */
  const char *source;        /* the incumbent module */
  const json_t *tunables;    /* the incumbent's constructor tunables */
  const json_t *knobs;       /* the harness's `knobs` result for the incumbent; may be NULL */
  const char *structure;     /* id of the incumbent's structure (see search.h) */
  const json_t *memory;      /* every configuration measured so far (search.h) */
  const json_t *tried;       /* signatures of what earlier rounds proposed (strings) */
  const json_t *history;     /* [{round, level, family, hypothesis, outcome}] */
  const json_t *patterns;    /* the patterns L1 matched this round (workers/pindex.h), may be NULL */
  const json_t *prefer;      /* the matched pattern of this family: its action's preferred
                              * values {kind|role|param: [values]}, or NULL */
  const char *pattern;       /* that pattern's name, or NULL */
  const struct evidence *ev; /* profile / IR / passes gathered this round */
  unsigned max_candidates;   /* 1..SPEC_MAX_CANDIDATES (spec.max_candidates) */
};

struct proposer_output {
  json_t *candidates;        /* owned: [{id, changes?|structural?|source?, tunables?}] */
  char *hypothesis;          /* owned: one or two sentences tied to the evidence */
  char family[32];           /* the family the candidates belong to */
  char signature[PROPOSER_SIGNATURE_MAX]; /* what this proposal tried, for the record */
  long prompt_tokens, completion_tokens;  /* llm; -1 when unknown */
  int attempts;                           /* llm: HTTP attempts */
};

struct proposer {
  const char *name;
  /* 0 with out filled (at least one candidate); -ENOENT when it has nothing for this family
   * (why says so; the round tries the next justified family); -EPROTO when it failed or
   * broke the contract (why; the round is recorded as rejected); -EINTR when stopping. */
  int (*propose)(const struct proposer_input *in, struct proposer_output *out, char *why,
                 size_t whylen);
};

/* The proposer called name, or NULL. */
const struct proposer *proposer_find(const char *name);
void proposer_output_init(struct proposer_output *o);
void proposer_output_free(struct proposer_output *o);
/* 1 when the job's IR is triton-ascend's (an ascend device, or interp with an Ascend IR
 * target): its compiler ignores num_warps and num_stages outside its SIMT mode, so the rules
 * do not sweep them as partners. */
int proposer_ascend_ir(const struct proposer_input *in);
/* Appends {"id": "<prefix><n>", "source": ...} for a model-written module, plus change sets
 * over its tunables from the rules' partner neighbourhood when its knobs are known: the
 * llm's and agent's candidates go through the same sweep. 0 or -ENOMEM. */
int proposer_add_source_candidates(const struct proposer_input *in, const char *source,
                                   struct proposer_output *out);

extern const struct proposer proposer_rules, proposer_llm, proposer_agent;

#endif
