/* Unit tests of cli/ctl_format (sanitising, progress line) and ctl_http's pure helpers
 * (percent-encoding, job paths). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "ctl_format.h"
#include "ctl_http.h"

static void test_clean(void **state)
{
	char buf[64];

	ctl_format_clean(buf, sizeof(buf), "plain name", 40);
	assert_string_equal(buf, "plain name");
	/* Escape sequences must not reach the terminal. */
	ctl_format_clean(buf, sizeof(buf), "a\033[2Jb\x7f" "c\nd", 40);
	assert_string_equal(buf, "a?[2Jb?c d");
	/* C1 control (U+009B, a CSI on some terminals) and invalid UTF-8. */
	ctl_format_clean(buf, sizeof(buf), "x\xc2\x9by\xff" "z\xe9", 40);
	assert_string_equal(buf, "x??y?z?");
	/* UTF-8 is kept and cut by characters, ending in "...". */
	ctl_format_clean(buf, sizeof(buf), "caf\xc3\xa9 au lait", 40);
	assert_string_equal(buf, "caf\xc3\xa9 au lait");
	ctl_format_clean(buf, sizeof(buf), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 5);
	assert_string_equal(buf, "\xc3\xa9\xc3\xa9...");
	ctl_format_clean(buf, sizeof(buf), "12345", 5);
	assert_string_equal(buf, "12345");
	ctl_format_clean(buf, sizeof(buf), "123456", 5);
	assert_string_equal(buf, "12...");
	/* A small buffer cuts by bytes and still terminates. */
	ctl_format_clean(buf, 8, "0123456789", 100);
	assert_string_equal(buf, "0123...");
	assert_true(strlen(buf) < 8);
}

static void test_progress(void **state)
{
	char line[256];
	json_t *job;

	job = json_loads("{\"state\": \"queued\", \"rounds\": 15, \"progress\": null}", 0, NULL);
	ctl_format_progress(job, line, sizeof(line));
	assert_string_equal(line, "queued");
	json_decref(job);

	job = json_loads("{\"state\": \"running\", \"rounds\": 15, \"cancel_requested\": false,"
			 " \"progress\": {\"round\": 3, \"level\": 2},"
			 " \"best\": {\"speedup\": 1.4234}}", 0, NULL);
	ctl_format_progress(job, line, sizeof(line));
	assert_string_equal(line, "running  round 3/15  level L2  best 1.42x");
	json_decref(job);

	job = json_loads("{\"state\": \"running\", \"cancel_requested\": true,"
			 " \"progress\": {\"round\": 7, \"rounds\": 10, \"level\": \"L4\"}}", 0, NULL);
	ctl_format_progress(job, line, sizeof(line));
	assert_string_equal(line, "running (cancel requested)  round 7/10  level L4");
	json_decref(job);

	/* Once the job is over, a cancel request is old news. */
	job = json_loads("{\"state\": \"cancelled\", \"cancel_requested\": true}", 0, NULL);
	ctl_format_progress(job, line, sizeof(line));
	assert_string_equal(line, "cancelled");
	json_decref(job);
	job = json_loads("{\"cancel_requested\": true}", 0, NULL);
	ctl_format_progress(job, line, sizeof(line));
	assert_string_equal(line, "?");
	json_decref(job);

	/* A tiny buffer truncates instead of overflowing. */
	job = json_loads("{\"state\": \"running\", \"progress\": {\"round\": 3, \"rounds\": 15}}", 0,
			 NULL);
	ctl_format_progress(job, line, 10);
	assert_string_equal(line, "running  ");
	json_decref(job);
}

static void test_escape_and_path(void **state)
{
	char buf[64];

	assert_int_equal(ctl_http_escape("queued,running", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "queued%2Crunning");
	assert_int_equal(ctl_http_escape("a b/c?d&e=f~g.h_i-j", buf, sizeof(buf)), 0);
	assert_string_equal(buf, "a%20b%2Fc%3Fd%26e%3Df~g.h_i-j");
	assert_int_equal(ctl_http_escape("abc", buf, 4), 0);
	assert_int_equal(ctl_http_escape("abcd", buf, 4), -ENAMETOOLONG);
	assert_int_equal(ctl_http_escape("a/", buf, 4), -ENAMETOOLONG);

	assert_int_equal(ctl_http_path(buf, sizeof(buf), "/v1/jobs/", "8c0d-1", "/events"), 0);
	assert_string_equal(buf, "/v1/jobs/8c0d-1/events");
	/* An id cannot climb into another route. */
	assert_int_equal(ctl_http_path(buf, sizeof(buf), "/v1/jobs/", "../tokens", ""), 0);
	assert_string_equal(buf, "/v1/jobs/..%2Ftokens");
	assert_int_equal(ctl_http_path(buf, sizeof(buf), "/v1/jobs/", "", ""), -EINVAL);
	assert_int_equal(ctl_http_path(buf, 16, "/v1/jobs/", "123456", "/cancel"), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean),
		cmocka_unit_test(test_progress),
		cmocka_unit_test(test_escape_and_path),
	};

	return cmocka_run_group_tests_name("ctl_format", tests, NULL, NULL);
}
