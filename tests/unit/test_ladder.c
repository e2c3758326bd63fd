/* The ladder's rules on crafted evidence: it climbs when a test fails, stops when all pass,
 * and each policy caps the level. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "ladder.h"
#include "ladder_structural.h"
#include "support/ladder_evidence.h"

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static void test_policy_caps(void **state)
{
  enum ladder_policy p;
  (void)state;
  assert_int_equal(ladder_policy_parse("hierarchy", &p), 0);
  assert_int_equal(ladder_max_level(p), 4);
  assert_int_equal(ladder_policy_parse("profile_only", &p), 0);
  assert_int_equal(ladder_max_level(p), 2);
  assert_int_equal(ladder_policy_parse("pattern_only", &p), 0);
  assert_int_equal(ladder_max_level(p), 1);
  assert_int_equal(ladder_policy_parse("always_deep", &p), 0);
  assert_int_equal(ladder_max_level(p), 4);
  assert_int_not_equal(ladder_policy_parse("deep", &p), 0);
}

static void test_l1_small_block_climbs(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  json_t *launch = json_pack("{s:i, s:i}", "BLOCK_SIZE", 128, "num_warps", 4);
  (void)state;
  ladder_l1(vec_add, launch, NULL, NULL, &d);
  ladder_tests(&d, NULL, &t);
  assert_true(t.hotspot); /* one kernel: it is the hotspot */
  assert_false(t.one_family); /* vectorize_access and block_size both fit */
  assert_false(t.sufficient); /* and neither is proven by source alone */
  assert_string_equal(d.family[0], "vectorize_access");
  json_decref(launch);
}

static void test_l1_pattern_index_suffices(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  json_t *launch = json_pack("{s:i, s:i}", "BLOCK_SIZE", 4096, "num_warps", 4);
  json_t *pat = json_pack("[{s:s, s:s, s:i, s:i, s:s}]", "symptom", "elementwise",
                          "rewrite_family", "num_warps", "successes", 3, "trials", 4,
                          "direction", "up");
  (void)state;
  ladder_l1(vec_add, launch, NULL, pat, &d);
  ladder_tests(&d, NULL, &t);
  assert_true(t.hotspot);
  assert_true(t.one_family);
  assert_true(t.sufficient);
  assert_string_equal(d.family[0], "num_warps");
  /* A pattern that failed more often than it worked is not evidence. */
  json_object_set_new(json_array_get(pat, 0), "successes", json_integer(1));
  ladder_l1(vec_add, launch, NULL, pat, &d);
  ladder_tests(&d, NULL, &t);
  assert_false(t.sufficient && t.one_family);
  json_decref(launch);
  json_decref(pat);
}

static void test_l2_classes(void **state)
{
  struct ladder_diag d;
  char why[256];
  json_t *p;
  (void)state;
  p = ncu(75, 20, 80, 60);
  assert_string_equal(ladder_l2_class(p, why, sizeof(why)), "memory");
  ladder_l2(p, &d);
  assert_string_equal(d.hotspot, "kernel add_kernel");
  assert_int_equal(d.nfamilies, 2);
  json_decref(p);
  p = ncu(20, 80, 80, 60);
  assert_string_equal(ladder_l2_class(p, why, sizeof(why)), "compute");
  json_decref(p);
  p = ncu(20, 20, 80, 30);
  assert_string_equal(ladder_l2_class(p, why, sizeof(why)), "latency");
  ladder_l2(p, &d);
  assert_string_equal(d.family[0], "num_warps");
  json_decref(p);
  p = ncu(20, 20, 3, 30);
  assert_string_equal(ladder_l2_class(p, why, sizeof(why)), "launch");
  json_decref(p);
  p = ncu(90, 20, 80, 60);
  ladder_l2(p, &d);
  assert_string_equal(d.family[0], "algorithmic"); /* at the roofline */
  json_decref(p);
  /* interp: no counters -> unavailable, every test fails, the ladder climbs. */
  p = json_pack("{s:b, s:s}", "available", 0, "reason", "interpreter");
  ladder_l2(p, &d);
  assert_false(d.available);
  {
    struct ladder_tests t;
    ladder_tests(&d, NULL, &t);
    assert_false(t.hotspot || t.one_family || t.sufficient);
  }
  json_decref(p);
  /* Ascend pipe ratios. */
  p = json_pack("{s:b, s:s, s:[{s:s, s:{s:{s:f, s:f, s:f}}}]}", "available", 1, "tool",
                "msprof op", "kernels", "kernel", "k", "summary", "ratios", "aiv_vec_ratio", 0.1,
                "aiv_scalar_ratio", 0.6, "aiv_mte2_ratio", 0.2);
  assert_string_equal(ladder_l2_class(p, why, sizeof(why)), "scalar");
  json_decref(p);
}

/* Found by tests/fuzz/fuzz_profile.c: the hotspot quotes the profiled kernel's name, cut to
 * 95 bytes, and the why quotes the profile's reason, cut to its buffer. A cut inside a
 * multi-byte character (Python identifiers, and so Triton kernel names, may be non-ASCII)
 * made the diagnosis unrenderable: ladder_diag_json returned NULL and the round record,
 * which quotes the hotspot, could not be built. */
static void test_l2_names_cut_inside_a_character(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  char name[200], reason[1400];
  json_t *p, *j;
  (void)state;
  /* 94 ASCII bytes, then two-byte characters: the 95-byte cut splits the first one. */
  memset(name, 'k', 94);
  snprintf(name + 94, sizeof(name) - 94, "\xc3\xa9\xc3\xa9");
  p = json_pack("{s:b, s:s, s:[{s:s, s:{s:f, s:f, s:f}}]}", "available", 1, "tool", "ncu",
                "kernels", "kernel", name, "summary", "memory_throughput_pct", 75.0,
                "sm_throughput_pct", 20.0, "duration_us", 80.0);
  assert_non_null(p);
  ladder_l2(p, &d);
  assert_non_null(strstr(d.hotspot, "kkkk?"));
  ladder_tests(&d, NULL, &t);
  j = ladder_diag_json(&d, &t);
  assert_non_null(j);
  json_decref(j);
  json_decref(p);
  /* An unavailable profile whose reason is longer than why holds, in three-byte characters. */
  reason[0] = '\0';
  for (int i = 0; i < 400; i++)
    strcat(reason, "\xe2\x82\xac");
  p = json_pack("{s:b, s:s}", "available", 0, "reason", reason);
  ladder_l2(p, &d);
  ladder_tests(&d, NULL, &t);
  j = ladder_diag_json(&d, &t);
  assert_non_null(j);
  json_decref(j);
  json_decref(p);
}

static void test_l3_scalar_loads_suffice(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  /* The shape ir_features_cuda returns (workers/ir.h). */
  json_t *ir = json_pack("{s:{s:i, s:i, s:i}, s:{s:i, s:i}, s:{s:i, s:s}}", "ptx",
                         "ld.global.32", 2, "ld.global.128", 0, "st.global.32", 1, "spills",
                         "ld.local", 0, "LDL", 0, "hotspot", "line", 6, "reason",
                         "global memory");
  (void)state;
  ladder_l3(ir, NULL, NULL, &d);
  ladder_tests(&d, NULL, &t);
  assert_true(t.hotspot && t.one_family && t.sufficient);
  assert_string_equal(d.family[0], "vectorize_access");
  /* Exhausting that family leaves the level with nothing: one_family fails. */
  {
    const char *skip[] = { "vectorize_access", NULL };
    ladder_tests(&d, skip, &t);
    assert_false(t.one_family);
  }
  json_decref(ir);
  /* Spills point down. */
  ir = json_pack("{s:{s:i, s:i}, s:{s:i}}", "ptx", "ld.global.32", 0, "ld.global.128", 4,
                 "spills", "st.local", 12);
  ladder_l3(ir, "memory", NULL, &d);
  assert_string_equal(d.family[0], "block_size");
  assert_string_equal(d.direction[0], "down");
  json_decref(ir);
}

static void test_l3_unpipelined_loop_needs_l4(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  json_t *ir = json_pack("{s:{s:i, s:i}, s:{s:i, s:i, s:[{s:i, s:i, s:i}]}}", "ptx",
                         "ld.global.128", 4, "ld.global.32", 0, "ttgir", "async_copies", 0,
                         "dots", 1, "loops", "line", 30, "loads", 2, "async_copies", 0);
  (void)state;
  ladder_l3(ir, "compute", NULL, &d);
  ladder_tests(&d, NULL, &t);
  assert_string_equal(d.family[0], "num_stages");
  assert_true(t.one_family);
  assert_false(t.sufficient); /* the loop is a lead; the pass dump is the proof: climb */
  json_decref(ir);
}

static void test_l4_pipeliner(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  json_t *f = json_pack("[{s:s, s:s, s:b, s:s}]", "symptom", "sync_loads_in_loop", "pass",
                        "tritongpu-pipeline", "persisted", 1, "description", "pipelines loops");
  (void)state;
  ladder_l4(f, NULL, &d);
  ladder_tests(&d, NULL, &t);
  assert_true(t.hotspot && t.one_family && t.sufficient);
  assert_string_equal(d.family[0], "num_stages");
  json_decref(f);
}

/* The last resort: the launch families not spent are added at the diagnosis's own level
 * (so they suffice), spent ones are not, and a second call adds nothing. */
static void test_fallback_adds_unspent_launch_families(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  const char *skip[] = { "persistent_grid", "num_warps", NULL };
  (void)state;
  memset(&d, 0, sizeof(d));
  d.level = 4;
  d.available = 1;
  ladder_add(&d, "persistent_grid", 2, "");
  ladder_tests(&d, skip, &t);
  assert_false(t.sufficient);
  assert_int_equal(ladder_fallback(&d, skip), 2);
  assert_int_equal(d.nfamilies, 3);
  assert_string_equal(d.family[1], "block_size");
  assert_string_equal(d.family[2], "num_stages");
  assert_int_equal(d.needs_level[1], 4);
  assert_non_null(strstr(d.why, "last resort"));
  ladder_tests(&d, skip, &t);
  assert_true(t.sufficient);
  assert_int_equal(ladder_fallback(&d, skip), 0);
  assert_int_equal(d.nfamilies, 3);
}

/* A block size named otherwise (ROWS, TM): the harness's knobs say which launch values are
 * block sizes (kind "block"), so L1's symptoms and the pattern index see the small block of
 * the unseen col_mean (ROWS 32 with 4 warps) as they see a BLOCK of 32. */
static void test_block_symptoms_from_knob_kinds(void **state)
{
  json_error_t e;
  json_t *launch = json_loads("{\"ROWS\": 32, \"num_warps\": 4}", 0, &e);
  json_t *knobs = json_loads("{\"knobs\": [{\"name\": \"ROWS\", \"kind\": \"block\"},"
                             " {\"name\": \"num_warps\", \"kind\": \"num_warps\"}]}", 0, &e);
  char sym[LADDER_MAX_SYMPTOMS][LADDER_SYMPTOM_LEN];
  unsigned n = 0, small = 0, under = 0;
  const char *src = "@triton.jit\ndef k(x, ROWS: tl.constexpr):\n    v = tl.load(x + tl.arange(0, ROWS))\n";
  (void)state;
  assert_non_null(launch);
  assert_non_null(knobs);
  ladder_source_symptoms(src, launch, NULL, sym, &n);
  for (unsigned i = 0; i < n; i++)
    small += !strcmp(sym[i], "small_block");
  assert_int_equal(small, 0); /* by name alone ROWS is not a block */
  ladder_source_symptoms(src, launch, knobs, sym, &n);
  for (unsigned i = 0; i < n; i++) {
    small += !strcmp(sym[i], "small_block");
    under += !strcmp(sym[i], "under_4_per_thread");
  }
  assert_int_equal(small, 1);
  assert_int_equal(under, 1);
  json_decref(launch);
  json_decref(knobs);
}

/* The class from the harness's syntax tree: an argmax kernel is a reduction (the source's
 * call counts knew tl.sum/max/min only and called argmax elementwise before they learned it),
 * and a loop the tree counted makes a dot kernel matmul:loop however it is written. */
static void test_class_from_knob_kernels(void **state)
{
  json_error_t e;
  json_t *red = json_loads("{\"knobs\": [], \"kernels\": [{\"uses_dot\": false, \"loops\": 1,"
                           " \"reductions\": 1, \"atomics\": false}]}", 0, &e);
  json_t *mm = json_loads("{\"knobs\": [], \"kernels\": [{\"uses_dot\": true, \"loops\": 1,"
                          " \"reductions\": 0, \"atomics\": false}]}", 0, &e);
  char sym[LADDER_MAX_SYMPTOMS][LADDER_SYMPTOM_LEN];
  unsigned n = 0;
  const char *src = "@triton.jit\ndef k(x, y):\n    v = tl.load(x + tl.arange(0, 8))\n"
                    "    i = tl.reduce(v, 0, combine)\n";
  (void)state;
  assert_non_null(red);
  assert_non_null(mm);
  ladder_source_symptoms(src, NULL, NULL, sym, &n);
  assert_true(n >= 1);
  assert_string_equal(sym[0], "elementwise"); /* counting calls misses tl.reduce */
  ladder_source_symptoms(src, NULL, red, sym, &n);
  assert_string_equal(sym[0], "reduction");
  ladder_source_symptoms("@triton.jit\ndef k(x):\n    for i in tl.static_range(4):\n        pass\n",
                         NULL, mm, sym, &n);
  assert_string_equal(sym[0], "matmul:loop");
  json_decref(red);
  json_decref(mm);
}

/* MoE gating's case: vectorized accesses and nothing wrong in the IR (L3: more work per
 * program) on a kernel with no block knob whose rows are short (rows_per_program's default
 * ROWS 8: a block of 128): rows side by side first, ahead of the block and warps L3 names.
 * A long row (default ROWS 2) or a block knob keeps L3's families alone. */
static void test_short_rows_at_l3(void **state)
{
  json_error_t e;
  json_t *ir = json_pack("{s:{s:i, s:i, s:i}}", "ptx", "ld.global.32", 0, "ld.global.128", 1,
                         "st.global.128", 1);
  const char *fmt = "{\"knobs\": [{\"name\": \"%s\", \"kind\": \"%s\"}], \"structural\":"
                    " [{\"name\": \"rows_per_program\", \"fits\": true, \"why\": \"moe: each over"
                    " a block of 128 element(s)\", \"params\": {\"ROWS\": %d, \"num_warps\": 4}}]}";
  char text[512];
  json_t *knobs;
  struct ladder_diag d;
  struct { const char *knob, *kind; int rows, listed; } cases[] = {
    { "num_warps", "num_warps", 8, 1 }, /* moe_gating: BLOCK_E computed from the problem */
    { "num_warps", "num_warps", 2, 0 }, /* a long row */
    { "BLOCK", "block", 8, 0 },         /* a block that can grow */
  };
  (void)state;
  for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    snprintf(text, sizeof(text), fmt, cases[i].knob, cases[i].kind, cases[i].rows);
    knobs = json_loads(text, 0, &e);
    assert_non_null(knobs);
    ladder_l3(ir, "memory", NULL, &d);
    assert_int_equal(d.nfamilies, 2);
    ladder_short_rows(&d, knobs);
    assert_int_equal(d.nfamilies, 2 + cases[i].listed);
    assert_string_equal(d.family[0], cases[i].listed ? "rows_per_program" : "block_size");
    assert_int_equal(strstr(d.why, "no block knob, so rows side by side") != NULL, cases[i].listed);
    json_decref(knobs);
  }
  json_decref(ir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_policy_caps),
    cmocka_unit_test(test_l1_small_block_climbs),
    cmocka_unit_test(test_l1_pattern_index_suffices),
    cmocka_unit_test(test_l2_classes),
    cmocka_unit_test(test_l2_names_cut_inside_a_character),
    cmocka_unit_test(test_l3_scalar_loads_suffice),
    cmocka_unit_test(test_l3_unpipelined_loop_needs_l4),
    cmocka_unit_test(test_l4_pipeliner),
    cmocka_unit_test(test_fallback_adds_unspent_launch_families),
    cmocka_unit_test(test_block_symptoms_from_knob_kinds),
    cmocka_unit_test(test_class_from_knob_kernels),
    cmocka_unit_test(test_short_rows_at_l3),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
