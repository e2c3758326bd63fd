/* Unit tests for workers/errtail.c: lines read from a pipe are kept (the last ones, within
 * the cap), long lines are cut, secrets are redacted, and the reason is the last line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errtail.h"
#include "secret.h"

/* daemon/main.c (not linked into unit tests) defines these; some linked modules use them. */
uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return (uint64_t)time(NULL) * 1000; }
int64_t ctx_wall_ms(void) { return (int64_t)time(NULL) * 1000; }

/* An errtail reading what was written to a pipe that is then closed. */
static void feed(struct errtail *t, const char *text)
{
  int p[2];
  assert_int_equal(pipe(p), 0);
  assert_int_equal(write(p[1], text, strlen(text)), (ssize_t)strlen(text));
  close(p[1]);
  errtail_open(t, p[0]);
  assert_int_equal(errtail_drain(t, 1000), 1); /* end of file reached */
  assert_int_equal(t->fd, -1);
}

static void test_reason_is_the_last_line(void **state)
{
  static struct errtail t;
  char r[256];
  (void)state;
  feed(&t, "kopt-launch: isolation: bubblewrap\nTraceback (most recent call last):\n"
           "PermissionError: [Errno 13] Permission denied: '/x/bin/python'\n\n  \n");
  errtail_reason(&t, r, sizeof(r));
  assert_string_equal(r, "PermissionError: [Errno 13] Permission denied: '/x/bin/python'");
  /* a last line without its newline counts once the writer is gone */
  feed(&t, "one\nkopt-launch: /x cannot be read by user kopt-sb-interp0");
  errtail_reason(&t, r, sizeof(r));
  assert_string_equal(r, "kopt-launch: /x cannot be read by user kopt-sb-interp0");
  errtail_reason(&t, r, 5);
  assert_string_equal(r, "kopt");
  feed(&t, "");
  errtail_reason(&t, r, sizeof(r));
  assert_string_equal(r, "");
}

static void test_keeps_the_last_lines_within_the_cap(void **state)
{
  static struct errtail t;
  static char text[64 * 1024], r[ERRTAIL_LINE_MAX + 1];
  size_t o = 0;
  (void)state;
  for (int i = 0; i < 200; i++)
    o += (size_t)snprintf(text + o, sizeof(text) - o, "line %03d %080d\n", i, i);
  memset(text + o, 'L', 3 * ERRTAIL_LINE_MAX); /* one line longer than the line cap */
  o += 3 * ERRTAIL_LINE_MAX;
  text[o++] = '\n';
  text[o] = '\0';
  feed(&t, text);
  assert_true(strlen(t.tail) < ERRTAIL_KEEP);
  errtail_reason(&t, r, sizeof(r));
  assert_true(strlen(r) <= ERRTAIL_LINE_MAX && strspn(r, "L") == strlen(r));
  assert_null(strstr(t.tail, "line 000"));
}

static void test_secrets_are_redacted(void **state)
{
  static struct errtail t;
  char r[256];
  (void)state;
  assert_int_equal(secret_register("postgresql://kopt:hunter2secret@db/kopt"), 0);
  feed(&t, "could not connect to postgresql://kopt:hunter2secret@db/kopt\n");
  errtail_reason(&t, r, sizeof(r));
  assert_null(strstr(r, "hunter2secret"));
  assert_non_null(strstr(r, SECRET_MARK));
  secret_clear();
}

static void test_drain_without_eof(void **state)
{
  static struct errtail t;
  int p[2];
  char r[64];
  (void)state;
  assert_int_equal(pipe(p), 0);
  errtail_open(&t, p[0]);
  assert_int_equal(write(p[1], "partial", 7), 7);
  assert_int_equal(errtail_drain(&t, 0), 0); /* writer still there: nothing blocks */
  assert_int_equal(write(p[1], " line\n", 6), 6);
  assert_int_equal(errtail_drain(&t, 20), 0);
  errtail_reason(&t, r, sizeof(r));
  assert_string_equal(r, "partial line");
  errtail_close(&t, 0);
  assert_int_equal(t.fd, -1);
  close(p[1]);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_reason_is_the_last_line),
    cmocka_unit_test(test_keeps_the_last_lines_within_the_cap),
    cmocka_unit_test(test_secrets_are_redacted),
    cmocka_unit_test(test_drain_without_eof),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
