/* ctl_watch — live progress of one job; see ctl_watch.h. */
#include "ctl_watch.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "contract.h"
#include "ctl_format.h"
#include "ctl_jobs.h"
#include "ctl_sse.h"

/* Internal "the job is over" signal through the SSE and curl callbacks. */
#define CTL_WATCH_DONE (-ECANCELED)

struct ctl_watch {
	struct ctl_ctx *ctx; /* borrowed */
	struct ctl_sse sse;  /* owned */
	json_t *job;         /* owned: the latest job document seen */
	char last[256];      /* the progress line shown last: only changes are printed */
	char id[CTL_JOBS_ID_MAX]; /* sanitised, for messages */
	bool open_line;      /* on a terminal, a line without its '\n' is showing */
	char bye[128];       /* why the server ended the stream (its "shutdown" event) */
	unsigned long events;
	int outcome;         /* -1 until the job is over */
};

int ctl_watch_outcome(const char *state)
{
	if (!state)
		return -1;
	if (strcmp(state, KOPT_STATE_SUCCEEDED) == 0)
		return CTL_EXIT_SUCCEEDED;
	if (strcmp(state, KOPT_STATE_FAILED) == 0)
		return CTL_EXIT_FAILED;
	if (strcmp(state, KOPT_STATE_CANCELLED) == 0)
		return CTL_EXIT_CANCELLED;
	return -1;
}

static void ctl_watch_end_line(struct ctl_watch *w)
{
	if (w->open_line)
		fputc('\n', w->ctx->out);
	w->open_line = false;
	fflush(w->ctx->out);
}

/* Takes the job (owned; consumed). CTL_WATCH_DONE once the job is over, else 0. */
static int ctl_watch_update(struct ctl_watch *w, json_t *job)
{
	char line[256];
	const char *state = json_string_value(json_object_get(job, "state"));

	if (!state) {
		json_decref(job); /* not a job document: some future event kind */
		return 0;
	}
	json_decref(w->job);
	w->job = job;
	ctl_format_progress(job, line, sizeof(line));
	if (strcmp(line, w->last) != 0) {
		memcpy(w->last, line, sizeof(line));
		if (w->ctx->tty) {
			/* \033[K clears what a longer previous line left behind. */
			fprintf(w->ctx->out, "\r\033[K%s %s", w->id, line);
			w->open_line = true;
		} else {
			fprintf(w->ctx->out, "%s %s\n", w->id, line);
		}
		fflush(w->ctx->out);
	}
	w->outcome = ctl_watch_outcome(state);
	return w->outcome >= 0 ? CTL_WATCH_DONE : 0;
}

static int ctl_watch_on_event(void *arg, const struct ctl_sse_event *ev)
{
	struct ctl_watch *w = arg;
	json_t *doc, *inner; /* doc owned; inner borrowed from doc */

	w->events++;
	if (strcmp(ev->type, "shutdown") == 0) {
		/* koptd drains: it says why before it closes the stream. */
		const char *why;

		doc = json_loadb(ev->data, ev->data_len, 0, NULL);
		why = json_string_value(json_object_get(doc, "reason"));
		ctl_format_clean(w->bye, sizeof(w->bye), why ? why : "server shutdown", 100);
		json_decref(doc);
		return 0;
	}
	/* Every event we act on carries the job ("state", "progress"); others are skipped so
	 * that a newer server may add kinds. */
	doc = json_loadb(ev->data, ev->data_len, 0, NULL);
	if (!json_is_object(doc)) {
		json_decref(doc);
		return 0;
	}
	inner = json_object_get(doc, "job");
	if (json_is_object(inner)) {
		json_incref(inner);
		json_decref(doc);
		doc = inner;
	}
	return ctl_watch_update(w, doc);
}

static int ctl_watch_on_chunk(void *arg, const char *buf, size_t len)
{
	struct ctl_watch *w = arg;

	return ctl_sse_feed(&w->sse, buf, len);
}

static double ctl_watch_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void ctl_watch_sleep(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* Polls until the job is over. heard: the server answered before (the stream worked), so
 * an outage may be a restart and is ridden out for ctx->grace_s seconds. */
static int ctl_watch_poll(struct ctl_watch *w, const char *path, bool heard)
{
	struct ctl_ctx *ctx = w->ctx;
	double last_ok = ctl_watch_now();
	int rc = 0;

	for (;;) {
		struct ctl_http_resp r = {0};
		json_t *job = NULL; /* owned until ctl_watch_update takes it */
		bool transient;

		rc = ctl_http_request(&ctx->http, "GET", path, NULL, NULL, 0, &r);
		transient = rc < 0 || r.status == 502 || r.status == 503 || r.status == 504;
		if (transient && heard && ctl_watch_now() - last_ok < ctx->grace_s) {
			ctl_http_resp_free(&r);
			ctl_watch_sleep(ctx->poll_ms);
			continue;
		}
		if (transient || r.status != 200)
			ctl_watch_end_line(w);
		rc = ctl_jobs_answer(ctx, rc, &r, 200, 200, &job);
		ctl_http_resp_free(&r);
		if (rc < 0)
			goto out;
		heard = true;
		last_ok = ctl_watch_now();
		if (ctl_watch_update(w, job) == CTL_WATCH_DONE)
			goto out;
		ctl_watch_sleep(ctx->poll_ms);
	}
out:
	return rc;
}

static void ctl_watch_report(struct ctl_watch *w)
{
	const json_t *err = json_object_get(w->job, "error"); /* borrowed */
	double speedup;
	char e[1100];

	ctl_watch_end_line(w);
	switch (w->outcome) {
	case CTL_EXIT_SUCCEEDED:
		if (ctl_format_speedup(w->job, &speedup))
			fprintf(w->ctx->out, "job %s succeeded: best %.2fx over the initial kernel\n",
				w->id, speedup);
		else
			fprintf(w->ctx->out, "job %s succeeded\n", w->id);
		break;
	case CTL_EXIT_FAILED:
		ctl_format_clean(e, sizeof(e), json_is_string(err) ? json_string_value(err)
				 : "no reason given", 1000);
		fprintf(w->ctx->out, "job %s failed: %s\n", w->id, e);
		break;
	default:
		fprintf(w->ctx->out, "job %s cancelled\n", w->id);
		break;
	}
	fflush(w->ctx->out);
}

int ctl_watch_run(struct ctl_ctx *ctx, const char *id, int *outcome)
{
	struct ctl_watch w = {.ctx = ctx, .outcome = -1};
	char events_path[CTL_HTTP_MAX_URL], job_path[CTL_HTTP_MAX_URL];
	long status = 0;
	int rc;

	*outcome = CTL_EXIT_ERROR;
	ctl_sse_init(&w.sse, CTL_HTTP_MAX_BODY, ctl_watch_on_event, &w);
	if (ctl_http_path(events_path, sizeof(events_path), "/v1/jobs/", id, "/events") < 0 ||
	    ctl_http_path(job_path, sizeof(job_path), "/v1/jobs/", id, "") < 0) {
		fprintf(ctx->err, "koptctl: bad job id\n");
		rc = -EINVAL;
		goto out;
	}
	ctl_format_clean(w.id, sizeof(w.id), id, 40);
	rc = ctl_http_stream(&ctx->http, events_path, ctl_watch_on_chunk, &w, &status);
	if (rc == CTL_WATCH_DONE) {
		rc = 0;
		goto done;
	}
	/* The stream ended before the job did: a restart, a proxy timeout, or a server
	 * without the route. Polling carries on, and reports a real error (404, 401) itself. */
	if (w.events > 0) {
		ctl_watch_end_line(&w);
		fprintf(ctx->err, "koptctl: event stream ended (%s); polling every %u s\n",
			w.bye[0] ? w.bye
			: rc < 0 && ctx->http.errmsg[0] ? ctx->http.errmsg : "closed by the server",
			ctx->poll_ms / 1000);
	}
	rc = ctl_watch_poll(&w, job_path, w.events > 0);
	if (rc < 0)
		goto out;
done:
	ctl_watch_report(&w);
	*outcome = w.outcome;
out:
	ctl_watch_end_line(&w);
	ctl_sse_free(&w.sse);
	json_decref(w.job);
	(void)status;
	return rc;
}
