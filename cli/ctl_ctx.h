/* ctl_ctx — the one context of koptctl: created in main, handed to every command. There
 * are no other globals. */
#ifndef CTL_CTX_H
#define CTL_CTX_H

#include <stdbool.h>
#include <stdio.h>

#include "ctl_http.h"

/* Exit statuses, also documented in `koptctl --help`: scripts branch on how a job ended. */
enum ctl_exit {
	CTL_EXIT_SUCCEEDED = 0, /* also: any command that did what it was asked */
	CTL_EXIT_FAILED = 1,    /* the watched job failed */
	CTL_EXIT_CANCELLED = 2, /* the watched job was cancelled */
	CTL_EXIT_ERROR = 3,     /* usage, transport or server error */
};

struct ctl_ctx {
	struct ctl_http http; /* owned */
	FILE *out;            /* borrowed (stdout): results */
	FILE *err;            /* borrowed (stderr): diagnostics */
	bool tty;             /* out is a terminal: watch rewrites one line with '\r' */
	bool token_set;       /* KOPT_TOKEN was given: worded into 401 hints */
	unsigned poll_ms;     /* watch's polling period when the event stream drops */
	unsigned grace_s;     /* how long watch rides out an unreachable server */
};

#endif
