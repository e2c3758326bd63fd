/* koptctl — command-line client of the kopt daemon: main, argument parsing and help.
 * The work is in the ctl_* modules; this file only turns argv into their inputs and their
 * results into an exit status. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "ctl_ctx.h"
#include "ctl_heldout.h"
#include "ctl_jobs.h"
#include "ctl_watch.h"
#include "version.h"


#define CTL_DEFAULT_URL "http://127.0.0.1:8470"

static const char ctl_help_main[] =
	"usage: koptctl COMMAND [OPTIONS]\n"
	"\n"
	"Client of the kopt daemon (koptd) over its HTTP API.\n"
	"\n"
	"commands:\n"
	"  submit   submit a job: a reference and a kernel module, or a job spec file\n"
	"  list     list jobs, newest first\n"
	"  status   show one job\n"
	"  watch    follow a job until it ends\n"
	"  cancel   cancel a job\n"
	"  heldout  the held-out protocol of the pattern index (admin token)\n"
	"  help     help on a command (also: koptctl COMMAND --help)\n"
	"\n"
	"environment:\n"
	"  KOPT_URL    koptd's base URL (default " CTL_DEFAULT_URL ")\n"
	"  KOPT_TOKEN  bearer token, from `koptd token create --role R`\n"
	"\n"
	"exit status:\n"
	"  0  success; for watch and submit --wait: the job succeeded\n"
	"  1  the watched job failed\n"
	"  2  the watched job was cancelled\n"
	"  3  usage, transport or server error (the message says which)\n";

static const char ctl_help_submit[] =
	"usage: koptctl submit --kernel KERNEL.py [--reference REF.py] [--cases CASES.jsonl]\n"
	"                      [--backend B] [--rounds N] [--policy P] [--proposer P]\n"
	"                      [--priority N] [--name NAME] [--idempotency-key K]\n"
	"                      [--print] [--wait]\n"
	"       koptctl submit FILE.json [--idempotency-key K] [--print] [--wait]\n"
	"\n"
	"Submits an optimization job (POST /v1/jobs) and prints the job id on the last line.\n"
	"\n"
	"  -k, --kernel FILE       module with class ModelNew launching @triton.jit kernels\n"
	"  -r, --reference FILE    KernelBench/NPUKernelBench module with class Model and\n"
	"                          get_inputs() or get_input_groups(); without it the\n"
	"                          kernel's own first outputs are the golden\n"
	"  -c, --cases FILE        NPUKernelBench cases, JSON Lines: one {\"inputs\": [...]}\n"
	"                          object a line, blank lines skipped (at most 1024)\n"
	"  -b, --backend B         cuda | ascend | interp | any (server default: any)\n"
	"  -n, --rounds N          optimization rounds, 0..100; 0: baseline only (default 15)\n"
	"      --policy P          hierarchy | profile_only | always_deep | pattern_only\n"
	"      --proposer P        rules | llm | agent\n"
	"      --priority N        -100..100, higher runs first (default 0)\n"
	"      --name NAME         a name for people, 1..128 characters\n"
	"      --idempotency-key K resubmitting with the same key and body returns the same\n"
	"                          job instead of a second one\n"
	"      --print             write the request body to stdout, send nothing\n"
	"  -w, --wait              then follow the job like `koptctl watch`\n"
	"\n"
	"FILE.json is posted as is, after checking that it is one JSON object.\n"
	"The server's limits apply (by default 256 KiB a source, 4 MiB a request; its 400\n"
	"names the field and the limit); files over 16 MiB (a source) or 64 MiB (cases, a\n"
	"spec) are refused here. Exit status as for watch with --wait, else 0 or 3.\n";

static const char ctl_help_list[] =
	"usage: koptctl list [--state S]... [--limit N] [--all]\n"
	"\n"
	"Lists jobs, newest first: id, state, backend, name, created (UTC).\n"
	"\n"
	"  -s, --state S   only jobs in state S (queued, running, succeeded, failed,\n"
	"                  cancelled); repeat it or separate states with commas\n"
	"  -l, --limit N   jobs per page (server default 20, at most 100)\n"
	"  -a, --all       follow next_cursor through every page\n";

static const char ctl_help_status[] =
	"usage: koptctl status ID [--json]\n"
	"\n"
	"Shows one job: state, progress, timings, best result, error.\n"
	"\n"
	"  -j, --json   print the server's JSON document as is\n";

static const char ctl_help_watch[] =
	"usage: koptctl watch ID\n"
	"\n"
	"Follows a job until it ends, from its server-sent events (GET /v1/jobs/ID/events),\n"
	"falling back to polling every 2 s if the stream drops. On a terminal the progress\n"
	"line is rewritten in place; otherwise one line is printed per change.\n"
	"\n"
	"exit status: 0 succeeded, 1 failed, 2 cancelled, 3 usage/transport/server error\n";

static const char ctl_help_cancel[] =
	"usage: koptctl cancel ID\n"
	"\n"
	"Cancels a job: a queued job at once, a running one after its current round.\n"
	"Submitters may cancel their own jobs, admins any job.\n";

static const char ctl_help_heldout[] =
	"usage: koptctl heldout --suite DIR [--ops A,B,...] [--split F] [--seed N]\n"
	"                       [--rounds N] [--backend B] [--policy P] [--max-candidates N]\n"
	"                       [--benchmark-cases N] [--correctness-cases N] [--min-operators N]\n"
	"                       [--poll S] [--timeout S] [--state FILE] [--out REPORT.json]\n"
	"\n"
	"The held-out protocol of the pattern index (docs/PATTERNS.md): splits the suite's\n"
	"operators in two with the seed (A gets round(n x F), at least one each), runs A as a\n"
	"batch under the seed version of the index, synthesizes a version from the seed and\n"
	"A's rounds alone and freezes it, then runs B twice, as two batches, under the frozen\n"
	"version and under the seed, and reports B against B per operator: speedup, rounds to\n"
	"best, share of rounds settled at L1, device-seconds. Needs an admin token.\n"
	"\n"
	"  --suite DIR              one directory per operator with op.json, kernel.py,\n"
	"                           ref.py (bench/suite/ops)\n"
	"  --ops A,B,...            only these operators\n"
	"  --split F                share of the operators in A, in (0, 1) (default 0.5)\n"
	"  --seed N                 the split's seed, also every job's seed (default 0)\n"
	"  --rounds N               rounds per job (default 5)\n"
	"  --backend B              cuda | ascend | interp | any (default cuda)\n"
	"  --policy P               the batches' ladder policy (default hierarchy)\n"
	"  --max-candidates N       candidates per round (default: the server's)\n"
	"  --benchmark-cases N      (default: the server's)\n"
	"  --correctness-cases N    (default: all)\n"
	"  --min-operators N        distinct operators a mined pattern needs (default 2)\n"
	"  --poll S                 seconds between polls (default 5)\n"
	"  --timeout S              seconds each phase may take; then its jobs are\n"
	"                           cancelled and the command fails (default 21600)\n"
	"  --state FILE             record the run's progress in FILE (its batches, the\n"
	"                           synthesized version); run the same command again to\n"
	"                           resume it. With --state a timeout leaves the jobs running\n"
	"  --out FILE               also write the report as JSON\n"
	"\n"
	"exit status: 0 the protocol ran (failed jobs are in the report), 3 otherwise\n";

struct ctl_cmd {
	const char *name;
	const char *help;
	int (*run)(struct ctl_ctx *ctx, int argc, char **argv);
};

static int ctl_usage(struct ctl_ctx *ctx, const char *cmd, const char *msg)
{
	fprintf(ctx->err, "koptctl: %s\nTry 'koptctl %s --help'.\n", msg, cmd);
	return CTL_EXIT_ERROR;
}

/* Whole-string integer in [min, max]: "12abc" and "" are refused, not truncated. */
static int ctl_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int ctl_bad_option(struct ctl_ctx *ctx, const char *cmd, char **argv, int c)
{
	char msg[200];

	if (c == ':' || (c == '?' && optopt && strchr("krcbnsl", optopt)))
		snprintf(msg, sizeof(msg), "option %s needs a value", argv[optind - 1]);
	else
		snprintf(msg, sizeof(msg), "unknown option %s", argv[optind - 1]);
	return ctl_usage(ctx, cmd, msg);
}

static int ctl_exit_of(int rc)
{
	return rc < 0 ? CTL_EXIT_ERROR : CTL_EXIT_SUCCEEDED;
}

static int ctl_cmd_submit(struct ctl_ctx *ctx, int argc, char **argv)
{
	enum { O_POLICY = 256, O_PROPOSER, O_PRIORITY, O_NAME, O_IDEM, O_PRINT };
	static const struct option opts[] = {
		{"kernel", required_argument, NULL, 'k'},
		{"reference", required_argument, NULL, 'r'},
		{"cases", required_argument, NULL, 'c'},
		{"backend", required_argument, NULL, 'b'},
		{"rounds", required_argument, NULL, 'n'},
		{"policy", required_argument, NULL, O_POLICY},
		{"proposer", required_argument, NULL, O_PROPOSER},
		{"priority", required_argument, NULL, O_PRIORITY},
		{"name", required_argument, NULL, O_NAME},
		{"idempotency-key", required_argument, NULL, O_IDEM},
		{"print", no_argument, NULL, O_PRINT},
		{"wait", no_argument, NULL, 'w'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ctl_submit_opts o = {0};
	char id[CTL_JOBS_ID_MAX];
	bool wait = false;
	int c, rc, outcome;

	while ((c = getopt_long(argc, argv, ":k:r:c:b:n:wh", opts, NULL)) != -1) {
		switch (c) {
		case 'k': o.spec.kernel_path = optarg; break;
		case 'r': o.spec.reference_path = optarg; break;
		case 'c': o.spec.cases_path = optarg; break;
		case 'b': o.spec.backend = optarg; break;
		case 'n':
			if (ctl_parse_long(optarg, INT_MIN, INT_MAX, &o.spec.rounds) < 0)
				return ctl_usage(ctx, "submit", "--rounds needs an integer");
			o.spec.has_rounds = true;
			break;
		case O_POLICY: o.spec.policy = optarg; break;
		case O_PROPOSER: o.spec.proposer = optarg; break;
		case O_PRIORITY:
			if (ctl_parse_long(optarg, INT_MIN, INT_MAX, &o.spec.priority) < 0)
				return ctl_usage(ctx, "submit", "--priority needs an integer");
			o.spec.has_priority = true;
			break;
		case O_NAME: o.spec.name = optarg; break;
		case O_IDEM: o.idem_key = optarg; break;
		case O_PRINT: o.print = true; break;
		case 'w': wait = true; break;
		case 'h': fputs(ctl_help_submit, ctx->out); return CTL_EXIT_SUCCEEDED;
		default: return ctl_bad_option(ctx, "submit", argv, c);
		}
	}
	if (optind < argc)
		o.spec_file = argv[optind++];
	if (optind < argc)
		return ctl_usage(ctx, "submit", "one spec file at most");
	if (o.spec_file && (o.spec.kernel_path || o.spec.reference_path || o.spec.cases_path ||
			    o.spec.backend || o.spec.has_rounds || o.spec.policy ||
			    o.spec.proposer || o.spec.has_priority || o.spec.name))
		return ctl_usage(ctx, "submit",
				 "a spec file is posted as is: edit it instead of adding options");
	if (!o.spec_file && !o.spec.kernel_path)
		return ctl_usage(ctx, "submit", "--kernel KERNEL.py or a spec file is required");
	if (o.idem_key && (strlen(o.idem_key) == 0 || strlen(o.idem_key) > 255 ||
			   strspn(o.idem_key, " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMN"
					      "OPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~") !=
				   strlen(o.idem_key)))
		return ctl_usage(ctx, "submit",
				 "--idempotency-key must be 1..255 printable ASCII characters");
	if (o.print && wait)
		return ctl_usage(ctx, "submit", "--print sends nothing, so there is nothing to wait for");
	rc = ctl_jobs_submit(ctx, &o, id);
	if (rc < 0 || !wait)
		return ctl_exit_of(rc);
	rc = ctl_watch_run(ctx, id, &outcome);
	return rc < 0 ? CTL_EXIT_ERROR : outcome;
}

static int ctl_cmd_list(struct ctl_ctx *ctx, int argc, char **argv)
{
	static const struct option opts[] = {
		{"state", required_argument, NULL, 's'},
		{"limit", required_argument, NULL, 'l'},
		{"all", no_argument, NULL, 'a'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	char states[512] = "";
	long limit = 0;
	bool all = false;
	int c;

	while ((c = getopt_long(argc, argv, ":s:l:ah", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			/* --state may repeat: the API takes one comma-separated value. */
			if (strlen(states) + strlen(optarg) + 2 > sizeof(states))
				return ctl_usage(ctx, "list", "too many --state values");
			if (states[0])
				strcat(states, ",");
			strcat(states, optarg);
			break;
		case 'l':
			if (ctl_parse_long(optarg, 1, INT_MAX, &limit) < 0)
				return ctl_usage(ctx, "list", "--limit needs a positive integer");
			break;
		case 'a': all = true; break;
		case 'h': fputs(ctl_help_list, ctx->out); return CTL_EXIT_SUCCEEDED;
		default: return ctl_bad_option(ctx, "list", argv, c);
		}
	}
	if (optind < argc)
		return ctl_usage(ctx, "list", "list takes no arguments");
	return ctl_exit_of(ctl_jobs_list(ctx, states[0] ? states : NULL, limit, all));
}

/* The ID argument of status/watch/cancel, plus --help and an optional flag. */
static int ctl_id_args(struct ctl_ctx *ctx, const char *cmd, const char *help, int argc,
		       char **argv, bool *json, const char **id)
{
	static const struct option opts[] = {
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	*id = NULL;
	while ((c = getopt_long(argc, argv, json ? ":jh" : ":h", json ? opts : opts + 1,
				NULL)) != -1) {
		switch (c) {
		case 'j': *json = true; break;
		case 'h': fputs(help, ctx->out); return 1;
		default: ctl_bad_option(ctx, cmd, argv, c); return -EINVAL;
		}
	}
	if (optind + 1 != argc) {
		ctl_usage(ctx, cmd, "one job ID is required");
		return -EINVAL;
	}
	*id = argv[optind];
	return 0;
}

static int ctl_cmd_status(struct ctl_ctx *ctx, int argc, char **argv)
{
	const char *id;
	bool json = false;
	int rc = ctl_id_args(ctx, "status", ctl_help_status, argc, argv, &json, &id);

	if (rc != 0)
		return rc > 0 ? CTL_EXIT_SUCCEEDED : CTL_EXIT_ERROR;
	return ctl_exit_of(ctl_jobs_status(ctx, id, json));
}

static int ctl_cmd_watch(struct ctl_ctx *ctx, int argc, char **argv)
{
	const char *id;
	int outcome;
	int rc = ctl_id_args(ctx, "watch", ctl_help_watch, argc, argv, NULL, &id);

	if (rc != 0)
		return rc > 0 ? CTL_EXIT_SUCCEEDED : CTL_EXIT_ERROR;
	rc = ctl_watch_run(ctx, id, &outcome);
	return rc < 0 ? CTL_EXIT_ERROR : outcome;
}

static int ctl_cmd_cancel(struct ctl_ctx *ctx, int argc, char **argv)
{
	const char *id;
	int rc = ctl_id_args(ctx, "cancel", ctl_help_cancel, argc, argv, NULL, &id);

	if (rc != 0)
		return rc > 0 ? CTL_EXIT_SUCCEEDED : CTL_EXIT_ERROR;
	return ctl_exit_of(ctl_jobs_cancel(ctx, id));
}

/* A number in [min, max] written whole ("0.5x" and "" are refused). */
static int ctl_parse_double(const char *s, double min, double max, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= min && v <= max))
		return -EINVAL;
	*out = v;
	return 0;
}

static int ctl_cmd_heldout(struct ctl_ctx *ctx, int argc, char **argv)
{
	enum { O_SUITE = 256, O_OPS, O_SPLIT, O_SEED, O_ROUNDS, O_BACKEND, O_POLICY, O_MAXC, O_BENCH,
	       O_CORR, O_MINOPS, O_POLL, O_TIMEOUT, O_OUT, O_STATE };
	static const struct option opts[] = {
		{"suite", required_argument, NULL, O_SUITE},
		{"ops", required_argument, NULL, O_OPS},
		{"split", required_argument, NULL, O_SPLIT},
		{"seed", required_argument, NULL, O_SEED},
		{"rounds", required_argument, NULL, O_ROUNDS},
		{"backend", required_argument, NULL, O_BACKEND},
		{"policy", required_argument, NULL, O_POLICY},
		{"max-candidates", required_argument, NULL, O_MAXC},
		{"benchmark-cases", required_argument, NULL, O_BENCH},
		{"correctness-cases", required_argument, NULL, O_CORR},
		{"min-operators", required_argument, NULL, O_MINOPS},
		{"poll", required_argument, NULL, O_POLL},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"out", required_argument, NULL, O_OUT},
		{"state", required_argument, NULL, O_STATE},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct ctl_heldout_opts o = { .backend = "cuda", .policy = "hierarchy", .split = 0.5,
				      .rounds = 5, .min_operators = 2, .poll_s = 5, .timeout_s = 21600 };
	double seed = 0;
	int c, bad = 0;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case O_SUITE: o.suite = optarg; break;
		case O_OPS: o.ops = optarg; break;
		case O_SPLIT: bad = ctl_parse_double(optarg, 1e-9, 1 - 1e-9, &o.split) ? c : bad; break;
		case O_SEED: bad = ctl_parse_double(optarg, 0, 2147483647.0, &seed) || seed != (long)seed ? c : bad; break;
		case O_ROUNDS: bad = ctl_parse_long(optarg, 0, 100, &o.rounds) ? c : bad; break;
		case O_BACKEND: o.backend = optarg; break;
		case O_POLICY: o.policy = optarg; break;
		case O_MAXC: bad = ctl_parse_long(optarg, 1, 64, &o.max_candidates) ? c : bad; break;
		case O_BENCH: bad = ctl_parse_long(optarg, 1, 64, &o.benchmark_cases) ? c : bad; break;
		case O_CORR: bad = ctl_parse_long(optarg, 1, 1024, &o.correctness_cases) ? c : bad; break;
		case O_MINOPS: bad = ctl_parse_long(optarg, 1, 1000, &o.min_operators) ? c : bad; break;
		case O_POLL: bad = ctl_parse_double(optarg, 0.05, 3600, &o.poll_s) ? c : bad; break;
		case O_TIMEOUT: bad = ctl_parse_double(optarg, 1, 30 * 86400.0, &o.timeout_s) ? c : bad; break;
		case O_OUT: o.out = optarg; break;
		case O_STATE: o.state = optarg; break;
		case 'h': fputs(ctl_help_heldout, ctx->out); return CTL_EXIT_SUCCEEDED;
		default: return ctl_bad_option(ctx, "heldout", argv, c);
		}
		if (bad) {
			char msg[160];
			snprintf(msg, sizeof(msg), "%s: not a number in its range (see --help)", argv[optind - 1]);
			return ctl_usage(ctx, "heldout", msg);
		}
	}
	if (optind < argc)
		return ctl_usage(ctx, "heldout", "heldout takes no arguments, only options");
	if (!o.suite)
		return ctl_usage(ctx, "heldout", "--suite DIR is required");
	o.seed = (unsigned long long)seed;
	return ctl_exit_of(ctl_heldout_run(ctx, &o));
}

static const struct ctl_cmd ctl_cmds[] = {
	{"submit", ctl_help_submit, ctl_cmd_submit},
	{"list", ctl_help_list, ctl_cmd_list},
	{"status", ctl_help_status, ctl_cmd_status},
	{"watch", ctl_help_watch, ctl_cmd_watch},
	{"cancel", ctl_help_cancel, ctl_cmd_cancel},
	{"heldout", ctl_help_heldout, ctl_cmd_heldout},
};

static const struct ctl_cmd *ctl_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(ctl_cmds) / sizeof(ctl_cmds[0]); i++)
		if (strcmp(ctl_cmds[i].name, name) == 0)
			return &ctl_cmds[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct ctl_ctx ctx = {.out = stdout, .err = stderr, .poll_ms = 2000, .grace_s = 60};
	const struct ctl_cmd *cmd;
	const char *url = getenv("KOPT_URL");     /* borrowed from the environment */
	const char *token = getenv("KOPT_TOKEN"); /* borrowed; copied into ctx.http */
	bool curl_up = false, http_up = false;
	int rc;

	if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		fputs(ctl_help_main, argc < 2 ? stderr : stdout);
		rc = argc < 2 ? CTL_EXIT_ERROR : CTL_EXIT_SUCCEEDED;
		goto out;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("koptctl %s\n", kopt_version);
		rc = CTL_EXIT_SUCCEEDED;
		goto out;
	}
	if (strcmp(argv[1], "help") == 0) {
		cmd = argc > 2 ? ctl_find(argv[2]) : NULL;
		if (argc > 2 && !cmd) {
			fprintf(stderr, "koptctl: unknown command '%s'\nTry 'koptctl --help'.\n",
				argv[2]);
			rc = CTL_EXIT_ERROR;
			goto out;
		}
		fputs(cmd ? cmd->help : ctl_help_main, stdout);
		rc = CTL_EXIT_SUCCEEDED;
		goto out;
	}
	cmd = ctl_find(argv[1]);
	if (!cmd) {
		fprintf(stderr, "koptctl: unknown command '%s'\nTry 'koptctl --help'.\n", argv[1]);
		rc = CTL_EXIT_ERROR;
		goto out;
	}
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
		fprintf(stderr, "koptctl: libcurl failed to initialise\n");
		rc = CTL_EXIT_ERROR;
		goto out;
	}
	curl_up = true;
	if (token && !token[0])
		token = NULL;
	ctx.token_set = token != NULL;
	ctx.tty = isatty(STDOUT_FILENO);
	if (ctl_http_init(&ctx.http, url && url[0] ? url : CTL_DEFAULT_URL, token) < 0) {
		fprintf(stderr, "koptctl: %s\n",
			ctx.http.errmsg[0] ? ctx.http.errmsg : "out of memory");
		rc = CTL_EXIT_ERROR;
		goto out;
	}
	http_up = true;
	/* getopt sees "submit ..." with the command as its argv[0]; opterr off: our own
	 * messages say "koptctl: ..." and point at the command's help. */
	opterr = 0;
	rc = cmd->run(&ctx, argc - 1, argv + 1);
out:
	if (http_up)
		ctl_http_cleanup(&ctx.http);
	if (curl_up)
		curl_global_cleanup();
	return rc;
}
