/* Unit tests for common/buf.c: the hard cap, formatted appends, take/reset/free. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"

static void test_init_empty(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 100);
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.cap, 100);
  buf_free(&b);
}

static void test_append_basic(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 1024);
  assert_int_equal(buf_append(&b, "abc", 3), 0);
  assert_int_equal(buf_appends(&b, "def"), 0);
  assert_int_equal(b.len, 6);
  assert_string_equal(b.data, "abcdef");
  assert_int_equal(b.data[b.len], '\0');
  /* Binary data with an embedded NUL keeps its length. */
  assert_int_equal(buf_append(&b, "x\0y", 3), 0);
  assert_int_equal(b.len, 9);
  assert_memory_equal(b.data + 6, "x\0y", 3);
  buf_free(&b);
  assert_null(b.data);
  assert_int_equal(b.len, 0);
}

static void test_append_zero_bytes_allocates_terminated(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 10);
  assert_int_equal(buf_append(&b, "", 0), 0);
  assert_non_null(b.data);
  assert_string_equal(b.data, "");
  assert_int_equal(b.len, 0);
  buf_free(&b);
}

static void test_cap_exact_fits(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 8);
  assert_int_equal(buf_appends(&b, "12345678"), 0); /* exactly cap */
  assert_int_equal(b.len, 8);
  assert_string_equal(b.data, "12345678");
  assert_true(b.alloc <= 9); /* never more than cap + NUL */
  /* One more byte passes the cap. */
  assert_int_equal(buf_appends(&b, "9"), -E2BIG);
  assert_int_equal(b.len, 8);
  assert_string_equal(b.data, "12345678");
  buf_free(&b);
}

static void test_cap_unchanged_content(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 10);
  assert_int_equal(buf_appends(&b, "hello"), 0);
  assert_int_equal(buf_appends(&b, "world!"), -E2BIG); /* 11 > 10 */
  assert_int_equal(b.len, 5);
  assert_string_equal(b.data, "hello");
  assert_int_equal(buf_appendf(&b, "%s-%d", "abc", 12345), -E2BIG); /* 9 more */
  assert_int_equal(b.len, 5);
  assert_string_equal(b.data, "hello");
  /* A huge length never wraps around the check. */
  assert_int_equal(buf_append(&b, "x", SIZE_MAX), -E2BIG);
  assert_int_equal(buf_append(&b, "x", SIZE_MAX - 3), -E2BIG);
  assert_int_equal(b.len, 5);
  /* Still usable afterwards. */
  assert_int_equal(buf_appends(&b, "!!!!!"), 0);
  assert_string_equal(b.data, "hello!!!!!");
  buf_free(&b);
}

static void test_cap_zero(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 0);
  assert_int_equal(buf_appends(&b, "a"), -E2BIG);
  assert_int_equal(b.len, 0);
  buf_free(&b);
}

static void test_appendf(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 4096);
  assert_int_equal(buf_appendf(&b, "%d-%s-%05.1f", 42, "x", 3.14159), 0);
  assert_string_equal(b.data, "42-x-003.1");
  assert_int_equal(buf_appendf(&b, "%s", ""), 0);
  assert_int_equal(b.len, strlen("42-x-003.1"));
  assert_int_equal(buf_appendf(&b, "|%llu", 18446744073709551615ULL), 0);
  assert_string_equal(b.data, "42-x-003.1|18446744073709551615");
  assert_int_equal(b.len, strlen(b.data));
  buf_free(&b);
}

static void test_appendf_growth(void **state)
{
  struct buf b;
  char expect[64];
  (void)state;
  buf_init(&b, 1u << 20);
  for (int i = 0; i < 5000; i++)
    assert_int_equal(buf_appendf(&b, "line %d\n", i), 0);
  assert_int_equal(b.len, strlen(b.data));
  assert_true(b.alloc > b.len);
  snprintf(expect, sizeof(expect), "line 4999\n");
  assert_string_equal(b.data + b.len - strlen(expect), expect);
  assert_memory_equal(b.data, "line 0\nline 1\n", 14);
  buf_free(&b);
}

static void test_appendf_exact_cap(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 6);
  assert_int_equal(buf_appendf(&b, "%03d", 7), 0);
  assert_int_equal(buf_appendf(&b, "%03d", 8), 0); /* 6 == cap */
  assert_string_equal(b.data, "007008");
  assert_int_equal(buf_appendf(&b, "%c", 'z'), -E2BIG);
  assert_string_equal(b.data, "007008");
  buf_free(&b);
}

static void test_take(void **state)
{
  struct buf b;
  size_t len = 99;
  char *s;
  (void)state;
  buf_init(&b, 64);
  buf_appends(&b, "payload");
  s = buf_take(&b, &len);
  assert_non_null(s);
  assert_string_equal(s, "payload");
  assert_int_equal(len, 7);
  /* b is reset and reusable, with its cap. */
  assert_null(b.data);
  assert_int_equal(b.len, 0);
  assert_int_equal(b.alloc, 0);
  assert_int_equal(b.cap, 64);
  assert_int_equal(buf_appends(&b, "again"), 0);
  assert_string_equal(b.data, "again");
  assert_ptr_not_equal(b.data, s);
  free(s);
  buf_free(&b);
}

static void test_take_empty(void **state)
{
  struct buf b;
  size_t len = 99;
  char *s;
  (void)state;
  buf_init(&b, 64);
  s = buf_take(&b, &len);
  assert_non_null(s);
  assert_string_equal(s, "");
  assert_int_equal(len, 0);
  free(s);
  /* NULL len is allowed. */
  buf_appends(&b, "z");
  s = buf_take(&b, NULL);
  assert_string_equal(s, "z");
  free(s);
  buf_free(&b);
}

static void test_reset(void **state)
{
  struct buf b;
  (void)state;
  buf_init(&b, 16);
  buf_reset(&b); /* no data yet: must not crash */
  assert_int_equal(b.len, 0);
  buf_appends(&b, "0123456789");
  buf_reset(&b);
  assert_int_equal(b.len, 0);
  assert_string_equal(b.data, "");
  /* After a reset the whole cap is available again. */
  assert_int_equal(buf_appends(&b, "0123456789abcdef"), 0);
  assert_int_equal(b.len, 16);
  buf_free(&b);
  buf_free(&b); /* idempotent */
  assert_null(b.data);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_init_empty),
    cmocka_unit_test(test_append_basic),
    cmocka_unit_test(test_append_zero_bytes_allocates_terminated),
    cmocka_unit_test(test_cap_exact_fits),
    cmocka_unit_test(test_cap_unchanged_content),
    cmocka_unit_test(test_cap_zero),
    cmocka_unit_test(test_appendf),
    cmocka_unit_test(test_appendf_growth),
    cmocka_unit_test(test_appendf_exact_cap),
    cmocka_unit_test(test_take),
    cmocka_unit_test(test_take_empty),
    cmocka_unit_test(test_reset),
  };
  return cmocka_run_group_tests_name("buf", tests, NULL, NULL);
}
