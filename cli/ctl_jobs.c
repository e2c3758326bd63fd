/* ctl_jobs — submit, list, status, cancel; see ctl_jobs.h. */
#include "ctl_jobs.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "ctl_format.h"
#include "ctl_problem.h"

int ctl_jobs_answer(struct ctl_ctx *ctx, int rc, const struct ctl_http_resp *r, long ok_a,
		    long ok_b, json_t **doc)
{
	json_error_t jerr;

	*doc = NULL;
	if (rc < 0) {
		fprintf(ctx->err, "koptctl: %s\n",
			ctx->http.errmsg[0] ? ctx->http.errmsg : strerror(-rc));
		return rc;
	}
	if (r->status != ok_a && r->status != ok_b) {
		ctl_problem_print(ctx->err, r, ctx->token_set);
		return -EPROTO;
	}
	*doc = r->body ? json_loadb(r->body, r->len, 0, &jerr) : NULL;
	if (!json_is_object(*doc)) {
		fprintf(ctx->err, "koptctl: %ld answer is not a JSON object: %s\n", r->status,
			*doc ? "another JSON value" : (r->body ? jerr.text : "empty body"));
		json_decref(*doc);
		*doc = NULL;
		return -EPROTO;
	}
	return 0;
}

/* The body to post, owned by the caller (free()). */
static int ctl_jobs_body(struct ctl_ctx *ctx, const struct ctl_submit_opts *o, char **body,
			 size_t *len)
{
	char err[1024] = "";
	json_t *spec = NULL; /* owned */
	int rc;

	*body = NULL;
	if (o->spec_file) {
		rc = ctl_spec_read_file(o->spec_file, CTL_SPEC_MAX_DOC, "job spec", body, len, err,
					sizeof(err));
		if (rc == 0)
			rc = ctl_spec_check_doc(o->spec_file, *body, *len, err, sizeof(err));
	} else {
		rc = ctl_spec_build(&o->spec, &spec, err, sizeof(err));
		if (rc == 0) {
			/* Indented: --print output is meant to be read and edited, then posted
			 * back with `koptctl submit FILE.json`. */
			*body = json_dumps(spec, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
			*len = *body ? strlen(*body) : 0;
			if (!*body) {
				rc = -ENOMEM;
				snprintf(err, sizeof(err), "out of memory");
			}
		}
	}
	if (rc < 0) {
		fprintf(ctx->err, "koptctl: %s\n", err);
		free(*body);
		*body = NULL;
	}
	json_decref(spec);
	return rc;
}

int ctl_jobs_submit(struct ctl_ctx *ctx, const struct ctl_submit_opts *o, char *id)
{
	struct ctl_http_resp r = {0};
	json_t *job = NULL; /* owned */
	char *body = NULL;  /* owned */
	char name[600], state[64], backend[64];
	const char *jid;    /* borrowed from job */
	size_t len = 0;
	int rc;

	id[0] = '\0';
	rc = ctl_jobs_body(ctx, o, &body, &len);
	if (rc < 0)
		goto out;
	if (o->print) {
		fwrite(body, 1, len, ctx->out);
		if (len == 0 || body[len - 1] != '\n')
			fputc('\n', ctx->out);
		goto out;
	}
	rc = ctl_http_request(&ctx->http, "POST", "/v1/jobs", o->idem_key, body, len, &r);
	rc = ctl_jobs_answer(ctx, rc, &r, 201, 200, &job);
	if (rc < 0)
		goto out;
	jid = json_string_value(json_object_get(job, "id"));
	if (!jid || !jid[0] || strlen(jid) >= CTL_JOBS_ID_MAX) {
		fprintf(ctx->err, "koptctl: the server's answer has no usable job id\n");
		rc = -EPROTO;
		goto out;
	}
	ctl_format_clean(id, CTL_JOBS_ID_MAX, jid, CTL_JOBS_ID_MAX - 4);
	ctl_format_clean(name, sizeof(name), json_is_string(json_object_get(job, "name"))
			 ? json_string_value(json_object_get(job, "name")) : "", 128);
	ctl_format_clean(state, sizeof(state),
			 json_is_string(json_object_get(job, "state"))
			 ? json_string_value(json_object_get(job, "state")) : "?", 20);
	ctl_format_clean(backend, sizeof(backend),
			 json_is_string(json_object_get(job, "backend"))
			 ? json_string_value(json_object_get(job, "backend")) : "?", 20);
	/* 200 means the Idempotency-Key matched an earlier submission of the same body. */
	fprintf(ctx->out, "%s job%s%s%s: %s, backend %s\n",
		r.status == 200 ? "already submitted with this idempotency key:" : "submitted",
		name[0] ? " \"" : "", name, name[0] ? "\"" : "", state, backend);
	fprintf(ctx->out, "%s\n", id);
	fflush(ctx->out);
out:
	json_decref(job);
	ctl_http_resp_free(&r);
	free(body);
	return rc;
}

int ctl_jobs_list(struct ctl_ctx *ctx, const char *states, long limit, bool all)
{
	char path[CTL_HTTP_MAX_URL], esc[1024], cursor[1024] = "";
	struct ctl_http_resp r = {0};
	json_t *page = NULL; /* owned */
	int rc = 0;

	if (states && ctl_http_escape(states, esc, sizeof(esc)) < 0) {
		fprintf(ctx->err, "koptctl: --state list too long\n");
		rc = -ENAMETOOLONG;
		goto out;
	}
	for (;;) {
		const json_t *jobs, *job, *next; /* borrowed from page */
		char next_esc[1024];
		size_t i;
		int len;

		len = snprintf(path, sizeof(path), "/v1/jobs?%s%s%s", states ? "state=" : "",
			       states ? esc : "", states ? "&" : "");
		if (limit > 0)
			len += snprintf(path + len, sizeof(path) - (size_t)len, "limit=%ld&", limit);
		if (cursor[0])
			snprintf(path + len, sizeof(path) - (size_t)len, "cursor=%s&", cursor);
		path[strlen(path) - 1] = '\0'; /* the trailing '&' or '?' */
		ctl_http_resp_free(&r);
		rc = ctl_http_request(&ctx->http, "GET", path, NULL, NULL, 0, &r);
		rc = ctl_jobs_answer(ctx, rc, &r, 200, 200, &page);
		if (rc < 0)
			goto out;
		jobs = json_object_get(page, "jobs");
		if (!json_is_array(jobs)) {
			fprintf(ctx->err, "koptctl: the server's answer has no \"jobs\" array\n");
			rc = -EPROTO;
			goto out;
		}
		/* The header waits for the first page: an error then prints alone. */
		if (!cursor[0])
			ctl_format_list_header(ctx->out);
		json_array_foreach(jobs, i, job)
			ctl_format_list_row(ctx->out, job);
		next = json_object_get(page, "next_cursor");
		if (!json_is_string(next) || !json_string_value(next)[0])
			break;
		if (!all) {
			fprintf(ctx->err, "koptctl: more jobs: --all lists them all\n");
			break;
		}
		if (ctl_http_escape(json_string_value(next), next_esc, sizeof(next_esc)) < 0) {
			fprintf(ctx->err, "koptctl: the server's next_cursor is too long\n");
			rc = -EPROTO;
			goto out;
		}
		/* A cursor that does not move would page forever. */
		if (strcmp(next_esc, cursor) == 0) {
			fprintf(ctx->err, "koptctl: the server returned the same cursor twice\n");
			rc = -EPROTO;
			goto out;
		}
		memcpy(cursor, next_esc, strlen(next_esc) + 1);
		json_decref(page);
		page = NULL;
	}
out:
	fflush(ctx->out);
	json_decref(page);
	ctl_http_resp_free(&r);
	return rc;
}

int ctl_jobs_status(struct ctl_ctx *ctx, const char *id, bool raw)
{
	char path[CTL_HTTP_MAX_URL];
	struct ctl_http_resp r = {0};
	json_t *job = NULL; /* owned */
	int rc;

	rc = ctl_http_path(path, sizeof(path), "/v1/jobs/", id, "");
	if (rc < 0) {
		fprintf(ctx->err, "koptctl: bad job id\n");
		goto out;
	}
	rc = ctl_http_request(&ctx->http, "GET", path, NULL, NULL, 0, &r);
	rc = ctl_jobs_answer(ctx, rc, &r, 200, 200, &job);
	if (rc < 0)
		goto out;
	if (raw) {
		/* The server's bytes as they came: --json is for other programs. */
		fwrite(r.body, 1, r.len, ctx->out);
		if (r.len == 0 || r.body[r.len - 1] != '\n')
			fputc('\n', ctx->out);
	} else {
		ctl_format_summary(ctx->out, job);
	}
	fflush(ctx->out);
out:
	json_decref(job);
	ctl_http_resp_free(&r);
	return rc;
}

int ctl_jobs_cancel(struct ctl_ctx *ctx, const char *id)
{
	char path[CTL_HTTP_MAX_URL], clean[CTL_JOBS_ID_MAX], line[256];
	struct ctl_http_resp r = {0};
	json_t *job = NULL; /* owned */
	const char *state;
	int rc;

	rc = ctl_http_path(path, sizeof(path), "/v1/jobs/", id, "/cancel");
	if (rc < 0) {
		fprintf(ctx->err, "koptctl: bad job id\n");
		goto out;
	}
	rc = ctl_http_request(&ctx->http, "POST", path, NULL, NULL, 0, &r);
	rc = ctl_jobs_answer(ctx, rc, &r, 200, 200, &job);
	if (rc < 0)
		goto out;
	ctl_format_clean(clean, sizeof(clean), id, CTL_JOBS_ID_MAX - 4);
	state = json_string_value(json_object_get(job, "state"));
	if (state && strcmp(state, KOPT_STATE_CANCELLED) == 0) {
		fprintf(ctx->out, "job %s cancelled\n", clean);
	} else {
		/* A running job stops at its next round boundary, not mid-measurement. */
		ctl_format_progress(job, line, sizeof(line));
		fprintf(ctx->out, "job %s: cancel requested, it stops after its current round (%s)\n",
			clean, line);
	}
	fflush(ctx->out);
out:
	json_decref(job);
	ctl_http_resp_free(&r);
	return rc;
}
