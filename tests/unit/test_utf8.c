/* Unit tests for common/utf8.c, checked against jansson's own validator (the library whose
 * refusal they exist to avoid): every 1- and 2-byte string, and the edges of the 3- and
 * 4-byte forms. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "utf8.h"

static int jansson_valid(const char *s, size_t n)
{
  json_t *j = json_stringn(s, n);
  int ok = j != NULL;
  json_decref(j);
  return ok;
}

/* 1 when s (n bytes) is a sequence of whole characters by utf8_seq_len. */
static int ours_valid(const char *s, size_t n)
{
  size_t i = 0;
  while (i < n) {
    size_t k = utf8_seq_len(s + i, n - i);
    if (!k)
      return 0;
    i += k;
  }
  return 1;
}

static void test_agrees_with_jansson_short(void **state)
{
  char b[2];
  (void)state;
  for (unsigned x = 1; x < 256; x++) {
    b[0] = (char)x;
    assert_int_equal(ours_valid(b, 1), jansson_valid(b, 1));
    for (unsigned y = 1; y < 256; y++) {
      b[1] = (char)y;
      if (ours_valid(b, 2) != jansson_valid(b, 2))
        fail_msg("%02x %02x: ours %d, jansson %d", x, y, ours_valid(b, 2), jansson_valid(b, 2));
    }
  }
}

static void test_agrees_with_jansson_long(void **state)
{
  /* Lead bytes of the 3- and 4-byte forms with every second byte, edge third/fourth bytes. */
  static const unsigned char leads[] = { 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF,
                                         0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF };
  static const unsigned char tails[] = { 0x00 + 'a', 0x7F, 0x80, 0x9F, 0xA0, 0xBF, 0xC0 };
  unsigned char b[4];
  (void)state;
  for (size_t l = 0; l < sizeof(leads); l++)
    for (unsigned y = 1; y < 256; y++)
      for (size_t t = 0; t < sizeof(tails); t++)
        for (size_t u = 0; u < sizeof(tails); u++) {
          b[0] = leads[l];
          b[1] = (unsigned char)y;
          b[2] = tails[t];
          b[3] = tails[u];
          for (size_t n = 3; n <= 4; n++)
            if (ours_valid((char *)b, n) != jansson_valid((char *)b, n))
              fail_msg("%02x %02x %02x %02x (%zu bytes): ours %d, jansson %d", b[0], b[1], b[2],
                       b[3], n, ours_valid((char *)b, n), jansson_valid((char *)b, n));
        }
}

static void test_scrub(void **state)
{
  char s[64];
  (void)state;
  snprintf(s, sizeof(s), "plain ascii");
  assert_int_equal(utf8_scrub(s), 0);
  assert_string_equal(s, "plain ascii");
  snprintf(s, sizeof(s), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  assert_int_equal(utf8_scrub(s), 0);
  assert_string_equal(s, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  /* Latin-1, a stray continuation byte, a cut at the end, an overlong '/' and a surrogate. */
  snprintf(s, sizeof(s), "\xe9t\xe9 \x80 \xc0\xaf \xed\xa0\x80 end \xe2\x82");
  assert_int_equal(utf8_scrub(s), 10);
  assert_string_equal(s, "?t? ? ?? ??? end ??");
  assert_true(jansson_valid(s, strlen(s)));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_agrees_with_jansson_short),
    cmocka_unit_test(test_agrees_with_jansson_long),
    cmocka_unit_test(test_scrub),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
