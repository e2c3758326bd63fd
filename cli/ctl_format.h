/* ctl_format — how koptctl shows jobs to a person: the one-line progress, the status
 * summary and the list table. Pure apart from writing to the FILE given. Everything the
 * server sent is sanitised first, so that a job name cannot move the cursor or recolour
 * the terminal. */
#ifndef CTL_FORMAT_H
#define CTL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* Copies src to dst (size n) with control characters and invalid UTF-8 replaced by '?',
 * cut after max_chars characters (then ending in "..."), always NUL-terminated. */
void ctl_format_clean(char *dst, size_t n, const char *src, size_t max_chars);

/* The job's best speedup over its baseline, when the job reports one. job is borrowed. */
bool ctl_format_speedup(const json_t *job, double *out);

/* "running  round 3/15  level L2  best 1.42x", whatever parts the job has. */
void ctl_format_progress(const json_t *job, char *buf, size_t n);

/* Multi-line human summary for `koptctl status`. */
void ctl_format_summary(FILE *out, const json_t *job);

void ctl_format_list_header(FILE *out);
void ctl_format_list_row(FILE *out, const json_t *job);

#endif
