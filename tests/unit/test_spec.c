/* Unit tests for api/spec.c: spec_validate fills every default and names the field and rule
 * of every broken rule (docs/API.md, "Job spec"). */
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

#include "problem.h"
#include "spec.h"

#define KERNEL_SRC "import torch\nclass ModelNew(torch.nn.Module):\n    pass\n"
#define REF_SRC "import torch\nclass Model(torch.nn.Module):\n    pass\ndef get_inputs():\n    return []\n"
#define MIN_SPEC "{\"kernel\": {\"source\": \"" \
                 "import torch\\nclass ModelNew(torch.nn.Module):\\n    pass\\n\"}}"

static const struct spec_limits default_lim = { 256u << 10 };

/* One validation run: the document, the result, the problem. */
struct run {
  json_t *doc;
  json_t *out;
  struct problem p;
  int rc;
};

static void run_doc(struct run *r, json_t *doc, const struct spec_limits *lim)
{
  json_t *copy;
  r->doc = doc;
  assert_non_null(doc);
  copy = json_deep_copy(doc);
  r->out = (json_t *)0x1; /* must be overwritten */
  r->rc = spec_validate(doc, lim ? lim : &default_lim, &r->out, &r->p);
  /* The document is borrowed: never modified. */
  assert_true(json_equal(copy, doc));
  json_decref(copy);
  if (r->rc == 0) {
    assert_non_null(r->out);
    assert_false(problem_has_errors(&r->p));
  } else {
    assert_int_equal(r->rc, -EINVAL);
    assert_null(r->out);
    assert_true(problem_has_errors(&r->p));
    assert_int_equal(r->p.status, 400);
    assert_string_equal(r->p.type, "validation");
  }
}

/* Parses text (must be valid JSON) and validates it. */
static void run_text(struct run *r, const char *text, const struct spec_limits *lim)
{
  json_error_t je;
  json_t *doc = json_loads(text, 0, &je);
  if (!doc)
    fail_msg("test JSON does not parse: %s: %s", je.text, text);
  run_doc(r, doc, lim);
}

/* The minimal valid spec with one more top-level field (JSON fragment "key": value). */
static void run_with(struct run *r, const char *fragment)
{
  char text[8192];
  snprintf(text, sizeof(text), "{\"kernel\": {\"source\": \"import torch\\nclass "
           "ModelNew(torch.nn.Module):\\n    pass\\n\"}, %s}", fragment);
  run_text(r, text, NULL);
}

static void run_free(struct run *r)
{
  json_decref(r->doc);
  json_decref(r->out);
  problem_free(&r->p);
  r->doc = r->out = NULL;
}

/* The error for field, or NULL. */
static json_t *find_error(const struct problem *p, const char *field)
{
  size_t i;
  json_t *e;
  if (!p->errors)
    return NULL;
  json_array_foreach(p->errors, i, e) {
    if (strcmp(json_string_value(json_object_get(e, "field")), field) == 0)
      return e;
  }
  return NULL;
}

/* Asserts there is an error naming field with rule; limit < 0: no "limit" key. */
static void expect_error(const struct problem *p, const char *field, const char *rule,
                         long long limit)
{
  json_t *e = find_error(p, field), *l;
  if (!e) {
    char *s = p->errors ? json_dumps(p->errors, 0) : NULL;
    print_error("no error for field %s in %s\n", field, s ? s : "(none)");
    free(s);
    fail();
  }
  assert_string_equal(json_string_value(json_object_get(e, "rule")), rule);
  assert_true(json_is_string(json_object_get(e, "detail")));
  assert_true(json_string_length(json_object_get(e, "detail")) > 0);
  l = json_object_get(e, "limit");
  if (limit < 0) {
    assert_null(l);
  } else {
    assert_non_null(l);
    assert_int_equal(json_integer_value(l), limit);
  }
}

static size_t nerrors(const struct problem *p)
{
  return p->errors ? json_array_size(p->errors) : 0;
}

/* Expects exactly one error, naming field with rule. */
static void expect_only(const char *fragment, const char *field, const char *rule,
                        long long limit)
{
  struct run r;
  run_with(&r, fragment);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, field, rule, limit);
  if (nerrors(&r.p) != 1) {
    char *s = json_dumps(r.p.errors, 0);
    print_error("%s: expected one error, got %s\n", fragment, s);
    free(s);
    fail();
  }
  run_free(&r);
}

static void expect_ok(const char *fragment)
{
  struct run r;
  run_with(&r, fragment);
  if (r.rc != 0) {
    char *s = json_dumps(r.p.errors, 0);
    print_error("%s: expected valid, got %s\n", fragment, s);
    free(s);
    fail();
  }
  run_free(&r);
}

static const char *str_of(const json_t *o, const char *k)
{
  json_t *v = json_object_get(o, k);
  assert_true(json_is_string(v));
  return json_string_value(v);
}

static long long int_of(const json_t *o, const char *k)
{
  json_t *v = json_object_get(o, k);
  assert_true(json_is_integer(v));
  return json_integer_value(v);
}

static void expect_tol(const json_t *spec, const char *dtype, double rtol, double atol)
{
  json_t *t = json_object_get(json_object_get(spec, "tolerances"), dtype);
  assert_true(json_is_object(t));
  assert_int_equal(json_object_size(t), 2);
  assert_true(json_is_real(json_object_get(t, "rtol")));
  assert_true(json_is_real(json_object_get(t, "atol")));
  assert_true(json_real_value(json_object_get(t, "rtol")) == rtol);
  assert_true(json_real_value(json_object_get(t, "atol")) == atol);
}

/* ------------------------------------------------------------------------------ defaults */

static void test_minimal_gets_every_default(void **state)
{
  struct run r;
  json_t *k;
  (void)state;
  run_text(&r, MIN_SPEC, NULL);
  assert_int_equal(r.rc, 0);
  assert_int_equal(json_object_size(r.out), 19); /* every field present */
  assert_string_equal(str_of(r.out, "backend"), "any");
  assert_string_equal(str_of(r.out, "ir_target"), "auto");
  assert_int_equal(int_of(r.out, "rounds"), 15);
  assert_int_equal(int_of(r.out, "max_candidates"), SPEC_DEFAULT_CANDIDATES);
  assert_string_equal(str_of(r.out, "policy"), "hierarchy");
  assert_string_equal(str_of(r.out, "proposer"), "rules");
  assert_int_equal(int_of(r.out, "priority"), 0);
  assert_int_equal(int_of(r.out, "benchmark_cases"), 5);
  assert_string_equal(str_of(r.out, "correctness_cases"), "all");
  assert_int_equal(int_of(r.out, "seed"), 0);
  assert_string_equal(str_of(r.out, "pattern_index"), "latest");
  assert_true(json_is_false(json_object_get(r.out, "exclude_same_operator")));
  assert_true(json_is_null(json_object_get(r.out, "name")));
  assert_true(json_is_null(json_object_get(r.out, "operator")));
  assert_true(json_is_null(json_object_get(r.out, "reference")));
  assert_true(json_is_null(json_object_get(r.out, "cases")));
  assert_true(json_is_null(json_object_get(r.out, "tunables")));
  k = json_object_get(r.out, "kernel");
  assert_true(json_is_object(k));
  assert_string_equal(str_of(k, "source"), KERNEL_SRC);
  assert_string_equal(str_of(k, "filename"), "kernel.py");
  assert_int_equal(json_object_size(json_object_get(r.out, "tolerances")), 3);
  expect_tol(r.out, "float32", 1.0 / 8192, 1e-5);  /* 2^-13 */
  expect_tol(r.out, "float16", 1.0 / 1024, 1e-3);  /* 2^-10 */
  expect_tol(r.out, "bfloat16", 1.0 / 128, 1e-2); /* 2^-7 */
  run_free(&r);
}

static void test_nulls_mean_defaults(void **state)
{
  struct run r;
  (void)state;
  run_with(&r, "\"backend\": null, \"rounds\": null, \"correctness_cases\": null, "
               "\"pattern_index\": null, \"exclude_same_operator\": null, \"tolerances\": null, "
               "\"name\": null, \"reference\": null");
  assert_int_equal(r.rc, 0);
  assert_string_equal(str_of(r.out, "backend"), "any");
  assert_int_equal(int_of(r.out, "rounds"), 15);
  assert_string_equal(str_of(r.out, "correctness_cases"), "all");
  assert_string_equal(str_of(r.out, "pattern_index"), "latest");
  assert_true(json_is_false(json_object_get(r.out, "exclude_same_operator")));
  expect_tol(r.out, "float32", 1.0 / 8192, 1e-5);
  run_free(&r);
}

static void test_default_tolerance_helper(void **state)
{
  double rt = -1, at = -1;
  (void)state;
  assert_int_equal(spec_default_tolerance("float32", &rt, &at), 0);
  assert_true(rt == 1.0 / 8192 && at == 1e-5);
  assert_int_equal(spec_default_tolerance("float16", &rt, &at), 0);
  assert_true(rt == 1.0 / 1024 && at == 1e-3);
  assert_int_equal(spec_default_tolerance("bfloat16", &rt, &at), 0);
  assert_true(rt == 1.0 / 128 && at == 1e-2);
  assert_int_equal(spec_default_tolerance("float64", &rt, &at), -ENOENT);
  assert_int_equal(spec_default_tolerance("", &rt, &at), -ENOENT);
}

static void test_explicit_values_kept(void **state)
{
  struct run r;
  json_t *t, *ref;
  (void)state;
  run_with(&r, "\"name\": \"vector_add\", \"operator\": \"add\", \"backend\": \"cuda\", "
               "\"rounds\": 0, \"policy\": \"always_deep\", \"proposer\": \"llm\", "
               "\"priority\": -100, \"benchmark_cases\": 64, \"correctness_cases\": 1024, "
               "\"seed\": 2147483647, \"pattern_index\": 3, \"exclude_same_operator\": true, "
               "\"tunables\": {\"BLOCK_SIZE\": [256, 512, 1024], \"num_warps\": [4, 8]}, "
               "\"tolerances\": {\"float16\": {\"rtol\": 0.5, \"atol\": 0}}, "
               "\"cases\": [{\"inputs\": [1, 2]}, {\"inputs\": []}], "
               "\"reference\": {\"source\": \"" "class Model:\\n    pass\\n"
               "def get_inputs():\\n    return []\\n\", \"filename\": \"ref_v2.py\"}");
  assert_int_equal(r.rc, 0);
  assert_string_equal(str_of(r.out, "name"), "vector_add");
  assert_string_equal(str_of(r.out, "operator"), "add");
  assert_string_equal(str_of(r.out, "backend"), "cuda");
  assert_int_equal(int_of(r.out, "rounds"), 0);
  assert_string_equal(str_of(r.out, "policy"), "always_deep");
  assert_string_equal(str_of(r.out, "proposer"), "llm");
  assert_int_equal(int_of(r.out, "priority"), -100);
  assert_int_equal(int_of(r.out, "benchmark_cases"), 64);
  assert_int_equal(int_of(r.out, "correctness_cases"), 1024);
  assert_int_equal(int_of(r.out, "seed"), 2147483647);
  assert_int_equal(int_of(r.out, "pattern_index"), 3);
  assert_true(json_is_true(json_object_get(r.out, "exclude_same_operator")));
  t = json_object_get(r.out, "tunables");
  assert_int_equal(json_object_size(t), 2);
  assert_int_equal(json_array_size(json_object_get(t, "BLOCK_SIZE")), 3);
  assert_int_equal(json_integer_value(json_array_get(json_object_get(t, "num_warps"), 1)), 8);
  /* A given dtype replaces its default; the others keep theirs. */
  expect_tol(r.out, "float16", 0.5, 0.0);
  expect_tol(r.out, "float32", 1.0 / 8192, 1e-5);
  expect_tol(r.out, "bfloat16", 1.0 / 128, 1e-2);
  assert_int_equal(json_array_size(json_object_get(r.out, "cases")), 2);
  ref = json_object_get(r.out, "reference");
  assert_string_equal(str_of(ref, "filename"), "ref_v2.py");
  assert_non_null(strstr(str_of(ref, "source"), "class Model"));
  run_free(&r);
}

static void test_reference_default_filename(void **state)
{
  struct run r;
  (void)state;
  run_with(&r, "\"reference\": {\"source\": \"" "class Model: pass\\n\"}");
  assert_int_equal(r.rc, 0);
  assert_string_equal(str_of(json_object_get(r.out, "reference"), "filename"), "reference.py");
  run_free(&r);
}

/* --------------------------------------------------------------------------- integers */

static void test_rounds_limits(void **state)
{
  struct run r;
  (void)state;
  run_with(&r, "\"rounds\": 101");
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "rounds", "maximum", 100);
  /* The first error also becomes the detail (the example in docs/API.md). */
  assert_string_equal(r.p.detail, "rounds: must be at most 100");
  run_free(&r);
  expect_only("\"rounds\": -1", "rounds", "minimum", 0);
  expect_only("\"rounds\": \"5\"", "rounds", "type", -1);
  expect_only("\"rounds\": 5.0", "rounds", "type", -1);
  expect_only("\"rounds\": true", "rounds", "type", -1);
  expect_ok("\"rounds\": 100");
  expect_ok("\"rounds\": 0");
}

static void test_other_integer_limits(void **state)
{
  (void)state;
  expect_only("\"priority\": 101", "priority", "maximum", 100);
  {
    /* problem_add treats a negative limit as "none", so a negative minimum is only in the
     * detail text. */
    struct run r;
    run_with(&r, "\"priority\": -101");
    assert_int_equal(r.rc, -EINVAL);
    assert_int_equal(nerrors(&r.p), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(r.p.errors, 0),
                                                          "rule")), "minimum");
    assert_string_equal(r.p.detail, "priority: must be at least -100");
    run_free(&r);
  }
  expect_ok("\"priority\": 100");
  expect_only("\"benchmark_cases\": 0", "benchmark_cases", "minimum", 1);
  expect_only("\"benchmark_cases\": 65", "benchmark_cases", "maximum", 64);
  expect_only("\"seed\": 2147483648", "seed", "maximum", 2147483647LL);
  expect_only("\"seed\": -1", "seed", "minimum", 0);
  expect_only("\"max_candidates\": 0", "max_candidates", "minimum", 1);
  expect_only("\"max_candidates\": 65", "max_candidates", "maximum", SPEC_MAX_CANDIDATES);
  expect_ok("\"max_candidates\": 64");
}

/* ------------------------------------------------------------------------------ enums */

static void test_enums(void **state)
{
  (void)state;
  expect_only("\"backend\": \"tpu\"", "backend", "enum", -1);
  expect_only("\"backend\": 3", "backend", "enum", -1);
  expect_only("\"backend\": \"CUDA\"", "backend", "enum", -1);
  expect_ok("\"backend\": \"interp\"");
  expect_ok("\"backend\": \"ascend\"");
  expect_only("\"policy\": \"fast\"", "policy", "enum", -1);
  expect_ok("\"policy\": \"pattern_only\"");
  expect_ok("\"policy\": \"profile_only\"");
  expect_only("\"proposer\": \"human\"", "proposer", "enum", -1);
  expect_ok("\"proposer\": \"agent\"");
  /* ir_target: another compiler's IR only where numerics run on the interpreter */
  expect_only("\"ir_target\": \"npu\"", "ir_target", "enum", -1);
  expect_ok("\"backend\": \"interp\", \"ir_target\": \"ascend\"");
  expect_ok("\"backend\": \"any\", \"ir_target\": \"ascend\"");
  expect_ok("\"backend\": \"ascend\", \"ir_target\": \"ascend\"");
  expect_ok("\"backend\": \"cuda\", \"ir_target\": \"auto\"");
  expect_only("\"backend\": \"cuda\", \"ir_target\": \"ascend\"", "ir_target", "enum", -1);
  expect_only("\"backend\": \"ascend\", \"ir_target\": \"cuda\"", "ir_target", "enum", -1);
}

static void test_unknown_field(void **state)
{
  struct run r;
  (void)state;
  expect_only("\"roundz\": 3", "roundz", "unknown-field", -1);
  /* A very long unknown name is truncated in the field, never overflows. */
  {
    char frag[600], name[300];
    memset(name, 'q', 299);
    name[299] = '\0';
    snprintf(frag, sizeof(frag), "\"%s\": 1", name);
    run_with(&r, frag);
    assert_int_equal(r.rc, -EINVAL);
    assert_int_equal(nerrors(&r.p), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(r.p.errors, 0), "rule")),
                        "unknown-field");
    assert_true(strlen(json_string_value(json_object_get(json_array_get(r.p.errors, 0),
                                                         "field"))) <= 64);
    run_free(&r);
  }
}

/* Found by tests/fuzz/fuzz_spec.c: a field name is cut to 64 bytes for the error, and a cut
 * inside a multi-byte character made the error invalid UTF-8, which jansson refused -- the
 * error went missing and a spec with an unknown field (or a bad tunable) was accepted. */
static void test_unknown_field_cut_inside_a_character(void **state)
{
  static const char *const frags[] = {
    /* 63 ASCII bytes, then a two-byte character across the 64-byte cut */
    "\"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq\u00e9\": 1",
    /* a tunable name (not an identifier) cut the same way in "tunables.%.64s" */
    "\"tunables\": {\"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq\u20ac\": [1]}",
    /* an unknown dtype in "tolerances.%.64s" */
    "\"tolerances\": {\"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq\u00e9\": 1}",
  };
  struct run r;
  (void)state;
  for (size_t i = 0; i < sizeof(frags) / sizeof(frags[0]); i++) {
    json_t *e, *doc;
    char *txt;
    run_with(&r, frags[i]);
    assert_int_equal(r.rc, -EINVAL);
    assert_int_equal(nerrors(&r.p), 1);
    e = json_array_get(r.p.errors, 0);
    assert_non_null(strstr(json_string_value(json_object_get(e, "field")), "qqqq"));
    txt = problem_render(&r.p);
    doc = json_loads(txt, 0, NULL);
    assert_true(json_is_string(json_object_get(doc, "detail")));
    json_decref(doc);
    free(txt);
    run_free(&r);
  }
}

/* ----------------------------------------------------------------------------- kernel */

static void test_kernel_required(void **state)
{
  struct run r;
  (void)state;
  run_text(&r, "{}", NULL);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "kernel", "required", -1);
  assert_int_equal(nerrors(&r.p), 1);
  run_free(&r);
  run_text(&r, "{\"kernel\": null}", NULL);
  expect_error(&r.p, "kernel", "required", -1);
  run_free(&r);
  run_text(&r, "{\"kernel\": \"class ModelNew: pass\"}", NULL);
  expect_error(&r.p, "kernel", "type", -1);
  run_free(&r);
  run_text(&r, "{\"kernel\": {}}", NULL);
  expect_error(&r.p, "kernel.source", "required", -1);
  run_free(&r);
  run_text(&r, "{\"kernel\": {\"source\": 5}}", NULL);
  expect_error(&r.p, "kernel.source", "type", -1);
  run_free(&r);
  run_text(&r, "{\"kernel\": {\"source\": \"\"}}", NULL);
  expect_error(&r.p, "kernel.source", "minLength", 1);
  run_free(&r);
}

static void test_kernel_source_size(void **state)
{
  struct spec_limits lim = { 64 };
  struct run r;
  json_t *doc;
  char src[200];
  (void)state;
  /* Exactly the limit passes ... */
  memset(src, ' ', sizeof(src));
  memcpy(src, "class ModelNew: pass\n#", 22);
  src[64] = '\0';
  doc = json_pack("{s:{s:s}}", "kernel", "source", src);
  run_doc(&r, doc, &lim);
  assert_int_equal(r.rc, 0);
  run_free(&r);
  /* ... one byte over fails with the limit named. */
  src[64] = ' ';
  src[65] = '\0';
  doc = json_pack("{s:{s:s}}", "kernel", "source", src);
  run_doc(&r, doc, &lim);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "kernel.source", "maxBytes", 64);
  assert_int_equal(nerrors(&r.p), 1);
  assert_non_null(strstr(r.p.detail, "65"));
  run_free(&r);
  /* The reference has the same limit. */
  doc = json_pack("{s:{s:s}, s:{s:s}}", "kernel", "source", "class ModelNew: pass",
                  "reference", "source", src);
  run_doc(&r, doc, &lim);
  expect_error(&r.p, "reference.source", "maxBytes", 64);
  run_free(&r);
}

static void test_kernel_source_bytes_not_chars(void **state)
{
  /* The limit counts UTF-8 bytes: 20 two-byte characters are 40 bytes. */
  struct spec_limits lim = { 40 };
  struct run r;
  char src[128] = "class ModelNew:#";
  json_t *doc;
  (void)state;
  for (int i = 0; i < 13; i++)
    strcat(src, "\xc3\xa9"); /* e-acute */
  assert_int_equal(strlen(src), 16 + 26);
  doc = json_pack("{s:{s:s}}", "kernel", "source", src);
  run_doc(&r, doc, &lim);
  expect_error(&r.p, "kernel.source", "maxBytes", 40);
  run_free(&r);
}

static void test_kernel_contract(void **state)
{
  struct run r;
  (void)state;
  run_text(&r, "{\"kernel\": {\"source\": \"class Model:\\n    pass\\n\"}}", NULL);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "kernel.source", "contract", -1);
  assert_non_null(strstr(r.p.detail, "ModelNew"));
  run_free(&r);
  expect_only("\"reference\": {\"source\": \"def get_inputs(): return []\"}",
              "reference.source", "contract", -1);
}

static void test_kernel_subfields(void **state)
{
  struct run r;
  (void)state;
  run_text(&r, "{\"kernel\": {\"source\": \"class ModelNew: pass\", \"lang\": \"py\"}}", NULL);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "kernel.lang", "unknown-field", -1);
  run_free(&r);
}

static void test_filename(void **state)
{
  (void)state;
  expect_ok("\"reference\": {\"source\": \"class Model: pass\", \"filename\": \"my_ref.py\"}");
  expect_only("\"reference\": {\"source\": \"class Model: pass\", \"filename\": \"a/b.py\"}",
              "reference.filename", "format", SPEC_MAX_FILENAME);
  {
    struct run r;
    run_text(&r, "{\"kernel\": {\"source\": \"class ModelNew: pass\", \"filename\": "
                 "\"../../etc/passwd\"}}", NULL);
    expect_error(&r.p, "kernel.filename", "format", SPEC_MAX_FILENAME);
    run_free(&r);
    run_text(&r, "{\"kernel\": {\"source\": \"class ModelNew: pass\", \"filename\": "
                 "\".hidden.py\"}}", NULL);
    expect_error(&r.p, "kernel.filename", "format", SPEC_MAX_FILENAME);
    run_free(&r);
    run_text(&r, "{\"kernel\": {\"source\": \"class ModelNew: pass\", \"filename\": \"\"}}",
             NULL);
    expect_error(&r.p, "kernel.filename", "format", SPEC_MAX_FILENAME);
    run_free(&r);
    run_text(&r, "{\"kernel\": {\"source\": \"class ModelNew: pass\", \"filename\": 7}}", NULL);
    expect_error(&r.p, "kernel.filename", "format", SPEC_MAX_FILENAME);
    run_free(&r);
  }
  {
    /* 255 characters pass, 256 do not. */
    char name[300], frag[600];
    struct run r;
    memset(name, 'f', sizeof(name));
    name[255] = '\0';
    snprintf(frag, sizeof(frag), "{\"kernel\": {\"source\": \"class ModelNew: pass\", "
             "\"filename\": \"%s\"}}", name);
    run_text(&r, frag, NULL);
    assert_int_equal(r.rc, 0);
    assert_string_equal(str_of(json_object_get(r.out, "kernel"), "filename"), name);
    run_free(&r);
    name[255] = 'f';
    name[256] = '\0';
    snprintf(frag, sizeof(frag), "{\"kernel\": {\"source\": \"class ModelNew: pass\", "
             "\"filename\": \"%s\"}}", name);
    run_text(&r, frag, NULL);
    expect_error(&r.p, "kernel.filename", "format", SPEC_MAX_FILENAME);
    run_free(&r);
  }
}

/* ------------------------------------------------------------------------------ cases */

static void test_cases(void **state)
{
  struct run r;
  json_t *doc, *cases;
  (void)state;
  expect_only("\"cases\": {\"inputs\": []}", "cases", "type", -1);
  expect_only("\"cases\": \"[]\"", "cases", "type", -1);
  expect_only("\"cases\": []", "cases", "minItems", 1);
  expect_only("\"cases\": [{\"inputs\": []}, {\"input\": []}]", "cases[1]", "format", -1);
  expect_only("\"cases\": [5]", "cases[0]", "format", -1);
  expect_only("\"cases\": [{\"inputs\": {}}]", "cases[0]", "format", -1);

  /* 1024 cases pass, 1025 do not. */
  cases = json_array();
  for (int i = 0; i < SPEC_MAX_CASES; i++)
    json_array_append_new(cases, json_pack("{s:[i]}", "inputs", i));
  doc = json_pack("{s:{s:s}, s:O}", "kernel", "source", KERNEL_SRC, "cases", cases);
  run_doc(&r, doc, NULL);
  assert_int_equal(r.rc, 0);
  assert_int_equal(json_array_size(json_object_get(r.out, "cases")), SPEC_MAX_CASES);
  run_free(&r);
  json_array_append_new(cases, json_pack("{s:[]}", "inputs"));
  doc = json_pack("{s:{s:s}, s:O}", "kernel", "source", KERNEL_SRC, "cases", cases);
  run_doc(&r, doc, NULL);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "cases", "maxItems", SPEC_MAX_CASES);
  assert_int_equal(nerrors(&r.p), 1);
  run_free(&r);
  json_decref(cases);
}

/* ---------------------------------------------------------------------------- tunables */

static void test_tunables(void **state)
{
  struct run r;
  json_t *doc, *tun;
  char key[32];
  (void)state;
  expect_only("\"tunables\": [1, 2]", "tunables", "type", -1);
  expect_only("\"tunables\": {\"1BLOCK\": [1]}", "tunables.1BLOCK", "format", -1);
  expect_only("\"tunables\": {\"BLOCK-SIZE\": [1]}", "tunables.BLOCK-SIZE", "format", -1);
  expect_only("\"tunables\": {\"\": [1]}", "tunables.", "format", -1);
  expect_only("\"tunables\": {\"B\": [1, \"x\"]}", "tunables.B", "range", 1 << 20);
  expect_only("\"tunables\": {\"B\": [1, 2.5]}", "tunables.B", "range", 1 << 20);
  expect_only("\"tunables\": {\"B\": [-1]}", "tunables.B", "range", 1 << 20);
  expect_only("\"tunables\": {\"B\": [1048577]}", "tunables.B", "range", 1 << 20);
  expect_ok("\"tunables\": {\"_B\": [0, 1048576]}");
  expect_only("\"tunables\": {\"B\": []}", "tunables.B", "items", SPEC_MAX_TUNABLE_VALUES);
  expect_only("\"tunables\": {\"B\": 4}", "tunables.B", "items", SPEC_MAX_TUNABLE_VALUES);

  /* 32 values pass, 33 do not. */
  {
    json_t *vals = json_array();
    for (int i = 0; i < SPEC_MAX_TUNABLE_VALUES; i++)
      json_array_append_new(vals, json_integer(i));
    doc = json_pack("{s:{s:s}, s:{s:O}}", "kernel", "source", KERNEL_SRC, "tunables", "B", vals);
    run_doc(&r, doc, NULL);
    assert_int_equal(r.rc, 0);
    run_free(&r);
    json_array_append_new(vals, json_integer(99));
    doc = json_pack("{s:{s:s}, s:{s:O}}", "kernel", "source", KERNEL_SRC, "tunables", "B", vals);
    run_doc(&r, doc, NULL);
    expect_error(&r.p, "tunables.B", "items", SPEC_MAX_TUNABLE_VALUES);
    run_free(&r);
    json_decref(vals);
  }

  /* 16 names pass, 17 do not. */
  tun = json_object();
  for (int i = 0; i < SPEC_MAX_TUNABLES; i++) {
    snprintf(key, sizeof(key), "T%d", i);
    json_object_set_new(tun, key, json_pack("[i]", i));
  }
  doc = json_pack("{s:{s:s}, s:O}", "kernel", "source", KERNEL_SRC, "tunables", tun);
  run_doc(&r, doc, NULL);
  assert_int_equal(r.rc, 0);
  assert_int_equal(json_object_size(json_object_get(r.out, "tunables")), SPEC_MAX_TUNABLES);
  run_free(&r);
  json_object_set_new(tun, "T_extra", json_pack("[i]", 1));
  doc = json_pack("{s:{s:s}, s:O}", "kernel", "source", KERNEL_SRC, "tunables", tun);
  run_doc(&r, doc, NULL);
  expect_error(&r.p, "tunables", "maxProperties", SPEC_MAX_TUNABLES);
  assert_int_equal(nerrors(&r.p), 1);
  run_free(&r);
  json_decref(tun);
}

/* -------------------------------------------------------------------------- tolerances */

static void test_tolerances(void **state)
{
  (void)state;
  expect_only("\"tolerances\": [1]", "tolerances", "type", -1);
  expect_only("\"tolerances\": {\"float64\": {\"rtol\": 0.1, \"atol\": 0.1}}",
              "tolerances.float64", "enum", -1);
  expect_only("\"tolerances\": {\"float32\": {\"rtol\": -0.1, \"atol\": 0.1}}",
              "tolerances.float32", "format", -1);
  expect_only("\"tolerances\": {\"float16\": {\"rtol\": 0.1, \"atol\": -1e-9}}",
              "tolerances.float16", "format", -1);
  expect_only("\"tolerances\": {\"bfloat16\": {\"rtol\": 2, \"atol\": 0}}",
              "tolerances.bfloat16", "format", -1);
  expect_only("\"tolerances\": {\"float32\": {\"rtol\": 0.1}}", "tolerances.float32", "format",
              -1);
  expect_only("\"tolerances\": {\"float32\": {\"rtol\": \"0.1\", \"atol\": 0}}",
              "tolerances.float32", "format", -1);
  expect_only("\"tolerances\": {\"float32\": {\"rtol\": 0.1, \"atol\": 0, \"x\": 1}}",
              "tolerances.float32", "format", -1);
  expect_only("\"tolerances\": {\"float32\": 0.1}", "tolerances.float32", "format", -1);
  expect_ok("\"tolerances\": {\"float32\": {\"rtol\": 0, \"atol\": 1}}");
  expect_ok("\"tolerances\": {}");
}

static void test_integer_tolerances(void **state)
{
  struct run r;
  json_t *t;

  (void)state;
  expect_only("\"tolerances\": {\"int8\": {\"atol\": 1}}", "tolerances.int8", "format",
              SPEC_MAX_INT_ATOL);
  expect_only("\"tolerances\": {\"int8\": {\"atol\": 1.5, \"max_fraction\": 0}}",
              "tolerances.int8", "format", SPEC_MAX_INT_ATOL);
  expect_only("\"tolerances\": {\"int32\": {\"atol\": -1, \"max_fraction\": 0}}",
              "tolerances.int32", "format", SPEC_MAX_INT_ATOL);
  expect_only("\"tolerances\": {\"int64\": {\"atol\": 1048577, \"max_fraction\": 0}}",
              "tolerances.int64", "format", SPEC_MAX_INT_ATOL);
  expect_only("\"tolerances\": {\"uint8\": {\"atol\": 1, \"max_fraction\": 1.5}}",
              "tolerances.uint8", "format", SPEC_MAX_INT_ATOL);
  expect_only("\"tolerances\": {\"bool\": {\"atol\": 1, \"max_fraction\": 0.1}}",
              "tolerances.bool", "enum", -1);
  run_with(&r, "\"tolerances\": {\"int8\": {\"atol\": 1, \"max_fraction\": 0.001}}");
  assert_int_equal(nerrors(&r.p), 0);
  t = json_object_get(json_object_get(r.out, "tolerances"), "int8");
  assert_int_equal(json_integer_value(json_object_get(t, "atol")), 1);
  assert_true(json_real_value(json_object_get(t, "max_fraction")) == 0.001);
  /* the float dtypes keep their defaults beside it */
  assert_int_equal(json_object_size(json_object_get(r.out, "tolerances")), 4);
  run_free(&r);
}

/* ------------------------------------------------------------------- string-or-number */

static void test_correctness_cases(void **state)
{
  (void)state;
  expect_only("\"correctness_cases\": 0", "correctness_cases", "format", SPEC_MAX_CASES);
  expect_only("\"correctness_cases\": 1025", "correctness_cases", "format", SPEC_MAX_CASES);
  expect_only("\"correctness_cases\": \"some\"", "correctness_cases", "format", SPEC_MAX_CASES);
  expect_only("\"correctness_cases\": 2.0", "correctness_cases", "format", SPEC_MAX_CASES);
  expect_ok("\"correctness_cases\": 1");
  expect_ok("\"correctness_cases\": \"all\"");
}

static void test_pattern_index(void **state)
{
  (void)state;
  expect_only("\"pattern_index\": \"x\"", "pattern_index", "format", -1);
  expect_only("\"pattern_index\": 0", "pattern_index", "format", -1);
  expect_only("\"pattern_index\": \"Latest\"", "pattern_index", "format", -1);
  expect_ok("\"pattern_index\": 1");
  expect_ok("\"pattern_index\": \"latest\"");
  expect_ok("\"pattern_index\": \"frozen\"");
  expect_only("\"pattern_index\": \"Frozen\"", "pattern_index", "format", -1);
}

static void test_exclude_same_operator(void **state)
{
  (void)state;
  expect_only("\"exclude_same_operator\": \"yes\"", "exclude_same_operator", "type", -1);
  expect_only("\"exclude_same_operator\": 1", "exclude_same_operator", "type", -1);
  expect_ok("\"exclude_same_operator\": false");
}

/* ----------------------------------------------------------------------------- strings */

static void test_name_length(void **state)
{
  char name[200], frag[300];
  (void)state;
  memset(name, 'n', sizeof(name));
  name[128] = '\0';
  snprintf(frag, sizeof(frag), "\"name\": \"%s\"", name);
  expect_ok(frag);
  name[128] = 'n';
  name[129] = '\0';
  snprintf(frag, sizeof(frag), "\"name\": \"%s\"", name);
  expect_only(frag, "name", "length", SPEC_MAX_NAME);
  expect_only("\"name\": \"\"", "name", "length", SPEC_MAX_NAME);
  expect_only("\"name\": 7", "name", "type", -1);
  snprintf(frag, sizeof(frag), "\"operator\": \"%s\"", name);
  expect_only(frag, "operator", "length", SPEC_MAX_NAME);
}

/* ------------------------------------------------------------------------ many at once */

static void test_several_errors_all_reported(void **state)
{
  struct run r;
  (void)state;
  run_text(&r, "{\"rounds\": 101, \"backend\": \"tpu\", \"colour\": \"red\", "
               "\"correctness_cases\": 0, \"pattern_index\": \"x\", \"name\": \"\", "
               "\"tunables\": {\"9\": [1]}, \"tolerances\": {\"fp8\": {}}}", NULL);
  assert_int_equal(r.rc, -EINVAL);
  expect_error(&r.p, "rounds", "maximum", 100);
  expect_error(&r.p, "backend", "enum", -1);
  expect_error(&r.p, "colour", "unknown-field", -1);
  expect_error(&r.p, "kernel", "required", -1);
  expect_error(&r.p, "correctness_cases", "format", SPEC_MAX_CASES);
  expect_error(&r.p, "pattern_index", "format", -1);
  expect_error(&r.p, "name", "length", SPEC_MAX_NAME);
  expect_error(&r.p, "tunables.9", "format", -1);
  expect_error(&r.p, "tolerances.fp8", "enum", -1);
  assert_int_equal(nerrors(&r.p), 9);
  /* detail is the first error's text. */
  assert_non_null(strstr(r.p.detail, "colour"));
  run_free(&r);
}

static void test_errors_capped(void **state)
{
  struct run r;
  json_t *doc = json_object();
  char key[32];
  (void)state;
  for (int i = 0; i < PROBLEM_MAX_ERRORS + 10; i++) {
    snprintf(key, sizeof(key), "junk%02d", i);
    json_object_set_new(doc, key, json_true());
  }
  run_doc(&r, doc, NULL);
  assert_int_equal(r.rc, -EINVAL);
  assert_int_equal(nerrors(&r.p), PROBLEM_MAX_ERRORS);
  run_free(&r);
}

static void test_rendered_problem(void **state)
{
  struct run r;
  char *s;
  json_t *doc, *e;
  (void)state;
  run_with(&r, "\"rounds\": 101");
  s = problem_render(&r.p);
  assert_non_null(s);
  doc = json_loads(s, 0, NULL);
  assert_non_null(doc);
  assert_string_equal(str_of(doc, "type"), "urn:kopt:problem:validation");
  assert_int_equal(int_of(doc, "status"), 400);
  assert_string_equal(str_of(doc, "detail"), "rounds: must be at most 100");
  e = json_array_get(json_object_get(doc, "errors"), 0);
  assert_string_equal(str_of(e, "field"), "rounds");
  assert_string_equal(str_of(e, "rule"), "maximum");
  assert_int_equal(int_of(e, "limit"), 100);
  assert_string_equal(str_of(e, "detail"), "must be at most 100");
  json_decref(doc);
  free(s);
  run_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_minimal_gets_every_default),
    cmocka_unit_test(test_nulls_mean_defaults),
    cmocka_unit_test(test_default_tolerance_helper),
    cmocka_unit_test(test_explicit_values_kept),
    cmocka_unit_test(test_reference_default_filename),
    cmocka_unit_test(test_rounds_limits),
    cmocka_unit_test(test_other_integer_limits),
    cmocka_unit_test(test_enums),
    cmocka_unit_test(test_unknown_field),
    cmocka_unit_test(test_unknown_field_cut_inside_a_character),
    cmocka_unit_test(test_kernel_required),
    cmocka_unit_test(test_kernel_source_size),
    cmocka_unit_test(test_kernel_source_bytes_not_chars),
    cmocka_unit_test(test_kernel_contract),
    cmocka_unit_test(test_kernel_subfields),
    cmocka_unit_test(test_filename),
    cmocka_unit_test(test_cases),
    cmocka_unit_test(test_tunables),
    cmocka_unit_test(test_tolerances),
    cmocka_unit_test(test_integer_tolerances),
    cmocka_unit_test(test_correctness_cases),
    cmocka_unit_test(test_pattern_index),
    cmocka_unit_test(test_exclude_same_operator),
    cmocka_unit_test(test_name_length),
    cmocka_unit_test(test_several_errors_all_reported),
    cmocka_unit_test(test_errors_capped),
    cmocka_unit_test(test_rendered_problem),
  };
  return cmocka_run_group_tests_name("spec", tests, NULL, NULL);
}
