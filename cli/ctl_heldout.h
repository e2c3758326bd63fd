/* ctl_heldout — `koptctl heldout`: the held-out protocol of the pattern index
 * (docs/PATTERNS.md). The suite is split in two, reproducibly (ctl_suite_split); A runs as a
 * batch under the seed version; the index is synthesized from the seed and A's rounds alone
 * and the new version frozen; B then runs twice, as two batches, under the frozen version
 * and under the seed; the report sets B against B per operator: speedup, rounds to best,
 * share of rounds settled at L1, device-seconds. Needs an admin token (synthesis, freeze). */
#ifndef CTL_HELDOUT_H
#define CTL_HELDOUT_H

#include "ctl_ctx.h"

struct ctl_heldout_opts {
	const char *suite;        /* the suite directory (bench/suite/ops) */
	const char *ops;          /* comma-separated subset, or NULL for all */
	const char *backend;      /* jobs' backend */
	const char *policy;       /* the batches' policy */
	const char *out;          /* the report as JSON, or NULL */
	const char *state;        /* the run's progress file (ctl_hostate.h), or NULL */
	double split;             /* share of the operators in A, (0, 1) */
	unsigned long long seed;  /* the split's seed, also every job's seed */
	long rounds;              /* per job */
	long max_candidates;      /* 0: the server's default */
	long benchmark_cases;     /* 0: the server's default */
	long correctness_cases;   /* 0: all */
	long min_operators;       /* synthesis: distinct operators a mined pattern needs */
	double poll_s;            /* seconds between polls of a running batch */
	double timeout_s;         /* seconds each phase may wait; then its jobs are cancelled,
	                           * or, with a state file, left running for a resumed run */
};

/* Runs the protocol and prints the report to ctx->out (progress to ctx->err). 0, or a
 * negative code once the user was told why. */
int ctl_heldout_run(struct ctl_ctx *ctx, const struct ctl_heldout_opts *o);

#endif
