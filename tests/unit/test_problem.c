/* Unit tests for api/problem.c (RFC 9457 documents) and api/jsonlim.c (depth-capped JSON
 * object parsing). */
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

#include <jansson.h>

#include "jsonlim.h"
#include "problem.h"

/* Renders p and parses the result back. */
static json_t *render_doc(const struct problem *p)
{
  char *s = problem_render(p);
  json_t *doc;
  json_error_t je;
  assert_non_null(s);
  doc = json_loads(s, 0, &je);
  if (!doc)
    fail_msg("rendered problem is not JSON: %s: %s", je.text, s);
  free(s);
  assert_true(json_is_object(doc));
  return doc;
}

static const char *str_of(const json_t *o, const char *k)
{
  json_t *v = json_object_get(o, k);
  if (!json_is_string(v))
    fail_msg("%s is not a string", k);
  return json_string_value(v);
}

/* ---------------------------------------------------------------------------- problem */

static void test_render_plain(void **state)
{
  struct problem p;
  json_t *doc;
  (void)state;
  problem_init(&p, 404, "not-found", "Not found");
  assert_false(problem_has_errors(&p));
  doc = render_doc(&p);
  assert_string_equal(str_of(doc, "type"), "urn:kopt:problem:not-found");
  assert_string_equal(str_of(doc, "title"), "Not found");
  assert_true(json_is_integer(json_object_get(doc, "status")));
  assert_int_equal(json_integer_value(json_object_get(doc, "status")), 404);
  assert_null(json_object_get(doc, "detail")); /* empty detail is left out */
  assert_null(json_object_get(doc, "errors"));
  assert_int_equal(json_object_size(doc), 3);
  json_decref(doc);
  problem_free(&p);
}

static void test_render_detail(void **state)
{
  struct problem p;
  json_t *doc;
  (void)state;
  problem_init(&p, 409, "conflict", "Conflict");
  problem_detail(&p, "job %s is %s", "abc", "succeeded");
  doc = render_doc(&p);
  assert_string_equal(str_of(doc, "type"), "urn:kopt:problem:conflict");
  assert_int_equal(json_integer_value(json_object_get(doc, "status")), 409);
  assert_string_equal(str_of(doc, "detail"), "job abc is succeeded");
  json_decref(doc);
  problem_free(&p);
}

static void test_render_escapes(void **state)
{
  struct problem p;
  json_t *doc;
  (void)state;
  problem_init(&p, 400, "validation", "Request failed validation");
  problem_detail(&p, "quote \" backslash \\ newline \n tab \t");
  problem_add(&p, "na\"me", "rule", -1, "bad \"%s\"", "x\\y");
  doc = render_doc(&p);
  assert_string_equal(str_of(doc, "detail"), "quote \" backslash \\ newline \n tab \t");
  assert_string_equal(str_of(json_array_get(json_object_get(doc, "errors"), 0), "field"),
                      "na\"me");
  assert_string_equal(str_of(json_array_get(json_object_get(doc, "errors"), 0), "detail"),
                      "bad \"x\\y\"");
  json_decref(doc);
  problem_free(&p);
}

static void test_detail_truncated(void **state)
{
  struct problem p;
  char big[2000];
  json_t *doc;
  (void)state;
  memset(big, 'd', sizeof(big) - 1);
  big[sizeof(big) - 1] = '\0';
  problem_init(&p, 500, "internal", "Internal error");
  problem_detail(&p, "%s", big);
  assert_int_equal(strlen(p.detail), sizeof(p.detail) - 1);
  doc = render_doc(&p);
  assert_int_equal(strlen(str_of(doc, "detail")), sizeof(p.detail) - 1);
  json_decref(doc);
  problem_free(&p);
}

static void test_errors_array(void **state)
{
  struct problem p;
  json_t *doc, *errs, *e;
  (void)state;
  problem_init(&p, 400, "validation", "Request failed validation");
  problem_add(&p, "rounds", "maximum", 100, "must be at most %d", 100);
  problem_add(&p, "backend", "enum", -1, "must be one of %s", "cuda, any");
  problem_add(&p, "cases", "minItems", 0, "zero is a limit too");
  assert_true(problem_has_errors(&p));
  doc = render_doc(&p);
  assert_string_equal(str_of(doc, "type"), "urn:kopt:problem:validation");
  assert_string_equal(str_of(doc, "title"), "Request failed validation");
  assert_int_equal(json_integer_value(json_object_get(doc, "status")), 400);
  /* The first error becomes the detail. */
  assert_string_equal(str_of(doc, "detail"), "rounds: must be at most 100");
  errs = json_object_get(doc, "errors");
  assert_true(json_is_array(errs));
  assert_int_equal(json_array_size(errs), 3);

  e = json_array_get(errs, 0);
  assert_string_equal(str_of(e, "field"), "rounds");
  assert_string_equal(str_of(e, "rule"), "maximum");
  assert_string_equal(str_of(e, "detail"), "must be at most 100");
  assert_true(json_is_integer(json_object_get(e, "limit")));
  assert_int_equal(json_integer_value(json_object_get(e, "limit")), 100);
  assert_int_equal(json_object_size(e), 4);

  e = json_array_get(errs, 1);
  assert_string_equal(str_of(e, "field"), "backend");
  assert_string_equal(str_of(e, "rule"), "enum");
  assert_string_equal(str_of(e, "detail"), "must be one of cuda, any");
  assert_null(json_object_get(e, "limit")); /* limit < 0: none */
  assert_int_equal(json_object_size(e), 3);

  e = json_array_get(errs, 2);
  assert_non_null(json_object_get(e, "limit"));
  assert_int_equal(json_integer_value(json_object_get(e, "limit")), 0);
  json_decref(doc);

  /* Rendering does not consume the errors: a second render is identical. */
  {
    char *a = problem_render(&p), *b = problem_render(&p);
    assert_non_null(a);
    assert_non_null(b);
    assert_string_equal(a, b);
    free(a);
    free(b);
  }
  problem_free(&p);
  assert_null(p.errors);
  assert_false(problem_has_errors(&p));
  problem_free(&p); /* idempotent */
}

static void test_preset_detail_kept(void **state)
{
  struct problem p;
  (void)state;
  problem_init(&p, 400, "validation", "Request failed validation");
  problem_detail(&p, "custom summary");
  problem_add(&p, "x", "y", -1, "first");
  assert_string_equal(p.detail, "custom summary");
  problem_add(&p, "z", "w", -1, "second");
  assert_string_equal(p.detail, "custom summary");
  problem_free(&p);
}

/* Found by tests/fuzz/fuzz_spec.c and fuzz_router.c: text that is not UTF-8 -- jansson's
 * message for a malformed body quotes the byte it stopped at, a URL path is any bytes --
 * made the rendered document drop its detail (jansson refuses such a string). Now what is
 * not UTF-8 becomes '?', and the detail and every error stay. */
static void test_text_not_utf8_kept(void **state)
{
  struct problem p;
  json_t *doc = NULL, *e;
  char msg[256];
  /* An invalid escape right before a two-byte character: jansson's text ends in its lead byte. */
  static const char body[] = "{\"a\": \"\\\xc3\xa9\"}";
  (void)state;
  assert_int_equal(jsonlim_parse_object(body, sizeof(body) - 1, &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  problem_init(&p, 400, "malformed-json", "Malformed JSON");
  problem_detail(&p, "%s", msg);
  doc = render_doc(&p);
  assert_non_null(strstr(json_string_value(json_object_get(doc, "detail")), "invalid JSON"));
  json_decref(doc);
  problem_free(&p);

  /* api_resp_simple_problem writes detail itself: "no route for %.200s" of a URL path. */
  problem_init(&p, 404, "not-found", "Not found");
  snprintf(p.detail, sizeof(p.detail), "no route for %s", "/v1/\xff\xfe/j\xc3\xb6" "bs");
  doc = render_doc(&p);
  assert_string_equal(json_string_value(json_object_get(doc, "detail")), "no route for /v1/?" "?/j\xc3\xb6" "bs");
  json_decref(doc);

  /* A field and a message cut inside a character ("%.5s" of "ab\u20ac"). */
  problem_init(&p, 400, "validation", "Request failed validation");
  problem_add(&p, "ab\xe2\x82", "unknown-field", -1, "is %.4s", "ab\xe2\x82\xac");
  problem_add(&p, "ok", "enum", -1, "fine");
  doc = render_doc(&p);
  assert_int_equal(json_array_size(json_object_get(doc, "errors")), 2);
  e = json_array_get(json_object_get(doc, "errors"), 0);
  assert_string_equal(json_string_value(json_object_get(e, "field")), "ab??");
  assert_string_equal(json_string_value(json_object_get(e, "detail")), "is ab??");
  assert_string_equal(json_string_value(json_object_get(doc, "detail")), "ab??: is ab??");
  json_decref(doc);
  problem_free(&p);
}

static void test_errors_capped(void **state)
{
  struct problem p;
  json_t *doc, *errs;
  char field[16];
  (void)state;
  problem_init(&p, 400, "validation", "Request failed validation");
  for (int i = 0; i < PROBLEM_MAX_ERRORS * 3; i++) {
    snprintf(field, sizeof(field), "f%d", i);
    problem_add(&p, field, "rule", i, "error %d", i);
  }
  assert_int_equal(json_array_size(p.errors), PROBLEM_MAX_ERRORS);
  doc = render_doc(&p);
  errs = json_object_get(doc, "errors");
  assert_int_equal(json_array_size(errs), PROBLEM_MAX_ERRORS);
  /* The first ones are kept, in order. */
  assert_string_equal(str_of(json_array_get(errs, 0), "field"), "f0");
  assert_string_equal(str_of(json_array_get(errs, PROBLEM_MAX_ERRORS - 1), "field"), "f31");
  assert_string_equal(str_of(doc, "detail"), "f0: error 0");
  json_decref(doc);
  problem_free(&p);
}

/* ---------------------------------------------------------------------------- jsonlim */

static unsigned depth_of(const char *s) { return jsonlim_depth(s, strlen(s), 1000); }

static void test_depth_counts(void **state)
{
  (void)state;
  assert_int_equal(depth_of(""), 0);
  assert_int_equal(depth_of("42"), 0);
  assert_int_equal(depth_of("{}"), 1);
  assert_int_equal(depth_of("[]"), 1);
  assert_int_equal(depth_of("[[[]]]"), 3);
  assert_int_equal(depth_of("{\"a\": [1, {\"b\": [2]}], \"c\": {}}"), 4);
  /* Siblings do not add up: the deepest path counts. */
  assert_int_equal(depth_of("[[1], [2], [3], [[4]]]"), 3);
  /* Stray closers never make the depth negative. */
  assert_int_equal(depth_of("]]]]}}[{"), 2);
}

static void test_depth_ignores_strings(void **state)
{
  (void)state;
  assert_int_equal(depth_of("{\"a\": \"[[[[{{{{\"}"), 1);
  assert_int_equal(depth_of("{\"[[[[\": 1}"), 1);
  /* An escaped quote does not end the string ... */
  assert_int_equal(depth_of("{\"a\": \"x\\\"[[[[\"}"), 1);
  assert_int_equal(depth_of("[\"\\\"\", \"]]]]\", [1]]"), 2);
  /* ... but an escaped backslash before a quote does. */
  assert_int_equal(depth_of("[\"\\\\\", [[1]]]"), 3);
  assert_int_equal(depth_of("[\"\\\\\\\"[[\"]"), 1); /* \\ then \" inside the string */
}

static void test_depth_stops_past_limit(void **state)
{
  char deep[10001];
  (void)state;
  memset(deep, '[', 10000);
  deep[10000] = '\0';
  assert_int_equal(jsonlim_depth(deep, 10000, 5), 6);
  assert_int_equal(jsonlim_depth(deep, 10000, JSONLIM_MAX_DEPTH), JSONLIM_MAX_DEPTH + 1);
  /* Only len bytes are read. */
  assert_int_equal(jsonlim_depth(deep, 3, 100), 3);
}

/* {"a":{"a":...{}...}} with depth levels. */
static char *nested_objects(unsigned depth)
{
  size_t cap = depth * 8 + 8, o = 0;
  char *s = malloc(cap);
  assert_non_null(s);
  for (unsigned i = 1; i < depth; i++)
    o += (size_t)snprintf(s + o, cap - o, "{\"a\":");
  o += (size_t)snprintf(s + o, cap - o, "{}");
  for (unsigned i = 1; i < depth; i++)
    s[o++] = '}';
  s[o] = '\0';
  return s;
}

static void test_parse_depth_cap(void **state)
{
  json_t *doc = (json_t *)0x1;
  char msg[256] = "";
  char *s;
  (void)state;
  s = nested_objects(JSONLIM_MAX_DEPTH);
  assert_int_equal(depth_of(s), JSONLIM_MAX_DEPTH);
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)), JSONLIM_OK);
  assert_true(json_is_object(doc));
  json_decref(doc);
  free(s);

  s = nested_objects(JSONLIM_MAX_DEPTH + 1);
  doc = (json_t *)0x1;
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_TOO_DEEP);
  assert_null(doc);
  assert_non_null(strstr(msg, "32"));
  free(s);

  /* Refused before parsing: an unbalanced, very deep text is "too deep", not malformed. */
  {
    char deep[100001];
    memset(deep, '[', 100000);
    deep[0] = '{';
    deep[100000] = '\0';
    assert_int_equal(jsonlim_parse_object(deep, 100000, &doc, msg, sizeof(msg)),
                     JSONLIM_TOO_DEEP);
    assert_null(doc);
  }
}

static void test_parse_ok(void **state)
{
  json_t *doc = NULL;
  char msg[256] = "";
  const char *s = "{\"a\": 1, \"b\": [\"[[\", {\"c\": null}]}trailing garbage";
  (void)state;
  /* Only len bytes: the object without what follows. */
  assert_int_equal(jsonlim_parse_object(s, strlen(s) - strlen("trailing garbage"), &doc, msg,
                                        sizeof(msg)),
                   JSONLIM_OK);
  assert_non_null(doc);
  assert_int_equal(json_integer_value(json_object_get(doc, "a")), 1);
  assert_int_equal(json_array_size(json_object_get(doc, "b")), 2);
  json_decref(doc);
}

static void test_parse_malformed_position(void **state)
{
  json_t *doc = (json_t *)0x1;
  char msg[256] = "";
  const char *s = "{\n  \"a\": 1,\n  \"b\": }\n";
  (void)state;
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_null(doc);
  assert_non_null(strstr(msg, "line 3"));
  assert_non_null(strstr(msg, "column 8"));

  doc = (json_t *)0x1;
  s = "{\"a\": tru}";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_null(doc);
  assert_non_null(strstr(msg, "line 1"));
  assert_non_null(strstr(msg, "column"));

  /* Empty body, truncated body, a trailing comma, NUL escapes. */
  assert_int_equal(jsonlim_parse_object("", 0, &doc, msg, sizeof(msg)), JSONLIM_MALFORMED);
  assert_null(doc);
  s = "{\"a\": [1, 2";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  s = "{\"a\": 1,}";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  s = "{\"a\": \"x\\u0000y\"}";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_null(doc);
  /* Invalid UTF-8. */
  s = "{\"a\": \"\xff\xfe\"}";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_null(doc);
}

static void test_parse_not_object(void **state)
{
  static const char *const bodies[] = { "[]", "[1, {\"a\": 2}]", "1", "\"x\"", "null", "true",
                                        "-2.5e3", NULL };
  json_t *doc;
  char msg[256];
  (void)state;
  for (int i = 0; bodies[i]; i++) {
    doc = (json_t *)0x1;
    msg[0] = '\0';
    if (jsonlim_parse_object(bodies[i], strlen(bodies[i]), &doc, msg, sizeof(msg)) !=
        JSONLIM_NOT_OBJECT)
      fail_msg("%s: not refused as a non-object (msg: %s)", bodies[i], msg);
    assert_null(doc);
    assert_non_null(strstr(msg, "object"));
  }
}

static void test_parse_duplicate_keys(void **state)
{
  json_t *doc = (json_t *)0x1;
  char msg[256] = "";
  const char *s = "{\"kernel\": {\"source\": \"a\"}, \"kernel\": {\"source\": \"b\"}}";
  (void)state;
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_null(doc);
  assert_non_null(strstr(msg, "duplicate"));
  /* Nested too. */
  s = "{\"a\": {\"x\": 1, \"x\": 1}}";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_null(doc);
  /* The same key in two different objects is fine. */
  s = "{\"a\": {\"x\": 1}, \"b\": {\"x\": 1}}";
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)), JSONLIM_OK);
  json_decref(doc);
}

static void test_parse_small_msg_buffer(void **state)
{
  json_t *doc;
  char msg[8];
  const char *s = "{\"a\": }";
  (void)state;
  memset(msg, 'z', sizeof(msg));
  assert_int_equal(jsonlim_parse_object(s, strlen(s), &doc, msg, sizeof(msg)),
                   JSONLIM_MALFORMED);
  assert_int_equal(strlen(msg), sizeof(msg) - 1); /* truncated, terminated */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_render_plain),
    cmocka_unit_test(test_render_detail),
    cmocka_unit_test(test_render_escapes),
    cmocka_unit_test(test_detail_truncated),
    cmocka_unit_test(test_errors_array),
    cmocka_unit_test(test_preset_detail_kept),
    cmocka_unit_test(test_errors_capped),
    cmocka_unit_test(test_text_not_utf8_kept),
    cmocka_unit_test(test_depth_counts),
    cmocka_unit_test(test_depth_ignores_strings),
    cmocka_unit_test(test_depth_stops_past_limit),
    cmocka_unit_test(test_parse_depth_cap),
    cmocka_unit_test(test_parse_ok),
    cmocka_unit_test(test_parse_malformed_position),
    cmocka_unit_test(test_parse_not_object),
    cmocka_unit_test(test_parse_duplicate_keys),
    cmocka_unit_test(test_parse_small_msg_buffer),
  };
  return cmocka_run_group_tests_name("problem", tests, NULL, NULL);
}
