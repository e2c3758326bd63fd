/* job: one job on one worker (workers/job.c): loading it under its lease, the baseline,
 * and the fenced writes the round loop (workers/rounds.c) uses too. */
#ifndef KOPT_JOB_H
#define KOPT_JOB_H
#include <jansson.h>

#include "deadline.h"
#include "worker.h"

struct job_ctx {
  struct worker *w;           /* borrowed */
  const char *id, *owner;     /* borrowed: the job and the lease owner we hold it for */
  json_t *spec;               /* owned */
  char *ksrc, *rsrc;          /* owned: initial kernel and reference sources */
  char ksha[KOPT_SHA256_HEX_SIZE];
  json_t *baseline;           /* owned; NULL until committed */
  char fail_msg[1024];
  int rounds;
  int loaded_gen;             /* harness start count when this job's problem was loaded */
  int round;                  /* the round in progress (0: load, baseline) */
  int attempt;                /* jobs.attempts: this run's attempt number */
  int infra_retries;          /* jobs.infra_retries: requeues for faults outside the job */
  struct deadline dl;         /* what was measured, for each harness call's limit */
};

/* (Re)connects the worker's database connection (not inside a transaction). 0 or -EIO. */
int job_db(struct worker *w);
/* BEGIN on a live connection; 0 or -EIO. job_tx_end commits (commit != 0) or rolls back;
 * 0 or -EIO. */
int job_tx_begin(struct worker *w);
int job_tx_end(struct worker *w, int commit);
/* Runs fn (a transaction: 1 committed, 0 lease lost, -1 error) and runs it again once the
 * database is back when the connection broke under it: a PostgreSQL restart costs a wait,
 * not the step (nor an attempt). Returns fn's last answer. */
int job_commit(struct job_ctx *j, int (*fn)(struct job_ctx *j, void *arg), void *arg);
#define JOB_UPDATE_MAX_EXTRA 6
/* UPDATE jobs SET <set_sql> for our job, fenced by the lease; $3.. are extra (at most
 * JOB_UPDATE_MAX_EXTRA; registered secrets are redacted from them). 1 applied, 0 lease
 * gone, -1 error. */
int job_update(struct job_ctx *j, const char *set_sql, int nextra, const char **extra);
/* One harness operation under its derived limit (deadline.h); 0 with *result (new ref), -1
 * with j->fail_msg (the kernel's fault or the harness's verdict), -EAGAIN with j->fail_msg
 * (the harness was killed by SIGKILL more often than a step tolerates: the attempt ends),
 * -EINTR stopping. */
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
