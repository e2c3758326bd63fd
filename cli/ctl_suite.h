/* ctl_suite — reads an operator suite directory (bench/suite/ops: one directory per operator
 * holding op.json, kernel.py and ref.py) and splits it in two, reproducibly, for the
 * held-out protocol. Only file reading, no network: unit-tested. */
#ifndef CTL_SUITE_H
#define CTL_SUITE_H

#include <stddef.h>

#include <jansson.h>

#define CTL_SUITE_MAX_OPS 256
#define CTL_SUITE_NAME_MAX 128
#define CTL_SUITE_CLASS_MAX 32
#define CTL_SUITE_OP_JSON_MAX (64u << 10) /* bench/suite/opspec.py's MAX_OP_JSON_BYTES */

struct ctl_suite_op {
	char name[CTL_SUITE_NAME_MAX + 1];
	char cls[CTL_SUITE_CLASS_MAX + 1];
	json_t *kernel;    /* owned: {"source", "filename"} */
	json_t *reference; /* owned: {"source", "filename"} */
	json_t *tolerances; /* owned or NULL: op.json's "tolerances", the job field as it is */
};

struct ctl_suite {
	struct ctl_suite_op *ops; /* owned, sorted by name */
	size_t n;
};

/* Loads every operator directory of dir (or only those named in the comma-separated list
 * only, each of which must exist). 0, or a negative code with err naming the directory,
 * the file and the rule. */
int ctl_suite_load(const char *dir, const char *only, struct ctl_suite *s, char *err,
		   size_t errlen);
void ctl_suite_free(struct ctl_suite *s);

/* Splits n operators: a Fisher-Yates shuffle of 0..n-1 driven by splitmix64(seed), the
 * first round(n * frac) of it (at least 1, at most n - 1) go to A: in_a[i] = 1. -EINVAL
 * when n < 2 or frac is not in (0, 1). Pure. */
int ctl_suite_split(size_t n, double frac, unsigned long long seed, unsigned char *in_a);

#endif
