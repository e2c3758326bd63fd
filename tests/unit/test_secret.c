/* secret: scrubbing the environment and redacting registered values. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "secret.h"

/* daemon/main.c (not linked into unit tests) defines these; some linked modules use them. */
uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static int teardown(void **state)
{
  (void)state;
  secret_clear();
  return 0;
}

static void test_redacts_every_occurrence(void **state)
{
  char *out;
  (void)state;
  assert_int_equal(secret_register("hunter2-password"), 0);
  out = secret_redact("a hunter2-password b hunter2-password");
  assert_string_equal(out, "a " SECRET_MARK " b " SECRET_MARK);
  free(out);
  assert_true(secret_found("xxhunter2-passwordyy"));
  assert_false(secret_found("hunter2-passwor"));
}

static void test_short_values_ignored(void **state)
{
  (void)state;
  assert_int_equal(secret_register("abc"), -EINVAL);
  assert_int_equal(secret_register(""), -EINVAL);
  assert_false(secret_found("abc"));
}

static void test_value_inside_mark_does_not_loop(void **state)
{
  char *out;
  (void)state;
  assert_int_equal(secret_register("redacted"), 0);
  out = secret_redact("redacted redacted");
  assert_non_null(out);
  assert_string_equal(out, SECRET_MARK " " SECRET_MARK);
  free(out);
}

static void test_database_url_and_password(void **state)
{
  char *out;
  (void)state;
  setenv("KOPT_DATABASE_URL", "postgresql://kopt:s3cr3t-pw@db.example/kopt", 1);
  setenv("KOPT_LLM_API_KEY", "sk-abcdef123456", 1);
  unsetenv("KOPT_LLM_API_KEY_FILE");
  assert_int_equal(secret_register_from_env(), 3);
  out = secret_redact("conn to postgresql://kopt:s3cr3t-pw@db.example/kopt failed; pw s3cr3t-pw;"
                      " key sk-abcdef123456");
  assert_null(strstr(out, "s3cr3t-pw"));
  assert_null(strstr(out, "sk-abcdef123456"));
  free(out);
  secret_clear();
  setenv("KOPT_DATABASE_URL", "host=/tmp dbname=kopt password='p w-123456' user=k", 1);
  unsetenv("KOPT_LLM_API_KEY");
  assert_int_equal(secret_register_from_env(), 2);
  assert_true(secret_found("password is p w-123456"));
}

static void test_scrub_env(void **state)
{
  (void)state;
  for (unsigned i = 0; secret_env_names[i]; i++)
    setenv(secret_env_names[i], "x", 1);
  setenv("KOPT_HARMLESS", "y", 1);
  secret_scrub_env();
  for (unsigned i = 0; secret_env_names[i]; i++)
    assert_null(getenv(secret_env_names[i]));
  assert_string_equal(getenv("KOPT_HARMLESS"), "y");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_teardown(test_redacts_every_occurrence, teardown),
    cmocka_unit_test_teardown(test_short_values_ignored, teardown),
    cmocka_unit_test_teardown(test_value_inside_mark_does_not_loop, teardown),
    cmocka_unit_test_teardown(test_database_url_and_password, teardown),
    cmocka_unit_test_teardown(test_scrub_env, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
