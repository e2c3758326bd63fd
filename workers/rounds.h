/* rounds: the round loop. After the baseline, up to `rounds` rounds, each: climb the ladder
 * only as far as the evidence demands (policy caps it), propose one rewrite of one family,
 * validate it on every correctness case, time it against the incumbent (ABBA, one process),
 * accept only a correct candidate faster beyond the measured noise, and commit the round
 * record before the next round starts. */
#ifndef KOPT_ROUNDS_H
#define KOPT_ROUNDS_H
#include "job.h"

/* Runs (or resumes after the last committed round) the loop and finishes the job.
 * Returns the outcome word for koptd ("succeeded", "failed", "cancelled", "aborted",
 * "lost"). */
const char *rounds_run(struct job_ctx *j);

#endif
