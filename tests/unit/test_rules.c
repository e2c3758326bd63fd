/* The rules proposer's search (rules_plan): neighbourhoods over the harness's knobs, the
 * family's partners, memory of what was measured (never twice; centre on the best), pruning
 * by spills and shared memory, structural rewrites, determinism and the candidate budget. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "evidence.h"
#include "rules.h"

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

/* An elementwise kernel: BLOCK in a local of forward (block), num_warps missing (added). */
static const char *elementwise_knobs =
    "{\"knobs\": ["
    " {\"id\": \"BLOCK\", \"name\": \"BLOCK\", \"kind\": \"block\", \"role\": \"block\", \"value\": 128,"
    "  \"pow2\": true, \"min\": 16, \"max\": 65536, \"bound\": {\"max_useful\": 65536},"
    "  \"kernels\": [\"gelu\"], \"where\": {\"via\": \"local_var\"}},"
    " {\"id\": \"num_warps\", \"name\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 4,"
    "  \"min\": 1, \"max\": 16, \"kernels\": [\"gelu\"], \"where\": {\"via\": \"launch_missing\"}},"
    " {\"id\": \"num_stages\", \"name\": \"num_stages\", \"kind\": \"num_stages\", \"value\": 3,"
    "  \"min\": 1, \"max\": 5, \"kernels\": [\"gelu\"], \"where\": {\"via\": \"launch_missing\"}}],"
    " \"structural\": [{\"name\": \"row_single_block\", \"fits\": false, \"why\": \"no loop\"},"
    "   {\"name\": \"elementwise_vector\", \"fits\": true, \"why\": \"1-D block access at line 9\","
    "    \"params\": {\"kernel\": \"gelu\", \"num_warps\": 4, \"m\": 1},"
    "    \"domain\": {\"num_warps\": [2, 4, 8], \"m\": [1, 2]}},"
    "   {\"name\": \"tile_grid\", \"fits\": true, \"why\": \"tl.dot\","
    "    \"params\": {\"kernel\": \"mm\", \"BLOCK_M\": 128},"
    "    \"domain\": {\"configs\": [{\"BLOCK_M\": 128}, {\"BLOCK_M\": 64}]}},"
    "   {\"name\": \"rows_per_program\", \"fits\": true, \"why\": \"a block of 64 element(s)\","
    "    \"params\": {\"kernel\": \"gelu\", \"ROWS\": 16, \"num_warps\": 4},"
    "    \"domain\": {\"ROWS\": [2, 4, 8, 16, 32, 64], \"num_warps\": [1, 2, 4, 8, 16]}},"
    "   {\"name\": \"split_rows\", \"fits\": true, \"why\": \"3 program(s) each walk a row\","
    "    \"params\": {\"kernel\": \"gelu\", \"SPLIT\": 8}, \"domain\": {\"SPLIT\": [2, 4, 8, 16, 32]}},"
    "   {\"name\": \"even_bounds\", \"fits\": true, \"why\": \"gelu: 1 check(s) against n\","
    "    \"params\": {\"kernel\": \"gelu\", \"num_warps\": 4, \"num_stages\": 3},"
    "    \"domain\": {\"num_warps\": [4, 8], \"num_stages\": [2, 3, 4]}},"
    "   {\"name\": \"fold_exp2\", \"fits\": true, \"why\": \"gelu: s feeds exp\","
    "    \"params\": {\"kernel\": \"gelu\", \"num_warps\": 8, \"num_stages\": 3, \"defer\": 1},"
    "    \"domain\": {\"num_warps\": [4, 8], \"num_stages\": [2, 3, 4], \"defer\": [0, 1]}},"
    "   {\"name\": \"relaxed_atomics\", \"fits\": true, \"why\": \"gelu_row: 1 atomic(s)\","
    "    \"params\": {\"kernel\": \"gelu_row\"}, \"domain\": {\"kernel\": [\"gelu_row\"]}},"
    "   {\"name\": \"specialize_args\", \"fits\": true, \"why\": \"gelu: n (4096, a multiple of 16)\","
    "    \"params\": {\"kernel\": \"gelu\"}, \"domain\": {\"kernel\": [\"gelu\"]}}]}";

static json_t *load(const char *text)
{
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  assert_non_null(j);
  return j;
}

static long change(const json_t *cand, const char *id, long def)
{
  const json_t *v = json_object_get(json_object_get(cand, "changes"), id);
  return v ? (long)json_integer_value(v) : def;
}

static int plan(const json_t *knobs, const char *family, const char *dir, const json_t *memory,
                const json_t *tried, unsigned max, struct rules_plan_out *out, char *why)
{
  struct rules_plan_in in = { knobs, family, dir, memory, "s0", tried, max, 1, 0, NULL, NULL, NULL };
  return rules_plan(&in, out, why, 512);
}

/* A structural family whose domain is its kernel alone plans one candidate: the rewrite,
 * its params the kernel's name only. */
static void assert_one_candidate_naming(const json_t *knobs, const char *family, const char *kernel)
{
  struct rules_plan_out out;
  char why[512];
  const json_t *st;
  assert_int_equal(plan(knobs, family, "", NULL, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 1);
  st = json_object_get(json_array_get(out.candidates, 0), "structural");
  assert_string_equal(json_string_value(json_object_get(st, "name")), family);
  assert_string_equal(json_string_value(json_object_get(json_object_get(st, "params"), "kernel")), kernel);
  assert_int_equal(json_object_size(json_object_get(st, "params")), 1);
  json_decref(out.candidates);
}

static void test_block_neighbourhood_with_partner(void **state)
{
  json_t *k = load(elementwise_knobs), *c;
  struct rules_plan_out out;
  char why[512] = "";
  int saw_warps = 0, saw_256 = 0;
  size_t i;
  (void)state;
  assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 32, &out, why), 0);
  assert_true(json_array_size(out.candidates) > 8);
  assert_true(json_array_size(out.candidates) <= 32);
  json_array_foreach(out.candidates, i, c) {
    long b = change(c, "BLOCK", 128), w = change(c, "num_warps", 4);
    assert_false(b == 128 && w == 4);               /* never the incumbent */
    assert_null(json_object_get(json_object_get(c, "changes"), "num_stages")); /* not a partner */
    assert_true(b >= 64 && b <= 4096);              /* window: 1 back, 5 ahead ("up") */
    assert_true(b >= 32 * w);                       /* no idle threads */
    saw_warps |= w != 4;
    saw_256 |= b == 256 && w == 4;
  }
  assert_true(saw_warps);
  assert_true(saw_256);                             /* the nearest point is in */
  assert_non_null(strstr(out.summary, "BLOCK 64..4096"));
  assert_non_null(strstr(out.summary, "num_warps"));
  json_decref(out.candidates);
  json_decref(k);
}

/* On triton-ascend's IR, num_warps is not a partner (the compiler ignores it outside SIMT). */
static void test_ascend_ir_sweeps_no_warps(void **state)
{
  json_t *k = load(elementwise_knobs), *c;
  struct rules_plan_in in = { k, "block_size", "up", NULL, "s0", NULL, 32, 1, 1, NULL, NULL, NULL };
  struct rules_plan_out out;
  char why[512] = "";
  size_t i;
  (void)state;
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_true(json_array_size(out.candidates) >= 4);
  json_array_foreach(out.candidates, i, c) {
    assert_null(json_object_get(json_object_get(c, "changes"), "num_warps"));
    assert_true(change(c, "BLOCK", 128) != 128);
  }
  assert_null(strstr(out.summary, "num_warps"));
  json_decref(out.candidates);
  json_decref(k);
}

static void test_deterministic_and_budget(void **state)
{
  json_t *k = load(elementwise_knobs);
  struct rules_plan_out a, b;
  char why[512];
  (void)state;
  assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 5, &a, why), 0);
  assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 5, &b, why), 0);
  assert_int_equal(json_array_size(a.candidates), 5);
  assert_true(json_equal(a.candidates, b.candidates));
  json_decref(a.candidates);
  json_decref(b.candidates);
  json_decref(k);
}

static void test_memory_never_twice_and_recentres(void **state)
{
  json_t *k = load(elementwise_knobs), *mem = json_array(), *c;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  int beyond = 0;
  (void)state;
  /* Measured: BLOCK=256 w4 (slower) and BLOCK=4096 w8 (the fastest so far). */
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:s}", "structure", "s0",
                                       "config", "BLOCK", 256, "num_warps", 4, "num_stages", 3,
                                       "time_ms", 2.0, "status", "ok"));
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:s}", "structure", "s0",
                                       "config", "BLOCK", 4096, "num_warps", 8, "num_stages", 3,
                                       "time_ms", 1.0, "status", "ok"));
  assert_int_equal(plan(k, "block_size", "up", mem, NULL, 64, &out, why), 0);
  json_array_foreach(out.candidates, i, c) {
    long b = change(c, "BLOCK", 128), w = change(c, "num_warps", 4);
    assert_false(b == 256 && w == 4);
    assert_false(b == 4096 && w == 8);
    beyond |= b > 4096;                             /* the window moved with the best point */
  }
  assert_true(beyond);
  assert_non_null(strstr(out.summary, "best measured"));
  json_decref(out.candidates);
  json_decref(mem);
  json_decref(k);
}

static void test_spills_prune_dominating(void **state)
{
  json_t *k = load(elementwise_knobs), *mem = json_array(), *c;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  (void)state;
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:s, s:{s:{s:i}}}",
                                       "structure", "s0", "config", "BLOCK", 1024, "num_warps", 4,
                                       "num_stages", 3, "time_ms", 3.0, "status", "ok", "facts",
                                       "gelu", "spills", 24));
  assert_int_equal(plan(k, "block_size", "up", mem, NULL, 64, &out, why), 0);
  json_array_foreach(out.candidates, i, c) {
    long b = change(c, "BLOCK", 128), w = change(c, "num_warps", 4);
    assert_false(b >= 1024 && w <= 4);
  }
  assert_non_null(strstr(out.summary, "pruned"));
  json_decref(out.candidates);
  json_decref(mem);
  json_decref(k);
}

/* A configuration whose compile the harness gave up on (kharness/precompile.py) prunes the
 * configurations that need at least its resources, as a spill does: measured on the H200, a
 * rows kernel's larger tiles kept ptxas busy for minutes each. */
static void test_compile_timeout_prunes_dominating(void **state)
{
  json_t *k = load(elementwise_knobs), *mem = json_array(), *c;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  int smaller = 0;
  (void)state;
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i}, s:s, s:s}", "structure", "s0",
                                       "config", "BLOCK", 512, "num_warps", 4, "num_stages", 3,
                                       "status", "compile-failed", "reason",
                                       "compile exceeded 60 s (in the compile pool); not run"));
  assert_int_equal(plan(k, "block_size", "up", mem, NULL, 64, &out, why), 0);
  json_array_foreach(out.candidates, i, c) {
    long b = change(c, "BLOCK", 128), w = change(c, "num_warps", 4);
    assert_false(b >= 512 && w <= 4);
    smaller |= b == 256;
  }
  assert_true(smaller); /* below the failed tile the family goes on */
  assert_non_null(strstr(out.summary, "pruned"));
  json_decref(out.candidates);
  json_decref(mem);
  json_decref(k);
}

static void test_stages_family_partners(void **state)
{
  json_t *k = load(elementwise_knobs), *c;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  (void)state;
  assert_int_equal(plan(k, "num_stages", "up", NULL, NULL, 32, &out, why), 0);
  json_array_foreach(out.candidates, i, c)
    assert_null(json_object_get(json_object_get(c, "changes"), "BLOCK")); /* no block_k here */
  json_decref(out.candidates);
  json_decref(k);
}

/* A row loop written `tl.range(..., num_stages=1)` (harness knob loop_num_stages, kind
 * num_stages, role loop_stages) beside the launch's num_stages: the num_stages family sweeps
 * both, so the loop's own depth, which overrides the launch's for that loop, gets deeper. */
static const char *loop_stages_knobs =
    "{\"knobs\": ["
    " {\"id\": \"BLOCK\", \"name\": \"BLOCK\", \"kind\": \"block\", \"role\": \"block\", \"value\": 512,"
    "  \"pow2\": true, \"min\": 16, \"max\": 65536, \"kernels\": [\"row_max\"], \"where\": {\"via\": \"launch_literal\"}},"
    " {\"id\": \"num_warps\", \"name\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 4,"
    "  \"min\": 1, \"max\": 32, \"kernels\": [\"row_max\"], \"where\": {\"via\": \"launch_missing\"}},"
    " {\"id\": \"num_stages\", \"name\": \"num_stages\", \"kind\": \"num_stages\", \"value\": 3,"
    "  \"min\": 1, \"max\": 8, \"kernels\": [\"row_max\"], \"where\": {\"via\": \"launch_missing\"}},"
    " {\"id\": \"loop_num_stages\", \"name\": \"loop_num_stages\", \"kind\": \"num_stages\","
    "  \"role\": \"loop_stages\", \"value\": 1, \"min\": 1, \"max\": 8, \"kernels\": [\"row_max\"],"
    "  \"where\": {\"via\": \"loop_literal\"}}],"
    " \"kernels\": [{\"name\": \"row_max\", \"uses_dot\": false}]}";

static void test_loop_stages_swept(void **state)
{
  json_t *k = load(loop_stages_knobs), *c;
  struct rules_plan_out out;
  char why[512];
  int deeper = 0;
  size_t i;
  (void)state;
  assert_int_equal(plan(k, "num_stages", "up", NULL, NULL, 32, &out, why), 0);
  assert_true(json_array_size(out.candidates) > 0);
  json_array_foreach(out.candidates, i, c) {
    long loop = change(c, "loop_num_stages", 1);
    assert_true(loop >= 1 && loop <= 5);
    deeper |= loop > 1;
  }
  assert_true(deeper);
  assert_non_null(strstr(out.summary, "loop_num_stages"));
  json_decref(out.candidates);
  json_decref(k);
}

static void test_structural(void **state)
{
  json_t *k = load(elementwise_knobs), *tried = json_array();
  struct rules_plan_out out;
  char why[512] = "";
  (void)state;
  /* vectorize_access: the fitting structural rewrite, one candidate per parameter point of
   * its domain, the defaults first, the budget respected */
  assert_int_equal(plan(k, "vectorize_access", "up", NULL, NULL, 32, &out, why), 0);
  /* the 6 points of the rewrite, then the kernel as written swept over block and num_warps
   * in the slots left (the rewrite competes side by side with the plain sweep) */
  assert_int_equal(json_array_size(out.candidates), 32);
  for (size_t i = 0; i < 32; i++)
    assert_true((i < 6) == (json_object_get(json_array_get(out.candidates, i), "structural") != NULL));
  assert_non_null(strstr(out.summary, "Beside them, the kernel as written"));
  {
    const json_t *st = json_object_get(json_array_get(out.candidates, 0), "structural");
    const json_t *pa = json_object_get(st, "params");
    assert_string_equal(json_string_value(json_object_get(st, "name")), "elementwise_vector");
    assert_string_equal(json_string_value(json_object_get(pa, "kernel")), "gelu");
    assert_int_equal(json_integer_value(json_object_get(pa, "num_warps")), 4);
    assert_int_equal(json_integer_value(json_object_get(pa, "m")), 1);
  }
  json_decref(out.candidates);
  assert_int_equal(plan(k, "vectorize_access", "up", NULL, NULL, 4, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 4);
  json_decref(out.candidates);
  /* tile configurations go together; the budget caps them (no leak past it: ASan) */
  assert_int_equal(plan(k, "tile_grid", "", NULL, NULL, 1, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 1);
  json_decref(out.candidates);
  assert_int_equal(plan(k, "tile_grid", "", NULL, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 2);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
                       json_array_get(out.candidates, 1), "structural"), "params"), "BLOCK_M")), 64);
  assert_string_equal(json_string_value(json_object_get(json_object_get(json_object_get(
                          json_array_get(out.candidates, 1), "structural"), "params"), "kernel")), "mm");
  json_decref(out.candidates);
  assert_int_equal(plan(k, "vectorize_access", "up", NULL, NULL, 32, &out, why), 0);
  assert_non_null(strstr(out.summary, "1-D block access at line 9"));
  json_array_append_new(tried, json_string(out.signature));
  json_decref(out.candidates);
  /* tried once on this structure: the family falls back to its knob sweep */
  assert_int_equal(plan(k, "vectorize_access", "up", NULL, tried, 32, &out, why), 0);
  assert_non_null(json_object_get(json_array_get(out.candidates, 0), "changes"));
  json_decref(out.candidates);
  /* rows_per_program: points of ROWS x num_warps nearest the defaults, the defaults first, in
   * half the budget; the other half the kernel as written with wider blocks and more warps */
  assert_int_equal(plan(k, "rows_per_program", "", NULL, NULL, 10, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 10);
  for (size_t i = 0; i < 10; i++) {
    const json_t *c = json_array_get(out.candidates, i);
    assert_true((i < 5) == (json_object_get(c, "structural") != NULL));
    if (i >= 5) {
      assert_string_equal(json_string_value(json_object_get(c, "origin")), RULES_ORIGIN_AS_WRITTEN);
      assert_true(change(c, "BLOCK", 128) >= 128);
    }
  }
  assert_non_null(strstr(out.summary, "Beside them, the kernel as written"));
  {
    const json_t *st = json_object_get(json_array_get(out.candidates, 0), "structural");
    const json_t *pa = json_object_get(st, "params");
    long rows_seen = 0, warps_seen = 0;
    size_t i;
    const json_t *c;
    assert_string_equal(json_string_value(json_object_get(st, "name")), "rows_per_program");
    assert_int_equal(json_integer_value(json_object_get(pa, "ROWS")), 16);
    assert_int_equal(json_integer_value(json_object_get(pa, "num_warps")), 4);
    json_array_foreach(out.candidates, i, c) {
      pa = json_object_get(json_object_get(c, "structural"), "params");
      rows_seen |= json_integer_value(json_object_get(pa, "ROWS"));
      warps_seen |= json_integer_value(json_object_get(pa, "num_warps"));
    }
    assert_int_equal(rows_seen, 8 | 16 | 32); /* one step each way along ROWS */
    assert_int_equal(warps_seen, 2 | 4 | 8);  /* and along num_warps */
  }
  json_decref(out.candidates);
  {
    /* no block knob (a block fixed by the problem): the rewrite's points take the whole budget */
    json_t *noblock = json_deep_copy(k);
    json_array_remove(json_object_get(noblock, "knobs"), 0);
    assert_int_equal(plan(noblock, "rows_per_program", "", NULL, NULL, 10, &out, why), 0);
    assert_int_equal(json_array_size(out.candidates), 10);
    for (size_t i = 0; i < 10; i++)
      assert_non_null(json_object_get(json_array_get(out.candidates, i), "structural"));
    json_decref(out.candidates);
    json_decref(noblock);
  }
  /* split_rows: its SPLIT points, the default first, then nearest it; beside them the loop as
   * written with wider blocks and more warps (the fill), which it must beat */
  assert_int_equal(plan(k, "split_rows", "", NULL, NULL, 32, &out, why), 0);
  assert_true(json_array_size(out.candidates) > 5);
  {
    const json_t *st = json_object_get(json_array_get(out.candidates, 0), "structural");
    size_t i;
    long wider = 0;
    assert_string_equal(json_string_value(json_object_get(st, "name")), "split_rows");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "params"), "SPLIT")), 8);
    for (i = 1; i < 5; i++)
      assert_non_null(json_object_get(json_array_get(out.candidates, i), "structural"));
    for (i = 5; i < json_array_size(out.candidates); i++) {
      const json_t *c = json_array_get(out.candidates, i);
      assert_null(json_object_get(c, "structural"));
      assert_string_equal(json_string_value(json_object_get(c, "origin")), RULES_ORIGIN_AS_WRITTEN);
      wider |= change(c, "BLOCK", 0) > 128;
    }
    assert_true(wider);
    assert_non_null(strstr(out.summary, "Beside them, the kernel as written"));
  }
  json_decref(out.candidates);
  /* even_bounds: the flag at the launch's warps and stages first, then its warps and stages
   * around them (its domain, 2 x 3 points) */
  assert_int_equal(plan(k, "even_bounds", "", NULL, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 6);
  {
    const json_t *pa = json_object_get(json_object_get(json_array_get(out.candidates, 0), "structural"), "params");
    assert_int_equal(json_integer_value(json_object_get(pa, "num_warps")), 4);
    assert_int_equal(json_integer_value(json_object_get(pa, "num_stages")), 3);
  }
  json_decref(out.candidates);
  /* fold_exp2: the same shape of plan with its defer parameter (2 x 3 x 2 points), the
   * launch's 8 warps and defer 1 first, the rewrite named so the harness finds it */
  assert_int_equal(plan(k, "fold_exp2", "", NULL, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 12);
  {
    const json_t *st = json_object_get(json_array_get(out.candidates, 0), "structural");
    assert_string_equal(json_string_value(json_object_get(st, "name")), "fold_exp2");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "params"), "num_warps")), 8);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(st, "params"), "defer")), 1);
  }
  json_decref(out.candidates);
  /* relaxed_atomics on a launch whose warps are computed: its domain is the kernel alone, one
   * candidate naming it */
  assert_one_candidate_naming(k, "relaxed_atomics", "gelu_row");
  /* specialize_args has no parameter but the kernel: one candidate */
  assert_one_candidate_naming(k, "specialize_args", "gelu");
  /* row_in_registers does not fit: nothing, with the harness's reason */
  assert_int_equal(plan(k, "row_in_registers", "", NULL, NULL, 32, &out, why), -ENOENT);
  assert_non_null(strstr(why, "no loop"));
  json_decref(tried);
  json_decref(k);
}

/* A row kernel walked in blocks of 128 that row_single_block fits: the rewrite's whole
 * configurations first (harness: one per num_warps launched), then the loop as written with wider blocks and its num_warps, the
 * block steps upward costing half, so the few slots left reach across the window. */
static const char *row_knobs =
    "{\"knobs\": ["
    " {\"id\": \"BLOCK\", \"name\": \"BLOCK\", \"kind\": \"block\", \"role\": \"block\", \"value\": 128,"
    "  \"pow2\": true, \"min\": 16, \"max\": 65536, \"bound\": {\"max_useful\": 32768},"
    "  \"kernels\": [\"lsm\"], \"where\": {\"via\": \"ctor_default\"}},"
    " {\"id\": \"num_warps\", \"name\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 4,"
    "  \"min\": 1, \"max\": 32, \"kernels\": [\"lsm\"], \"where\": {\"via\": \"launch_missing\"}}],"
    " \"structural\": [{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"rows of 32000\","
    "    \"params\": {\"kernel\": \"lsm\", \"max_warps\": 16},"
    "    \"domain\": {\"configs\": [{\"max_warps\": 16}, {\"max_warps\": 32}, {\"max_warps\": 8}]}}]}";

static void test_row_fill(void **state)
{
  json_t *k = load(row_knobs);
  struct rules_plan_out out;
  char why[512] = "";
  long widest = 0;
  size_t i;
  const json_t *c;
  (void)state;
  assert_int_equal(plan(k, "row_in_registers", "", NULL, NULL, 16, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 16);
  json_array_foreach(out.candidates, i, c) {
    assert_true((i < 3) == (json_object_get(c, "structural") != NULL));
    assert_true((i < 3) == (json_object_get(c, "origin") == NULL));
    if (i >= 3)
      assert_string_equal(json_string_value(json_object_get(c, "origin")), "as-written");
    if (i >= 3)
      widest = change(c, "BLOCK", 128) > widest ? change(c, "BLOCK", 128) : widest;
  }
  assert_true(widest >= 2048); /* five steps up fit in 13 slots */
  assert_non_null(strstr(out.summary, "Beside them, the kernel as written"));
  json_decref(out.candidates);
  /* the budget taken by the rewrite: no fill */
  assert_int_equal(plan(k, "row_in_registers", "", NULL, NULL, 3, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 3);
  json_decref(out.candidates);
  json_decref(k);
}

static void test_nothing_for(void **state)
{
  json_t *k = load("{\"knobs\": []}");
  struct rules_plan_out out;
  char why[512] = "";
  (void)state;
  assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 32, &out, why), -ENOENT);
  assert_non_null(strstr(why, "no knob"));
  assert_int_equal(plan(k, "algorithmic", "", NULL, NULL, 32, &out, why), -ENOENT);
  assert_non_null(strstr(why, "no rewrite for family algorithmic"));
  /* a structural family whose rewrite the harness did not survey as fitting */
  assert_int_equal(plan(k, "fuse_kernels", "", NULL, NULL, 32, &out, why), -ENOENT);
  assert_non_null(strstr(why, "structural rewrite fuse_kernels does not fit"));
  json_decref(k);
}

static void test_exhausted(void **state)
{
  /* choices restrict the domain: once both are measured, the family is exhausted */
  json_t *k = load("{\"knobs\": [{\"id\": \"B\", \"kind\": \"block\", \"value\": 64,"
                   " \"choices\": [64, 128]}]}"),
         *mem = json_array();
  struct rules_plan_out out;
  char why[512] = "";
  (void)state;
  assert_int_equal(plan(k, "block_size", "up", mem, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 1);
  json_decref(out.candidates);
  json_array_append_new(mem, json_pack("{s:s, s:{s:i}, s:f, s:s}", "structure", "s0", "config",
                                       "B", 128, "time_ms", 1.0, "status", "ok"));
  assert_int_equal(plan(k, "block_size", "up", mem, NULL, 32, &out, why), -ENOENT);
  assert_non_null(strstr(why, "has been measured"));
  json_decref(mem);
  json_decref(k);
}

/* A knob of few values: "up" from 4 warps leaves 2 slots in the window, so the window opens to
 * the whole domain (1 and 2 warps measured too, the nearest first); once everything near is
 * measured the rest of the domain is reached before the family is exhausted. */
static void test_small_window_widens(void **state)
{
  json_t *k = load("{\"knobs\": [{\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 4,"
                   " \"min\": 1, \"max\": 32, \"kernels\": [\"g\"]}]}"),
         *mem = json_array(), *c;
  struct rules_plan_out out;
  char why[512] = "";
  int seen[64] = { 0 };
  size_t i;
  (void)state;
  assert_int_equal(plan(k, "num_warps", "up", mem, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 5); /* 1, 2, 8, 16, 32 */
  json_array_foreach(out.candidates, i, c)
    seen[change(c, "num_warps", 4)] = 1;
  assert_true(seen[1] && seen[2] && seen[8] && seen[16] && seen[32]);
  /* nearest first: 2 or 8 (one step) before 1 or 16 (two) */
  long first = change(json_array_get(out.candidates, 0), "num_warps", 4);
  assert_true(first == 2 || first == 8);
  json_decref(out.candidates);
  /* everything but 1 measured: 1 is still proposed (never "every configuration near") */
  for (int w = 2; w <= 32; w *= 2)
    json_array_append_new(mem, json_pack("{s:s, s:{s:i}, s:f, s:s}", "structure", "s0", "config",
                                         "num_warps", w, "time_ms", 1.0, "status", "ok"));
  assert_int_equal(plan(k, "num_warps", "up", mem, NULL, 32, &out, why), 0);
  assert_int_equal(json_array_size(out.candidates), 1);
  assert_int_equal(change(json_array_get(out.candidates, 0), "num_warps", 4), 1);
  json_decref(out.candidates);
  json_array_append_new(mem, json_pack("{s:s, s:{s:i}, s:f, s:s}", "structure", "s0", "config",
                                       "num_warps", 1, "time_ms", 1.0, "status", "ok"));
  assert_int_equal(plan(k, "num_warps", "up", mem, NULL, 32, &out, why), -ENOENT);
  json_decref(mem);
  json_decref(k);
}

/* A tile kernel: once a configuration failed for shared memory (Triton names the limit),
 * configurations whose estimated need (scaled from a measured one) exceeds it are pruned. */
/* block_size on a tile kernel (tl.dot) takes num_stages along as a partner, since the pipeline
 * depth goes with the tile's bytes per stage; on the same knobs without tl.dot it does not. */
static void test_tile_block_stages_partner(void **state)
{
  static const char *fmt =
      "{\"knobs\": ["
      " {\"id\": \"BLOCK_M\", \"kind\": \"block\", \"role\": \"block_m\", \"value\": 128, \"min\": 16,"
      "  \"max\": 256, \"kernels\": [\"mm\"]},"
      " {\"id\": \"BLOCK_N\", \"kind\": \"block\", \"role\": \"block_n\", \"value\": 128, \"min\": 16,"
      "  \"max\": 256, \"kernels\": [\"mm\"]},"
      " {\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 8, \"min\": 1, \"max\": 16,"
      "  \"kernels\": [\"mm\"]},"
      " {\"id\": \"num_stages\", \"kind\": \"num_stages\", \"value\": 3, \"min\": 1, \"max\": 5,"
      "  \"kernels\": [\"mm\"]}],"
      " \"kernels\": [{\"name\": \"mm\", \"uses_dot\": %s, \"loops\": 1}]}";
  char text[1024];
  int stages[2] = { 0, 0 };
  (void)state;
  for (int dot = 0; dot < 2; dot++) {
    json_t *k, *c;
    struct rules_plan_out out;
    char why[512] = "";
    size_t i;
    snprintf(text, sizeof(text), fmt, dot ? "true" : "false");
    k = load(text);
    assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 32, &out, why), 0);
    json_array_foreach(out.candidates, i, c)
      stages[dot] += json_object_get(json_object_get(c, "changes"), "num_stages") != NULL;
    assert_true((strstr(out.summary, "num_stages") != NULL) == (dot == 1));
    json_decref(out.candidates);
    json_decref(k);
  }
  assert_int_equal(stages[0], 0);
  assert_true(stages[1] > 0);
}

/* A rows_per_program kernel (its knobs as the harness discovers them on silu) already at 128
 * elements per thread: stepping ROWS and BLOCK_SIZE up together would make tiles that spill
 * and compile for minutes. No candidate's tile exceeds 256 elements per thread, and the
 * window still offers larger tiles within that. */
static void test_tile_per_thread_cap(void **state)
{
  json_t *k = load("{\"knobs\": ["
                   " {\"id\": \"BLOCK_SIZE\", \"kind\": \"block\", \"role\": \"block\", \"value\": 1024,"
                   "  \"min\": 1, \"max\": 4096, \"kernels\": [\"silu_kernel\"]},"
                   " {\"id\": \"ROWS\", \"kind\": \"block\", \"role\": \"block\", \"value\": 16, \"min\": 1,"
                   "  \"max\": 4096, \"bound\": {\"max_useful\": 4096}, \"kernels\": [\"silu_kernel\"]},"
                   " {\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 4, \"min\": 1, \"max\": 32,"
                   "  \"kernels\": [\"silu_kernel\"]}],"
                   " \"kernels\": [{\"name\": \"silu_kernel\", \"uses_dot\": false, \"loops\": 0}]}");
  json_t *c;
  struct rules_plan_out out;
  char why[512] = "";
  size_t i;
  int bigger = 0;
  (void)state;
  assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 32, &out, why), 0);
  assert_true(json_array_size(out.candidates) >= 8);
  json_array_foreach(out.candidates, i, c) {
    long tile = change(c, "BLOCK_SIZE", 1024) * change(c, "ROWS", 16), w = change(c, "num_warps", 4);
    assert_true(tile <= 256 * 32 * w);
    bigger |= tile > 16384;
  }
  assert_true(bigger); /* the window still grows the tile */
  json_decref(out.candidates);
  /* on triton-ascend's IR there are no threads to overload: larger tiles stay */
  {
    struct rules_plan_in in = { k, "block_size", "up", NULL, "s0", NULL, 32, 1, 1, NULL, NULL, NULL };
    bigger = 0;
    assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
    json_array_foreach(out.candidates, i, c)
      bigger |= change(c, "BLOCK_SIZE", 1024) * change(c, "ROWS", 16) > 256 * 32 * 4;
    assert_true(bigger);
    json_decref(out.candidates);
  }
  json_decref(k);
}

/* The per-thread cap sized by the incumbent's real tile: a rows kernel whose row width (64,
 * computed from the input's shape) is no knob has a 4 x 64 tile at ROWS 4, so ROWS x 64 per
 * program is what the cap bounds, not ROWS alone (measured on the H200: ROWS alone let the
 * block-size sweep grow tiles ptxas worked on for minutes). */
static void test_tile_from_ir_caps_rows(void **state)
{
  json_t *k = load("{\"knobs\": ["
                   " {\"id\": \"ROWS\", \"kind\": \"block\", \"role\": \"block\", \"value\": 4, \"pow2\": true,"
                   "  \"min\": 1, \"max\": 65536, \"kernels\": [\"rope\"]},"
                   " {\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 2, \"min\": 1, \"max\": 16,"
                   "  \"kernels\": [\"rope\"]}]}");
  json_t *tile = json_pack("{s:s, s:i, s:{s:i, s:i, s:i}}", "kernel", "rope", "elems", 256, "at",
                           "ROWS", 4, "num_warps", 2, "HALF", 64);
  json_t *c;
  struct rules_plan_out with, without;
  char why[512];
  size_t i;
  long biggest = 0;
  (void)state;
  struct rules_plan_in in = { k, "block_size", "up", NULL, "s0", NULL, 64, 1, 0, NULL, NULL, tile };
  assert_int_equal(rules_plan(&in, &with, why, sizeof(why)), 0);
  assert_true(json_array_size(with.candidates) > 0);
  json_array_foreach(with.candidates, i, c) {
    long rows = change(c, "ROWS", 4), w = change(c, "num_warps", 2);
    assert_true(rows * 64 <= 256L * 32 * w); /* RULES_MAX_ELEMS_PER_THREAD */
  }
  in.tile = NULL; /* the product of the block knobs alone: ROWS */
  assert_int_equal(rules_plan(&in, &without, why, sizeof(why)), 0);
  json_array_foreach(without.candidates, i, c) {
    long rows = change(c, "ROWS", 4), w = change(c, "num_warps", 2);
    if (rows * 64 > 256L * 32 * w && rows > biggest)
      biggest = rows;
  }
  assert_true(biggest > 0); /* what the tile now keeps out */
  /* a tile of another kernel, or compiled without the knob, leaves the estimate as it was */
  json_object_set_new(tile, "kernel", json_string("other"));
  in.tile = tile;
  json_decref(with.candidates);
  assert_int_equal(rules_plan(&in, &with, why, sizeof(why)), 0);
  assert_true(json_equal(with.candidates, without.candidates));
  json_decref(with.candidates);
  json_decref(without.candidates);
  json_decref(tile);
  json_decref(k);
}

/* A round settled at L1 reads no IR of the incumbent: the tile comes from the sweep compile
 * that made it (evidence_tile_hint: the largest tensor among its kernels' facts) at the
 * knobs' current values, and caps the block-size sweep as the IR's tile does. */
static void test_tile_from_sweep_hint(void **state)
{
  json_t *k = load("{\"knobs\": ["
                   " {\"id\": \"ROWS\", \"kind\": \"block\", \"role\": \"block\", \"value\": 4, \"pow2\": true,"
                   "  \"min\": 1, \"max\": 65536, \"kernels\": [\"rope\"]},"
                   " {\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 2, \"min\": 1, \"max\": 16,"
                   "  \"kernels\": [\"rope\"]}]}");
  json_t *cand = load("{\"id\": \"r1s0\", \"compile\": {\"facts\": {"
                      " \"helper\": {\"max_tensor_elems\": 16}, \"rope\": {\"regs\": 40, \"max_tensor_elems\": 256},"
                      " \"other\": {\"max_tensor_elems\": null}}}}");
  json_t *bare = load("{\"id\": \"r1s1\", \"compile\": {\"facts\": {\"rope\": {\"regs\": 40}}}}");
  json_t *tile, *c;
  struct evidence ev;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  (void)state;
  evidence_init(&ev);
  assert_null(rules_tile(&ev, k));
  assert_null(evidence_tile_hint(bare));
  ev.tile_hint = evidence_tile_hint(cand);
  tile = rules_tile(&ev, k);
  assert_non_null(tile);
  assert_string_equal(json_string_value(json_object_get(tile, "kernel")), "rope");
  assert_int_equal(json_integer_value(json_object_get(tile, "elems")), 256);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(tile, "at"), "ROWS")), 4);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(tile, "at"), "num_warps")), 2);
  struct rules_plan_in in = { k, "block_size", "up", NULL, "s0", NULL, 64, 1, 0, NULL, NULL, tile };
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_true(json_array_size(out.candidates) > 0);
  json_array_foreach(out.candidates, i, c)
    assert_true(change(c, "ROWS", 4) * 64 <= 256L * 32 * change(c, "num_warps", 2));
  json_decref(out.candidates);
  json_decref(tile);
  evidence_clear(&ev);
  json_decref(cand);
  json_decref(bare);
  json_decref(k);
}

static void test_shared_memory_prune(void **state)
{
  json_t *k = load("{\"knobs\": ["
                   " {\"id\": \"BLOCK_M\", \"kind\": \"block\", \"role\": \"block_m\", \"value\": 128, \"min\": 16, \"max\": 256},"
                   " {\"id\": \"BLOCK_N\", \"kind\": \"block\", \"role\": \"block_n\", \"value\": 256, \"min\": 16, \"max\": 256},"
                   " {\"id\": \"BLOCK_K\", \"kind\": \"block\", \"role\": \"block_k\", \"value\": 64, \"min\": 16, \"max\": 256},"
                   " {\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 8, \"min\": 1, \"max\": 16},"
                   " {\"id\": \"num_stages\", \"kind\": \"num_stages\", \"value\": 3, \"min\": 1, \"max\": 5}]}");
  json_t *mem = json_array(), *c;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  int saw_small_k = 0;
  (void)state;
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i, s:i, s:i}, s:f, s:s, s:{s:{s:i}}}",
                                       "structure", "s0", "config", "BLOCK_M", 128, "BLOCK_N", 256,
                                       "BLOCK_K", 64, "num_warps", 8, "num_stages", 3, "time_ms", 0.2,
                                       "status", "incumbent", "facts", "mm", "shared_bytes", 196608));
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i, s:i, s:i}, s:s, s:s}", "structure",
                                       "s0", "config", "BLOCK_M", 64, "BLOCK_N", 64, "BLOCK_K", 256,
                                       "num_warps", 8, "num_stages", 3, "status", "error", "reason",
                                       "OutOfResources: out of resource: shared memory, Required: 294912,"
                                       " Hardware limit: 232448."));
  assert_int_equal(plan(k, "use_tensor_cores", "", mem, NULL, 64, &out, why), 0);
  json_array_foreach(out.candidates, i, c) {
    long bm = change(c, "BLOCK_M", 128), bn = change(c, "BLOCK_N", 256), bk = change(c, "BLOCK_K", 64);
    long st = change(c, "num_stages", 3);
    double est = 196608.0 * (double)((bm * bk + bk * bn) * st) / (double)((128 * 64 + 64 * 256) * 3);
    assert_true(est <= 232448.0);
    saw_small_k |= bk == 32;
  }
  assert_true(saw_small_k);
  assert_non_null(strstr(out.summary, "pruned"));
  json_decref(out.candidates);
  json_decref(mem);
  json_decref(k);
}

/* A tile kernel whose dot loop has its own depth (`tl.range(..., num_stages=2)`, role
 * loop_stages): the loop's depth sizes the shared memory, the launch's does not, so a deep
 * loop is pruned whatever the launch says and a deep launch option is kept under a shallow
 * loop. The loop knob is listed first and the launch's last, so taking either for the other
 * (in the configuration or in the measured one) fails one of the two assertions. */
static void test_shared_memory_prune_loop_stages(void **state)
{
  json_t *k = load("{\"knobs\": ["
                   " {\"id\": \"loop_num_stages\", \"kind\": \"num_stages\", \"role\": \"loop_stages\", \"value\": 2, \"min\": 1, \"max\": 8},"
                   " {\"id\": \"BLOCK_M\", \"kind\": \"block\", \"role\": \"block_m\", \"value\": 128, \"min\": 16, \"max\": 256},"
                   " {\"id\": \"BLOCK_N\", \"kind\": \"block\", \"role\": \"block_n\", \"value\": 256, \"min\": 16, \"max\": 256},"
                   " {\"id\": \"BLOCK_K\", \"kind\": \"block\", \"role\": \"block_k\", \"value\": 64, \"min\": 16, \"max\": 256},"
                   " {\"id\": \"num_stages\", \"kind\": \"num_stages\", \"value\": 3, \"min\": 1, \"max\": 8}]}");
  json_t *mem = json_array(), *c;
  struct rules_plan_out out;
  char why[512];
  size_t i;
  int deep_launch = 0;
  (void)state;
  /* measured: 2 loop stages of (128x64 + 64x256) fp16 tiles = 98304 bytes */
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i, s:i, s:i}, s:f, s:s, s:{s:{s:i}}}",
                                       "structure", "s0", "config", "loop_num_stages", 2, "BLOCK_M", 128,
                                       "BLOCK_N", 256, "BLOCK_K", 64, "num_stages", 3, "time_ms", 0.2,
                                       "status", "incumbent", "facts", "mm", "shared_bytes", 98304));
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i, s:i, s:i}, s:s, s:s}", "structure",
                                       "s0", "config", "loop_num_stages", 2, "BLOCK_M", 256, "BLOCK_N", 256,
                                       "BLOCK_K", 128, "num_stages", 3, "status", "error", "reason",
                                       "OutOfResources: out of resource: shared memory, Required: 262144,"
                                       " Hardware limit: 232448."));
  assert_int_equal(plan(k, "num_stages", "up", mem, NULL, 64, &out, why), 0);
  assert_true(json_array_size(out.candidates) > 0);
  json_array_foreach(out.candidates, i, c) {
    long loop = change(c, "loop_num_stages", 2), launch = change(c, "num_stages", 3);
    long bk = change(c, "BLOCK_K", 64);
    assert_true(98304.0 * (double)((128 * bk + bk * 256) * loop) / ((128 * 64 + 64 * 256) * 2) <= 232448.0);
    deep_launch |= launch >= 5;
  }
  assert_true(deep_launch);
  assert_non_null(strstr(out.summary, "pruned"));
  json_decref(out.candidates);
  json_decref(mem);
  json_decref(k);
}

/* A matched pattern's region: the first sweep of a structure is centred on the values it
 * prefers (by kind: "block", "num_warps"), the nearest candidates come from there; once a
 * configuration was measured, the centre is the best measured and the preference only pulls. */
static void test_pattern_prefer_centres_first_sweep(void **state)
{
  json_t *k = load(elementwise_knobs), *prefer = load("{\"block\": [4096], \"num_warps\": 8}");
  json_t *mem = json_array();
  struct rules_plan_in in = { k, "block_size", "up", NULL, "s0", NULL, 4, 1, 0, prefer, "p.test", NULL };
  struct rules_plan_out out, plain;
  char why[512] = "";
  const json_t *c;
  size_t i;
  (void)state;
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_int_equal(json_array_size(out.candidates), 4);
  /* the first candidate is the preferred point itself, every one is next to it */
  assert_int_equal(change(json_array_get(out.candidates, 0), "BLOCK", 128), 4096);
  assert_int_equal(change(json_array_get(out.candidates, 0), "num_warps", 4), 8);
  json_array_foreach(out.candidates, i, c)
    assert_true(change(c, "BLOCK", 128) >= 2048 && change(c, "BLOCK", 128) <= 8192);
  assert_non_null(strstr(out.summary, "pattern p.test prefers"));
  /* without the pattern the same call starts next to the incumbent */
  assert_int_equal(plan(k, "block_size", "up", NULL, NULL, 4, &plain, why), 0);
  assert_true(change(json_array_get(plain.candidates, 0), "BLOCK", 128) <= 256);
  assert_null(strstr(plain.summary, "prefers"));
  json_decref(plain.candidates);
  json_decref(out.candidates);
  /* measured: the centre is the best configuration, the preference breaks ties */
  json_array_append_new(mem, json_pack("{s:s, s:{s:i, s:i, s:i}, s:f, s:s}", "structure", "s0",
                                       "config", "BLOCK", 256, "num_warps", 4, "num_stages", 3,
                                       "time_ms", 1.0, "status", "ok"));
  in.memory = mem;
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_true(change(json_array_get(out.candidates, 0), "BLOCK", 128) <= 1024);
  json_decref(out.candidates);
  json_decref(mem);
  json_decref(prefer);
  json_decref(k);
}

/* A pattern's preferred parameters order a structural rewrite's points: the configuration
 * it names comes first (and the points are numbered again). */
static void test_pattern_prefer_orders_structural(void **state)
{
  json_t *k = load(elementwise_knobs), *prefer = load("{\"BLOCK_M\": [64]}");
  struct rules_plan_in in = { k, "tile_grid", "", NULL, "s0", NULL, 8, 2, 0, prefer, "p.tiles", NULL };
  struct rules_plan_out out;
  char why[512] = "";
  (void)state;
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_int_equal(json_array_size(out.candidates), 2);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
                       json_array_get(out.candidates, 0), "structural"), "params"), "BLOCK_M")), 64);
  assert_string_equal(json_string_value(json_object_get(json_array_get(out.candidates, 0), "id")), "r2s0");
  assert_non_null(strstr(out.summary, "pattern p.tiles prefers first"));
  json_decref(out.candidates);
  /* a budget below the configurations: cut, nothing left behind (the ASan run checks) */
  in.max_candidates = 1;
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_int_equal(json_array_size(out.candidates), 1);
  json_decref(out.candidates);
  in.max_candidates = 8;
  /* and a rewrite's domain points start from the preferred values */
  json_decref(prefer);
  prefer = load("{\"m\": [2], \"num_warps\": [8]}");
  in.prefer = prefer;
  in.family = "vectorize_access";
  assert_int_equal(rules_plan(&in, &out, why, sizeof(why)), 0);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
                       json_array_get(out.candidates, 0), "structural"), "params"), "m")), 2);
  assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(
                       json_array_get(out.candidates, 0), "structural"), "params"), "num_warps")), 8);
  json_decref(out.candidates);
  json_decref(prefer);
  json_decref(k);
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
    cmocka_unit_test(test_block_neighbourhood_with_partner),
    cmocka_unit_test(test_ascend_ir_sweeps_no_warps),
    cmocka_unit_test(test_deterministic_and_budget),
    cmocka_unit_test(test_memory_never_twice_and_recentres),
    cmocka_unit_test(test_spills_prune_dominating),
    cmocka_unit_test(test_compile_timeout_prunes_dominating),
    cmocka_unit_test(test_tile_from_ir_caps_rows),
    cmocka_unit_test(test_tile_from_sweep_hint),
    cmocka_unit_test(test_stages_family_partners),
    cmocka_unit_test(test_loop_stages_swept),
    cmocka_unit_test(test_structural),
    cmocka_unit_test(test_row_fill),
    cmocka_unit_test(test_nothing_for),
    cmocka_unit_test(test_exhausted),
    cmocka_unit_test(test_small_window_widens),
    cmocka_unit_test(test_shared_memory_prune),
    cmocka_unit_test(test_shared_memory_prune_loop_stages),
    cmocka_unit_test(test_tile_block_stages_partner),
    cmocka_unit_test(test_tile_per_thread_cap),
    cmocka_unit_test(test_diff),
    cmocka_unit_test(test_pattern_prefer_centres_first_sweep),
    cmocka_unit_test(test_pattern_prefer_orders_structural),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
