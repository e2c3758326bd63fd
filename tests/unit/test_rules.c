/* The rules proposer: tunable discovery in a plain kernel, the change each family maps to,
 * determinism, and that tried values are not proposed again. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "rules.h"

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static const char *ctor_src =
    "@triton.jit\ndef k(x, BLOCK_SIZE: tl.constexpr):\n"
    "    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
    "    tl.store(x + offsets, tl.load(x + offsets))\n"
    "class ModelNew(nn.Module):\n"
    "    def __init__(self, BLOCK_SIZE=128, num_warps=4):\n"
    "        super().__init__()\n"
    "    def forward(self, x):\n"
    "        k[(1,)](x, BLOCK_SIZE=self.BLOCK_SIZE, num_warps=self.num_warps)\n"
    "        return x\n";

static const char *literal_src =
    "@triton.jit\ndef k(x, BLOCK: tl.constexpr):\n"
    "    offs = tl.arange(0, BLOCK)\n"
    "class ModelNew(nn.Module):\n"
    "    def forward(self, x):\n"
    "        k[(1,)](x, BLOCK=256)\n"
    "        return x\n";

static void test_discover(void **state)
{
  struct rules_knobs ks;
  json_t *declared = json_pack("{s:[i,i,i]}", "BLOCK_SIZE", 256, 1024, 4096);
  (void)state;
  rules_discover(ctor_src, NULL, NULL, &ks);
  assert_int_equal(ks.n, 2);
  assert_string_equal(ks.k[0].name, "BLOCK_SIZE");
  assert_int_equal(ks.k[0].value, 128);
  assert_int_equal(ks.k[0].via, RULES_CTOR);
  rules_discover(literal_src, NULL, NULL, &ks);
  assert_int_equal(ks.n, 1);
  assert_string_equal(ks.k[0].name, "BLOCK");
  assert_int_equal(ks.k[0].via, RULES_LAUNCH);
  rules_discover(ctor_src, declared, NULL, &ks);
  assert_int_equal(ks.k[0].nchoices, 3);
  json_decref(declared);
}

static void test_vectorize_widens_block(void **state)
{
  struct proposal p;
  char *sig = NULL, why[256];
  json_t *tried = json_array();
  (void)state;
  proposal_init(&p);
  assert_int_equal(rules_propose("vectorize_access", "up", ctor_src, NULL, NULL, tried,
                                 "scalar loads.", 3, &p, &sig, why, sizeof(why)), 0);
  assert_string_equal(sig, "BLOCK_SIZE=512"); /* 4 fp32 per thread with 4 warps */
  assert_non_null(strstr(p.tunables_json, "\"BLOCK_SIZE\":512"));
  assert_string_equal(p.source, ctor_src); /* a constructor tunable: source unchanged */
  assert_non_null(strstr(p.hypothesis, "L3"));
  /* Deterministic: same evidence, same proposal. */
  {
    struct proposal q;
    char *sig2 = NULL;
    proposal_init(&q);
    rules_propose("vectorize_access", "up", ctor_src, NULL, NULL, tried, "scalar loads.", 3, &q,
                  &sig2, why, sizeof(why));
    assert_string_equal(sig, sig2);
    free(sig2);
    proposal_free(&q);
  }
  /* Once tried, the next proposal differs. */
  json_array_append_new(tried, json_string(sig));
  free(sig);
  proposal_free(&p);
  proposal_init(&p);
  assert_int_equal(rules_propose("vectorize_access", "up", ctor_src, NULL, NULL, tried, "x", 3,
                                 &p, &sig, why, sizeof(why)), 0);
  assert_string_not_equal(sig, "BLOCK_SIZE=512");
  free(sig);
  proposal_free(&p);
  json_decref(tried);
}

static void test_launch_literal_rewritten(void **state)
{
  struct proposal p;
  char *sig = NULL, why[256];
  (void)state;
  proposal_init(&p);
  assert_int_equal(rules_propose("block_size", "up", literal_src, NULL, NULL, NULL, "x", 2, &p,
                                 &sig, why, sizeof(why)), 0);
  assert_non_null(strstr(p.source, "BLOCK=512"));
  assert_null(strstr(p.source, "BLOCK=256"));
  free(sig);
  proposal_free(&p);
  /* num_warps absent everywhere: added to the launch. */
  proposal_init(&p);
  assert_int_equal(rules_propose("num_warps", "up", literal_src, NULL, NULL, NULL, "x", 2, &p,
                                 &sig, why, sizeof(why)), 0);
  assert_non_null(strstr(p.source, "num_warps=8"));
  free(sig);
  proposal_free(&p);
}

static void test_nothing_left(void **state)
{
  struct proposal p;
  char *sig = NULL, why[256] = "";
  (void)state;
  proposal_init(&p);
  assert_int_equal(rules_propose("fuse_kernels", "", ctor_src, NULL, NULL, NULL, "x", 2, &p,
                                 &sig, why, sizeof(why)), -ENOENT);
  assert_non_null(strstr(why, "fuse_kernels"));
  proposal_free(&p);
}

static void test_contiguity_hints(void **state)
{
  char *h = rules_add_contiguity_hints(ctor_src);
  (void)state;
  assert_non_null(h);
  assert_non_null(strstr(h, "offsets = tl.max_contiguous(tl.multiple_of(offsets, BLOCK_SIZE), BLOCK_SIZE)"));
  assert_null(rules_add_contiguity_hints(h)); /* already hinted */
  free(h);
}

static void test_diff(void **state)
{
  json_t *a = json_object(), *b = json_pack("{s:i}", "BLOCK_SIZE", 512);
  char *d;
  (void)state;
  d = diff_render("x\ny\nz\n", "x\nY\nz\n", a, b);
  assert_non_null(strstr(d, "tunable BLOCK_SIZE: (default) -> 512"));
  assert_non_null(strstr(d, "-2: y"));
  assert_non_null(strstr(d, "+2: Y"));
  assert_null(strstr(d, "x\n+"));
  free(d);
  json_decref(a);
  json_decref(b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_discover),
    cmocka_unit_test(test_vectorize_widens_block),
    cmocka_unit_test(test_launch_literal_rewritten),
    cmocka_unit_test(test_nothing_left),
    cmocka_unit_test(test_contiguity_hints),
    cmocka_unit_test(test_diff),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
