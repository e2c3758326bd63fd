/* ctl_sse — incremental parser for a text/event-stream body (WHATWG HTML, "server-sent
 * events"). Pure: no I/O and no globals, so it is unit-tested with chunks split anywhere.
 * Bytes go in through ctl_sse_feed in pieces of any size; the callback runs once per
 * complete event. An event still incomplete when the stream ends is dropped (as the
 * standard says), so a cut-off stream never yields half a job document. */
#ifndef CTL_SSE_H
#define CTL_SSE_H

#include <stdbool.h>
#include <stddef.h>

#define CTL_SSE_MAX_NAME 128 /* event type and id: ours are short words and UUIDs */

struct ctl_sse_event {
	const char *type; /* "message" when the event had no event: field; parser owns */
	const char *data; /* data: lines joined with '\n', NUL-terminated; parser owns */
	size_t data_len;
	const char *id;   /* last event id seen on the stream ("" if none); parser owns */
};

/* Return 0 to go on; a negative value stops the parser and ctl_sse_feed returns it. */
typedef int (*ctl_sse_event_fn)(void *arg, const struct ctl_sse_event *ev);

struct ctl_sse {
	ctl_sse_event_fn fn;
	void *arg;          /* borrowed, handed to fn */
	size_t cap;         /* longest line and largest event data, in bytes */
	char *line;         /* owned: the line being assembled */
	size_t line_len, line_size;
	char *data;         /* owned: the event's data being assembled */
	size_t data_len, data_size;
	bool has_data;      /* at least one data: line since the last dispatch */
	char type[CTL_SSE_MAX_NAME];
	char id[CTL_SSE_MAX_NAME];
	long retry_ms;      /* last valid retry: field, -1 if none */
	bool after_cr;      /* last byte was CR: an LF right after it ends no second line */
	bool first_line;    /* a UTF-8 BOM may start the stream and is not content */
};

/* cap bounds one line and one event's data: a server that never ends a line or an event
 * cannot make the parser grow without bound (-EMSGSIZE from ctl_sse_feed). */
void ctl_sse_init(struct ctl_sse *p, size_t cap, ctl_sse_event_fn fn, void *arg);

/* 0, -ENOMEM, -EMSGSIZE (over cap), or the callback's negative value. After an error the
 * parser is spent: call ctl_sse_free. */
int ctl_sse_feed(struct ctl_sse *p, const char *buf, size_t len);

void ctl_sse_free(struct ctl_sse *p);

#endif
