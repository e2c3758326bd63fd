/* ctl_spec — builds a job spec (the POST /v1/jobs body, docs/API.md) from the files a
 * kernel engineer already has: a KernelBench/NPUKernelBench reference module, a ModelNew
 * kernel module and optionally NPUKernelBench JSON Lines cases. Only file reading, no
 * network: unit-tested. Every error is a sentence in err naming the file (and the line or
 * the limit), ready to print after "koptctl: ". */
#ifndef CTL_SPEC_H
#define CTL_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "contract.h"

/* The largest any koptd may be configured to take (common/contract.h): a file over them
 * can never be submitted, and refusing here names the file. Below them the server's own
 * settings decide (docs/API.md "Limits"), and its 400 names the field and the limit. */
#define CTL_SPEC_MAX_SOURCE KOPT_SOURCE_BYTES_MAX  /* max_source_bytes: a source file */
#define CTL_SPEC_MAX_DOC KOPT_BODY_BYTES_MAX       /* max_body_bytes: cases file, spec file */
#define CTL_SPEC_MAX_CASES KOPT_CASES_MAX

struct ctl_spec_opts {
	const char *kernel_path;    /* required: module with class ModelNew */
	const char *reference_path; /* optional: module with class Model */
	const char *cases_path;     /* optional: JSON Lines, one case object a line */
	const char *backend;        /* NULL: leave out, the server's default applies */
	const char *policy;
	const char *proposer;
	const char *name;
	long rounds, priority;
	bool has_rounds, has_priority;
};

/* Reads a whole file of at most cap bytes into *buf (owned by the caller, free(), NUL-
 * terminated). what names the limit in the error ("source", "cases"). */
int ctl_spec_read_file(const char *path, size_t cap, const char *what, char **buf,
		       size_t *len, char *err, size_t errlen);

/* {"source": <file text>, "filename": <base name>} for a Python module, refusing an empty
 * file, a NUL byte or invalid UTF-8 (the byte offset is named). *out owned by the caller. */
int ctl_spec_source(const char *path, json_t **out, char *err, size_t errlen);

/* JSON Lines -> array of case objects. Blank lines are skipped; a bad line is named as
 * "path:LINE: ...". path is only used in messages. *out owned by the caller. */
int ctl_spec_parse_cases(const char *path, const char *buf, size_t len, json_t **out,
			 char *err, size_t errlen);

/* The whole spec. *out owned by the caller (one reference). */
int ctl_spec_build(const struct ctl_spec_opts *o, json_t **out, char *err, size_t errlen);

/* Checks that buf (a spec file posted as is) is one JSON object; the error names
 * path:line:column. */
int ctl_spec_check_doc(const char *path, const char *buf, size_t len, char *err,
		       size_t errlen);

#endif
