/* ctl_format — human rendering of jobs; see ctl_format.h. */
#include "ctl_format.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static size_t ctl_format_utf8_len(const unsigned char *s)
{
	size_t len, i;
	unsigned int cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		len = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		len = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0; /* also stops at the NUL: it is not a continuation byte */
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	/* Overlong forms, surrogates and values past U+10FFFF are not text. */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	/* C1 controls (U+0080..U+009F) steer terminals as much as C0 ones do. */
	if (cp >= 0x80 && cp <= 0x9F)
		return 0;
	return len;
}

void ctl_format_clean(char *dst, size_t n, const char *src, size_t max_chars)
{
	const unsigned char *s;
	size_t o = 0, chars = 0, total = 0, keep;
	bool cut;

	if (n == 0)
		return;
	for (s = (const unsigned char *)src; *s; total++) {
		size_t len = ctl_format_utf8_len(s);

		s += len ? len : 1;
	}
	cut = total > max_chars;
	/* A cut string ends in "...", and the whole still fits in max_chars characters. */
	keep = cut ? (max_chars > 3 ? max_chars - 3 : 0) : total;
	for (s = (const unsigned char *)src; *s && chars < keep; chars++) {
		size_t len = ctl_format_utf8_len(s);

		if (o + (len ? len : 1) + 4 > n) {
			cut = true; /* out of bytes before out of characters */
			break;
		}
		if (len == 0 || (len == 1 && (*s < 0x20 || *s == 0x7F))) {
			dst[o++] = (*s == '\n' || *s == '\t') ? ' ' : '?';
			s++;
		} else {
			memcpy(dst + o, s, len);
			o += len;
			s += len;
		}
	}
	if (cut && o + 4 <= n) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

/* A string member, sanitised; dflt when absent or null. job is borrowed. */
static const char *ctl_format_str(const json_t *o, const char *key, const char *dflt,
				  char *buf, size_t n, size_t max_chars)
{
	const char *s = json_string_value(json_object_get(o, key));

	if (!s)
		return dflt;
	ctl_format_clean(buf, n, s, max_chars);
	return buf;
}

bool ctl_format_speedup(const json_t *job, double *out)
{
	const json_t *v; /* borrowed */

	v = json_object_get(json_object_get(job, "best"), "speedup");
	if (!json_is_number(v))
		v = json_object_get(json_object_get(job, "progress"), "best_speedup");
	if (!json_is_number(v))
		return false;
	*out = json_number_value(v);
	return true;
}

/* Appends to a display line; truncation is fine there, overflow is not. */
static void ctl_format_addf(char *buf, size_t n, size_t *o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void ctl_format_addf(char *buf, size_t n, size_t *o, const char *fmt, ...)
{
	va_list ap;
	int len;

	if (*o + 1 >= n)
		return;
	va_start(ap, fmt);
	len = vsnprintf(buf + *o, n - *o, fmt, ap);
	va_end(ap);
	if (len > 0)
		*o += (size_t)len < n - *o ? (size_t)len : n - *o - 1;
}

void ctl_format_progress(const json_t *job, char *buf, size_t n)
{
	const json_t *prog = json_object_get(job, "progress"); /* borrowed */
	const json_t *round = json_object_get(prog, "round");
	const json_t *rounds = json_object_get(prog, "rounds");
	const json_t *level = json_object_get(prog, "level");
	char tmp[64], st[64];
	const char *state;
	size_t o = 0;
	double speedup;

	if (n == 0)
		return;
	buf[0] = '\0';
	state = ctl_format_str(job, "state", "?", st, sizeof(st), 20);
	ctl_format_addf(buf, n, &o, "%s", state);
	/* Worth saying only while the job still runs: once over, its state says it all. */
	if (json_is_true(json_object_get(job, "cancel_requested")) &&
	    (strcmp(state, KOPT_STATE_QUEUED) == 0 || strcmp(state, KOPT_STATE_RUNNING) == 0))
		ctl_format_addf(buf, n, &o, " (cancel requested)");
	if (!json_is_integer(rounds))
		rounds = json_object_get(job, "rounds");
	if (json_is_integer(round) && json_is_integer(rounds))
		ctl_format_addf(buf, n, &o, "  round %lld/%lld", (long long)json_integer_value(round),
				(long long)json_integer_value(rounds));
	else if (json_is_integer(round))
		ctl_format_addf(buf, n, &o, "  round %lld", (long long)json_integer_value(round));
	if (json_is_integer(level)) {
		ctl_format_addf(buf, n, &o, "  level L%lld", (long long)json_integer_value(level));
	} else if (json_is_string(level)) {
		ctl_format_clean(tmp, sizeof(tmp), json_string_value(level), 24);
		ctl_format_addf(buf, n, &o, "  level %s", tmp);
	}
	if (json_is_string(json_object_get(prog, "step")) &&
	    (strcmp(state, KOPT_STATE_RUNNING) == 0 || strcmp(state, KOPT_STATE_QUEUED) == 0)) {
		ctl_format_clean(tmp, sizeof(tmp), json_string_value(json_object_get(prog, "step")), 16);
		ctl_format_addf(buf, n, &o, "  %s", tmp);
	}
	if (ctl_format_speedup(job, &speedup))
		ctl_format_addf(buf, n, &o, "  best %.2fx", speedup);
	/* The last round's outcome: accepted, or why it was rejected (shortened). */
	if (json_is_string(json_object_get(prog, "last_outcome"))) {
		ctl_format_clean(tmp, sizeof(tmp), json_string_value(json_object_get(prog, "last_outcome")), 48);
		ctl_format_addf(buf, n, &o, "  last: %s", tmp);
	}
}

/* Compact JSON of a member, sanitised and cut to one line; "-" when absent or null. */
static void ctl_format_json_line(FILE *out, const char *label, const json_t *v)
{
	char *s = NULL; /* owned */
	char clean[200];

	if (!v || json_is_null(v)) {
		fprintf(out, "%-10s -\n", label);
		return;
	}
	s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY | JSON_PRESERVE_ORDER);
	ctl_format_clean(clean, sizeof(clean), s ? s : "?", 160);
	fprintf(out, "%-10s %s\n", label, clean);
	free(s);
}

void ctl_format_summary(FILE *out, const json_t *job)
{
	static const char *const times[] = {"created_at", "started_at", "finished_at"};
	char a[600], b[160], line[256];
	const json_t *err = json_object_get(job, "error"); /* borrowed */
	double speedup;
	size_t i;

	fprintf(out, "%-10s %s\n", "job", ctl_format_str(job, "id", "?", a, sizeof(a), 64));
	fprintf(out, "%-10s %s\n", "name", ctl_format_str(job, "name", "-", a, sizeof(a), 128));
	ctl_format_progress(job, line, sizeof(line));
	fprintf(out, "%-10s %s\n", "state", line);
	fprintf(out, "%-10s %s, priority %lld, %lld rounds, policy %s, proposer %s\n", "backend",
		ctl_format_str(job, "backend", "?", a, sizeof(a), 20),
		(long long)json_integer_value(json_object_get(job, "priority")),
		(long long)json_integer_value(json_object_get(job, "rounds")),
		ctl_format_str(job, "policy", "?", b, sizeof(b), 32),
		ctl_format_str(job, "proposer", "?", line, sizeof(line), 32));
	fprintf(out, "%-10s %lld (infra retries %lld), worker %s\n", "attempts",
		(long long)json_integer_value(json_object_get(job, "attempts")),
		(long long)json_integer_value(json_object_get(job, "infra_retries")),
		ctl_format_str(job, "worker", "-", a, sizeof(a), 64));
	for (i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		char label[16];

		snprintf(label, sizeof(label), "%.*s", (int)(strlen(times[i]) - 3), times[i]);
		fprintf(out, "%-10s %s\n", label,
			ctl_format_str(job, times[i], "-", a, sizeof(a), 40));
	}
	ctl_format_json_line(out, "baseline", json_object_get(job, "baseline"));
	ctl_format_json_line(out, "best", json_object_get(job, "best"));
	if (ctl_format_speedup(job, &speedup))
		fprintf(out, "%-10s %.2fx over the initial kernel\n", "speedup", speedup);
	if (json_is_string(err)) {
		char e[1100];

		ctl_format_clean(e, sizeof(e), json_string_value(err), 1000);
		fprintf(out, "%-10s %s\n", "error", e);
	} else if (err && !json_is_null(err)) {
		ctl_format_json_line(out, "error", err);
	}
}

void ctl_format_list_header(FILE *out)
{
	fprintf(out, "%-36s  %-9s  %-7s  %-24s  %s\n", "ID", "STATE", "BACKEND", "NAME",
		"CREATED");
}

/* Pads s to width characters (not bytes: names may be UTF-8). */
static void ctl_format_pad(FILE *out, const char *s, size_t width)
{
	size_t chars = 0;
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if ((*p & 0xC0) != 0x80)
			chars++;
	fputs(s, out);
	for (; chars < width; chars++)
		fputc(' ', out);
}

void ctl_format_list_row(FILE *out, const json_t *job)
{
	char id[80], state[40], backend[40], name[160], created[64];
	const char *c;

	c = ctl_format_str(job, "created_at", "-", created, sizeof(created), 40);
	/* "2026-11-30T11:00:00.000000Z" reads better as "2026-11-30 11:00:00". */
	if (c == created && strlen(created) >= 19 && created[10] == 'T') {
		created[10] = ' ';
		created[19] = '\0';
	}
	ctl_format_pad(out, ctl_format_str(job, "id", "?", id, sizeof(id), 36), 36);
	fputs("  ", out);
	ctl_format_pad(out, ctl_format_str(job, "state", "?", state, sizeof(state), 9), 9);
	fputs("  ", out);
	ctl_format_pad(out, ctl_format_str(job, "backend", "?", backend, sizeof(backend), 7), 7);
	fputs("  ", out);
	ctl_format_pad(out, ctl_format_str(job, "name", "-", name, sizeof(name), 24), 24);
	fputs("  ", out);
	fputs(c, out);
	fputc('\n', out);
}
