/* ctl_sse — text/event-stream parser; see ctl_sse.h. Follows the WHATWG "interpreting an
 * event stream" rules: CRLF, LF or CR end a line; ':' starts a comment; one space after
 * the field's colon is dropped; an empty line dispatches. */
#include "ctl_sse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void ctl_sse_init(struct ctl_sse *p, size_t cap, ctl_sse_event_fn fn, void *arg)
{
	memset(p, 0, sizeof(*p));
	p->fn = fn;
	p->arg = arg;
	p->cap = cap;
	p->retry_ms = -1;
	p->first_line = true;
}

void ctl_sse_free(struct ctl_sse *p)
{
	free(p->line);
	free(p->data);
	p->line = NULL;
	p->data = NULL;
	p->line_len = p->line_size = p->data_len = p->data_size = 0;
}

/* Makes room for need+1 bytes (the +1 for a NUL) in *buf, never past cap+1. */
static int ctl_sse_reserve(char **buf, size_t *size, size_t need, size_t cap)
{
	size_t nsize;
	char *nbuf;

	if (need > cap)
		return -EMSGSIZE;
	if (need + 1 <= *size)
		return 0;
	nsize = *size ? *size : 256;
	while (nsize < need + 1)
		nsize *= 2;
	if (nsize > cap + 1)
		nsize = cap + 1;
	nbuf = realloc(*buf, nsize);
	if (!nbuf)
		return -ENOMEM;
	*buf = nbuf;
	*size = nsize;
	return 0;
}

static int ctl_sse_dispatch(struct ctl_sse *p)
{
	struct ctl_sse_event ev;
	int rc = 0;

	if (!p->has_data)
		goto out; /* no data: lines: nothing to dispatch, just reset the type */
	/* Every data: line appended a '\n'; the event's data has no trailing one. */
	if (p->data_len > 0)
		p->data_len--;
	p->data[p->data_len] = '\0';
	ev.type = p->type[0] ? p->type : "message";
	ev.data = p->data;
	ev.data_len = p->data_len;
	ev.id = p->id;
	rc = p->fn(p->arg, &ev);
out:
	p->type[0] = '\0';
	p->data_len = 0;
	p->has_data = false;
	return rc;
}

static int ctl_sse_field(struct ctl_sse *p, const char *name, size_t nlen, const char *val,
			 size_t vlen)
{
	int rc = 0;

	if (nlen == 4 && memcmp(name, "data", 4) == 0) {
		/* data_size may still be 0: reserve before touching p->data. */
		rc = ctl_sse_reserve(&p->data, &p->data_size, p->data_len + vlen + 1, p->cap);
		if (rc < 0)
			goto out;
		memcpy(p->data + p->data_len, val, vlen);
		p->data_len += vlen;
		p->data[p->data_len++] = '\n';
		p->has_data = true;
	} else if (nlen == 5 && memcmp(name, "event", 5) == 0) {
		if (vlen >= sizeof(p->type)) {
			rc = -EMSGSIZE;
			goto out;
		}
		memcpy(p->type, val, vlen);
		p->type[vlen] = '\0';
	} else if (nlen == 2 && memcmp(name, "id", 2) == 0) {
		/* The standard ignores an id containing NUL; ours also caps the length. */
		if (memchr(val, '\0', vlen))
			goto out;
		if (vlen >= sizeof(p->id)) {
			rc = -EMSGSIZE;
			goto out;
		}
		memcpy(p->id, val, vlen);
		p->id[vlen] = '\0';
	} else if (nlen == 5 && memcmp(name, "retry", 5) == 0) {
		long ms = 0;
		size_t i;

		if (vlen == 0 || vlen > 9)
			goto out; /* not a plausible delay: ignored, as the standard says */
		for (i = 0; i < vlen; i++) {
			if (val[i] < '0' || val[i] > '9')
				goto out;
			ms = ms * 10 + (val[i] - '0');
		}
		p->retry_ms = ms;
	}
	/* Any other field is ignored. */
out:
	return rc;
}

static int ctl_sse_line(struct ctl_sse *p)
{
	const char *line = p->line ? p->line : "";
	size_t len = p->line_len;
	const char *colon;
	int rc = 0;

	if (p->first_line) {
		p->first_line = false;
		if (len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0) {
			line += 3;
			len -= 3;
		}
	}
	if (len == 0) {
		rc = ctl_sse_dispatch(p);
		goto out;
	}
	if (line[0] == ':')
		goto out; /* comment, e.g. the server's ": keepalive" */
	colon = memchr(line, ':', len);
	if (!colon) {
		rc = ctl_sse_field(p, line, len, "", 0);
		goto out;
	}
	{
		size_t nlen = (size_t)(colon - line);
		const char *val = colon + 1;
		size_t vlen = len - nlen - 1;

		if (vlen > 0 && val[0] == ' ') {
			val++;
			vlen--;
		}
		rc = ctl_sse_field(p, line, nlen, val, vlen);
	}
out:
	p->line_len = 0;
	return rc;
}

int ctl_sse_feed(struct ctl_sse *p, const char *buf, size_t len)
{
	size_t i = 0;
	int rc = 0;

	while (i < len) {
		char c = buf[i];

		if (c == '\n' && p->after_cr) {
			/* Second half of a CRLF, possibly split across two chunks. */
			p->after_cr = false;
			i++;
			continue;
		}
		p->after_cr = false;
		if (c == '\r' || c == '\n') {
			p->after_cr = c == '\r';
			rc = ctl_sse_line(p);
			if (rc < 0)
				goto out;
			i++;
			continue;
		}
		{
			/* Copy the run of ordinary bytes up to the next line end in one go. */
			size_t j = i;

			while (j < len && buf[j] != '\r' && buf[j] != '\n')
				j++;
			rc = ctl_sse_reserve(&p->line, &p->line_size, p->line_len + (j - i), p->cap);
			if (rc < 0)
				goto out;
			memcpy(p->line + p->line_len, buf + i, j - i);
			p->line_len += j - i;
			i = j;
		}
	}
out:
	return rc;
}
