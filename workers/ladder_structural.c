#include <stdio.h>
#include <string.h>

#include "ladder_structural.h"

/* Fewer waves of programs than this on a latency-bound kernel: too few programs to keep the
 * device's memory system busy (split_rows). */
#define LADDER_SPLIT_WAVES 2.0

static int ladder_fits(const json_t *structural, const char *name, const char **why)
{
  const json_t *s;
  size_t i;
  json_array_foreach((json_t *)structural, i, s)
    if (!strcmp(json_string_value(json_object_get(s, "name")) ?: "", name) &&
        json_is_true(json_object_get(s, "fits"))) {
      *why = json_string_value(json_object_get(s, "why")) ?: name;
      return 1;
    }
  return 0;
}

/* Parameter `key` of a fitting rewrite's default parameters, or -1. */
static long ladder_fit_param(const json_t *structural, const char *name, const char *key)
{
  const json_t *s;
  size_t i;
  json_array_foreach((json_t *)structural, i, s)
    if (!strcmp(json_string_value(json_object_get(s, "name")) ?: "", name) &&
        json_is_true(json_object_get(s, "fits"))) {
      const json_t *v = json_object_get(json_object_get(s, "params"), key);
      return json_is_integer(v) ? (long)json_integer_value(v) : -1;
    }
  return -1;
}

/* Whether the level asks for more work per program: a block size to grow (L3's "accesses
 * are vectorized" verdict, where nothing in the IR is wrong). */
static int ladder_wants_more_work(const struct ladder_diag *d)
{
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (!strcmp(d->family[i], "block_size") && !strcmp(d->direction[i], "up"))
      return 1;
  return 0;
}

/* The families ladder_structural justifies from a rewrite's fit. after_sweep: goes before
 * the sweeps only once the job has had a round of a launch-parameter family (l2_reuse: its
 * hints are tried once per kernel structure at the incumbent's launch, so they should meet
 * the block and warps a sweep chose). */
static const struct {
  const char *family;
  int after_sweep;
  const char *rewrite; /* the survey's name of its rewrite */
} ladder_structural_tab[] = {
  { "row_in_registers", 0, "row_single_block" },  { "tile_grid", 0, "tile_grid" },
  { "persistent_grid", 0, "persistent_grid" },    { "rows_per_program", 0, "rows_per_program" },
  { "coalesce_access", 0, "strided_reduction_tiles" }, { "tma_loads", 0, "tma_loads" },
  { "deinterleave_pairs", 0, "deinterleave_pairs" }, { "fuse_kernels", 0, "fuse_kernels" },
  { "l2_reuse", 1, "l2_reuse" },                  { "split_rows", 0, "split_rows" },
  { "even_bounds", 0, "even_bounds" },            { "fold_exp2", 0, "fold_exp2" },
  { "batch_launches", 0, "batch_launches" },      { "relaxed_atomics", 0, "relaxed_atomics" },
  { "specialize_args", 0, "specialize_args" },
};

/* The family's entry in ladder_structural_tab, or -1. */
static int ladder_structural_find(const char *family)
{
  for (unsigned i = 0; i < sizeof(ladder_structural_tab) / sizeof(ladder_structural_tab[0]); i++)
    if (!strcmp(family, ladder_structural_tab[i].family))
      return (int)i;
  return -1;
}

int ladder_is_structural(const char *family)
{
  return ladder_structural_find(family) >= 0;
}

int ladder_structural_ready(const char *family, const json_t *history)
{
  const json_t *r;
  size_t i;
  int k = ladder_structural_find(family);
  if (k < 0)
    return 0;
  if (!ladder_structural_tab[k].after_sweep)
    return 1;
  json_array_foreach(history, i, r) {
    const char *f = json_string_value(json_object_get(r, "family"));
    if (f && !ladder_is_structural(f))
      return 1;
  }
  return 0;
}

/* Level 1: the rewrites whose precondition the source alone shows (no profile yet). */
static void ladder_structural_l1(struct ladder_diag *d, const json_t *structural)
{
  const char *why = NULL;

  if (ladder_fits(structural, "row_single_block", &why))
    ladder_add(d, "row_in_registers", 3, "");
  if (ladder_fits(structural, "strided_reduction_tiles", &why))
    ladder_add(d, "coalesce_access", 3, "");
  if (ladder_fits(structural, "tile_grid", &why))
    ladder_add(d, "tile_grid", 3, "");
}

/* Level 2: what the profile's class (launch- or latency-bound) justifies. */
static void ladder_structural_l2(struct ladder_diag *d, const json_t *structural, const char *l2_class)
{
  const char *why = NULL;

  if (l2_class && !strcmp(l2_class, "launch") && ladder_fits(structural, "persistent_grid", &why)) {
    ladder_why(d, " Structural: %s; launch-bound, so a persistent grid.", why);
    ladder_add(d, "persistent_grid", 2, "");
    ladder_first(d, "persistent_grid");
    return;
  }
  /* Latency-bound with occupancy to spare: each program does too little to hide its loads.
   * Bigger blocks and more warps come first; when the kernel has no block knob (a block fixed
   * by the problem, like RoPE's half head), what is left is giving a program more work:
   * several rows side by side as one 2-D tile first (its accesses get as wide as the tile:
   * measured on the H200, RoPE gained nothing from num_warps 1..16), then a persistent grid
   * (which keeps one narrow row per iteration). After the launch parameters in the list. */
  if (!l2_class || strcmp(l2_class, "latency"))
    return;
  /* Too few programs to fill the device: the opposite of too little work each. A row split
   * over several programs, ahead of the launch parameters (the H200's argmax, 256 programs
   * on 132 SMs: latency-bound, memory 12%, SM 15%, occupancy 12% in its profiles, whatever
   * its block and warps; 0.12 waves in ncu's count, call BO). There the split was correct but
   * slower than a wider block of the loop, which the rules sweep beside it (rules.c). */
  if (d->waves >= 0 && d->waves < LADDER_SPLIT_WAVES && ladder_fits(structural, "split_rows", &why)) {
    ladder_why(d, " Structural: %s; latency-bound on %.2f waves of programs, so each row split over "
               "several.", why, d->waves);
    ladder_add(d, "split_rows", 2, "");
    ladder_first(d, "split_rows");
    return;
  }
  if (ladder_fits(structural, "rows_per_program", &why)) {
    ladder_why(d, " Structural: %s; latency-bound, so rows side by side in one program.", why);
    ladder_add(d, "rows_per_program", 2, "");
  }
  if (ladder_fits(structural, "persistent_grid", &why)) {
    ladder_why(d, " Structural: %s; latency-bound, so a persistent grid after the launch "
               "parameters.", why);
    ladder_add(d, "persistent_grid", 2, "");
  }
}

/* Level 3: what the compiled IR shows (narrow accesses, tensor-core dots, ordered atomics,
 * loops loading memory), each rewrite justified by its fact and stated in the hypothesis. */
static void ladder_structural_l3(struct ladder_diag *d, const json_t *structural, const char *l2_class,
                                 const json_t *ir)
{
  const json_t *ptx = json_object_get(ir, "ptx"), *tg = json_object_get(ir, "ttgir"), *loop;
  const char *why = NULL;
  long narrow = ladder_narrow(ptx, "ld");
  long wide = ladder_ir_int(ptx, "ld.global.128"), loops_loading = 0;
  long ordered = ladder_ir_int(ptx, "atom.ordered"); /* atomics at an acquire/release ordering */
  long dots = ladder_ir_int(tg, "dots") + ladder_ir_int(ptx, "mma.sync") + ladder_ir_int(ptx, "wgmma");
  /* arithmetic may bound the loop: tensor-core dots, or a compute-bound profile; never on a
   * memory-bound one */
  int arith = (dots > 0 || (l2_class && !strcmp(l2_class, "compute"))) &&
              !(l2_class && !strcmp(l2_class, "memory"));
  size_t i;

  json_array_foreach(json_object_get(tg, "loops"), i, loop)
    if (json_integer_value(json_object_get(loop, "loads")) > 0)
      loops_loading++;
  /* Atomics at an acquire/release ordering that only accumulate (the survey checked the
   * source: no result read, the target never loaded): relaxed, they lose the fence and the L1
   * invalidation ptxas puts around each. Placed first here, so every rewrite justified below
   * goes ahead of it and it goes ahead of the launch sweeps. */
  if (ordered > 0 && ladder_fits(structural, "relaxed_atomics", &why)) {
    ladder_why(d, " Structural: %s; the PTX has %ld ordered atomics.", why, ordered);
    ladder_add(d, "relaxed_atomics", 3, "");
    ladder_first(d, "relaxed_atomics");
  }
  /* Atomic sums into the same addresses from every program (a norm backward's weight
   * gradient): a persistent grid adds each program's sum once (the survey's hoist), as many
   * atomics as programs instead of as rows. Ahead of relaxing them (placed after it). */
  if (ladder_ir_int(ptx, "atom.global") > 0 && ladder_fit_param(structural, "persistent_grid", "hoist") == 1 &&
      ladder_fits(structural, "persistent_grid", &why)) {
    ladder_why(d, " Structural: %s; the PTX has %ld atomics.", why, ladder_ir_int(ptx, "atom.global"));
    ladder_add(d, "persistent_grid", 3, "");
    ladder_first(d, "persistent_grid");
  }
  /* A tensor read again in a later pass (the loop form of softmax and norms, whose row may
   * not fit in registers): cache hints keeping the earlier pass's lines in L2. Last in the
   * list, behind every rewrite below (a row held in registers reads memory once and needs no
   * hint); ladder_structural_ready holds it back until a launch sweep has run. */
  if (loops_loading > 1 && ladder_fits(structural, "l2_reuse", &why)) {
    ladder_why(d, " Structural: %s; %ld loops load global memory.", why, loops_loading);
    ladder_add(d, "l2_reuse", 3, "");
  }
  /* Each justified rewrite moves to the front, so the last one here is tried first: a
   * strided reduction's coalescing tiles before a row kept in registers (a column sum fits
   * both syntactically; only the tiles fix its access pattern). */
  if (loops_loading > 0 && ladder_fits(structural, "row_single_block", &why)) {
    ladder_why(d, " Structural: %s; %ld loop(s) load global memory each pass.", why, loops_loading);
    ladder_add(d, "row_in_registers", 3, "");
    ladder_first(d, "row_in_registers");
  }
  /* Bound checks in a loop whose block divides its length: constant once a flag says so. They
   * cost arithmetic (a compare and a select per element, the loads' predicates), which shows
   * where arithmetic bounds the loop (a tile loop of tensor-core dots, a compute-bound kernel),
   * not on a memory-bound one. Behind the tile rewrites below (moved first after it). */
  if (arith && ladder_fits(structural, "even_bounds", &why)) {
    ladder_why(d, " Structural: %s.", why);
    ladder_add(d, "even_bounds", 3, "");
    ladder_first(d, "even_bounds");
  }
  /* The softmax scale folded into exp2: one multiply per score fewer, on the same kernels
   * (on an H100 a hand-written copy of the unseen attention with both took 0.80 of its first
   * draft's time, with even_bounds alone 0.93): ahead of even_bounds. */
  if (arith && ladder_fits(structural, "fold_exp2", &why)) {
    ladder_why(d, " Structural: %s.", why);
    ladder_add(d, "fold_exp2", 3, "");
    ladder_first(d, "fold_exp2");
  }
  /* A tile kernel's loads through pointer tensors, where the harness says the device has a
   * tensor memory accelerator: tensor descriptors, after the tile configuration (placed first
   * below, so tried first). */
  if (dots > 0 && ladder_fits(structural, "tma_loads", &why)) {
    ladder_why(d, " Structural: %s.", why);
    ladder_add(d, "tma_loads", 3, "");
    ladder_first(d, "tma_loads");
  }
  if (dots > 0 && ladder_fits(structural, "tile_grid", &why)) {
    ladder_why(d, " Structural: %s; the IR has %ld tensor-core dots.", why, dots);
    ladder_add(d, "tile_grid", 3, "");
    ladder_first(d, "tile_grid");
  }
  if (narrow > 0 && wide <= 0 && ladder_fits(structural, "strided_reduction_tiles", &why)) {
    ladder_why(d, " Structural: %s; global loads are narrow (%ld).", why, narrow);
    ladder_add(d, "coalesce_access", 3, "");
    ladder_first(d, "coalesce_access");
  }
  /* Accesses at stride 2 (elements 2i and 2i + 1) are one element wide per thread whatever
   * the launch: one contiguous access split into even and odd lanes. On a latency-bound
   * kernel that fits rows_per_program (justified at L2) the rows come first: that rewrite's
   * precondition refuses the reshape this one writes, and this one applies to its 2-D tile. */
  if (narrow > 0 &&
      !(l2_class && !strcmp(l2_class, "latency") && ladder_fits(structural, "rows_per_program", &why)) &&
      ladder_fits(structural, "deinterleave_pairs", &why)) {
    ladder_why(d, " Structural: %s; global loads are narrow (%ld).", why, narrow);
    ladder_add(d, "deinterleave_pairs", 3, "");
    ladder_first(d, "deinterleave_pairs");
  }
  /* Narrow accesses bounded or addressed by a parameter the kernel's @triton.jit keeps from
   * being specialised (do_not_specialize): Triton knows nothing of its divisibility or
   * alignment, so no access can be wider than one element whatever the launch or the rewrites
   * above (offline for cuda:90, a masked fp16 load: 16 ld.global.b16 per thread, two
   * ld.global.v4.b32 once the length is specialised). Last here, so tried first. Not where
   * elementwise_vector fits: vectorize_access releases the names itself. */
  if ((narrow > 0 || ladder_narrow(ptx, "st") > 0) && !ladder_fits(structural, "elementwise_vector", &why) &&
      ladder_fits(structural, "specialize_args", &why)) {
    ladder_why(d, " Structural: %s.", why);
    ladder_add(d, "specialize_args", 3, "");
    ladder_first(d, "specialize_args");
  }
}

static void ladder_structural_level(struct ladder_diag *d, const json_t *structural,
                                    const char *l2_class, const json_t *ir)
{
  if (!d->available || !json_is_array(structural))
    return;
  if (d->level == 1)
    ladder_structural_l1(d, structural);
  else if (d->level == 2)
    ladder_structural_l2(d, structural, l2_class);
  else if (d->level == 3)
    ladder_structural_l3(d, structural, l2_class, ir);
}

void ladder_short_rows(struct ladder_diag *d, const json_t *knobs)
{
  const json_t *structural = json_object_get(knobs, "structural"), *k;
  const char *why = NULL;
  size_t i;

  if (!d->available || d->level != 3 || !ladder_wants_more_work(d) ||
      ladder_fit_param(structural, "rows_per_program", "ROWS") < LADDER_ROWS_SHORT ||
      !ladder_fits(structural, "rows_per_program", &why))
    return;
  json_array_foreach(json_object_get(knobs, "knobs"), i, k)
    if (!strcmp(json_string_value(json_object_get(k, "kind")) ?: "", "block"))
      return; /* a block that can grow: block_size gives the program more work */
  ladder_why(d, " Structural: %s; more work per program and no block knob, so rows side by side.",
             why);
  ladder_add(d, "rows_per_program", 3, "");
  ladder_first(d, "rows_per_program");
}

/* A rewrite that goes first at every level where the survey says it fits, whatever the
 * kernel's own bottleneck (justified at L2: a structure around the kernel, not inside it). */
static void ladder_structural_always_first(struct ladder_diag *d, const json_t *structural,
                                           const char *family)
{
  const char *why = NULL;

  if (!d->available || !json_is_array(structural) || !ladder_fits(structural, family, &why))
    return;
  if (d->level > 1)
    ladder_why(d, " Structural: %s.", why);
  ladder_add(d, family, 2, "");
  ladder_first(d, family);
}

void ladder_structural(struct ladder_diag *d, const json_t *structural, const char *l2_class,
                       const json_t *ir)
{
  ladder_structural_level(d, structural, l2_class, ir);
  /* Two kernels where the first hands the second one value per program through memory (row
   * statistics, then the row normalised with them): one kernel keeps the value in a register,
   * saving a launch and the second kernel's pass over the row in DRAM, and leaves one row
   * kernel that the rewrites above can then take whole. */
  ladder_structural_always_first(d, structural, "fuse_kernels");
  /* A Python loop launching the kernel once per batch element: one launch with the batch on
   * a grid axis pays one launch latency instead of E and fills the device with E grids' worth
   * of programs. The loop comes ahead even of fuse_kernels: every rewrite of the kernel after
   * it then acts on the whole batch's launch. */
  ladder_structural_always_first(d, structural, "batch_launches");
}

unsigned ladder_structural_fallback(struct ladder_diag *d, const json_t *structural,
                                    const char *const *skip)
{
  const char *why = NULL;
  unsigned added = 0;

  for (unsigned i = 0; i < sizeof(ladder_structural_tab) / sizeof(ladder_structural_tab[0]); i++) {
    const char *fam = ladder_structural_tab[i].family;
    unsigned before = d->nfamilies;
    if (ladder_skipped(fam, skip) || !ladder_fits(structural, ladder_structural_tab[i].rewrite, &why))
      continue;
    ladder_add(d, fam, d->level, "");
    added += d->nfamilies > before;
  }
  if (added)
    ladder_why(d, " No family the evidence justifies and no launch parameter is left: as a last "
               "resort, the rewrites whose precondition the survey says holds.");
  return added;
}
