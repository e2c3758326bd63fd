/* Unit tests of cli/ctl_sse: the server-sent events parser, fed whole, byte by byte and
 * cut at every pair of positions, with CRLF/CR/LF line ends, comments, multi-line data. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ctl_sse.h"

#define MAX_EV 16

struct seen {
	int n;
	char type[MAX_EV][64];
	char data[MAX_EV][512];
	char id[MAX_EV][64];
	int stop_after; /* return -EINTR once this many events came; 0: never */
};

static int collect(void *arg, const struct ctl_sse_event *ev)
{
	struct seen *s = arg;

	assert_true(s->n < MAX_EV);
	assert_int_equal(strlen(ev->data), ev->data_len);
	snprintf(s->type[s->n], sizeof(s->type[0]), "%s", ev->type);
	snprintf(s->data[s->n], sizeof(s->data[0]), "%s", ev->data);
	snprintf(s->id[s->n], sizeof(s->id[0]), "%s", ev->id);
	s->n++;
	if (s->stop_after && s->n >= s->stop_after)
		return -EINTR;
	return 0;
}

/* Feeds text in pieces cut at the given offsets (sorted, may be empty). */
static int feed_cut(struct seen *s, const char *text, size_t len, const size_t *cuts,
		    size_t ncuts, size_t cap)
{
	struct ctl_sse p;
	size_t start = 0, i;
	int rc = 0;

	memset(s, 0, sizeof(*s));
	ctl_sse_init(&p, cap, collect, s);
	for (i = 0; i <= ncuts && rc == 0; i++) {
		size_t end = i < ncuts ? cuts[i] : len;

		rc = ctl_sse_feed(&p, text + start, end - start);
		start = end;
	}
	ctl_sse_free(&p);
	return rc;
}

static int feed(struct seen *s, const char *text)
{
	return feed_cut(s, text, strlen(text), NULL, 0, 4096);
}

static void test_single_event(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, "event: state\ndata: {\"state\":\"queued\"}\n\n"), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.type[0], "state");
	assert_string_equal(s.data[0], "{\"state\":\"queued\"}");
	assert_string_equal(s.id[0], "");
}

static void test_multiline_data(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, "data: one\ndata: two\ndata:\ndata: four\n\n"), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.type[0], "message");
	assert_string_equal(s.data[0], "one\ntwo\n\nfour");
}

static void test_comments_ignored(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, ": keepalive\n\n:\n\nevent: state\n: in the middle\n"
				  "data: x\n\n: keepalive\n\n"),
			 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.type[0], "state");
	assert_string_equal(s.data[0], "x");
}

static void test_line_endings(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, "event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r"
				  "event: c\ndata: 3\n\n"),
			 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.type[0], "a");
	assert_string_equal(s.data[0], "1");
	assert_string_equal(s.type[1], "b");
	assert_string_equal(s.data[1], "2");
	assert_string_equal(s.type[2], "c");
	assert_string_equal(s.data[2], "3");
}

static void test_field_forms(void **state)
{
	struct seen s;

	/* No space after the colon; two spaces keep one; a bare field name; unknown fields. */
	assert_int_equal(feed(&s, "data:x\n\ndata:  y\n\ndata\n\n"), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.data[0], "x");
	assert_string_equal(s.data[1], " y");
	assert_string_equal(s.data[2], "");
	/* ...and "foo" was ignored, while a bare "data" line made an empty-data event. */
	assert_int_equal(feed(&s, "foo: bar\ndata: z\n\n"), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.data[0], "z");
}

static void test_type_reset_without_data(void **state)
{
	struct seen s;

	/* An event without data is not dispatched, and its type does not leak onward. */
	assert_int_equal(feed(&s, "event: lost\n\ndata: kept\n\n"), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.type[0], "message");
	assert_string_equal(s.data[0], "kept");
}

static void test_id_persists(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, "id: 41\ndata: a\n\ndata: b\n\nid: 42\ndata: c\n\n"), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.id[0], "41");
	assert_string_equal(s.id[1], "41");
	assert_string_equal(s.id[2], "42");
}

static void test_incomplete_event_dropped(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, "data: whole\n\nevent: state\ndata: {\"half\":"), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.data[0], "whole");
	/* A last line without its blank line does not dispatch either. */
	assert_int_equal(feed(&s, "data: no blank line\n"), 0);
	assert_int_equal(s.n, 0);
}

static void test_bom_stripped(void **state)
{
	struct seen s;

	assert_int_equal(feed(&s, "\xEF\xBB\xBF" "event: state\ndata: 1\n\n"), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.type[0], "state");
	/* Only at the very start: later it is part of a field name, which is then unknown. */
	assert_int_equal(feed(&s, "data: 1\n\n\xEF\xBB\xBF" "data: 2\n\n"), 0);
	assert_int_equal(s.n, 1);
}

static void test_split_anywhere(void **state)
{
	/* Every feature at once; the parse must not depend on where the chunks are cut. */
	static const char text[] =
		"\xEF\xBB\xBF: hello\r\n"
		"event: state\r\n"
		"id: 7\r\n"
		"data: {\"state\":\r\n"
		"data: \"running\"}\r\n"
		"\r\n"
		": keepalive\n"
		"\n"
		"retry: 1000\r"
		"event: progress\r"
		"data:{\"round\":3}\r"
		"\r"
		"data: last\n"
		"\n";
	size_t len = sizeof(text) - 1, i, j;
	struct seen whole, cut;

	assert_int_equal(feed_cut(&whole, text, len, NULL, 0, 4096), 0);
	assert_int_equal(whole.n, 3);
	assert_string_equal(whole.type[0], "state");
	assert_string_equal(whole.data[0], "{\"state\":\n\"running\"}");
	assert_string_equal(whole.id[0], "7");
	assert_string_equal(whole.type[1], "progress");
	assert_string_equal(whole.data[1], "{\"round\":3}");
	assert_string_equal(whole.type[2], "message");
	assert_string_equal(whole.data[2], "last");
	assert_string_equal(whole.id[2], "7");
	for (i = 0; i <= len; i++) {
		for (j = i; j <= len; j++) {
			size_t cuts[2] = {i, j};

			assert_int_equal(feed_cut(&cut, text, len, cuts, 2, 4096), 0);
			assert_memory_equal(&cut, &whole, sizeof(whole));
		}
	}
	/* Byte by byte. */
	{
		size_t cuts[sizeof(text)];

		for (i = 0; i < len; i++)
			cuts[i] = i + 1;
		assert_int_equal(feed_cut(&cut, text, len, cuts, len - 1, 4096), 0);
		assert_memory_equal(&cut, &whole, sizeof(whole));
	}
}

static void test_cap(void **state)
{
	struct seen s;
	char big[200];

	memset(big, 'x', sizeof(big));
	memcpy(big, "data: ", 6);
	/* One line over the cap, even with no line end yet. */
	assert_int_equal(feed_cut(&s, big, sizeof(big), NULL, 0, 100), -EMSGSIZE);
	/* Many short data lines that add up past the cap. */
	assert_int_equal(feed_cut(&s, "data: 0123456789\ndata: 0123456789\ndata: 0123456789\n",
				  51, NULL, 0, 25),
			 -EMSGSIZE);
	/* Right at the cap is fine: 10 bytes of data + '\n'. */
	assert_int_equal(feed_cut(&s, "data: 0123456789\n\n", 18, NULL, 0, 16), 0);
	assert_int_equal(s.n, 1);
	/* A long event type is refused, not silently cut. */
	memset(big, 'e', sizeof(big));
	memcpy(big, "event: ", 7);
	big[sizeof(big) - 1] = '\n';
	assert_int_equal(feed_cut(&s, big, sizeof(big), NULL, 0, 4096), -EMSGSIZE);
}

static void test_callback_stops(void **state)
{
	struct seen s;
	struct ctl_sse p;
	static const char text[] = "data: 1\n\ndata: 2\n\ndata: 3\n\n";

	memset(&s, 0, sizeof(s));
	s.stop_after = 2;
	ctl_sse_init(&p, 4096, collect, &s);
	assert_int_equal(ctl_sse_feed(&p, text, sizeof(text) - 1), -EINTR);
	assert_int_equal(s.n, 2);
	ctl_sse_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_single_event),
		cmocka_unit_test(test_multiline_data),
		cmocka_unit_test(test_comments_ignored),
		cmocka_unit_test(test_line_endings),
		cmocka_unit_test(test_field_forms),
		cmocka_unit_test(test_type_reset_without_data),
		cmocka_unit_test(test_id_persists),
		cmocka_unit_test(test_incomplete_event_dropped),
		cmocka_unit_test(test_bom_stripped),
		cmocka_unit_test(test_split_anywhere),
		cmocka_unit_test(test_cap),
		cmocka_unit_test(test_callback_stops),
	};

	return cmocka_run_group_tests_name("ctl_sse", tests, NULL, NULL);
}
