/* ctl_heldout — the held-out protocol; see ctl_heldout.h. */
#include "ctl_heldout.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctl_format.h"
#include "ctl_hostate.h"
#include "ctl_jobs.h"
#include "ctl_suite.h"

#define CTL_HO_PATH_MAX 512
#define CTL_HO_ID_MAX 64
#define CTL_HO_VERSIONS_PAGE "100"

enum { CTL_HO_A, CTL_HO_B_FROZEN, CTL_HO_B_SEED, CTL_HO_BATCHES };
static const char *const ctl_ho_tags[CTL_HO_BATCHES] = { "A", "B-frozen", "B-seed" };

/* One request with an optional JSON body (borrowed); *doc (owned by the caller) is the JSON
 * answer when the status is ok_a or ok_b. 0 or a negative code (the user was told). */
static int ctl_ho_call_idem(struct ctl_ctx *ctx, const char *method, const char *path,
			    const char *idem, const json_t *body, long ok_a, long ok_b, json_t **doc)
{
	struct ctl_http_resp r = {0};
	char *txt = body ? json_dumps(body, JSON_COMPACT) : NULL;
	int rc;

	*doc = NULL;
	if (body && !txt) {
		fprintf(ctx->err, "koptctl: out of memory\n");
		return -ENOMEM;
	}
	rc = ctl_http_request(&ctx->http, method, path, idem, txt, txt ? strlen(txt) : 0, &r);
	rc = ctl_jobs_answer(ctx, rc, &r, ok_a, ok_b, doc);
	ctl_http_resp_free(&r);
	free(txt);
	return rc;
}

static int ctl_ho_call(struct ctl_ctx *ctx, const char *method, const char *path, const json_t *body,
		       long ok_a, long ok_b, json_t **doc)
{
	return ctl_ho_call_idem(ctx, method, path, NULL, body, ok_a, ok_b, doc);
}

/* The seed version: the lowest version whose origin is "seed". */
static int ctl_ho_seed_version(struct ctl_ctx *ctx, long *v)
{
	char path[CTL_HO_PATH_MAX] = "/v1/patterns/versions?limit=" CTL_HO_VERSIONS_PAGE;
	int rc;

	*v = 0;
	for (;;) {
		json_t *doc, *x;
		const char *cur;
		size_t i;
		if ((rc = ctl_ho_call(ctx, "GET", path, NULL, 200, 200, &doc)) < 0)
			return rc;
		json_array_foreach(json_object_get(doc, "versions"), i, x) {
			long ver = (long)json_integer_value(json_object_get(x, "version"));
			if (!strcmp(json_string_value(json_object_get(x, "origin")) ?: "", "seed") &&
			    (!*v || ver < *v))
				*v = ver;
		}
		cur = json_string_value(json_object_get(doc, "next_cursor"));
		if (cur && strlen(cur) < 32)
			snprintf(path, sizeof(path), "/v1/patterns/versions?limit=%s&cursor=%s",
				 CTL_HO_VERSIONS_PAGE, cur);
		json_decref(doc);
		if (!cur)
			break;
	}
	if (!*v) {
		fprintf(ctx->err, "koptctl: the pattern index has no seed version (koptd migrate "
			"writes one)\n");
		return -ENOENT;
	}
	return 0;
}

/* B's two batches share one queue: run in creation order, every frozen-side job would go
 * before every seed-side one, and the second of each pair would find the Triton cache warm
 * for the configurations both measure (device-seconds tilted towards the seed side). The
 * jobs' priorities interleave them instead, pair by pair, alternating which side goes first:
 * B's k-th operator gets 0 - 2k for the side that leads and one less for the other, the frozen
 * side leading on even k. At or below zero, so other users' default-priority jobs are not
 * overtaken; from the 51st operator on both sides share the floor (creation order again). */
#define CTL_HO_PRIORITY_FLOOR (-100)

static long ctl_ho_priority(int which, long k)
{
	int lead = (which == CTL_HO_B_FROZEN) == (k % 2 == 0);
	long p = -2 * k - (lead ? 0 : 1);
	return p < CTL_HO_PRIORITY_FLOOR ? CTL_HO_PRIORITY_FLOOR : p;
}

/* One job of a batch: the operator's sources and the protocol's settings; k: the operator's
 * place on its side (B's priorities, ctl_ho_priority). */
static json_t *ctl_ho_job(const struct ctl_heldout_opts *o, const struct ctl_suite_op *op,
			  int which, long k)
{
	const char *tag = ctl_ho_tags[which];
	char name[CTL_SUITE_NAME_MAX + 32];
	json_t *j;

	snprintf(name, sizeof(name), "heldout-%s-%s", tag, op->name);
	j = json_pack("{s:s, s:s, s:O, s:O, s:s, s:I, s:I}", "name", name, "operator", op->name,
		      "kernel", op->kernel, "reference", op->reference, "backend", o->backend,
		      "rounds", (json_int_t)o->rounds, "seed", (json_int_t)(o->seed & 0x7fffffff));
	if (j && op->tolerances)
		json_object_set(j, "tolerances", op->tolerances);
	if (j && o->max_candidates > 0)
		json_object_set_new(j, "max_candidates", json_integer(o->max_candidates));
	if (j && o->benchmark_cases > 0)
		json_object_set_new(j, "benchmark_cases", json_integer(o->benchmark_cases));
	if (j && o->correctness_cases > 0)
		json_object_set_new(j, "correctness_cases", json_integer(o->correctness_cases));
	if (j && which != CTL_HO_A)
		json_object_set_new(j, "priority", json_integer(ctl_ho_priority(which, k)));
	return j;
}

/* Submits the operators of one side (in_a[i] == side_a) as a batch under version, with an
 * Idempotency-Key of the run's key and the batch's tag: a resumed run that lost the answer
 * gets the same batch back (200) instead of a second one. */
static int ctl_ho_batch(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o,
			const struct ctl_suite *s, const unsigned char *in_a, int side_a, int which,
			long version, const char *run_key, char id[CTL_HO_ID_MAX])
{
	char name[128], idem[CTL_HO_ID_MAX];
	json_t *jobs = json_array(), *body, *doc = NULL;
	long k = 0;
	int rc;

	for (size_t i = 0; i < s->n; i++)
		if (in_a[i] == side_a)
			json_array_append_new(jobs, ctl_ho_job(o, &s->ops[i], which, k++));
	snprintf(name, sizeof(name), "heldout %s (seed %llu, split %.2f)", ctl_ho_tags[which],
		 o->seed, o->split);
	snprintf(idem, sizeof(idem), "heldout-%s-%s", run_key, ctl_ho_tags[which]);
	body = json_pack("{s:s, s:s, s:I, s:o}", "name", name, "policy", o->policy,
			 "pattern_index", (json_int_t)version, "jobs", jobs);
	rc = body ? ctl_ho_call_idem(ctx, "POST", "/v1/batches", idem, body, 201, 200, &doc) : -ENOMEM;
	json_decref(body);
	if (rc == 0) {
		ctl_format_clean(id, CTL_HO_ID_MAX, json_string_value(json_object_get(doc, "id")) ?: "",
				 CTL_HO_ID_MAX - 8);
		fprintf(ctx->err, "heldout: batch %s %s: %zu jobs under pattern index v%ld\n",
			ctl_ho_tags[which], id, json_array_size(json_object_get(doc, "jobs")), version);
		if (!id[0])
			rc = -EPROTO;
	}
	json_decref(doc);
	return rc;
}

static double ctl_ho_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Cancels the jobs of a batch that have not ended (the timeout). */
static void ctl_ho_cancel(struct ctl_ctx *ctx, const json_t *batch)
{
	const json_t *j;
	size_t i;
	json_array_foreach(json_object_get(batch, "jobs"), i, j) {
		const char *st = json_string_value(json_object_get(j, "state")) ?: "";
		const char *jid = json_string_value(json_object_get(j, "id"));
		char path[CTL_HO_PATH_MAX];
		json_t *doc;
		if (!jid || !strcmp(st, "succeeded") || !strcmp(st, "failed") || !strcmp(st, "cancelled"))
			continue;
		if (ctl_http_path(path, sizeof(path), "/v1/jobs/", jid, "/cancel") == 0 &&
		    ctl_ho_call(ctx, "POST", path, NULL, 200, 409, &doc) == 0)
			json_decref(doc);
	}
}

/* Polls the batches ids[first..first+n) until each is done; docs[i] gets each one's last
 * document (owned). -ETIMEDOUT (jobs cancelled) after o->timeout_s. */
static int ctl_ho_wait(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o,
		       char ids[][CTL_HO_ID_MAX], int first, int n, json_t **docs)
{
	double deadline = ctl_ho_now() + o->timeout_s;
	long last[CTL_HO_BATCHES];
	int rc = 0;

	for (int i = 0; i < CTL_HO_BATCHES; i++)
		last[i] = -1;
	for (;;) {
		int done = 1;
		for (int b = first; b < first + n; b++) {
			char path[CTL_HO_PATH_MAX];
			const json_t *a;
			long fin;
			json_decref(docs[b]);
			docs[b] = NULL;
			if (ctl_http_path(path, sizeof(path), "/v1/batches/", ids[b], "") < 0)
				return -EINVAL;
			if ((rc = ctl_ho_call(ctx, "GET", path, NULL, 200, 200, &docs[b])) < 0)
				return rc;
			a = json_object_get(docs[b], "aggregate");
			fin = (long)(json_integer_value(json_object_get(a, "succeeded")) +
				     json_integer_value(json_object_get(a, "failed")) +
				     json_integer_value(json_object_get(a, "cancelled")));
			if (fin != last[b]) {
				fprintf(ctx->err, "heldout: batch %s: %ld of %lld jobs ended\n", ctl_ho_tags[b],
					fin, (long long)json_integer_value(json_object_get(a, "jobs")));
				last[b] = fin;
			}
			done &= !strcmp(json_string_value(json_object_get(docs[b], "state")) ?: "", "done");
		}
		if (done)
			return 0;
		if (ctl_ho_now() > deadline) {
			if (o->state) {
				fprintf(ctx->err, "koptctl: the batches did not end within --timeout %.0f s; "
					"they go on running: the same command resumes them (--state %s)\n",
					o->timeout_s, o->state);
				return -ETIMEDOUT;
			}
			for (int b = first; b < first + n; b++)
				ctl_ho_cancel(ctx, docs[b]);
			fprintf(ctx->err, "koptctl: the batches did not end within --timeout %.0f s; their "
				"unfinished jobs were cancelled\n", o->timeout_s);
			return -ETIMEDOUT;
		}
		{
			struct timespec ts = { (time_t)o->poll_s,
					       (long)((o->poll_s - floor(o->poll_s)) * 1e9) };
			nanosleep(&ts, NULL);
		}
	}
}

/* ------------------------------------------------------------------------ the report */

/* The record of operator op in a batch document (borrowed), or NULL. */
static const json_t *ctl_ho_find(const json_t *batch, const char *op)
{
	const json_t *j;
	size_t i;
	json_array_foreach(json_object_get(batch, "jobs"), i, j)
		if (!strcmp(json_string_value(json_object_get(j, "operator")) ?: "", op))
			return j;
	return NULL;
}

static json_t *ctl_ho_side(const json_t *j)
{
	json_int_t rounds = json_integer_value(json_object_get(j, "rounds"));
	json_int_t settled = json_integer_value(json_object_get(j, "settled_l1"));
	return json_pack("{s:O?, s:O?, s:O?, s:I, s:I, s:o, s:O?, s:O?, s:O?}",
			 "state", json_object_get(j, "state"), "speedup", json_object_get(j, "speedup"),
			 "best_round", json_object_get(j, "best_round"), "rounds", rounds,
			 "settled_l1", settled,
			 "l1_share", rounds > 0 ? json_real((double)settled / (double)rounds) : json_null(),
			 "device_seconds", json_object_get(j, "device_seconds"),
			 "seconds_to_best", json_object_get(j, "seconds_to_best"),
			 "error", json_object_get(j, "error"));
}

static json_t *ctl_ho_report(const struct ctl_heldout_opts *o, const struct ctl_suite *s,
			     const unsigned char *in_a, long seed_v, long new_v, const json_t *diff,
			     json_t **docs)
{
	json_t *a_ops = json_array(), *b_ops = json_array(), *per = json_array(), *rep;
	for (size_t i = 0; i < s->n; i++) {
		json_array_append_new(in_a[i] ? a_ops : b_ops, json_string(s->ops[i].name));
		if (!in_a[i])
			json_array_append_new(per, json_pack("{s:s, s:s, s:o, s:o}", "operator", s->ops[i].name,
							     "class", s->ops[i].cls, "frozen",
							     ctl_ho_side(ctl_ho_find(docs[CTL_HO_B_FROZEN], s->ops[i].name)),
							     "seed",
							     ctl_ho_side(ctl_ho_find(docs[CTL_HO_B_SEED], s->ops[i].name))));
	}
	rep = json_pack("{s:s, s:f, s:I, s:I, s:s, s:s, s:I, s:I}", "suite", o->suite, "split", o->split,
			"seed", (json_int_t)o->seed, "rounds", (json_int_t)o->rounds, "backend", o->backend,
			"policy", o->policy, "seed_version", (json_int_t)seed_v, "synthesized_version",
			(json_int_t)new_v);
	json_object_set_new(rep, "A", json_pack("{s:o, s:O, s:O}", "operators", a_ops, "batch",
						json_object_get(docs[CTL_HO_A], "id"), "aggregate",
						json_object_get(docs[CTL_HO_A], "aggregate")));
	json_object_set_new(rep, "B", json_pack("{s:o, s:{s:O, s:O}, s:{s:O, s:O}, s:o}", "operators", b_ops,
						"frozen", "batch", json_object_get(docs[CTL_HO_B_FROZEN], "id"),
						"aggregate", json_object_get(docs[CTL_HO_B_FROZEN], "aggregate"),
						"seed", "batch", json_object_get(docs[CTL_HO_B_SEED], "id"),
						"aggregate", json_object_get(docs[CTL_HO_B_SEED], "aggregate"),
						"per_operator", per));
	json_object_set(rep, "diff", (json_t *)diff);
	return rep;
}

static void ctl_ho_num(FILE *out, const json_t *v, const char *fmt_ok, int width)
{
	if (json_is_number(v))
		fprintf(out, fmt_ok, width, json_number_value(v));
	else
		fprintf(out, "%*s", width, "-");
}

static void ctl_ho_print_side(FILE *out, const json_t *side)
{
	ctl_ho_num(out, json_object_get(side, "speedup"), "%*.3fx", 9);
	ctl_ho_num(out, json_object_get(side, "best_round"), "%*.0f", 6);
	ctl_ho_num(out, json_object_get(side, "l1_share"), "%*.2f", 9);
	ctl_ho_num(out, json_object_get(side, "device_seconds"), "%*.1f", 10);
	fprintf(out, " %-9.9s", json_string_value(json_object_get(side, "state")) ?: "-");
}

static void ctl_ho_print_agg(FILE *out, const char *what, const json_t *rep, const char *key,
			     const char *fmt)
{
	const json_t *b = json_object_get(rep, "B");
	fprintf(out, "  %-28s", what);
	ctl_ho_num(out, json_object_get(json_object_get(json_object_get(b, "frozen"), "aggregate"), key), fmt, 14);
	fprintf(out, "   ");
	ctl_ho_num(out, json_object_get(json_object_get(json_object_get(b, "seed"), "aggregate"), key), fmt, 14);
	fputc('\n', out);
}

static void ctl_ho_print(FILE *out, const json_t *rep)
{
	const json_t *b = json_object_get(rep, "B"), *x, *t;
	const json_t *diff = json_object_get(rep, "diff");
	long sv = (long)json_integer_value(json_object_get(rep, "seed_version"));
	long nv = (long)json_integer_value(json_object_get(rep, "synthesized_version"));
	size_t i;

	fprintf(out, "held-out protocol: suite %s, split %.2f, seed %lld, %lld round(s) per job, "
		"backend %s, policy %s\n", json_string_value(json_object_get(rep, "suite")),
		json_real_value(json_object_get(rep, "split")),
		(long long)json_integer_value(json_object_get(rep, "seed")),
		(long long)json_integer_value(json_object_get(rep, "rounds")),
		json_string_value(json_object_get(rep, "backend")),
		json_string_value(json_object_get(rep, "policy")));
	fprintf(out, "A (under the seed v%ld):", sv);
	json_array_foreach(json_object_get(json_object_get(rep, "A"), "operators"), i, x)
		fprintf(out, " %s", json_string_value(x));
	fprintf(out, "\nsynthesized from the seed and A alone: v%ld, frozen (%zu added, %zu changed, "
		"%zu retired)\n", nv, json_array_size(json_object_get(diff, "added")),
		json_array_size(json_object_get(diff, "changed")),
		json_array_size(json_object_get(diff, "retired")));
	json_array_foreach(json_object_get(diff, "text"), i, t)
		fprintf(out, "  %s\n", json_string_value(t));
	fprintf(out, "B, held out, run under both:\n");
	fprintf(out, "  %-16s %-11s| frozen v%-4ld speedup  best  L1 share  device s  state     "
		"| seed v%-4ld speedup  best  L1 share  device s  state\n", "operator", "class", nv, sv);
	json_array_foreach(json_object_get(b, "per_operator"), i, x) {
		fprintf(out, "  %-16.16s %-11.11s|            ", json_string_value(json_object_get(x, "operator")),
			json_string_value(json_object_get(x, "class")));
		ctl_ho_print_side(out, json_object_get(x, "frozen"));
		fprintf(out, " |          ");
		ctl_ho_print_side(out, json_object_get(x, "seed"));
		fputc('\n', out);
	}
	fprintf(out, "  %-28s %14s   %14s\n", "B aggregate", "frozen", "seed");
	ctl_ho_print_agg(out, "geomean speedup", rep, "geomean_speedup", "%*.3f");
	ctl_ho_print_agg(out, "median speedup", rep, "median_speedup", "%*.3f");
	ctl_ho_print_agg(out, "geomean, failures as 1x", rep, "geomean_speedup_all", "%*.3f");
	ctl_ho_print_agg(out, "rounds to best (median)", rep, "rounds_to_best_median", "%*.1f");
	ctl_ho_print_agg(out, "share of rounds settled at L1", rep, "l1_share", "%*.3f");
	ctl_ho_print_agg(out, "device-seconds", rep, "device_seconds", "%*.1f");
	ctl_ho_print_agg(out, "failed", rep, "failed", "%*.0f");
}

/* ------------------------------------------------------------------------ the protocol */

/* What defines a run: a --state file written under other settings is refused. Owned. */
static json_t *ctl_ho_settings(const struct ctl_heldout_opts *o, const struct ctl_suite *s,
			       const unsigned char *in_a)
{
	json_t *a = json_array(), *b = json_array();
	for (size_t i = 0; i < s->n; i++)
		json_array_append_new(in_a[i] ? a : b, json_string(s->ops[i].name));
	return json_pack("{s:o, s:o, s:f, s:I, s:I, s:s, s:s, s:I, s:I, s:I, s:I}", "operators_a", a,
			 "operators_b", b, "split", o->split, "seed", (json_int_t)o->seed,
			 "rounds", (json_int_t)o->rounds, "backend", o->backend, "policy", o->policy,
			 "max_candidates", (json_int_t)o->max_candidates,
			 "benchmark_cases", (json_int_t)o->benchmark_cases,
			 "correctness_cases", (json_int_t)o->correctness_cases,
			 "min_operators", (json_int_t)o->min_operators);
}

/* Records a step; says why on stderr when the file cannot be written. */
static int ctl_ho_record(struct ctl_ctx *ctx, struct ctl_hostate *st, const char *step, json_t *v)
{
	char err[512];
	int rc = ctl_hostate_set(st, step, v, err, sizeof(err));
	if (rc < 0)
		fprintf(ctx->err, "koptctl: %s\n", err);
	return rc;
}

/* A number recorded by an earlier step, or 0. */
static long ctl_ho_recorded(const struct ctl_hostate *st, const char *step)
{
	return (long)json_integer_value(ctl_hostate_get(st, step));
}

/* A batch made by an earlier step (its id into id), or made now and recorded. */
static int ctl_ho_batch_step(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o,
			     const struct ctl_suite *s, const unsigned char *in_a, int which,
			     long version, struct ctl_hostate *st, char id[CTL_HO_ID_MAX])
{
	const char *had = json_string_value(ctl_hostate_get(st, ctl_ho_tags[which]));
	int rc;

	if (had) {
		ctl_format_clean(id, CTL_HO_ID_MAX, had, CTL_HO_ID_MAX - 8);
		fprintf(ctx->err, "heldout: batch %s %s (made before)\n", ctl_ho_tags[which], id);
		return 0;
	}
	if ((rc = ctl_ho_batch(ctx, o, s, in_a, which == CTL_HO_A, which, version,
			       ctl_hostate_key(st), id)) < 0)
		return rc;
	return ctl_ho_record(ctx, st, ctl_ho_tags[which], json_string(id));
}

/* The version synthesized from the seed and batch A alone, frozen; made by an earlier step
 * or now. A crash between the synthesis and its record costs one unused version. */
static int ctl_ho_synth_step(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o,
			     struct ctl_hostate *st, long seed_v, const char *a_id, long *new_v)
{
	char path[CTL_HO_PATH_MAX];
	json_t *req, *doc = NULL;
	int rc;

	*new_v = ctl_ho_recorded(st, "synthesized_version");
	if (*new_v <= 0) {
		req = json_pack("{s:I, s:[s], s:I, s:s}", "base", (json_int_t)seed_v, "batch_ids", a_id,
				"min_operators", (json_int_t)o->min_operators, "note",
				"held-out protocol: the seed and batch A");
		rc = req ? ctl_ho_call(ctx, "POST", "/v1/patterns/synthesize", req, 201, 201, &doc) : -ENOMEM;
		json_decref(req);
		if (rc < 0)
			return rc;
		*new_v = (long)json_integer_value(json_object_get(json_object_get(doc, "version"), "version"));
		json_decref(doc);
		if (*new_v <= 0)
			return -EPROTO;
		if ((rc = ctl_ho_record(ctx, st, "synthesized_version", json_integer(*new_v))) < 0)
			return rc;
	}
	if (json_is_true(ctl_hostate_get(st, "frozen")))
		return 0;
	snprintf(path, sizeof(path), "/v1/patterns/versions/%ld/freeze", *new_v);
	if ((rc = ctl_ho_call(ctx, "POST", path, NULL, 200, 200, &doc)) < 0)
		return rc;
	json_decref(doc);
	fprintf(ctx->err, "heldout: synthesized v%ld from the seed v%ld and batch A; frozen\n", *new_v, seed_v);
	return ctl_ho_record(ctx, st, "frozen", json_true());
}

/* The seed version: recorded by an earlier step, or looked up now and recorded. */
static int ctl_ho_seed_step(struct ctl_ctx *ctx, struct ctl_hostate *st, long *seed_v)
{
	int rc;
	if ((*seed_v = ctl_ho_recorded(st, "seed_version")) > 0)
		return 0;
	if ((rc = ctl_ho_seed_version(ctx, seed_v)) < 0)
		return rc;
	return ctl_ho_record(ctx, st, "seed_version", json_integer(*seed_v));
}

/* The report once every batch is done: the diff, the table, the JSON file. */
static int ctl_ho_finish(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o, const struct ctl_suite *s,
			 const unsigned char *in_a, long seed_v, long new_v, json_t **docs)
{
	char path[CTL_HO_PATH_MAX];
	json_t *diff = NULL, *rep;
	int rc;

	snprintf(path, sizeof(path), "/v1/patterns/versions/%ld/diff", new_v);
	if ((rc = ctl_ho_call(ctx, "GET", path, NULL, 200, 200, &diff)) < 0)
		return rc;
	rep = ctl_ho_report(o, s, in_a, seed_v, new_v, diff, docs);
	json_decref(diff);
	if (!rep)
		return -ENOMEM;
	ctl_ho_print(ctx->out, rep);
	if (o->out && json_dump_file(rep, o->out, JSON_INDENT(1) | JSON_SORT_KEYS) != 0) {
		fprintf(ctx->err, "koptctl: cannot write the report to %s\n", o->out);
		rc = -EIO;
	}
	json_decref(rep);
	return rc;
}

int ctl_heldout_run(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o)
{
	struct ctl_suite s;
	struct ctl_hostate st = { 0 };
	unsigned char in_a[CTL_SUITE_MAX_OPS];
	char ids[CTL_HO_BATCHES][CTL_HO_ID_MAX], err[1024];
	json_t *docs[CTL_HO_BATCHES] = { NULL }, *settings = NULL;
	long seed_v, new_v = 0;
	int rc;

	if ((rc = ctl_suite_load(o->suite, o->ops, &s, err, sizeof(err))) < 0) {
		fprintf(ctx->err, "koptctl: %s\n", err);
		return rc;
	}
	if ((rc = ctl_suite_split(s.n, o->split, o->seed, in_a)) < 0) {
		fprintf(ctx->err, "koptctl: heldout needs at least 2 operators (the suite has %zu) and "
			"--split in (0, 1)\n", s.n);
		goto out;
	}
	settings = ctl_ho_settings(o, &s, in_a);
	if (!settings || (rc = ctl_hostate_open(&st, o->state, settings, err, sizeof(err))) < 0) {
		rc = settings ? rc : -ENOMEM;
		fprintf(ctx->err, "koptctl: %s\n", settings ? err : "out of memory");
		goto out;
	}
	if (st.resumed)
		fprintf(ctx->err, "heldout: resuming the run recorded in %s\n", o->state);
	/* A under the seed */
	if ((rc = ctl_ho_seed_step(ctx, &st, &seed_v)) < 0 ||
	    (rc = ctl_ho_batch_step(ctx, o, &s, in_a, CTL_HO_A, seed_v, &st, ids[CTL_HO_A])) < 0 ||
	    (rc = ctl_ho_wait(ctx, o, ids, CTL_HO_A, 1, docs)) < 0)
		goto out;
	/* synthesis from the seed and A alone, frozen */
	if ((rc = ctl_ho_synth_step(ctx, o, &st, seed_v, ids[CTL_HO_A], &new_v)) < 0)
		goto out;
	/* B under both, side by side */
	if ((rc = ctl_ho_batch_step(ctx, o, &s, in_a, CTL_HO_B_FROZEN, new_v, &st, ids[CTL_HO_B_FROZEN])) < 0 ||
	    (rc = ctl_ho_batch_step(ctx, o, &s, in_a, CTL_HO_B_SEED, seed_v, &st, ids[CTL_HO_B_SEED])) < 0 ||
	    (rc = ctl_ho_wait(ctx, o, ids, CTL_HO_B_FROZEN, 2, docs)) < 0)
		goto out;
	rc = ctl_ho_finish(ctx, o, &s, in_a, seed_v, new_v, docs);
out:
	if (rc == -EPROTO && st.resumed)
		fprintf(ctx->err, "koptctl: the server refused what %s recorded; if it is not the "
			"database that file was written against, remove the file to start over\n", o->state);
	for (int i = 0; i < CTL_HO_BATCHES; i++)
		json_decref(docs[i]);
	json_decref(settings);
	ctl_hostate_close(&st);
	ctl_suite_free(&s);
	return rc;
}
