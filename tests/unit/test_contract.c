/* Unit tests for common/contract.h: the words and limits it defines are the ones the API
 * document (api/openapi.json), the database (migrations/001_init.sql) and the API's own
 * validation use, and the harness line limit covers what the API can accept. Run from the
 * repository root (as scripts/test.sh does). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "contract.h"
#include "spec.h"

#define OPENAPI "api/openapi.json"
#define MIGRATION "migrations/001_init.sql"

/* Asserts that a JSON enum (nulls skipped: "may be omitted") equals a NULL-terminated table. */
static void assert_enum_is(const json_t *en, const char *const *table, const char *what)
{
  size_t i, n = 0;
  json_t *v;
  assert_true(json_is_array(en));
  json_array_foreach(en, i, v) {
    if (json_is_null(v))
      continue;
    if (!table[n] || strcmp(json_string_value(v), table[n]) != 0)
      fail_msg("%s: openapi has %s where the contract has %s", what, json_string_value(v),
               table[n] ? table[n] : "(end)");
    n++;
  }
  if (table[n])
    fail_msg("%s: openapi lacks %s", what, table[n]);
}

static void test_openapi_enums(void **state)
{
  static const char *const schemas[] = { "JobSpec", "StoredSpec", "Job" };
  json_error_t je;
  json_t *doc = json_load_file(OPENAPI, 0, &je);
  json_t *comp;
  (void)state;
  if (!doc)
    fail_msg("%s: %s", OPENAPI, je.text);
  comp = json_object_get(json_object_get(doc, "components"), "schemas");
  assert_enum_is(json_object_get(json_object_get(comp, "JobState"), "enum"), contract_states,
                 "JobState");
  for (unsigned i = 0; i < sizeof(schemas) / sizeof(schemas[0]); i++) {
    json_t *props = json_object_get(json_object_get(comp, schemas[i]), "properties");
    assert_enum_is(json_object_get(json_object_get(props, "backend"), "enum"),
                   contract_job_backends, schemas[i]);
    assert_enum_is(json_object_get(json_object_get(props, "policy"), "enum"), contract_policies,
                   schemas[i]);
    assert_enum_is(json_object_get(json_object_get(props, "proposer"), "enum"),
                   contract_proposers, schemas[i]);
  }
  json_decref(doc);
}

static void assert_limit(const json_t *lim, const char *key, size_t def, size_t lo, size_t hi)
{
  json_t *l = json_object_get(lim, key);
  char want[64];
  snprintf(want, sizeof(want), "%zu..%zu", lo, hi);
  assert_int_equal(json_integer_value(json_object_get(l, "default")), def);
  assert_string_equal(json_string_value(json_object_get(l, "range")), want);
}

static void test_openapi_limits(void **state)
{
  json_error_t je;
  json_t *doc = json_load_file(OPENAPI, 0, &je), *lim;
  (void)state;
  if (!doc)
    fail_msg("%s: %s", OPENAPI, je.text);
  lim = json_object_get(doc, "x-kopt-limits");
  assert_limit(lim, "max_source_bytes", KOPT_SOURCE_BYTES_DEFAULT, KOPT_SOURCE_BYTES_MIN,
               KOPT_SOURCE_BYTES_MAX);
  assert_limit(lim, "max_body_bytes", KOPT_BODY_BYTES_DEFAULT, KOPT_BODY_BYTES_MIN,
               KOPT_BODY_BYTES_MAX);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(lim, "cases"), "max")),
                   KOPT_CASES_MAX);
  assert_int_equal(SPEC_MAX_CASES, KOPT_CASES_MAX);
  json_decref(doc);
}

/* The quoted words of the first "CHECK (<column> IN (...))" in the migration, as "a,b,c". */
static void check_words(const char *sql, const char *column, char *out, size_t outlen)
{
  char pat[64];
  const char *p, *end;
  size_t o = 0;
  snprintf(pat, sizeof(pat), "CHECK (%s IN (", column);
  p = strstr(sql, pat);
  assert_non_null(p);
  p += strlen(pat);
  end = strchr(p, ')');
  assert_non_null(end);
  out[0] = '\0';
  while (p < end) {
    const char *q = strchr(p, '\''), *r;
    if (!q || q >= end)
      break;
    r = strchr(q + 1, '\'');
    assert_non_null(r);
    o += (size_t)snprintf(out + o, outlen - o, "%s%.*s", o ? "," : "", (int)(r - q - 1), q + 1);
    p = r + 1;
  }
}

static void joined(const char *const *table, char *out, size_t outlen)
{
  size_t o = 0;
  out[0] = '\0';
  for (int i = 0; table[i]; i++)
    o += (size_t)snprintf(out + o, outlen - o, "%s%s", i ? "," : "", table[i]);
}

static void test_database_checks(void **state)
{
  FILE *f = fopen(MIGRATION, "r");
  char *sql, got[256], want[256];
  long n;
  (void)state;
  assert_non_null(f);
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  rewind(f);
  sql = calloc(1, (size_t)n + 1);
  assert_non_null(sql);
  assert_int_equal(fread(sql, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  check_words(sql, "state", got, sizeof(got));
  joined(contract_states, want, sizeof(want));
  assert_string_equal(got, want);
  check_words(sql, "backend", got, sizeof(got));
  joined(contract_job_backends, want, sizeof(want));
  assert_string_equal(got, want);
  free(sql);
}

static void test_lookups(void **state)
{
  (void)state;
  assert_int_equal(contract_find(contract_states, "running"), CONTRACT_RUNNING);
  assert_int_equal(contract_find(contract_states, "Running"), -1);
  assert_int_equal(contract_find(contract_states, NULL), -1);
  assert_int_equal(contract_find(contract_backends, KOPT_BACKEND_ANY), -1);
  assert_int_equal(contract_find(contract_job_backends, KOPT_BACKEND_ANY), 3);
  assert_true(contract_state_terminal("succeeded"));
  assert_true(contract_state_terminal("failed"));
  assert_true(contract_state_terminal("cancelled"));
  assert_false(contract_state_terminal("queued"));
  assert_false(contract_state_terminal("running"));
  assert_false(contract_state_terminal("lost"));
  assert_int_equal(contract_find(contract_outcomes, KOPT_OUTCOME_LOST), 4);
  assert_true(strlen("00000000-0000-0000-0000-000000000000") == KOPT_UUID_LEN);
  assert_true(KOPT_UUID_LEN < KOPT_JOB_ID_SIZE);
  assert_true(strlen("interp") < KOPT_BACKEND_SIZE);
}

/* Whatever koptd accepts fits in one harness request line. */
static void test_harness_line_covers_the_api(void **state)
{
  (void)state;
  assert_int_equal(contract_harness_line_max(KOPT_BODY_BYTES_DEFAULT, KOPT_SOURCE_BYTES_DEFAULT),
                   KOPT_HARNESS_LINE_MIN);
  for (size_t body = KOPT_BODY_BYTES_MIN; body <= KOPT_BODY_BYTES_MAX; body *= 4)
    for (size_t src = KOPT_SOURCE_BYTES_MIN; src <= KOPT_SOURCE_BYTES_MAX; src *= 4) {
      size_t line = contract_harness_line_max(body, src);
      assert_true(line >= KOPT_HARNESS_LINE_MIN);
      assert_true(line > body);             /* a load carries what the body carried */
      assert_true(line > 2 * 6 * src);      /* two sources, every byte escaped */
    }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_openapi_enums),
    cmocka_unit_test(test_openapi_limits),
    cmocka_unit_test(test_database_checks),
    cmocka_unit_test(test_lookups),
    cmocka_unit_test(test_harness_line_covers_the_api),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
