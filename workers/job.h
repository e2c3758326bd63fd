/* job: one job on one worker (workers/job.c): loading it under its lease, the baseline,
 * and the fenced writes the round loop (workers/rounds.c) uses too. */
#ifndef KOPT_JOB_H
#define KOPT_JOB_H
#include <jansson.h>

#include "worker.h"

struct job_ctx {
  struct worker *w;           /* borrowed */
  const char *id, *owner;     /* borrowed: the job and the lease owner we hold it for */
  json_t *spec;               /* owned */
  char *ksrc, *rsrc;          /* owned: initial kernel and reference sources */
  char ksha[65];
  json_t *baseline;           /* owned; NULL until committed */
  char fail_msg[1024];
  int rounds;
  int loaded_gen;             /* harness start count when this job's problem was loaded */
  int round;                  /* the round in progress (0: load, baseline) */
};

/* (Re)connects the worker's database connection. 0 or -EIO. */
int job_db(struct worker *w);
#define JOB_UPDATE_MAX_EXTRA 6
/* UPDATE jobs SET <set_sql> for our job, fenced by the lease; $3.. are extra (at most
 * JOB_UPDATE_MAX_EXTRA; registered secrets are redacted from them). 1 applied, 0 lease
 * gone, -1 error. */
int job_update(struct job_ctx *j, const char *set_sql, int nextra, const char **extra);
/* One harness operation; 0 with *result (new ref), -1 with j->fail_msg, -EINTR stopping. */
int job_op(struct job_ctx *j, const char *what, json_t *req, json_t **result);
/* Ends the job (state, error, best when non-NULL), releasing the lease; fenced like
 * job_update. */
int job_finish(struct job_ctx *j, const char *state, const char *error, const char *best);
/* The baseline's geomean median over the benchmark cases, ms (-1 when absent). */
double job_baseline_ms(const json_t *baseline);
/* Sends the job's problem to the harness (load); 0, -1 (fail_msg) or -EINTR. */
int job_load_problem(struct job_ctx *j, json_t **result);
/* The compile target of the job's IR evidence (the harness's `compile` target): NULL on a
 * device (its own compiler, the harness's default); on interp the spec's ir_target ("ascend":
 * triton-ascend offline, "cuda": JOB_IR_CUDA_TARGET), else ("auto") the worker's
 * KOPT_INTERP_TARGET. Borrowed from the spec or the worker. */
#define JOB_IR_CUDA_TARGET "cuda:90"
const char *job_ir_target(const struct job_ctx *j);
/* Stores a compile result's IR files as artifacts of round `round`. */
void job_store_artifacts(struct job_ctx *j, json_t *compile, int round);

#endif
