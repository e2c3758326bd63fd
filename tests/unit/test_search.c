/* The job's search memory (search.c): what a sweep leaves remembered as measured, and the
 * shortlist checked in full. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "search.h"

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static const char *knobs_json =
    "{\"knobs\": [{\"id\": \"num_warps\", \"kind\": \"num_warps\", \"value\": 4},"
    "             {\"id\": \"num_stages\", \"kind\": \"num_stages\", \"value\": 3}]}";

/* A sweep of four candidates: a quiet one, a noisy one, a structural one, a model's one. */
static const char *sweep_json =
    "{\"incumbent\": {\"time_ms\": 0.06},"
    " \"order\": [\"k2\", \"k0\", \"k1\"],"
    " \"candidates\": ["
    "  {\"id\": \"k0\", \"status\": \"ok\", \"time_ms\": 0.036, \"changes\": {\"num_warps\": 2}},"
    "  {\"id\": \"k1\", \"status\": \"ok\", \"time_ms\": 0.059, \"noisy\": true,"
    "   \"changes\": {\"num_warps\": 1}},"
    "  {\"id\": \"k2\", \"status\": \"ok\", \"time_ms\": 0.02, \"structural\": {\"name\": \"x\"}},"
    "  {\"id\": \"k3\", \"status\": \"ok\", \"time_ms\": 0.05, \"origin\": \"model\","
    "   \"changes\": {\"num_warps\": 8}}]}";

static json_t *cfg(int warps, int stages)
{
  return json_pack("{s:i, s:i}", "num_warps", warps, "num_stages", stages);
}

static void test_remember_skips_noisy_structural_and_model(void **state)
{
  (void)state;
  struct search s;
  json_t *knobs = json_loads(knobs_json, 0, NULL), *sweep = json_loads(sweep_json, 0, NULL);
  json_t *c2 = cfg(2, 3), *c1 = cfg(1, 3), *c8 = cfg(8, 3), *c4 = cfg(4, 3);
  assert_non_null(knobs);
  assert_non_null(sweep);
  search_init(&s, "0123456789abcdef0123");
  search_remember(&s, knobs, sweep, 1);
  assert_int_equal(search_measured(&s, c2), 1);   /* quiet: known */
  assert_int_equal(search_measured(&s, c1), 0);   /* noisy: may be measured again */
  assert_int_equal(search_measured(&s, c8), 0);   /* a model's module: other knobs */
  assert_int_equal(search_measured(&s, c4), 1);   /* the incumbent, timed in the sweep */
  assert_int_equal(json_array_size(s.memory), 2); /* k0 and the incumbent; k2 structural */
  /* a new structure forgets nothing but no longer matches */
  search_new_structure(&s, "fedcba9876543210fedc");
  assert_int_equal(search_measured(&s, c2), 0);
  search_free(&s);
  json_decref(c1);
  json_decref(c2);
  json_decref(c4);
  json_decref(c8);
  json_decref(knobs);
  json_decref(sweep);
}

/* A sweep that failed as a whole (the harness timed out): the proposed configurations are
 * remembered as errors with the reason, so the next round does not propose them again; the
 * incumbent gets no entry (it was not timed), nor does a structural candidate. */
static void test_remember_failed_sweep(void **state)
{
  (void)state;
  struct search s;
  json_t *knobs = json_loads(knobs_json, 0, NULL), *c2 = cfg(2, 3), *c4 = cfg(4, 3), *m;
  json_t *cands = json_loads("[{\"id\": \"r2s0\", \"changes\": {\"num_warps\": 2}},"
                             " {\"id\": \"r2s1\", \"structural\": {\"name\": \"x\"}}]", 0, NULL);
  assert_non_null(cands);
  search_init(&s, "0123456789abcdef0123");
  search_remember_failed(&s, knobs, cands, 2, "the sweep failed: timeout");
  assert_int_equal(json_array_size(s.memory), 1);
  assert_int_equal(search_measured(&s, c2), 1);
  assert_int_equal(search_measured(&s, c4), 0);
  m = json_array_get(s.memory, 0);
  assert_string_equal(json_string_value(json_object_get(m, "status")), "error");
  assert_string_equal(json_string_value(json_object_get(m, "reason")), "the sweep failed: timeout");
  assert_int_equal(json_integer_value(json_object_get(m, "round")), 2);
  search_free(&s);
  json_decref(c2);
  json_decref(c4);
  json_decref(cands);
  json_decref(knobs);
}

/* A candidate whose comparison was too noisy is forgotten (so a later round may propose it
 * again); the incumbent's entry for the same configuration stays. */
static void test_forget(void **state)
{
  (void)state;
  struct search s;
  json_t *knobs = json_loads(knobs_json, 0, NULL), *sweep = json_loads(sweep_json, 0, NULL);
  json_t *c2 = cfg(2, 3), *c4 = cfg(4, 3);
  json_t *k0 = json_array_get(json_object_get(sweep, "candidates"), 0);
  json_t *same_as_incumbent = json_pack("{s:s, s:{}}", "id", "kx", "changes");
  search_init(&s, "0123456789abcdef0123");
  search_remember(&s, knobs, sweep, 1);
  assert_int_equal(search_measured(&s, c2), 1);
  assert_int_equal(search_forget(&s, knobs, k0), 1);
  assert_int_equal(search_measured(&s, c2), 0);
  assert_int_equal(search_forget(&s, knobs, k0), 0);
  assert_int_equal(search_forget(&s, knobs, same_as_incumbent), 0);
  assert_int_equal(search_measured(&s, c4), 1);
  search_free(&s);
  json_decref(same_as_incumbent);
  json_decref(c2);
  json_decref(c4);
  json_decref(knobs);
  json_decref(sweep);
}

static void test_shortlist_fastest_beyond_gain(void **state)
{
  (void)state;
  json_t *sweep = json_loads(sweep_json, 0, NULL);
  json_t *sl = search_shortlist(sweep, 2, SEARCH_MIN_GAIN);
  assert_non_null(sl);
  assert_int_equal(json_array_size(sl), 2);
  assert_string_equal(json_string_value(json_array_get(sl, 0)), "k2");
  assert_string_equal(json_string_value(json_array_get(sl, 1)), "k0");
  json_decref(sl);
  sl = search_shortlist(sweep, 5, 0.5); /* only k2 is 50% faster than 0.06 ms */
  assert_int_equal(json_array_size(sl), 1);
  json_decref(sl);
  json_decref(sweep);
}

/* A profile stands while the incumbent keeps its structure and is less than
 * SEARCH_REPROFILE_GAIN faster than the kernel profiled; a new structure, or a big enough
 * gain from knob changes alone (attention's tiles: memory-bound at 32 x 32, not at 128 x 64),
 * asks for a new one. */
static void test_profile_current(void **state)
{
  struct search s;
  char other[SEARCH_STRUCTURE_LEN + 1];
  (void)state;
  search_init(&s, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  snprintf(other, sizeof(other), "%s", s.structure);
  assert_int_equal(search_profile_current(&s, other, 1.0, 1.0), 1);
  assert_int_equal(search_profile_current(&s, other, 1.0, 1.2), 1);
  assert_int_equal(search_profile_current(&s, other, 1.0, SEARCH_REPROFILE_GAIN), 0);
  assert_int_equal(search_profile_current(&s, other, 1.049, 2.81), 0);      /* attention, round 3 */
  assert_int_equal(search_profile_current(&s, other, 2.81, 2.99), 1);       /* and round 4 */
  assert_int_equal(search_profile_current(&s, other, 0.0, 1.0), 0);         /* never recorded */
  assert_int_equal(search_profile_current(&s, NULL, 1.0, 1.0), 0);
  search_new_structure(&s, "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210");
  assert_int_equal(search_profile_current(&s, other, 1.0, 1.0), 0);         /* a rewrite since */
  search_free(&s);
}

/* A structural sweep: three points of tile_grid with descriptors (TMA 1), one without, one
 * noisy, another rewrite, a knob candidate of the old structure. */
static const char *tiles_sweep_json =
    "{\"incumbent\": {\"time_ms\": 9.0}, \"candidates\": ["
    "  {\"id\": \"s0\", \"status\": \"ok\", \"time_ms\": 1.50, \"compile\": {\"facts\": {\"k\": {\"regs\": 90}}},"
    "   \"structural\": {\"name\": \"tile_grid\", \"params\": {\"TMA\": 1, \"kernel\": \"k\", \"BLOCK_M\": 256,"
    "    \"num_warps\": 8}}},"
    "  {\"id\": \"s1\", \"status\": \"ok\", \"time_ms\": 1.40, \"structural\": {\"name\": \"tile_grid\","
    "   \"params\": {\"TMA\": 1, \"kernel\": \"k\", \"BLOCK_M\": 128, \"num_warps\": 8}}},"
    "  {\"id\": \"s2\", \"status\": \"compile-failed\", \"structural\": {\"name\": \"tile_grid\","
    "   \"params\": {\"TMA\": 1, \"kernel\": \"k\", \"BLOCK_M\": 512, \"num_warps\": 8}}},"
    "  {\"id\": \"s3\", \"status\": \"ok\", \"time_ms\": 1.20, \"structural\": {\"name\": \"tile_grid\","
    "   \"params\": {\"TMA\": 0, \"kernel\": \"k\", \"BLOCK_M\": 64, \"num_warps\": 4}}},"
    "  {\"id\": \"s4\", \"status\": \"ok\", \"time_ms\": 1.45, \"noisy\": true, \"structural\": {\"name\":"
    "   \"tile_grid\", \"params\": {\"TMA\": 1, \"kernel\": \"k\", \"BLOCK_M\": 64, \"num_warps\": 4}}},"
    "  {\"id\": \"s5\", \"status\": \"ok\", \"time_ms\": 1.30, \"structural\": {\"name\": \"tma_loads\","
    "   \"params\": {\"kernel\": \"k\", \"num_warps\": 2}}},"
    "  {\"id\": \"k0\", \"status\": \"ok\", \"time_ms\": 5.0, \"changes\": {\"BLOCK_M\": 64}}]}";

/* The kernel calls its tile BM: the knob's role, block_m, is what tile_grid's BLOCK_M sets. */
static json_t *tiles(int block_m, int warps)
{
  return json_pack("{s:i, s:i}", "BM", block_m, "num_warps", warps);
}

static json_t *tile_knobs(int block_m, int warps, int with_stages)
{
  json_t *k = json_pack("{s:[{s:s, s:s, s:i}, {s:s, s:s, s:i}]}", "knobs", "id", "BM", "role", "block_m",
                        "value", block_m, "id", "num_warps", "role", "num_warps", "value", warps);
  if (with_stages)
    json_array_append_new(json_object_get(k, "knobs"), json_pack("{s:s, s:i}", "id", "num_stages", "value", 3));
  return k;
}

/* The accepted structural point's siblings become configurations of the new structure once its
 * knobs are known: those of the same rewrite whose other params (TMA) match, with their times,
 * statuses and facts; not a noisy one, another rewrite's, nor a point of another variant. */
static void test_siblings_remembered(void **state)
{
  (void)state;
  struct search s;
  json_t *sweep = json_loads(tiles_sweep_json, 0, NULL), *knobs = tile_knobs(256, 8, 0);
  json_t *c256 = tiles(256, 8), *c128 = tiles(128, 8), *c512 = tiles(512, 8), *c64 = tiles(64, 4);
  const json_t *m;
  size_t i;
  assert_non_null(sweep);
  search_init(&s, "0123456789abcdef0123");
  search_new_structure(&s, "fedcba9876543210fedc"); /* the accepted rewrite's */
  search_adopt_siblings(&s, sweep, "s0", 1);
  assert_non_null(s.siblings);
  assert_int_equal(search_measured(&s, c256), 0); /* pending until the knobs are known */
  assert_int_equal(search_remember_siblings(&s, knobs), 3);
  assert_null(s.siblings);
  assert_int_equal(search_measured(&s, c256), 1);
  assert_int_equal(search_measured(&s, c128), 1);
  assert_int_equal(search_measured(&s, c512), 1); /* failed: remembered, so never again */
  assert_int_equal(search_measured(&s, c64), 0);  /* TMA 0 (another kernel) and the noisy one */
  json_array_foreach(s.memory, i, m) {
    assert_string_equal(json_string_value(json_object_get(m, "structure")), "fedcba9876543210");
    assert_int_equal(json_integer_value(json_object_get(m, "round")), 1);
    if (json_equal(json_object_get(m, "config"), c512))
      assert_string_equal(json_string_value(json_object_get(m, "status")), "compile-failed");
    if (json_equal(json_object_get(m, "config"), c256))
      assert_non_null(json_object_get(json_object_get(m, "facts"), "k"));
  }
  assert_int_equal(search_remember_siblings(&s, knobs), 0); /* once */
  search_free(&s);
  json_decref(c256);
  json_decref(c128);
  json_decref(c512);
  json_decref(c64);
  json_decref(knobs);
  json_decref(sweep);
}

/* Nothing is adopted where the configuration would be a guess: a knob the params do not name
 * (num_stages: the rewrite did not set it), knob values unlike the accepted point's (the
 * naming is wrong, or a later round changed them), a structure changed since, a chosen
 * candidate that is not structural or not in the sweep. */
static void test_siblings_refused(void **state)
{
  (void)state;
  struct search s;
  json_t *sweep = json_loads(tiles_sweep_json, 0, NULL), *staged = tile_knobs(256, 8, 1);
  json_t *knobs = tile_knobs(256, 8, 0), *moved = tile_knobs(128, 8, 0);
  assert_non_null(sweep);
  search_init(&s, "0123456789abcdef0123");
  search_adopt_siblings(&s, sweep, "s0", 1);
  assert_int_equal(search_remember_siblings(&s, staged), 0);
  assert_int_equal(json_array_size(s.memory), 0);
  search_adopt_siblings(&s, sweep, "s0", 1);
  assert_int_equal(search_remember_siblings(&s, moved), 0);
  assert_int_equal(json_array_size(s.memory), 0);
  search_adopt_siblings(&s, sweep, "s0", 1);
  search_new_structure(&s, "fedcba9876543210fedc"); /* another rewrite accepted since */
  assert_int_equal(search_remember_siblings(&s, knobs), 0);
  search_adopt_siblings(&s, sweep, "k0", 2);
  assert_null(s.siblings);
  search_adopt_siblings(&s, sweep, "nope", 2);
  assert_null(s.siblings);
  search_adopt_siblings(&s, sweep, NULL, 2);
  assert_null(s.siblings);
  assert_int_equal(json_array_size(s.memory), 0);
  search_free(&s);
  json_decref(staged);
  json_decref(moved);
  json_decref(knobs);
  json_decref(sweep);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_remember_skips_noisy_structural_and_model),
    cmocka_unit_test(test_remember_failed_sweep),
    cmocka_unit_test(test_forget),
    cmocka_unit_test(test_shortlist_fastest_beyond_gain),
    cmocka_unit_test(test_profile_current),
    cmocka_unit_test(test_siblings_remembered),
    cmocka_unit_test(test_siblings_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
