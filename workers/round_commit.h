/* round_commit — one round of a job into PostgreSQL: its record (secrets redacted), the
 * candidate kernel it names and, when the round was accepted, the job's new best, in one
 * transaction fenced by the job's lease (the record goes in only while this worker holds
 * it), retried once the database is back if it went away under it (job_commit). */
#ifndef KOPT_ROUND_COMMIT_H
#define KOPT_ROUND_COMMIT_H

#include <jansson.h>

#include "job.h"

/* rec, cand_src, cand_sha and best_json are borrowed; cand_src/cand_sha NULL when the round
 * names no kernel, best_json NULL unless accepted. 1 committed, 0 lease lost, -1 error. */
int round_commit(struct job_ctx *j, int round, const json_t *rec, const char *cand_src,
                 const char *cand_sha, int accepted, const char *best_json);

#endif
