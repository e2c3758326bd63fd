/* ctl_suite — the operator suite on disk; see ctl_suite.h. */
#include "ctl_suite.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ctl_spec.h"

static int ctl_suite_cmp(const void *a, const void *b)
{
	return strcmp(((const struct ctl_suite_op *)a)->name, ((const struct ctl_suite_op *)b)->name);
}

/* 1 when name is in the comma-separated list (NULL: every name is). */
static int ctl_suite_wanted(const char *only, const char *name)
{
	size_t n = strlen(name);
	const char *p = only;

	if (!only)
		return 1;
	while (p && *p) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p);
		if (len == n && !strncmp(p, name, n))
			return 1;
		p = c ? c + 1 : NULL;
	}
	return 0;
}

/* Reads one operator directory into op. 0 or -errno with err. */
static int ctl_suite_op_load(const char *dir, const char *name, struct ctl_suite_op *op, char *err,
			     size_t errlen)
{
	char path[4096], *buf = NULL, e2[1024] = "";
	json_t *doc = NULL;
	json_error_t jerr;
	size_t len;
	int rc;

	memset(op, 0, sizeof(*op));
	snprintf(op->name, sizeof(op->name), "%.*s", CTL_SUITE_NAME_MAX, name);
	snprintf(path, sizeof(path), "%s/%s/op.json", dir, name);
	rc = ctl_spec_read_file(path, CTL_SUITE_OP_JSON_MAX, "op.json", &buf, &len, e2, sizeof(e2));
	if (rc < 0)
		goto fail;
	doc = json_loadb(buf, len, 0, &jerr);
	if (!json_is_object(doc)) {
		snprintf(e2, sizeof(e2), "%.300s: not a JSON object (%.150s)", path, doc ? "another value" : jerr.text);
		rc = -EINVAL;
		goto fail;
	}
	if (!json_is_string(json_object_get(doc, "name")) ||
	    strcmp(json_string_value(json_object_get(doc, "name")), name) != 0 ||
	    !json_is_string(json_object_get(doc, "class")) ||
	    json_string_length(json_object_get(doc, "class")) > CTL_SUITE_CLASS_MAX) {
		snprintf(e2, sizeof(e2), "%.200s: \"name\" must be the directory's name (%.128s) and \"class\" a "
			 "string of at most %d characters", path, name, CTL_SUITE_CLASS_MAX);
		rc = -EINVAL;
		goto fail;
	}
	snprintf(op->cls, sizeof(op->cls), "%s", json_string_value(json_object_get(doc, "class")));
	/* the daemon validates it as it validates any job's (docs/API.md) */
	if (json_is_object(json_object_get(doc, "tolerances")))
		op->tolerances = json_incref(json_object_get(doc, "tolerances"));
	snprintf(path, sizeof(path), "%s/%s/kernel.py", dir, name);
	if ((rc = ctl_spec_source(path, &op->kernel, e2, sizeof(e2))) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/%s/ref.py", dir, name);
	if ((rc = ctl_spec_source(path, &op->reference, e2, sizeof(e2))) < 0)
		goto fail;
	free(buf);
	json_decref(doc);
	return 0;
fail:
	snprintf(err, errlen, "%s", e2);
	free(buf);
	json_decref(doc);
	json_decref(op->kernel);
	json_decref(op->reference);
	json_decref(op->tolerances);
	op->kernel = op->reference = op->tolerances = NULL;
	return rc < 0 ? rc : -EINVAL;
}

int ctl_suite_load(const char *dir, const char *only, struct ctl_suite *s, char *err,
		   size_t errlen)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!d) {
		snprintf(err, errlen, "%s: cannot open the suite directory: %s", dir, strerror(errno));
		return -errno;
	}
	s->ops = calloc(CTL_SUITE_MAX_OPS, sizeof(*s->ops));
	if (!s->ops) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	while ((e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		if (e->d_name[0] == '.' || !ctl_suite_wanted(only, e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s/op.json", dir, e->d_name);
		if (stat(path, &st) != 0)
			continue; /* not an operator directory */
		if (strlen(e->d_name) > CTL_SUITE_NAME_MAX || s->n == CTL_SUITE_MAX_OPS) {
			snprintf(err, errlen, "%s: more than %d operators, or a name longer than %d",
				 dir, CTL_SUITE_MAX_OPS, CTL_SUITE_NAME_MAX);
			rc = -E2BIG;
			goto out;
		}
		if ((rc = ctl_suite_op_load(dir, e->d_name, &s->ops[s->n], err, errlen)) < 0)
			goto out;
		s->n++;
	}
	qsort(s->ops, s->n, sizeof(*s->ops), ctl_suite_cmp);
	/* every operator asked for must be there */
	for (const char *p = only; p && *p;) {
		const char *c = strchr(p, ',');
		size_t len = c ? (size_t)(c - p) : strlen(p), i;
		for (i = 0; i < s->n; i++)
			if (strlen(s->ops[i].name) == len && !strncmp(s->ops[i].name, p, len))
				break;
		if (i == s->n) {
			snprintf(err, errlen, "%s: no operator %.*s (a directory with op.json)", dir,
				 (int)(len > 128 ? 128 : len), p);
			rc = -ENOENT;
			goto out;
		}
		p = c ? c + 1 : NULL;
	}
out:
	closedir(d);
	if (rc < 0)
		ctl_suite_free(s);
	return rc;
}

void ctl_suite_free(struct ctl_suite *s)
{
	for (size_t i = 0; s->ops && i < s->n; i++) {
		json_decref(s->ops[i].kernel);
		json_decref(s->ops[i].reference);
		json_decref(s->ops[i].tolerances);
	}
	free(s->ops);
	memset(s, 0, sizeof(*s));
}

static unsigned long long ctl_splitmix64(unsigned long long *x)
{
	unsigned long long z = (*x += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

int ctl_suite_split(size_t n, double frac, unsigned long long seed, unsigned char *in_a)
{
	size_t perm[CTL_SUITE_MAX_OPS], k;
	unsigned long long st = seed;

	if (n < 2 || n > CTL_SUITE_MAX_OPS || !(frac > 0.0 && frac < 1.0))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		perm[i] = i;
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(ctl_splitmix64(&st) % (i + 1));
		size_t t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
	k = (size_t)llround((double)n * frac);
	if (k < 1)
		k = 1;
	if (k > n - 1)
		k = n - 1;
	memset(in_a, 0, n);
	for (size_t i = 0; i < k; i++)
		in_a[perm[i]] = 1;
	return 0;
}
