/* ctl_jobs — the job commands of koptctl over the HTTP API (docs/API.md): submit, list,
 * status, cancel. Each prints its result to ctx->out and its errors to ctx->err, and
 * returns 0 or a negative code once the user has been told why. */
#ifndef CTL_JOBS_H
#define CTL_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "ctl_ctx.h"
#include "ctl_spec.h"

#define CTL_JOBS_ID_MAX 128 /* job ids are UUIDs (36); room to spare, still bounded */

struct ctl_submit_opts {
	struct ctl_spec_opts spec; /* used when spec_file is NULL */
	const char *spec_file;     /* submit FILE.json: posted as is, after a JSON check */
	const char *idem_key;      /* Idempotency-Key header, or NULL */
	bool print;                /* write the body to ctx->out, send nothing */
};

/* On success, id (size CTL_JOBS_ID_MAX) holds the new job's id; "" with --print. */
int ctl_jobs_submit(struct ctl_ctx *ctx, const struct ctl_submit_opts *o, char *id);

/* states: comma-separated filter or NULL; limit <= 0: the server's default page. */
int ctl_jobs_list(struct ctl_ctx *ctx, const char *states, long limit, bool all);

int ctl_jobs_status(struct ctl_ctx *ctx, const char *id, bool raw);
int ctl_jobs_cancel(struct ctl_ctx *ctx, const char *id);

/* Turns the outcome of ctl_http_request into a JSON object when the status is one of
 * ok_a/ok_b, else prints why not (transport error or problem document) and returns a
 * negative code. *doc is owned by the caller. */
int ctl_jobs_answer(struct ctl_ctx *ctx, int rc, const struct ctl_http_resp *r, long ok_a,
		    long ok_b, json_t **doc);

#endif
