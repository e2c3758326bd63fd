/* joblog: the job's own log — what submitted code printed during each harness step
 * (`kernel_output` in the harness's responses) — stored in job_logs, capped per entry and
 * per job, redacted of the worker's secrets, and never written to koptd's log. */
#ifndef KOPT_JOBLOG_H
#define KOPT_JOBLOG_H
#include <jansson.h>

#include "job.h"

#define JOBLOG_ENTRY_MAX_BYTES (64u << 10) /* one step's text (matches the table's CHECK) */
#define JOBLOG_JOB_MAX_BYTES (1u << 20)    /* all of a job's entries together */

/* Appends kernel_output ({text, bytes, truncated}) of step `what`; a no-op for NULL. Past
 * the job's cap only the byte count is kept. 0, or -EIO (logged; the job goes on). */
int joblog_append(struct job_ctx *j, const char *what, const json_t *kernel_output);
/* Cuts s (in place) to at most max bytes without splitting a UTF-8 sequence. */
void joblog_cut_utf8(char *s, size_t max);

#endif
