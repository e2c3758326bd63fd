/* Unit tests for daemon/http_deadline.c (the absolute head/body deadlines, on real
 * sockets) and api/params.c (bounded integer parameters). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http_deadline.h"
#include "params.h"

/* 1 when the peer of fd sees the end of the stream (the other end was shut down). */
static int peer_sees_eof(int fd)
{
  char b;
  return recv(fd, &b, 1, MSG_DONTWAIT) == 0;
}

static void test_head_deadline_shuts_late_connection(void **state)
{
  struct http_conn_table t;
  int a[2], b[2];
  struct http_conn *ca, *cb;
  (void)state;
  http_conn_table_init(&t);
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, b), 0);
  ca = http_conn_open(&t, a[0], 1000);
  cb = http_conn_open(&t, b[0], 5000);
  assert_int_equal(t.count, 2);
  /* 9.999 s after a's clock: nothing is late yet */
  assert_int_equal(http_conn_sweep(&t, 10999, 10000, 30000), 0);
  assert_false(peer_sees_eof(a[1]));
  /* bytes arriving do not move the clock: only a phase change does */
  assert_int_equal(http_conn_sweep(&t, 11000, 10000, 30000), 1);
  assert_true(ca->shut);
  assert_true(peer_sees_eof(a[1]));
  assert_false(cb->shut);
  assert_false(peer_sees_eof(b[1]));
  /* a connection already shut is not counted twice */
  assert_int_equal(http_conn_sweep(&t, 14999, 10000, 30000), 0);
  assert_int_equal(t.closed[HTTP_PHASE_HEAD], 1);
  http_conn_close(&t, ca);
  http_conn_close(&t, cb);
  assert_int_equal(t.count, 0);
  assert_true(TAILQ_EMPTY(&t.list));
  close(a[0]); close(a[1]); close(b[0]); close(b[1]);
}

static void test_body_and_busy_phases(void **state)
{
  struct http_conn_table t;
  int a[2];
  struct http_conn *c;
  (void)state;
  http_conn_table_init(&t);
  assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, a), 0);
  c = http_conn_open(&t, a[0], 0);
  http_conn_phase(c, HTTP_PHASE_BODY, 9000); /* head in at 9 s: body clock starts */
  assert_int_equal(http_conn_sweep(&t, 38999, 10000, 30000), 0);
  /* answering: no limit however long it takes (an event stream) */
  http_conn_phase(c, HTTP_PHASE_BUSY, 38000);
  assert_int_equal(http_conn_sweep(&t, 1000000, 10000, 30000), 0);
  /* response done: the next head is due 10 s later */
  http_conn_phase(c, HTTP_PHASE_HEAD, 1000000);
  assert_int_equal(http_conn_sweep(&t, 1009999, 10000, 30000), 0);
  http_conn_phase(c, HTTP_PHASE_BODY, 1009999);
  assert_int_equal(http_conn_sweep(&t, 1039999, 10000, 30000), 1);
  assert_int_equal(t.closed[HTTP_PHASE_BODY], 1);
  assert_int_equal(t.closed[HTTP_PHASE_HEAD], 0);
  assert_true(peer_sees_eof(a[1]));
  /* a clock that reads earlier than the phase start is never "late" */
  http_conn_close(&t, c);
  c = http_conn_open(&t, a[0], 5000);
  assert_int_equal(http_conn_sweep(&t, 4000, 10, 10), 0);
  http_conn_close(&t, c);
  close(a[0]); close(a[1]);
}

static void test_close_middle_of_list(void **state)
{
  struct http_conn_table t;
  struct http_conn *c[3];
  (void)state;
  http_conn_table_init(&t);
  for (int i = 0; i < 3; i++)
    c[i] = http_conn_open(&t, -1, 0);
  http_conn_close(&t, c[1]);
  assert_int_equal(t.count, 2);
  assert_ptr_equal(TAILQ_FIRST(&t.list), c[2]);
  assert_ptr_equal(TAILQ_NEXT(c[2], link), c[0]);
  assert_ptr_equal(TAILQ_PREV(c[0], http_conn_list, link), c[2]);
  assert_null(TAILQ_NEXT(c[0], link));
  http_conn_close(&t, NULL);
  http_conn_close(&t, c[2]);
  http_conn_close(&t, c[0]);
  assert_int_equal(t.count, 0);
}

static void test_params_int(void **state)
{
  long long v = 7;
  (void)state;
  assert_int_equal(params_int("0", 0, 100, &v), PARAMS_OK);
  assert_int_equal(v, 0);
  assert_int_equal(params_int("100", 0, 100, &v), PARAMS_OK);
  assert_int_equal(v, 100);
  assert_int_equal(params_int("101", 0, 100, &v), PARAMS_TOO_BIG);
  assert_int_equal(params_int("9223372036854775807", 0, INT64_MAX, &v), PARAMS_OK);
  assert_true(v == INT64_MAX);
  assert_int_equal(params_int("9223372036854775808", 0, INT64_MAX, &v), PARAMS_TOO_BIG);
  assert_int_equal(params_int("99999999999999999999999999", 0, INT64_MAX, &v), PARAMS_TOO_BIG);
  assert_int_equal(params_int("-1", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("-1", -5, 100, &v), PARAMS_OK);
  assert_int_equal(v, -1);
  assert_int_equal(params_int("-6", -5, 100, &v), PARAMS_TOO_SMALL);
  assert_int_equal(params_int("-99999999999999999999", -5, 100, &v), PARAMS_TOO_SMALL);
  assert_int_equal(params_int("", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("-", -5, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int(" 1", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("+1", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("1x", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("1.0", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("0x10", 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int(NULL, 0, 100, &v), PARAMS_NOT_INT);
  assert_int_equal(params_int("0", 1, 100, &v), PARAMS_TOO_SMALL);
}

static void test_params_field_names_the_field(void **state)
{
  struct problem p;
  long long v;
  char *doc;
  (void)state;
  problem_init(&p, 400, "validation", "Request failed validation");
  assert_int_equal(params_int_field(&p, "round", "2147483648", 0, 100, &v), -1);
  assert_int_equal(params_int_field(&p, "limit", "0", 1, 100, &v), -1);
  assert_int_equal(params_int_field(&p, "cursor", "abc", 0, 5, &v), -1);
  assert_int_equal(params_int_field(&p, "ok", "5", 0, 5, &v), 0);
  doc = problem_render(&p);
  assert_non_null(doc);
  assert_non_null(strstr(doc, "\"field\":\"round\",\"rule\":\"maximum\""));
  assert_non_null(strstr(doc, "\"limit\":100"));
  assert_non_null(strstr(doc, "\"field\":\"limit\",\"rule\":\"minimum\""));
  assert_non_null(strstr(doc, "\"field\":\"cursor\",\"rule\":\"type\""));
  assert_null(strstr(doc, "\"ok\""));
  free(doc);
  problem_free(&p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_head_deadline_shuts_late_connection),
    cmocka_unit_test(test_body_and_busy_phases),
    cmocka_unit_test(test_close_middle_of_list),
    cmocka_unit_test(test_params_int),
    cmocka_unit_test(test_params_field_names_the_field),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
