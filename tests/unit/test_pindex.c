/* The pattern index as L1 reads it (workers/pindex.c): the features of a kernel (source,
 * the harness's syntax tree, evidence in hand), how matches settle L1 or only order its
 * families, and what a round records. The database side (pinning, matching) is tested
 * against PostgreSQL in tests/integration/test_patterns.py. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "ladder_structural.h"
#include "pindex.h"

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static const char *elementwise_src =
    "import triton\nimport triton.language as tl\n@triton.jit\n"
    "def k(x_ptr, n, BLOCK: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
    "    x = tl.load(x_ptr + offs, mask=offs < n)\n"
    "    tl.store(x_ptr + offs, x * 2, mask=offs < n)\n";

static json_t *load(const char *text)
{
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  assert_non_null(j);
  return j;
}

static int has(const json_t *features, const char *sym)
{
  const json_t *v;
  size_t i;
  json_array_foreach(json_object_get(features, "symptoms"), i, v)
    if (!strcmp(json_string_value(v), sym))
      return 1;
  return 0;
}

static struct pindex ix_of(const char *target, unsigned min_support)
{
  struct pindex ix;
  memset(&ix, 0, sizeof(ix));
  ix.version = 3;
  snprintf(ix.backend, sizeof(ix.backend), "interp");
  snprintf(ix.target, sizeof(ix.target), "%s", target);
  ix.min_support = min_support;
  return ix;
}

static void test_features_source_knobs_evidence(void **state)
{
  struct pindex ix = ix_of("cuda", 2);
  struct evidence ev;
  json_t *launch = load("{\"BLOCK\": 128, \"num_warps\": 4}"), *f;
  json_t *knobs = load("{\"kernels\": [{\"name\": \"k\", \"uses_dot\": false, \"reductions\": 0,"
                       " \"autotune\": true, \"atomics\": false}],"
                       " \"structural\": [{\"name\": \"elementwise_vector\", \"fits\": true},"
                       "                  {\"name\": \"tile_grid\", \"fits\": false}]}");
  (void)state;
  evidence_init(&ev);
  f = pindex_features(&ix, elementwise_src, launch, knobs, &ev);
  assert_string_equal(json_string_value(json_object_get(f, "class")), "elementwise");
  assert_string_equal(json_string_value(json_object_get(f, "target")), "cuda");
  assert_string_equal(json_string_value(json_object_get(f, "backend")), "interp");
  assert_true(has(f, "elementwise") && has(f, "small_block") && has(f, "under_4_per_thread"));
  assert_true(has(f, "autotune") && has(f, "fits:elementwise_vector"));
  assert_false(has(f, "fits:tile_grid") || has(f, "atomics") || has(f, "ir:narrow_access"));
  json_decref(f);
  /* an earlier round's IR: every access narrow -> the symptom L3 justified vectorizing from */
  ev.ir = load("{\"ptx\": {\"ld.global.32\": 2, \"st.global.32\": 1}, \"ttgir\": {}}");
  f = pindex_features(&ix, elementwise_src, launch, NULL, &ev);
  assert_true(has(f, "ir:narrow_access"));
  assert_string_equal(json_string_value(json_object_get(f, "class")), "elementwise"); /* from source */
  json_decref(f);
  evidence_clear(&ev);
  json_decref(launch);
  json_decref(knobs);
}

static const char *matches_text =
    "[{\"name\": \"strong\", \"family\": \"vectorize_access\", \"support\": 3, \"tried\": 4,"
    "  \"accepted\": 3, \"rate\": 0.75, \"when\": \"class elementwise\","
    "  \"action\": {\"family\": \"vectorize_access\", \"direction\": \"up\", \"needs_level\": 3,"
    "              \"prefer\": {\"block\": [1024]}}},"
    " {\"name\": \"weak\", \"family\": \"block_size\", \"support\": 0, \"tried\": 0, \"accepted\": 0,"
    "  \"rate\": 0, \"action\": {\"family\": \"block_size\", \"direction\": \"up\", \"needs_level\": 2}}]";

/* L1 on the elementwise kernel, then the matches applied with this minimum support and
 * these exhausted families; by gets the settling pattern's name. */
static void apply(unsigned min_support, const char *const *skip, struct ladder_diag *d,
                  struct ladder_tests *t, char by[PINDEX_NAME_LEN])
{
  struct pindex ix = ix_of("cuda", min_support);
  json_t *launch = load("{\"BLOCK\": 128, \"num_warps\": 4}"), *m = load(matches_text);
  ladder_l1(elementwise_src, launch, NULL, NULL, d);
  pindex_apply(&ix, m, skip, d, by, PINDEX_NAME_LEN);
  ladder_tests(d, skip, t);
  json_decref(launch);
  json_decref(m);
}

/* Enough support on this backend: the pattern's family alone, sufficient at L1 -> the three
 * tests pass and the round stays at L1. */
static void test_apply_settles(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  char by[PINDEX_NAME_LEN];
  (void)state;
  apply(2, NULL, &d, &t, by);
  assert_string_equal(by, "strong");
  assert_int_equal(d.nfamilies, 1);
  assert_string_equal(d.family[0], "vectorize_access");
  assert_int_equal(d.needs_level[0], 1);
  assert_true(t.hotspot && t.one_family && t.sufficient);
  assert_non_null(strstr(d.why, "enough support to settle L1"));
}

/* Support below the threshold: nothing settles; the matched families go first with the
 * evidence level their actions name, so the ladder climbs. */
static void test_apply_orders_without_support(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  char by[PINDEX_NAME_LEN];
  (void)state;
  apply(4, NULL, &d, &t, by);
  assert_string_equal(by, "");
  assert_string_equal(d.family[0], "vectorize_access");
  assert_int_equal(d.needs_level[0], 3);
  assert_string_equal(d.family[1], "block_size");
  assert_false(t.one_family && t.sufficient);
  assert_non_null(strstr(d.why, "not enough support"));
}

/* A family already exhausted this job never settles; the next match is judged instead. */
static void test_apply_skips_exhausted(void **state)
{
  const char *skip[] = { "vectorize_access", NULL };
  struct ladder_diag d;
  struct ladder_tests t;
  char by[PINDEX_NAME_LEN];
  (void)state;
  apply(1, skip, &d, &t, by);
  assert_string_equal(by, ""); /* "weak" has no trials at all */
  assert_string_equal(d.family[0], "block_size");
  assert_false(t.one_family && t.sufficient);
}

static int family_at(const struct ladder_diag *d, const char *family)
{
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (!strcmp(d->family[i], family))
      return (int)i;
  return -1;
}

/* A well supported launch-parameter pattern (block_size) while a structural rewrite fits and
 * is unspent: nothing settles, the rewrite and the pattern's family are both in the list, so
 * the ladder climbs as it would without the pattern. Once the rewrite is spent, it settles. */
static void test_apply_defers_knob_to_structural(void **state)
{
  static const char *knob =
      "[{\"name\": \"mined.block\", \"family\": \"block_size\", \"support\": 5, \"tried\": 6,"
      "  \"accepted\": 5, \"when\": \"small_block\","
      "  \"action\": {\"family\": \"block_size\", \"direction\": \"up\", \"needs_level\": 2}}]";
  const char *spent[] = { "tile_grid", NULL };
  struct pindex ix = ix_of("cuda", 2);
  json_t *launch = load("{\"BLOCK\": 128, \"num_warps\": 4}"), *m = load(knob);
  json_t *structural = load("[{\"name\": \"tile_grid\", \"fits\": true, \"why\": \"a dot\"}]");
  struct ladder_diag d;
  struct ladder_tests t;
  char by[PINDEX_NAME_LEN];
  (void)state;
  for (int pass = 0; pass < 2; pass++) {
    const char *const *skip = pass ? spent : NULL;
    ladder_l1(elementwise_src, launch, NULL, NULL, &d);
    ladder_structural(&d, structural, NULL, NULL);
    pindex_apply(&ix, m, skip, &d, by, PINDEX_NAME_LEN);
    ladder_tests(&d, skip, &t);
    if (!pass) {
      assert_string_equal(by, "");
      assert_true(family_at(&d, "tile_grid") >= 0 && family_at(&d, "block_size") >= 0);
      assert_false(t.one_family && t.sufficient);
      assert_non_null(strstr(d.why, "launch parameter and structural rewrites fit (tile_grid)"));
    } else {
      assert_string_equal(by, "mined.block");
      assert_int_equal(d.nfamilies, 1);
      assert_string_equal(d.family[0], "block_size");
      assert_true(t.one_family && t.sufficient);
    }
  }
  json_decref(launch);
  json_decref(m);
  json_decref(structural);
}

static void test_record(void **state)
{
  struct pindex ix = ix_of("cuda", 2);
  struct pindex_round pr;
  json_t *esc1 = json_object(), *ev = json_object(), *l1;
  (void)state;
  memset(&pr, 0, sizeof(pr));
  pr.features = load("{\"backend\": \"interp\", \"target\": \"cuda\", \"class\": \"elementwise\", \"symptoms\": [\"elementwise\"]}");
  pr.matches = load(matches_text);
  snprintf(pr.settled_by, sizeof(pr.settled_by), "strong");
  pindex_record(&ix, &pr, 1, "strong", "up", esc1, ev);
  l1 = json_object_get(ev, "l1");
  assert_string_equal(json_string_value(json_object_get(l1, "settled_by")), "strong");
  assert_string_equal(json_string_value(json_object_get(l1, "applied")), "strong");
  assert_int_equal(json_integer_value(json_object_get(l1, "pattern_index")), 3);
  assert_int_equal(json_array_size(json_object_get(l1, "matched")), 2);
  assert_string_equal(json_string_value(json_object_get(l1, "class")), "elementwise");
  assert_int_equal(json_integer_value(json_object_get(json_object_get(esc1, "patterns"), "version")), 3);
  /* a round that climbed past L1 was not settled, whatever L1 said */
  pindex_record(&ix, &pr, 3, NULL, "", esc1, ev);
  assert_true(json_is_null(json_object_get(json_object_get(ev, "l1"), "settled_by")));
  assert_true(json_is_null(json_object_get(json_object_get(esc1, "patterns"), "settled_by")));
  pindex_round_clear(&pr);
  json_decref(esc1);
  json_decref(ev);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_features_source_knobs_evidence),
    cmocka_unit_test(test_apply_settles),
    cmocka_unit_test(test_apply_orders_without_support),
    cmocka_unit_test(test_apply_skips_exhausted),
    cmocka_unit_test(test_apply_defers_knob_to_structural),
    cmocka_unit_test(test_record),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
