/* The ladder's structural rules (ladder_structural.c) on crafted evidence: which rewrite
 * families each level's facts justify, in which order, and what refuses them. */
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

/* Atomic sums a persistent grid can add once per program (the survey's persistent_grid
 * offers hoist): persistent_grid at L3, ahead of relaxing the atomics, behind a row kept in
 * registers; not where the survey offers no hoist or the PTX has no atomics. */
static void test_structural_hoisted_atomics(void **state)
{
  json_error_t e;
  json_t *fits = json_loads("[{\"name\": \"row_single_block\", \"fits\": true, \"why\": \"sa: row\"},"
                            " {\"name\": \"relaxed_atomics\", \"fits\": true, \"why\": \"sa: 1 atomic(s)\"},"
                            " {\"name\": \"persistent_grid\", \"fits\": true, \"why\": \"sa: sums once\","
                            "  \"params\": {\"kernel\": \"sa\", \"k\": 4, \"hoist\": 1}}]", 0, &e);
  json_t *nohoist = json_loads("[{\"name\": \"persistent_grid\", \"fits\": true, \"why\": \"sa: loops\","
                               "  \"params\": {\"kernel\": \"sa\", \"k\": 4}}]", 0, &e);
  json_t *atoms = json_loads("{\"ptx\": {\"ld.global.32\": 2, \"atom.global\": 4, \"atom.ordered\": 4},"
                             " \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  json_t *none = json_loads("{\"ptx\": {\"ld.global.32\": 2}, \"ttgir\": {\"loops\": [{\"loads\": 1}]}}", 0, &e);
  struct ladder_diag d;
  (void)state;
  l3_structural(&d, atoms, "memory", fits);
  assert_string_equal(d.family[0], "row_in_registers");
  assert_int_equal(family_at(&d, "persistent_grid"), 1);
  assert_int_equal(family_at(&d, "relaxed_atomics"), 2);
  assert_non_null(strstr(d.why, "sa: sums once; the PTX has 4 atomics"));
  l3_structural(&d, atoms, "memory", nohoist);
  assert_int_equal(family_at(&d, "persistent_grid"), -1);
  l3_structural(&d, none, "memory", fits);
  assert_int_equal(family_at(&d, "persistent_grid"), -1);
  json_decref(fits);
  json_decref(nohoist);
  json_decref(atoms);
  json_decref(none);
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

/* The last resort after the launch parameters: the families of the rewrites the survey says
 * fit, not spent, at the diagnosis's own level in the table's order (row_single_block's family
 * is row_in_registers); one that does not fit or is spent is not added, and a second call with
 * them spent adds nothing. */
static void test_structural_fallback_adds_fitting_rewrites(void **state)
{
  json_t *fits = json_pack("[{s:s, s:b, s:s}, {s:s, s:b, s:s}, {s:s, s:b, s:s}, {s:s, s:b, s:s}]",
                           "name", "row_single_block", "fits", 1, "why", "a row in one block",
                           "name", "tile_grid", "fits", 0, "why", "no tl.dot",
                           "name", "rows_per_program", "fits", 1, "why", "rows side by side",
                           "name", "persistent_grid", "fits", 1, "why", "a persistent grid");
  const char *skip[] = { "persistent_grid", NULL };
  const char *spent[] = { "persistent_grid", "row_in_registers", "rows_per_program", NULL };
  struct ladder_diag d;
  (void)state;
  memset(&d, 0, sizeof(d));
  d.level = 4;
  d.available = 1;
  assert_int_equal(ladder_structural_fallback(&d, fits, skip), 2);
  assert_int_equal(d.nfamilies, 2);
  assert_string_equal(d.family[0], "row_in_registers");
  assert_string_equal(d.family[1], "rows_per_program");
  assert_int_equal(d.needs_level[0], 4);
  assert_int_equal(family_at(&d, "tile_grid"), -1);
  assert_non_null(strstr(d.why, "last resort"));
  memset(&d, 0, sizeof(d));
  d.level = 4;
  d.available = 1;
  assert_int_equal(ladder_structural_fallback(&d, fits, spent), 0);
  assert_int_equal(d.nfamilies, 0);
  json_decref(fits);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_structural_needs_ir_evidence),
    cmocka_unit_test(test_half_precision_loads_are_narrow),
    cmocka_unit_test(test_structural_latency_persistent_last),
    cmocka_unit_test(test_structural_tile_then_tma),
    cmocka_unit_test(test_structural_even_bounds),
    cmocka_unit_test(test_structural_deinterleave_after_rows),
    cmocka_unit_test(test_structural_l2_reuse_after_row),
    cmocka_unit_test(test_structural_relaxed_atomics),
    cmocka_unit_test(test_structural_hoisted_atomics),
    cmocka_unit_test(test_structural_specialize_args),
    cmocka_unit_test(test_structural_ready_after_a_sweep),
    cmocka_unit_test(test_structural_fuse_first),
    cmocka_unit_test(test_structural_batch_first),
    cmocka_unit_test(test_structural_latency_rows_before_persistent),
    cmocka_unit_test(test_structural_latency_split_rows),
    cmocka_unit_test(test_structural_fallback_adds_fitting_rewrites),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
