/* ctl_problem — printing refusals from the server; see ctl_problem.h. */
#include "ctl_problem.h"

#include <string.h>
#include <strings.h>

#include <jansson.h>

#include "ctl_format.h"

/* A string member of o, sanitised into buf; "" if absent. o is borrowed. */
static const char *ctl_problem_str(const json_t *o, const char *key, char *buf, size_t n)
{
	const char *s = json_string_value(json_object_get(o, key));

	ctl_format_clean(buf, n, s ? s : "", 400);
	return buf;
}

static void ctl_problem_errors(FILE *err, const json_t *errors)
{
	size_t i;
	const json_t *e; /* borrowed from errors */

	json_array_foreach(errors, i, e) {
		char field[160], rule[80], detail[420];
		const json_t *limit = json_object_get(e, "limit");

		if (i >= 50) {
			fprintf(err, "koptctl:   ... and %zu more\n", json_array_size(errors) - i);
			break;
		}
		ctl_problem_str(e, "field", field, sizeof(field));
		ctl_problem_str(e, "rule", rule, sizeof(rule));
		ctl_problem_str(e, "detail", detail, sizeof(detail));
		fprintf(err, "koptctl:   %s: %s", field[0] ? field : "(request)",
			rule[0] ? rule : "invalid");
		if (json_is_integer(limit))
			fprintf(err, " (limit %" JSON_INTEGER_FORMAT ")", json_integer_value(limit));
		if (detail[0])
			fprintf(err, " - %s", detail);
		fputc('\n', err);
	}
}

void ctl_problem_print(FILE *err, const struct ctl_http_resp *r, bool token_set)
{
	json_t *doc = NULL; /* owned */
	bool problem = strncasecmp(r->ctype, "application/problem+json", 24) == 0 ||
		       strncasecmp(r->ctype, "application/json", 16) == 0;

	if (problem && r->body)
		doc = json_loadb(r->body, r->len, 0, NULL);
	if (json_is_object(doc)) {
		char title[200], detail[420];

		ctl_problem_str(doc, "title", title, sizeof(title));
		ctl_problem_str(doc, "detail", detail, sizeof(detail));
		fprintf(err, "koptctl: %ld %s", r->status, title[0] ? title : "error");
		if (detail[0])
			fprintf(err, ": %s", detail);
		fputc('\n', err);
		ctl_problem_errors(err, json_object_get(doc, "errors"));
	} else {
		char excerpt[200] = "";

		/* Not ours (a proxy's HTML page, say): the first bytes are enough to tell. */
		if (r->body)
			ctl_format_clean(excerpt, sizeof(excerpt), r->body, 120);
		fprintf(err, "koptctl: %ld %s%s%s\n", r->status, "unexpected answer",
			excerpt[0] ? ": " : "", excerpt);
	}
	if (r->status == 401)
		fprintf(err, "koptctl: %s\n",
			token_set ? "the server refused KOPT_TOKEN (unknown or revoked?)"
				  : "set KOPT_TOKEN to a token from `koptd token create --role R`");
	else if (r->status == 403)
		fprintf(err, "koptctl: this needs a token with a stronger role\n");
	json_decref(doc);
}
