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

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static const char *vec_add =
    "import triton\nimport triton.language as tl\n@triton.jit\n"
    "def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
    "    a = tl.load(a_ptr + offs, mask=offs < n)\n"
    "    b = tl.load(b_ptr + offs, mask=offs < n)\n"
    "    tl.store(out_ptr + offs, a + b, mask=offs < n)\n"
    "class ModelNew:\n    pass\n";

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

static json_t *ncu(double mem, double sm, double dur, double occ)
{
  return json_pack("{s:b, s:s, s:[{s:s, s:{s:f, s:f, s:f, s:f, s:f}}]}", "available", 1, "tool",
                   "ncu", "kernels", "kernel", "add_kernel", "summary", "memory_throughput_pct",
                   mem, "dram_throughput_pct", mem, "sm_throughput_pct", sm, "duration_us", dur,
                   "achieved_occupancy_pct", occ);
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

/* Structural rewrites: named at L1 (they need L3 evidence, so the ladder climbs), first at
 * L3 when the IR shows the pathology, absent when the syntax does not fit. */
/* d as the round sees it at L3: the IR's diagnosis, then the structural rewrites that fit. */
static void l3_structural(struct ladder_diag *d, const json_t *ir, const char *l2_class,
                          const json_t *fits)
{
  memset(d, 0, sizeof(*d));
  ladder_l3(ir, l2_class, NULL, d);
  ladder_structural(d, fits, l2_class, ir);
}

/* The place of family in the diagnosis's list, or -1 when it is not listed. */
static int family_at(const struct ladder_diag *d, const char *family)
{
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (!strcmp(d->family[i], family))
      return (int)i;
  return -1;
}

static void test_structural_needs_ir_evidence(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\":"
                            " \"row loop at line 12 over n_cols <= 8192\"},"
                            " {\"name\": \"tile_grid\", \"fits\": false, \"why\": \"no tl.dot\"}]", 0, &e);
  json_t *ir = json_loads("{\"ptx\": {\"ld.global.128\": 4}, \"ttgir\": {\"loops\":"
                          " [{\"loads\": 1, \"async_copies\": 0}]}}", 0, &e);
  json_t *ir_noloop = json_loads("{\"ptx\": {\"ld.global.128\": 4}, \"ttgir\": {}}", 0, &e);
  struct ladder_diag d;
  struct ladder_tests t;
  (void)state;
  memset(&d, 0, sizeof(d));
  ladder_l1(vec_add, NULL, NULL, NULL, &d);
  ladder_structural(&d, fits, NULL, NULL);
  {
    int found = 0;
    for (unsigned i = 0; i < d.nfamilies; i++)
      if (!strcmp(d.family[i], "row_in_registers")) {
        found = 1;
        assert_int_equal(d.needs_level[i], 3);
      }
    assert_true(found);
    for (unsigned i = 0; i < d.nfamilies; i++)
      assert_string_not_equal(d.family[i], "tile_grid");
  }
  ladder_tests(&d, NULL, &t);
  assert_false(t.one_family && t.sufficient); /* climbs */
  l3_structural(&d, ir, "memory", fits);
  assert_true(d.nfamilies >= 1);
  assert_string_equal(d.family[0], "row_in_registers");
  assert_non_null(strstr(d.why, "row loop at line 12"));
  l3_structural(&d, ir_noloop, "memory", fits);
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "row_in_registers");
  json_decref(fits);
  json_decref(ir);
  json_decref(ir_noloop);
}

/* Half-precision kernels load with ld.global.b16 (the offline cuda:90 compile of the unseen
 * operators l2norm and col_mean: 2 and 1 such loads, nothing wider): those are the narrowest
 * accesses of all, not absent ones. Before, only 32- and 64-bit loads counted as narrow, so a
 * float16 kernel was never told to vectorize and a float16 column reduction went to the row
 * rewrite (16384 rows held in registers per column) instead of the coalescing tiles. */
static void test_half_precision_loads_are_narrow(void **state)
{
  json_error_t e;
  json_t *row = json_loads("{\"ptx\": {\"ld.global.16\": 2, \"st.global.16\": 1}}", 0, &e);
  json_t *col = json_loads("{\"ptx\": {\"ld.global.16\": 1, \"st.global.16\": 1}, \"ttgir\":"
                           " {\"loops\": [{\"loads\": 1, \"async_copies\": 0}]}}", 0, &e);
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"rows fit\"},"
                            " {\"name\": \"strided_reduction_tiles\", \"fits\": true, \"why\":"
                            " \"one program per column\"}]", 0, &e);
  struct ladder_diag d;
  (void)state;
  assert_non_null(row);
  assert_non_null(col);
  assert_non_null(fits);
  memset(&d, 0, sizeof(d));
  ladder_l3(row, "memory", NULL, &d);
  assert_string_equal(d.family[0], "vectorize_access");
  assert_non_null(strstr(d.why, "global loads up to 32-bit 2,"));
  l3_structural(&d, col, "memory", fits);
  assert_string_equal(d.family[0], "coalesce_access");
  assert_non_null(strstr(d.why, "global loads are narrow (1)"));
  json_decref(row);
  json_decref(col);
  json_decref(fits);
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

/* A tile kernel with tensor-core dots: tile_grid first, tma_loads next (both at L3); tma_loads
 * not at all when the harness says the device has no tensor memory accelerator. */
static void test_structural_tile_then_tma(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"tile_grid\", \"fits\": true, \"why\": \"mm: tiles\"},"
                            " {\"name\": \"tma_loads\", \"fits\": true, \"why\": \"mm: tile loads\"}]",
                            0, &e);
  json_t *no_tma = json_loads("[{\"name\": \"tile_grid\", \"fits\": true, \"why\": \"mm: tiles\"},"
                              " {\"name\": \"tma_loads\", \"fits\": false, \"why\": \"no TMA\"}]", 0, &e);
  json_t *ir = json_loads("{\"ptx\": {\"mma.sync\": 8}, \"ttgir\": {\"dots\": 1}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  l3_structural(&d, ir, "compute", fits);
  assert_true(d.nfamilies >= 2);
  assert_string_equal(d.family[0], "tile_grid");
  assert_string_equal(d.family[1], "tma_loads");
  assert_int_equal(ladder_is_structural("tma_loads"), 1);
  assert_non_null(strstr(d.why, "mm: tile loads"));
  l3_structural(&d, ir, "compute", no_tma);
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "tma_loads");
  json_decref(fits);
  json_decref(no_tma);
  json_decref(ir);
}

/* Bound checks a flag can make constant (even_bounds): at L3 behind the tile rewrites on a
 * kernel with tensor-core dots (attention: tile_grid does not fit it, tma_loads does) or a
 * compute-bound one; never on a memory-bound kernel, whose loads, not its masks, set its time. */
static void test_structural_even_bounds(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"tile_grid\", \"fits\": false, \"why\": \"not a matmul\"},"
                            " {\"name\": \"tma_loads\", \"fits\": true, \"why\": \"attn: tile loads\"},"
                            " {\"name\": \"even_bounds\", \"fits\": true, \"why\": \"attn: 3 check(s)\"},"
                            " {\"name\": \"fold_exp2\", \"fits\": true, \"why\": \"attn: s feeds exp\"}]",
                            0, &e);
  json_t *dots = json_loads("{\"ptx\": {\"wgmma\": 4}, \"ttgir\": {\"dots\": 2}}", 0, &e);
  json_t *plain = json_loads("{\"ptx\": {\"ld.global.v4.32\": 1}, \"ttgir\": {\"dots\": 0}}", 0, &e);
  struct ladder_diag d;
  int listed;
  (void)state;
  assert_non_null(fits);
  l3_structural(&d, dots, "compute", fits);
  assert_string_equal(d.family[0], "tma_loads");
  assert_string_equal(d.family[1], "fold_exp2");
  assert_string_equal(d.family[2], "even_bounds");
  assert_non_null(strstr(d.why, "attn: 3 check(s)"));
  assert_non_null(strstr(d.why, "attn: s feeds exp"));
  assert_true(ladder_is_structural("even_bounds"));
  assert_true(ladder_is_structural("fold_exp2"));
  l3_structural(&d, dots, "latency", fits);
  assert_string_equal(d.family[1], "fold_exp2");
  assert_string_equal(d.family[2], "even_bounds");
  l3_structural(&d, plain, "compute", fits);
  assert_string_equal(d.family[0], "fold_exp2");
  assert_string_equal(d.family[1], "even_bounds");
  l3_structural(&d, dots, "memory", fits);
  listed = 0;
  for (unsigned i = 0; i < d.nfamilies; i++)
    listed |= !strcmp(d.family[i], "even_bounds") || !strcmp(d.family[i], "fold_exp2");
  assert_false(listed);
  l3_structural(&d, plain, "latency", fits);
  for (unsigned i = 0; i < d.nfamilies; i++) {
    assert_string_not_equal(d.family[i], "even_bounds");
    assert_string_not_equal(d.family[i], "fold_exp2");
  }
  json_decref(fits);
  json_decref(dots);
  json_decref(plain);
}

/* A row read again in a later loop: l2_reuse at L3, last (after the launch sweeps and behind
 * row_in_registers when the row also fits one block: held in registers it is read once); not
 * listed with one loop loading. */
static void test_structural_l2_reuse_after_row(void **state)
{
  json_error_t e;
  json_t *both = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"ls: row\"},"
                            " {\"name\": \"l2_reuse\", \"fits\": true, \"why\": \"ls: x re-read\"}]", 0, &e);
  json_t *hints = json_loads("[{\"name\": \"row_single_block\", \"fits\": false, \"why\": \"too long\"},"
                             " {\"name\": \"l2_reuse\", \"fits\": true, \"why\": \"ls: x re-read\"}]", 0, &e);
  json_t *two = json_loads("{\"ptx\": {\"ld.global.v4.32\": 2}, \"ttgir\": {\"loops\": [{\"loads\": 1},"
                           " {\"loads\": 1}]}}", 0, &e);
  json_t *one = json_loads("{\"ptx\": {\"ld.global.v4.32\": 1}, \"ttgir\": {\"loops\": [{\"loads\": 1},"
                           " {\"loads\": 0}]}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  l3_structural(&d, two, "memory", both);
  assert_true(d.nfamilies >= 2);
  assert_string_equal(d.family[0], "row_in_registers");
  assert_string_equal(d.family[d.nfamilies - 1], "l2_reuse");
  assert_non_null(strstr(d.why, "ls: x re-read; 2 loops load global memory"));
  assert_int_equal(ladder_is_structural("l2_reuse"), 1);
  l3_structural(&d, two, "memory", hints);
  assert_true(d.nfamilies >= 1);
  assert_string_equal(d.family[d.nfamilies - 1], "l2_reuse");
  l3_structural(&d, one, "memory", hints);
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "l2_reuse");
  json_decref(both);
  json_decref(hints);
  json_decref(two);
  json_decref(one);
}

/* Atomics at an acquire/release ordering that only accumulate: relaxed_atomics at L3, behind
 * the level's other rewrites (a row kept in registers first) and ahead of every launch
 * sweep; not listed where the PTX's atomics are relaxed already or the survey refused it. */
static void test_structural_relaxed_atomics(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"sa: row\"},"
                            " {\"name\": \"relaxed_atomics\", \"fits\": true, \"why\": \"sa: 1 atomic(s)\"}]", 0, &e);
  json_t *refused = json_loads("[{\"name\": \"relaxed_atomics\", \"fits\": false, \"why\": \"result read\"}]", 0, &e);
  json_t *ordered = json_loads("{\"ptx\": {\"ld.global.32\": 2, \"atom.global\": 4, \"atom.ordered\": 4},"
                               " \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  json_t *relaxed = json_loads("{\"ptx\": {\"ld.global.32\": 2, \"atom.global\": 4, \"atom.ordered\": 0},"
                               " \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  l3_structural(&d, ordered, "memory", fits);
  assert_true(d.nfamilies >= 3);
  assert_string_equal(d.family[0], "row_in_registers");
  assert_int_equal(family_at(&d, "relaxed_atomics"), 1);
  for (unsigned i = 0; i < d.nfamilies; i++)
    if (!ladder_is_structural(d.family[i]))
      assert_true(i > 1);
  assert_non_null(strstr(d.why, "sa: 1 atomic(s); the PTX has 4 ordered atomics"));
  assert_int_equal(ladder_structural_ready("relaxed_atomics", NULL), 1);
  l3_structural(&d, relaxed, "memory", fits);
  assert_int_equal(family_at(&d, "relaxed_atomics"), -1);
  l3_structural(&d, ordered, "memory", refused);
  assert_int_equal(family_at(&d, "relaxed_atomics"), -1);
  json_decref(fits);
  json_decref(refused);
  json_decref(ordered);
  json_decref(relaxed);
}

/* Narrow accesses read through a parameter the kernel keeps unspecialised: specialize_args
 * at L3, first (ahead of the level's other rewrites), also on narrow stores alone; not where
 * the accesses are 128-bit, the survey refused it, or elementwise_vector fits (its
 * vectorize_access releases the names itself). */
static void test_structural_specialize_args(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"rn: row\"},"
                            " {\"name\": \"specialize_args\", \"fits\": true, \"why\": \"rn: n_cols (4096)\"}]",
                            0, &e);
  json_t *vector = json_loads("[{\"name\": \"elementwise_vector\", \"fits\": true, \"why\": \"ev\"},"
                              " {\"name\": \"specialize_args\", \"fits\": true, \"why\": \"ev: n\"}]", 0, &e);
  json_t *refused = json_loads("[{\"name\": \"specialize_args\", \"fits\": false, \"why\": \"none\"}]", 0, &e);
  json_t *narrow = json_loads("{\"ptx\": {\"ld.global.16\": 16, \"st.global.16\": 16},"
                              " \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  json_t *stores = json_loads("{\"ptx\": {\"ld.global.128\": 2, \"st.global.16\": 8}}", 0, &e);
  json_t *wide = json_loads("{\"ptx\": {\"ld.global.128\": 2, \"st.global.128\": 2}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  l3_structural(&d, narrow, "memory", fits);
  assert_int_equal(family_at(&d, "specialize_args"), 0);
  assert_true(family_at(&d, "row_in_registers") > 0);
  assert_non_null(strstr(d.why, "rn: n_cols (4096)"));
  assert_int_equal(ladder_is_structural("specialize_args"), 1);
  assert_int_equal(ladder_structural_ready("specialize_args", NULL), 1);
  l3_structural(&d, stores, "memory", fits);
  assert_int_equal(family_at(&d, "specialize_args"), 0);
  l3_structural(&d, wide, "memory", fits);
  assert_int_equal(family_at(&d, "specialize_args"), -1);
  l3_structural(&d, narrow, "memory", refused);
  assert_int_equal(family_at(&d, "specialize_args"), -1);
  l3_structural(&d, narrow, "memory", vector);
  assert_int_equal(family_at(&d, "specialize_args"), -1);
  json_decref(fits);
  json_decref(vector);
  json_decref(refused);
  json_decref(narrow);
  json_decref(stores);
  json_decref(wide);
}

/* l2_reuse goes before the sweeps only once a launch-parameter round has run (its hints are
 * tried at the incumbent's launch); the other structural families at once; a launch family
 * never by this rule. */
static void test_structural_ready_after_a_sweep(void **state)
{
  json_error_t e;
  json_t *none = json_array();
  json_t *rows = json_loads("[{\"round\": 1, \"family\": \"row_in_registers\"}]", 0, &e);
  json_t *swept = json_loads("[{\"round\": 1, \"family\": \"row_in_registers\"},"
                             " {\"round\": 2, \"family\": \"num_stages\"}]", 0, &e);
  (void)state;
  assert_int_equal(ladder_structural_ready("row_in_registers", none), 1);
  assert_int_equal(ladder_structural_ready("block_size", swept), 0);
  assert_int_equal(ladder_structural_ready("l2_reuse", none), 0);
  assert_int_equal(ladder_structural_ready("l2_reuse", rows), 0);
  assert_int_equal(ladder_structural_ready("l2_reuse", swept), 1);
  json_decref(none);
  json_decref(rows);
  json_decref(swept);
}

/* Interleaved pairs (loads at 2i and 2i + 1) with narrow loads: deinterleave_pairs first at
 * L3; on a latency-bound kernel only once rows side by side no longer fit (rows_per_program,
 * justified at L2, first: its precondition refuses the reshape the de-interleaving writes). */
static void test_structural_deinterleave_after_rows(void **state)
{
  json_error_t e;
  json_t *both = json_loads("[{\"name\": \"rows_per_program\", \"fits\": true, \"why\": \"r\"},"
                            " {\"name\": \"deinterleave_pairs\", \"fits\": true, \"why\": \"rope: 2 pairs\"}]",
                            0, &e);
  json_t *pairs = json_loads("[{\"name\": \"rows_per_program\", \"fits\": false, \"why\": \"subscript\"},"
                             " {\"name\": \"deinterleave_pairs\", \"fits\": true, \"why\": \"rope: 2 pairs\"}]",
                             0, &e);
  json_t *ir = json_loads("{\"ptx\": {\"ld.global.16\": 4, \"st.global.16\": 4}}", 0, &e);
  json_t *wide = json_loads("{\"ptx\": {\"ld.global.v4.32\": 4}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  l3_structural(&d, ir, "memory", pairs);
  assert_true(d.nfamilies >= 1);
  assert_string_equal(d.family[0], "deinterleave_pairs");
  assert_non_null(strstr(d.why, "rope: 2 pairs"));
  assert_int_equal(ladder_is_structural("deinterleave_pairs"), 1);
  l3_structural(&d, ir, "latency", both);
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "deinterleave_pairs");
  /* memory-bound (or no profile): rows are not justified, pairs are */
  l3_structural(&d, ir, "memory", both);
  assert_string_equal(d.family[0], "deinterleave_pairs");
  l3_structural(&d, ir, NULL, both);
  assert_string_equal(d.family[0], "deinterleave_pairs");
  l3_structural(&d, wide, "memory", pairs); /* no narrow loads: nothing to widen */
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "deinterleave_pairs");
  json_decref(both);
  json_decref(pairs);
  json_decref(ir);
  json_decref(wide);
}

/* Two kernels passing one value per program through memory: fuse_kernels first at every
 * level, ahead of the row kept in registers (which then takes the fused kernel whole), and not
 * at all when the harness says it does not fit. */
static void test_structural_fuse_first(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"stats: loops\"},"
                            " {\"name\": \"fuse_kernels\", \"fits\": true, \"why\": \"stats -> norm: m, s\"}]",
                            0, &e);
  json_t *nofit = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"stats: loops\"},"
                             " {\"name\": \"fuse_kernels\", \"fits\": false, \"why\": \"writes y\"}]", 0, &e);
  json_t *ir = json_loads("{\"ptx\": {\"ld.global.32\": 4}, \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  memset(&d, 0, sizeof(d));
  d.available = 1;
  d.level = 1;
  ladder_structural(&d, fits, NULL, NULL);
  assert_string_equal(d.family[0], "fuse_kernels");
  assert_int_equal(d.needs_level[0], 2);
  l3_structural(&d, ir, "memory", fits);
  assert_string_equal(d.family[0], "fuse_kernels");
  assert_string_equal(d.family[1], "row_in_registers");
  assert_non_null(strstr(d.why, "stats -> norm: m, s"));
  assert_int_equal(ladder_is_structural("fuse_kernels"), 1);
  l3_structural(&d, ir, "memory", nofit);
  assert_string_equal(d.family[0], "row_in_registers");
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "fuse_kernels");
  json_decref(fits);
  json_decref(nofit);
  json_decref(ir);
}

/* A loop of launches, one per batch element: batch_launches first at every level it fits,
 * ahead of fuse_kernels and the row rewrites; absent where it does not fit. */
static void test_structural_batch_first(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"k: loops\"},"
                            " {\"name\": \"fuse_kernels\", \"fits\": true, \"why\": \"a -> b: m\"},"
                            " {\"name\": \"batch_launches\", \"fits\": true, \"why\": \"k: once per h\"}]",
                            0, &e);
  json_t *nofit = json_loads("[{\"name\": \"batch_launches\", \"fits\": false, \"why\": \"no loop\"}]", 0,
                             &e);
  json_t *ir = json_loads("{\"ptx\": {\"ld.global.32\": 4}, \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  memset(&d, 0, sizeof(d));
  d.available = 1;
  d.level = 1;
  ladder_structural(&d, fits, NULL, NULL);
  assert_string_equal(d.family[0], "batch_launches");
  assert_string_equal(d.family[1], "fuse_kernels");
  assert_int_equal(d.needs_level[0], 2);
  l3_structural(&d, ir, "memory", fits);
  assert_string_equal(d.family[0], "batch_launches");
  assert_non_null(strstr(d.why, "k: once per h"));
  assert_int_equal(ladder_is_structural("batch_launches"), 1);
  memset(&d, 0, sizeof(d));
  d.available = 1;
  d.level = 1;
  ladder_structural(&d, nofit, NULL, NULL);
  for (unsigned i = 0; i < d.nfamilies; i++)
    assert_string_not_equal(d.family[i], "batch_launches");
  json_decref(fits);
  json_decref(nofit);
  json_decref(ir);
}

/* A latency-bound kernel whose grid fits a persistent loop: the persistent grid is listed
 * after the launch parameters (tried once they are spent), absent when it does not fit. */
static void test_structural_latency_persistent_last(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"persistent_grid\", \"fits\": true, \"why\":"
                            " \"1-D grid of one program per row\"}]", 0, &e);
  json_t *nofit = json_loads("[{\"name\": \"persistent_grid\", \"fits\": false, \"why\":"
                             " \"2-D grid\"}]", 0, &e);
  struct ladder_diag d;
  (void)state;
  memset(&d, 0, sizeof(d));
  d.level = 2;
  d.available = 1;
  ladder_add(&d, "num_warps", 2, "up");
  ladder_add(&d, "block_size", 2, "up");
  ladder_structural(&d, fits, "latency", NULL);
  assert_int_equal(d.nfamilies, 3);
  assert_string_equal(d.family[0], "num_warps");
  assert_string_equal(d.family[2], "persistent_grid");
  assert_non_null(strstr(d.why, "1-D grid of one program per row"));
  memset(&d, 0, sizeof(d));
  d.level = 2;
  d.available = 1;
  ladder_add(&d, "num_warps", 2, "up");
  ladder_structural(&d, nofit, "latency", NULL);
  assert_int_equal(d.nfamilies, 1);
  memset(&d, 0, sizeof(d));
  d.level = 2;
  d.available = 1;
  ladder_add(&d, "num_stages", 4, "up");
  ladder_structural(&d, fits, "memory", NULL);
  assert_int_equal(d.nfamilies, 1);
  json_decref(fits);
  json_decref(nofit);
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

/* RoPE's case: a latency-bound kernel with no block knob whose grid fits both rewrites
 * lists rows side by side before the persistent grid (a persistent loop keeps one narrow row
 * per iteration), both after the launch parameters; either one alone is listed alone. */
static void test_structural_latency_rows_before_persistent(void **state)
{
  json_error_t e;
  json_t *both = json_loads("[{\"name\": \"persistent_grid\", \"fits\": true, \"why\": \"1-D grid\"},"
                            " {\"name\": \"rows_per_program\", \"fits\": true, \"why\":"
                            " \"rope_kernel: each over a block of 64 element(s)\"}]", 0, &e);
  json_t *rows_only = json_loads("[{\"name\": \"persistent_grid\", \"fits\": false, \"why\": \"x\"},"
                                 " {\"name\": \"rows_per_program\", \"fits\": true, \"why\": \"r\"}]",
                                 0, &e);
  struct ladder_diag d;
  (void)state;
  assert_non_null(both);
  assert_non_null(rows_only);
  memset(&d, 0, sizeof(d));
  d.level = 2;
  d.available = 1;
  ladder_add(&d, "num_warps", 2, "up");
  ladder_structural(&d, both, "latency", NULL);
  assert_int_equal(d.nfamilies, 3);
  assert_string_equal(d.family[0], "num_warps");
  assert_string_equal(d.family[1], "rows_per_program");
  assert_string_equal(d.family[2], "persistent_grid");
  assert_true(ladder_is_structural("rows_per_program"));
  assert_non_null(strstr(d.why, "block of 64 element(s)"));
  memset(&d, 0, sizeof(d));
  d.level = 2;
  d.available = 1;
  ladder_structural(&d, rows_only, "latency", NULL);
  assert_int_equal(d.nfamilies, 1);
  assert_string_equal(d.family[0], "rows_per_program");
  /* not latency-bound: neither (memory-bound kernels keep their own families) */
  memset(&d, 0, sizeof(d));
  d.level = 2;
  d.available = 1;
  ladder_structural(&d, both, "memory", NULL);
  assert_int_equal(d.nfamilies, 0);
  json_decref(both);
  json_decref(rows_only);
}

/* A latency-bound kernel on too few programs to fill the device (1.94 waves: a figure for the
 * test, not a measurement) whose row loop splits: split_rows first, ahead of the launch parameters and
 * of the rewrites that give each program more work; not on enough waves, nor where the
 * profile does not say how many. The waves come from the profile (ncu's waves_per_sm). */
static void test_structural_latency_split_rows(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"split_rows\", \"fits\": true, \"why\": \"argmax_kernel: 256 program(s)\"},"
                            " {\"name\": \"rows_per_program\", \"fits\": true, \"why\": \"r\"}]", 0, &e);
  const double waves[] = { 1.94, 6.0, -1 };
  json_t *p = ncu(12, 15, 115, 12);
  struct ladder_diag d;
  (void)state;
  assert_non_null(fits);
  json_object_set_new(json_object_get(json_array_get(json_object_get(p, "kernels"), 0), "summary"),
                      "waves_per_sm", json_real(1.94));
  ladder_l2(p, &d);
  assert_true(d.waves > 1.93 && d.waves < 1.95);
  ladder_structural(&d, fits, "latency", NULL);
  assert_string_equal(d.family[0], "split_rows");
  assert_non_null(strstr(d.why, "1.94 waves"));
  assert_true(ladder_is_structural("split_rows"));
  for (unsigned i = 0; i < sizeof(waves) / sizeof(waves[0]); i++) {
    memset(&d, 0, sizeof(d));
    d.level = 2;
    d.available = 1;
    d.waves = waves[i];
    ladder_add(&d, "num_warps", 2, "up");
    ladder_structural(&d, fits, "latency", NULL);
    if (waves[i] >= 0 && waves[i] < 2) {
      assert_string_equal(d.family[0], "split_rows");
    } else {
      for (unsigned f = 0; f < d.nfamilies; f++)
        assert_string_not_equal(d.family[f], "split_rows");
      assert_string_equal(d.family[1], "rows_per_program");
    }
  }
  json_decref(p);
  json_decref(fits);
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
    cmocka_unit_test(test_structural_needs_ir_evidence),
    cmocka_unit_test(test_half_precision_loads_are_narrow),
    cmocka_unit_test(test_block_symptoms_from_knob_kinds),
    cmocka_unit_test(test_class_from_knob_kernels),
    cmocka_unit_test(test_structural_latency_persistent_last),
    cmocka_unit_test(test_structural_tile_then_tma),
    cmocka_unit_test(test_structural_even_bounds),
    cmocka_unit_test(test_structural_deinterleave_after_rows),
    cmocka_unit_test(test_structural_l2_reuse_after_row),
    cmocka_unit_test(test_structural_relaxed_atomics),
    cmocka_unit_test(test_structural_specialize_args),
    cmocka_unit_test(test_structural_ready_after_a_sweep),
    cmocka_unit_test(test_structural_fuse_first),
    cmocka_unit_test(test_structural_batch_first),
    cmocka_unit_test(test_structural_latency_rows_before_persistent),
    cmocka_unit_test(test_structural_latency_split_rows),
    cmocka_unit_test(test_short_rows_at_l3),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
