/* ctl_watch — follows one job until it ends: the server-sent events of
 * GET /v1/jobs/{id}/events first, then, if that stream drops or is not offered, polling
 * GET /v1/jobs/{id}. Shows a progress line (rewritten in place on a terminal, one line per
 * change otherwise) and a closing line saying how the job ended. */
#ifndef CTL_WATCH_H
#define CTL_WATCH_H

#include "ctl_ctx.h"

/* CTL_EXIT_SUCCEEDED / _FAILED / _CANCELLED for a terminal state, -1 for any other. */
int ctl_watch_outcome(const char *state);

/* 0 with *outcome set once the job reached a terminal state; a negative code (already
 * printed) if it could not be followed. */
int ctl_watch_run(struct ctl_ctx *ctx, const char *id, int *outcome);

#endif
