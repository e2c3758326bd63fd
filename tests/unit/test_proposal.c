/* Unit tests for workers/proposal.c: the strict output-contract parser. */
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

#include "proposal.h"

#define KERNEL                                                                              \
  "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n"             \
  "def add_kernel(x, y, o, n, BLOCK: tl.constexpr):\n    pid = tl.program_id(0)\n"         \
  "    offs = pid * BLOCK + tl.arange(0, BLOCK)\n    m = offs < n\n"                        \
  "    tl.store(o + offs, tl.load(x + offs, mask=m) + tl.load(y + offs, mask=m), mask=m)\n\n" \
  "class ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n        return a + b\n"

/* Builds {"hypothesis": h, "rewrite_family": f, "kernel": k} (NULL leaves a key out);
 * caller frees. */
static char *answer(const char *h, const char *f, const char *k)
{
  json_t *o = json_object();
  char *s;
  if (h)
    json_object_set_new(o, "hypothesis", json_string(h));
  if (f)
    json_object_set_new(o, "rewrite_family", json_string(f));
  if (k)
    json_object_set_new(o, "kernel", json_string(k));
  s = json_dumps(o, JSON_INDENT(2));
  json_decref(o);
  return s;
}

static int parse(const char *text, struct proposal *p, char *err, size_t errlen)
{
  return proposal_parse(text, strlen(text), p, err, errlen);
}

static void test_family_known(void **state)
{
  (void)state;
  assert_true(proposal_family_known("block_size"));
  assert_true(proposal_family_known("algorithmic"));
  assert_true(proposal_family_known("use_tensor_cores"));
  assert_true(proposal_family_known("structured_access"));
  assert_true(proposal_family_known("structured_mask"));
  assert_false(proposal_family_known("Block_Size"));
  assert_false(proposal_family_known(""));
  assert_false(proposal_family_known(NULL));
  assert_false(proposal_family_known("loop_unroll"));
}

static void test_init_free(void **state)
{
  struct proposal p;
  (void)state;
  proposal_init(&p);
  assert_null(p.source);
  assert_int_equal(p.prompt_tokens, -1);
  assert_int_equal(p.completion_tokens, -1);
  assert_int_equal(p.attempts, 0);
  p.tunables_json = strdup("{\"BLOCK\": 1024}");
  proposal_free(&p);
  assert_null(p.tunables_json);
  proposal_free(&p); /* twice is harmless */
}

static void test_good_bare(void **state)
{
  struct proposal p;
  char err[512];
  char *a = answer("  Loads are scalar; 128-bit vectors should halve load instructions.  ",
                   "vectorize_access", KERNEL);
  (void)state;
  proposal_init(&p);
  assert_int_equal(parse(a, &p, err, sizeof(err)), 0);
  assert_string_equal(p.family, "vectorize_access");
  assert_string_equal(p.source, KERNEL);
  /* Surrounding white space of the hypothesis is trimmed. */
  assert_string_equal(p.hypothesis,
                      "Loads are scalar; 128-bit vectors should halve load instructions.");
  proposal_free(&p);
  free(a);
}

static void test_good_fenced(void **state)
{
  struct proposal p;
  char err[512], text[16384];
  char *a = answer("h", "block_size", KERNEL);
  (void)state;
  proposal_init(&p);
  snprintf(text, sizeof(text), "\n  ```json\n%s\n```\n\n", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), 0);
  assert_string_equal(p.family, "block_size");
  proposal_free(&p);
  /* Upper-case tag and trailing spaces on the fence lines are tolerated. */
  snprintf(text, sizeof(text), "```JSON  \n%s\n```   ", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), 0);
  proposal_free(&p);
  free(a);
}

static void test_fence_rules(void **state)
{
  struct proposal p;
  char err[512], text[16384];
  char *a = answer("h", "block_size", KERNEL);
  (void)state;
  proposal_init(&p);
  snprintf(text, sizeof(text), "```python\n%s\n```", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "tagged json"));
  snprintf(text, sizeof(text), "```\n%s\n```", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "tagged json"));
  snprintf(text, sizeof(text), "```json\n%s\n", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "closed by ```"));
  snprintf(text, sizeof(text), "```json\n%s```", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "own line"));
  snprintf(text, sizeof(text), "```json\n```");
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "exactly one JSON object"));
  assert_null(p.source);
  free(a);
}

static void test_two_objects(void **state)
{
  struct proposal p;
  char err[512], text[32768];
  char *a = answer("h", "block_size", KERNEL);
  char *b = answer("h2", "num_warps", KERNEL);
  (void)state;
  proposal_init(&p);
  snprintf(text, sizeof(text), "%s\n%s", a, b);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "more than one JSON object"));
  snprintf(text, sizeof(text), "```json\n%s\n%s\n```", a, b);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "more than one JSON object"));
  snprintf(text, sizeof(text), "```json\n%s\n```\n```json\n%s\n```", a, b);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "more than one fenced block"));
  /* A JSON array of proposals is not one object either. */
  snprintf(text, sizeof(text), "[%s, %s]", a, b);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "output contract:"));
  assert_null(p.source);
  free(a);
  free(b);
}

static void test_prose_around(void **state)
{
  struct proposal p;
  char err[512], text[16384];
  char *a = answer("h", "block_size", KERNEL);
  (void)state;
  proposal_init(&p);
  snprintf(text, sizeof(text), "Here is my rewrite:\n%s", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "text before the JSON object"));
  snprintf(text, sizeof(text), "Sure!\n```json\n%s\n```", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "text before the fenced block"));
  snprintf(text, sizeof(text), "%s\nThis should be faster.", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "text after the JSON object"));
  snprintf(text, sizeof(text), "```json\n%s\n```\nHope it helps.", a);
  assert_int_equal(parse(text, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "nothing may follow"));
  assert_int_equal(parse("I could not find an improvement.", &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "found no JSON object"));
  assert_int_equal(parse("  \n\t ", &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "empty"));
  assert_int_equal(parse("{\"hypothesis\": \"h\", ", &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "not valid JSON"));
  assert_null(p.source);
  free(a);
}

static void test_unknown_family(void **state)
{
  struct proposal p;
  char err[512];
  char *a = answer("h", "loop_unroll", KERNEL);
  (void)state;
  proposal_init(&p);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "output contract: \"rewrite_family\" must be one of block_size, "
                              "num_warps, num_stages"));
  assert_non_null(strstr(err, "algorithmic"));
  assert_non_null(strstr(err, "got \"loop_unroll\""));
  free(a);
}

static void test_missing_and_extra_keys(void **state)
{
  struct proposal p;
  char err[512];
  char *a;
  (void)state;
  proposal_init(&p);
  a = answer("h", "block_size", NULL);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "missing key \"kernel\""));
  free(a);
  a = answer(NULL, "block_size", KERNEL);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "missing key \"hypothesis\""));
  free(a);
  a = answer("h", NULL, KERNEL);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "missing key \"rewrite_family\""));
  free(a);
  assert_int_equal(parse("{\"hypothesis\":\"h\",\"rewrite_family\":\"block_size\",\"kernel\":"
                         "\"x\",\"notes\":\"y\"}",
                         &p, err, sizeof(err)),
                   -EINVAL);
  assert_non_null(strstr(err, "unknown key \"notes\""));
  assert_int_equal(parse("{\"hypothesis\":1,\"rewrite_family\":\"block_size\",\"kernel\":\"x\"}",
                         &p, err, sizeof(err)),
                   -EINVAL);
  assert_non_null(strstr(err, "\"hypothesis\" must be a string"));
  assert_int_equal(parse("{\"hypothesis\":\"a\",\"hypothesis\":\"b\",\"rewrite_family\":"
                         "\"block_size\",\"kernel\":\"x\"}",
                         &p, err, sizeof(err)),
                   -EINVAL);
  assert_non_null(strstr(err, "duplicate"));
  a = answer("   ", "block_size", KERNEL);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "\"hypothesis\" must not be empty"));
  free(a);
  assert_null(p.source);
}

static void test_oversized(void **state)
{
  struct proposal p;
  char err[512];
  size_t big = PROPOSAL_MAX_SOURCE + 1;
  char *k = malloc(big + 1), *h = malloc(PROPOSAL_MAX_HYPOTHESIS + 2), *a;
  (void)state;
  proposal_init(&p);
  memset(k, '#', big);
  memcpy(k, KERNEL, strlen(KERNEL));
  k[big] = '\0';
  a = answer("h", "block_size", k);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "over the limit of 262144 bytes"));
  free(a);
  /* Exactly at the limit is accepted. */
  k[PROPOSAL_MAX_SOURCE] = '\0';
  a = answer("h", "block_size", k);
  assert_int_equal(parse(a, &p, err, sizeof(err)), 0);
  proposal_free(&p);
  free(a);
  memset(h, 'x', PROPOSAL_MAX_HYPOTHESIS + 1);
  h[PROPOSAL_MAX_HYPOTHESIS + 1] = '\0';
  a = answer(h, "block_size", KERNEL);
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "\"hypothesis\" is 2001 characters, over the limit of 2000"));
  free(a);
  /* The limit counts characters, not bytes: 2000 two-byte characters pass. */
  {
    char *u = malloc(2 * PROPOSAL_MAX_HYPOTHESIS + 1);
    for (int i = 0; i < PROPOSAL_MAX_HYPOTHESIS; i++)
      memcpy(u + 2 * i, "\xc3\xa9", 2);
    u[2 * PROPOSAL_MAX_HYPOTHESIS] = '\0';
    a = answer(u, "block_size", KERNEL);
    assert_int_equal(parse(a, &p, err, sizeof(err)), 0);
    proposal_free(&p);
    free(a);
    free(u);
  }
  /* The whole answer is capped before it is parsed at all. */
  {
    size_t n = (5u << 20);
    char *t = malloc(n);
    memset(t, ' ', n);
    assert_int_equal(proposal_parse(t, n, &p, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "over the limit of 4194304 bytes"));
    free(t);
  }
  free(k);
  free(h);
}

static void test_not_model_new(void **state)
{
  struct proposal p;
  char err[512];
  char *a;
  (void)state;
  proposal_init(&p);
  a = answer("h", "block_size",
             "@triton.jit\ndef k(x):\n    pass\nclass Model(torch.nn.Module):\n    pass\n");
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "class ModelNew"));
  free(a);
  a = answer("h", "block_size", "class ModelNew(torch.nn.Module):\n    pass\n");
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "@triton.jit"));
  free(a);
  a = answer("h", "block_size", " \n ");
  assert_int_equal(parse(a, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "not empty"));
  free(a);
}

static void test_reject_keeps_previous(void **state)
{
  struct proposal p;
  char err[512];
  char *a = answer("first", "num_stages", KERNEL);
  (void)state;
  proposal_init(&p);
  assert_int_equal(parse(a, &p, err, sizeof(err)), 0);
  assert_int_equal(parse("garbage", &p, err, sizeof(err)), -EINVAL);
  assert_string_equal(p.hypothesis, "first");
  assert_string_equal(p.family, "num_stages");
  /* A second good answer replaces the first without leaking it. */
  assert_int_equal(parse(a, &p, err, sizeof(err)), 0);
  proposal_free(&p);
  free(a);
}

/* Found by tests/fuzz/fuzz_proposal.c: the reason quotes the answer ("found \"%.*s\"",
 * "got \"%.40s\"") and an agent's stdout need not be UTF-8, or the cut may split a
 * character; the reason becomes the round's reject reason, a JSON string. */
static void test_reason_is_utf8(void **state)
{
  static const char *const answers[] = {
    "```\xbe\n/",                                  /* fence tag: a stray byte */
    "```qqqqqqqqqqqqqqqqqqq\xc3\xa9\n{}\n```",       /* fence tag cut at 20 bytes, inside \u00e9 */
    "{\"hypothesis\": \"h\", \"kernel\": \"k\", \"rewrite_family\": "
    "\"qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq\u20ac\"}", /* family cut at 40 bytes */
  };
  struct proposal p;
  char err[768];
  (void)state;
  proposal_init(&p);
  for (size_t i = 0; i < sizeof(answers) / sizeof(answers[0]); i++) {
    json_t *reason;
    assert_int_equal(parse(answers[i], &p, err, sizeof(err)), -EINVAL);
    reason = json_string(err);
    if (!reason)
      fail_msg("answer %zu: reason is not UTF-8: %s", i, err);
    json_decref(reason);
  }
  proposal_free(&p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_family_known),   cmocka_unit_test(test_init_free),
      cmocka_unit_test(test_good_bare),      cmocka_unit_test(test_good_fenced),
      cmocka_unit_test(test_fence_rules),    cmocka_unit_test(test_two_objects),
      cmocka_unit_test(test_prose_around),   cmocka_unit_test(test_unknown_family),
      cmocka_unit_test(test_missing_and_extra_keys), cmocka_unit_test(test_oversized),
      cmocka_unit_test(test_not_model_new),  cmocka_unit_test(test_reject_keeps_previous),
      cmocka_unit_test(test_reason_is_utf8),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
