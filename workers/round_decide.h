/* round_decide — which candidate of a round's sweep, if any, replaces the incumbent. */
#ifndef KOPT_ROUND_DECIDE_H
#define KOPT_ROUND_DECIDE_H

#include <stddef.h>

#include <jansson.h>

#include "job.h"
#include "search.h"

/* What a decision reads and where it reports; every pointer borrowed from the round. */
struct round_decide_ctx {
  struct job_ctx *j;
  const char *inc_src;           /* the incumbent's source */
  json_t *inc_tunables;          /* the incumbent's constructor tunables (a candidate's default) */
  struct search *search;         /* forgets a configuration timed through a disturbance */
  const json_t *knobs;           /* the incumbent's knobs (search_forget's key) */
  void (*progress)(void *arg, const char *step); /* "validate", "time" */
  void *arg;
};

/* Checks the shortlisted candidates of `sweep` on every correctness case, fastest first, and
 * decides the first correct one against the incumbent (ABBA); at most two comparisons. On
 * return *chosen (borrowed from sweep) is the candidate decided on, *val and *cmp (owned, the
 * caller's to release; NULL on entry) its validation and comparison, *accepted whether it
 * won; reject says why not. 0, or -EINTR when the job was cancelled or its lease lost. */
int round_decide(const struct round_decide_ctx *ctx, const json_t *sweep, const json_t **chosen,
                 json_t **val, json_t **cmp, int *accepted, char *reject, size_t rejlen);

#endif
