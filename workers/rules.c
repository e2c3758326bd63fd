#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proposal.h"
#include "proposer.h"
#include "rules.h"
#include "rules_structural.h"
#include "search.h"

/* Which knobs a family sweeps first (primary) and which come along (partners), and the
 * structural rewrite (harness/kharness/structural/) that implements it when one applies.
 * Selectors match a knob's kind ("block", "num_warps", "num_stages", "group", "split") or
 * its role ("block_m", "block_n", "block_k"); RULES_SEL_DOT_STAGES matches num_stages only
 * on a tile kernel (tl.dot), where the pipeline depth goes with the tile's bytes per stage
 * and elsewhere mostly changes nothing, so it would only take slots. */
struct rules_family {
  const char *family;
  const char *primary[4];
  const char *partner[3];
  const char *structural;
  /* A structural family's launch-parameter alternative: the unrewritten kernel swept over
   * these knobs (in fill_direction) in the slots the rewrite's points leave free, so the
   * rewrite competes side by side with the best the kernel as written can do. NULL: the
   * primary/partner knobs (which are also the fallback when the rewrite does not fit). */
  const char *fill[2];
  const char *fill_direction;
};

#define RULES_SEL_DOT_STAGES "num_stages@dot"

static const struct rules_family rules_families[] = {
  { "block_size", { "block" }, { "num_warps", RULES_SEL_DOT_STAGES }, NULL, { NULL }, NULL },
  { "vectorize_access", { "block" }, { "num_warps" }, "elementwise_vector", { NULL }, NULL },
  { "coalesce_access", { "block" }, { "num_warps" }, "strided_reduction_tiles", { NULL }, NULL },
  { "num_warps", { "num_warps" }, { "block" }, NULL, { NULL }, NULL },
  { "num_stages", { "num_stages" }, { "num_warps", "block_k" }, NULL, { NULL }, NULL },
  { "pipeline_loads", { "num_stages" }, { "num_warps", "block_k" }, NULL, { NULL }, NULL },
  { "use_tensor_cores", { "block_m", "block_n", "block_k" }, { "num_warps", "num_stages" }, "tile_grid", { NULL }, NULL },
  { "grid_shape", { "block_m", "block_n", "group" }, { "num_warps" }, "tile_grid", { NULL }, NULL },
  { "tile_grid", { "block_m", "block_n", "block_k", "group" }, { "num_warps", "num_stages" }, "tile_grid", { NULL }, NULL },
  /* the alternative to holding the row: walking it in wider blocks with more warps */
  { "row_in_registers", { NULL }, { NULL }, "row_single_block", { "block", "num_warps" }, "up" },
  { "persistent_grid", { NULL }, { NULL }, "persistent_grid", { NULL }, NULL },
  /* ROWS and num_warps from the rewrite's domain; beside them the kernel as written with wider
   * blocks and more warps: both give a latency-bound program more work, side by side */
  { "rows_per_program", { NULL }, { NULL }, "rows_per_program", { "block", "num_warps" }, "up" },
  /* num_warps and num_stages come from the rewrite's own domain */
  { "tma_loads", { NULL }, { NULL }, "tma_loads", { NULL }, NULL },
  /* num_warps from the rewrite's own domain */
  { "deinterleave_pairs", { NULL }, { NULL }, "deinterleave_pairs", { NULL }, NULL },
  /* num_warps from the rewrite's own domain */
  { "fuse_kernels", { NULL }, { NULL }, "fuse_kernels", { NULL }, NULL },
  /* cache hints only: the survey's configs at the incumbent's launch */
  { "l2_reuse", { NULL }, { NULL }, "l2_reuse", { NULL }, NULL },
  /* SPLIT from the rewrite's own domain; beside it the row loop as written with wider blocks
   * and more warps: on the H200 the suite's argmax split 8 ways took 0.0387 ms in round 1 of
   * runs 8-9 and was accepted alone, where a wider block of the loop had reached 0.031 ms
   * (report of record), so the split must compete with it side by side */
  { "split_rows", { NULL }, { NULL }, "split_rows", { "block", "num_warps" }, "up" },
  /* num_warps and num_stages come from the rewrite's own domain */
  { "even_bounds", { NULL }, { NULL }, "even_bounds", { NULL }, NULL },
  /* num_warps and num_stages come from the rewrite's own domain */
  { "fold_exp2", { NULL }, { NULL }, "fold_exp2", { NULL }, NULL },
  /* num_warps from the rewrite's own domain */
  { "batch_launches", { NULL }, { NULL }, "batch_launches", { NULL }, NULL },
  /* num_warps from the rewrite's own domain */
  { "relaxed_atomics", { NULL }, { NULL }, "relaxed_atomics", { NULL }, NULL },
  /* one candidate: the kernel's do_not_specialize lists without the names it releases */
  { "specialize_args", { NULL }, { NULL }, "specialize_args", { NULL }, NULL },
};

/* Window half-widths, in steps of a knob's domain. */
#define RULES_PRIMARY_AHEAD 5   /* in the evidence's direction */
#define RULES_PRIMARY_BACK 1
#define RULES_PRIMARY_EVEN 3    /* no direction */
#define RULES_PARTNER_HALF 2
#define RULES_PARTNER_WEIGHT 1.5
#define RULES_PREFER_WEIGHT 0.5 /* per step away from a pattern's preferred value */
#define RULES_SWEEPS "So the round sweeps" /* how a sweep's summary begins (a fill quotes the rest) */
#define RULES_NSEL(a) ((unsigned)(sizeof(a) / sizeof((a)[0])))
#define RULES_MAX_ELEMS_PER_THREAD 256 /* tile elements per thread (rules_overloaded_threads) */
#define RULES_DEFAULT_WARPS 4          /* Triton's num_warps when a launch sets none */
#define RULES_MAX_WARPS 32             /* 1024 threads: a CUDA block's most (the harness's domain) */
#define RULES_FILL_AHEAD_WEIGHT 0.5 /* per primary step in the direction, in a structural
                                     * round's fill: its few slots reach across the window */
#define RULES_FILL_SHARE 2 /* a structural round keeps 1/this of its budget for the kernel as
                            * written, where that has a point to offer (rules_fill_reserve) */
#define RULES_MIN_SWEEP 8 /* fewer candidates than this in the window: the primary knobs'
                           * whole domains (rules_widen) */

static const struct rules_family *rules_family_find(const char *family)
{
  for (size_t i = 0; i < sizeof(rules_families) / sizeof(rules_families[0]); i++)
    if (strcmp(rules_families[i].family, family) == 0)
      return &rules_families[i];
  return NULL;
}

const char *rules_structural_for(const char *family)
{
  const struct rules_family *f = family ? rules_family_find(family) : NULL;
  return f ? f->structural : NULL;
}

static long rules_int(const json_t *o, const char *key, long def)
{
  const json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? (long)json_integer_value(v) : def;
}

static int rules_cmp_long(const void *a, const void *b)
{
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

/* The values a knob may take: declared choices, else its kind's standard range within the
 * harness's bounds (powers of two for block sizes, capped where the block would only cover
 * padding). The current value is always in the domain. */
static void rules_domain(const json_t *k, struct rules_knob *r)
{
  const json_t *choices = json_object_get(k, "choices");
  long lo = rules_int(k, "min", 1), hi = rules_int(k, "max", 1L << 16);
  long useful = rules_int(json_object_get(k, "bound"), "max_useful", -1);
  size_t i;
  json_t *c;

  r->ndom = 0;
  if (json_is_array(choices) && json_array_size(choices)) {
    json_array_foreach(choices, i, c)
      if (json_is_integer(c) && r->ndom < RULES_MAX_VALUES)
        r->dom[r->ndom++] = (long)json_integer_value(c);
  } else if (!strcmp(r->kind, "num_warps")) {
    for (long w = 1; w <= RULES_MAX_WARPS; w *= 2)
      if (w >= lo && w <= hi)
        r->dom[r->ndom++] = w;
  } else if (!strcmp(r->kind, "num_stages")) {
    for (long s = 1; s <= 5; s++)
      if (s >= lo && s <= hi)
        r->dom[r->ndom++] = s;
  } else if (!strcmp(r->kind, "block") || !strcmp(r->kind, "group") || !strcmp(r->kind, "split")) {
    if (useful > 0 && useful < hi)
      hi = useful;
    if (lo < 1)
      lo = 1;
    for (long v = 1; v <= hi && r->ndom < RULES_MAX_VALUES; v *= 2)
      if (v >= lo)
        r->dom[r->ndom++] = v;
  }
  for (i = 0; i < r->ndom; i++)
    if (r->dom[i] == r->value)
      break;
  if (i == r->ndom && r->ndom < RULES_MAX_VALUES)
    r->dom[r->ndom++] = r->value;
  qsort(r->dom, r->ndom, sizeof(long), rules_cmp_long);
  for (i = 0; i < r->ndom; i++)
    if (r->dom[i] == r->value)
      r->cur = (unsigned)i;
}

/* Whether one of the kernels a knob reaches calls tl.dot (the knobs result's kernel facts). */
static int rules_knob_dot(const json_t *knobs, const json_t *k)
{
  const json_t *name, *kr;
  size_t i, j;
  json_array_foreach(json_object_get(k, "kernels"), i, name)
    json_array_foreach(json_object_get(knobs, "kernels"), j, kr)
      if (json_is_string(name) && json_equal(json_object_get(kr, "name"), name) &&
          json_is_true(json_object_get(kr, "uses_dot")))
        return 1;
  return 0;
}

unsigned rules_parse_knobs(const json_t *knobs, struct rules_knob *ks)
{
  unsigned n = 0;
  size_t i;
  json_t *k;
  json_array_foreach(json_object_get(knobs, "knobs"), i, k) {
    const char *id = json_string_value(json_object_get(k, "id"));
    const json_t *v = json_object_get(k, "value");
    struct rules_knob *r;
    if (!id || !json_is_integer(v) || n == RULES_MAX_KNOBS || strlen(id) >= sizeof(ks->id))
      continue;
    r = &ks[n++];
    memset(r, 0, sizeof(*r));
    snprintf(r->id, sizeof(r->id), "%s", id);
    snprintf(r->kind, sizeof(r->kind), "%s", json_string_value(json_object_get(k, "kind")) ?: "int");
    snprintf(r->role, sizeof(r->role), "%s", json_string_value(json_object_get(k, "role")) ?: "");
    r->value = (long)json_integer_value(v);
    r->dot = rules_knob_dot(knobs, k);
    snprintf(r->kernel, sizeof(r->kernel), "%s",
             json_string_value(json_array_get(json_object_get(k, "kernels"), 0)) ?: "");
    rules_domain(k, r);
  }
  return n;
}

static int rules_selects(const char *sel, const struct rules_knob *k)
{
  if (sel && !strcmp(sel, RULES_SEL_DOT_STAGES))
    return k->dot && !strcmp(k->kind, "num_stages");
  return sel && (!strcmp(sel, k->kind) || !strcmp(sel, k->role));
}

/* A knob's window: [lo, hi] indices into its domain. */
struct rules_axis {
  const struct rules_knob *k;
  int primary;
  unsigned lo, hi, center;
  int pref;                 /* domain index of the pattern's preferred value, -1: none */
  double ahead_weight;      /* cost of a primary step above the centre (0: as below it) */
};

static unsigned rules_index_of(const struct rules_knob *k, long v)
{
  for (unsigned i = 0; i < k->ndom; i++)
    if (k->dom[i] == v)
      return i;
  return k->cur;
}

/* The best configuration measured so far on this structure (status ok or the incumbent),
 * borrowed from memory; NULL when nothing was measured. */
static const json_t *rules_best_measured(const json_t *memory, const char *structure)
{
  const json_t *best = NULL, *m;
  double bt = INFINITY;
  size_t i;
  json_array_foreach(memory, i, m) {
    const char *st = json_string_value(json_object_get(m, "status")) ?: "";
    double t = json_number_value(json_object_get(m, "time_ms"));
    if (strcmp(json_string_value(json_object_get(m, "structure")) ?: "", structure) != 0)
      continue;
    if ((strcmp(st, "ok") && strcmp(st, "incumbent")) || t <= 0)
      continue;
    if (t < bt) {
      bt = t;
      best = json_object_get(m, "config");
    }
  }
  return best;
}


/* The domain index of a knob's preferred value: prefer[id], else [role], else [kind] (a
 * value or a list, the first listed value in the domain wins); -1 when there is none. */
static int rules_preferred(const json_t *prefer, const struct rules_knob *k)
{
  const char *keys[3] = { k->id, k->role, k->kind };
  for (unsigned i = 0; i < 3 && prefer; i++) {
    const json_t *p = keys[i][0] ? json_object_get(prefer, keys[i]) : NULL;
    size_t n = json_is_array(p) ? json_array_size(p) : json_is_integer(p) ? 1 : 0;
    for (size_t j = 0; j < n; j++) {
      const json_t *x = json_is_array(p) ? json_array_get(p, j) : p;
      for (unsigned d = 0; json_is_integer(x) && d < k->ndom; d++)
        if (k->dom[d] == json_integer_value(x))
          return (int)d;
    }
  }
  return -1;
}

static unsigned rules_clamp(long v, unsigned n) { return v < 0 ? 0 : v >= (long)n ? n - 1 : (unsigned)v; }

static void rules_axis_window(struct rules_axis *a, const char *direction)
{
  const struct rules_knob *k = a->k;
  long c = a->center, lo, hi;
  if (a->primary) {
    if (direction && !strcmp(direction, "up")) {
      lo = c - RULES_PRIMARY_BACK;
      hi = c + RULES_PRIMARY_AHEAD;
    } else if (direction && !strcmp(direction, "down")) {
      lo = c - RULES_PRIMARY_AHEAD;
      hi = c + RULES_PRIMARY_BACK;
    } else {
      lo = c - RULES_PRIMARY_EVEN;
      hi = c + RULES_PRIMARY_EVEN;
    }
  } else {
    lo = c - RULES_PARTNER_HALF;
    hi = c + RULES_PARTNER_HALF;
  }
  a->lo = rules_clamp(lo, k->ndom);
  a->hi = rules_clamp(hi, k->ndom);
}

/* 1 when cfg needs at least the resources of a configuration that spilled, ran out of
 * shared memory or compiled past the limit: every block/stage knob at least as large, every
 * num_warps at most. */
static int rules_dominates_failure(const json_t *memory, const char *structure,
                                   const struct rules_axis *ax, unsigned nax, const long *vals)
{
  const json_t *m;
  size_t i;
  json_array_foreach(memory, i, m) {
    const json_t *cfg = json_object_get(m, "config"), *facts = json_object_get(m, "facts"), *f;
    const char *reason = json_string_value(json_object_get(m, "reason")) ?: "";
    const char *fk;
    /* ... or whose compile ran past the harness's limit (kharness/precompile.py): a larger
     * tile only compiles longer */
    int failed = strstr(reason, "out of resource") || strstr(reason, "OutOfResources") ||
                 strstr(reason, "shared memory") || strstr(reason, "Insufficient registers") ||
                 strstr(reason, "compile exceeded");
    int dom = 1;
    json_object_foreach((json_t *)facts, fk, f)
      if (rules_int(f, "spills", 0) > 0)
        failed = 1;
    if (!failed || strcmp(json_string_value(json_object_get(m, "structure")) ?: "", structure))
      continue;
    for (unsigned a = 0; a < nax && dom; a++) {
      const json_t *v = json_object_get(cfg, ax[a].k->id);
      if (!json_is_integer(v))
        continue;
      if (!strcmp(ax[a].k->kind, "num_warps"))
        dom = vals[a] <= json_integer_value(v);
      else if (!strcmp(ax[a].k->kind, "block") || !strcmp(ax[a].k->kind, "num_stages"))
        dom = vals[a] >= json_integer_value(v);
    }
    if (dom)
      return 1;
  }
  return 0;
}

/* The device's shared-memory limit, once a configuration has failed on it: Triton says
 * "out of resource: shared memory, Required: N, Hardware limit: L". 0 when not known. */
static long rules_smem_limit(const json_t *memory)
{
  const json_t *m;
  size_t i;
  json_array_foreach(memory, i, m) {
    const char *r = json_string_value(json_object_get(m, "reason")), *h;
    long v;
    if (r && (h = strstr(r, "Hardware limit: ")) && (v = strtol(h + 16, NULL, 10)) > 0)
      return v;
  }
  return 0;
}

/* A tile knob's value in a configuration: the swept value when the knob is an axis, else
 * its current value; -1 when the kernel has no knob of that role. */
static long rules_role_value(const char *role, const struct rules_knob *ks, unsigned nk,
                             const struct rules_axis *ax, unsigned nax, const long *vals)
{
  for (unsigned a = 0; a < nax; a++)
    if (!strcmp(ax[a].k->role, role) || !strcmp(ax[a].k->kind, role))
      return vals[a];
  for (unsigned i = 0; i < nk; i++)
    if (!strcmp(ks[i].role, role) || !strcmp(ks[i].kind, role))
      return ks[i].value;
  return -1;
}

/* The pipeline depth that buffers a tile kernel's loads: a loop's own num_stages
 * (`tl.range(..., num_stages=s)`, role loop_stages) overrides the launch's for that loop, so it
 * governs the dot loop's shared memory where the kernel has one; else the launch's. */
static long rules_stages_value(const struct rules_knob *ks, unsigned nk, const struct rules_axis *ax,
                               unsigned nax, const long *vals)
{
  long loop = rules_role_value("loop_stages", ks, nk, ax, nax, vals);
  return loop > 0 ? loop : rules_role_value("num_stages", ks, nk, ax, nax, vals);
}

/* 1 when a tile configuration cannot fit the device's shared memory: a pipelined tl.dot
 * kernel buffers num_stages tiles of A (BLOCK_M x BLOCK_K) and B (BLOCK_K x BLOCK_N), so its
 * need scales as (BM*BK + BK*BN) * stages from a measured configuration's shared bytes (the
 * stages being the loop's own where it has them: rules_stages_value). Only once the limit is
 * known from a failure (nothing is assumed about the device). */
static int rules_smem_exceeds(const json_t *memory, const char *structure, const struct rules_knob *ks,
                              unsigned nk, const struct rules_axis *ax, unsigned nax, const long *vals)
{
  long limit = rules_smem_limit(memory);
  long bm = rules_role_value("block_m", ks, nk, ax, nax, vals);
  long bn = rules_role_value("block_n", ks, nk, ax, nax, vals);
  long bk = rules_role_value("block_k", ks, nk, ax, nax, vals);
  long st = rules_stages_value(ks, nk, ax, nax, vals);
  const json_t *m;
  size_t i;
  if (limit <= 0 || bm <= 0 || bn <= 0 || bk <= 0 || st <= 0)
    return 0;
  json_array_foreach(memory, i, m) {
    const json_t *cfg = json_object_get(m, "config"), *f;
    const char *fk;
    long bm0 = -1, bn0 = -1, bk0 = -1, st0 = -1, loop0 = -1, sh = 0;
    if (strcmp(json_string_value(json_object_get(m, "structure")) ?: "", structure))
      continue;
    json_object_foreach((json_t *)json_object_get(m, "facts"), fk, f)
      sh = rules_int(f, "shared_bytes", 0) > sh ? rules_int(f, "shared_bytes", 0) : sh;
    for (unsigned k = 0; k < nk && sh > 0; k++) {
      long v = rules_int(cfg, ks[k].id, -1);
      if (!strcmp(ks[k].role, "block_m")) bm0 = v;
      else if (!strcmp(ks[k].role, "block_n")) bn0 = v;
      else if (!strcmp(ks[k].role, "block_k")) bk0 = v;
      else if (!strcmp(ks[k].role, "loop_stages")) loop0 = v;
      else if (!strcmp(ks[k].kind, "num_stages")) st0 = v;
    }
    st0 = loop0 > 0 ? loop0 : st0;
    if (sh > 0 && bm0 > 0 && bn0 > 0 && bk0 > 0 && st0 > 0) {
      double est = (double)sh * (double)((bm * bk + bk * bn) * st) /
                   (double)((bm0 * bk0 + bk0 * bn0) * st0);
      return est > (double)limit;
    }
  }
  return 0;
}

/* Fewer block elements than threads: every thread past the block's size idles. */
static int rules_idle_threads(const struct rules_axis *ax, unsigned nax, const long *vals)
{
  long elems = 1, warps = -1;
  int blocks = 0;
  for (unsigned a = 0; a < nax; a++) {
    if (!strcmp(ax[a].k->kind, "block")) {
      elems *= vals[a];
      blocks++;
    } else if (!strcmp(ax[a].k->kind, "num_warps")) {
      warps = vals[a];
    }
  }
  return blocks && warps > 0 && elems < 32 * warps;
}

/* A block knob's kernel's tile in configuration vals: the incumbent's largest register
 * tensor (in->tile, from its TTGIR) scaled by each of the kernel's block knobs' ratio to the
 * value it was compiled with, when every one is known there; else the product of its block
 * knobs (a dot's BLOCK_K excepted: it is no tensor's second axis beside BLOCK_M x BLOCK_N),
 * which misses the extents that are no knob (a rows kernel's row width of 64 computed from
 * the input's shape: measured on the H200, its block-size sweep then grew ROWS to tiles ptxas
 * worked on for minutes). *warps gets the kernel's num_warps. */
static double rules_tile_elems(const json_t *tile, const struct rules_knob *ks, unsigned nk,
                               const struct rules_axis *ax, unsigned nax, const long *vals,
                               const char *kernel, long *warps)
{
  const json_t *at = json_object_get(tile, "at");
  double prod = 1, scaled = (double)json_integer_value(json_object_get(tile, "elems"));
  int known = scaled > 0 && !strcmp(json_string_value(json_object_get(tile, "kernel")) ?: "", kernel);
  *warps = RULES_DEFAULT_WARPS;
  for (unsigned j = 0; j < nk; j++) {
    long v = ks[j].value;
    const json_t *was = json_object_get(at, ks[j].id);
    if (strcmp(ks[j].kernel, kernel))
      continue;
    for (unsigned a = 0; a < nax; a++)
      if (ax[a].k == &ks[j])
        v = vals[a];
    if (!strcmp(ks[j].kind, "num_warps")) {
      *warps = v;
    } else if (!strcmp(ks[j].kind, "block") && strcmp(ks[j].role, "block_k")) {
      prod *= (double)v;
      if (json_is_integer(was) && json_integer_value(was) > 0)
        scaled *= (double)v / (double)json_integer_value(was);
      else
        known = 0;
    }
  }
  return known ? scaled : prod;
}

/* More than RULES_MAX_ELEMS_PER_THREAD tile elements per thread spills, and such a kernel's
 * compile grows with it. (Triton's best configurations seen on the H200 hold 4-128 per
 * thread.) Not on triton-ascend's IR, whose vector cores have no threads: there a block is
 * bounded by the unified buffer. */
static int rules_overloaded_threads(const json_t *tile, const struct rules_knob *ks, unsigned nk,
                                    const struct rules_axis *ax, unsigned nax, const long *vals)
{
  for (unsigned i = 0; i < nk; i++) { /* the tile of each block knob's kernel */
    long warps;
    double elems;
    if (strcmp(ks[i].kind, "block"))
      continue;
    elems = rules_tile_elems(tile, ks, nk, ax, nax, vals, ks[i].kernel, &warps);
    if (warps > 0 && elems > (double)RULES_MAX_ELEMS_PER_THREAD * 32 * (double)warps)
      return 1;
  }
  return 0;
}

json_t *rules_tile(const struct evidence *ev, const json_t *knobs)
{
  const json_t *ir = ev ? ev->ir : NULL, *hint = ev ? ev->tile_hint : NULL, *k;
  json_int_t elems = json_integer_value(json_object_get(json_object_get(ir, "ttgir"), "max_tensor_elems"));
  const char *kernel = json_string_value(json_object_get(ir, "kernel"));
  json_t *at;
  size_t i;

  if (elems > 0 && kernel && ev->compile)
    return json_pack("{s:s, s:I, s:o}", "kernel", kernel, "elems", elems, "at", evidence_launch(ev));
  /* No IR of the incumbent (a round settled at L1 reads none): its largest tensor as its
   * sweep's compile recorded it, at the values its knobs have now, which it was compiled
   * with. Measured on the H200: without it a rows kernel's block-size sweep after an L1
   * settlement grew ROWS x 64 tiles that ptxas worked on past 60 s, 8 of 30 candidates. */
  elems = json_integer_value(json_object_get(hint, "elems"));
  kernel = json_string_value(json_object_get(hint, "kernel"));
  if (elems <= 0 || !kernel || !(at = json_object()))
    return NULL;
  json_array_foreach(json_object_get(knobs, "knobs"), i, k) {
    const char *id = json_string_value(json_object_get(k, "id"));
    json_t *v = json_object_get(k, "value");
    if (id && json_is_integer(v))
      json_object_set(at, id, v);
  }
  return json_pack("{s:s, s:I, s:o}", "kernel", kernel, "elems", elems, "at", at);
}

struct rules_scored {
  double score;
  long vals[RULES_MAX_KNOBS];
};

static int rules_cmp_scored(const void *a, const void *b)
{
  const struct rules_scored *x = a, *y = b;
  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  for (unsigned i = 0; i < RULES_MAX_KNOBS; i++)
    if (x->vals[i] != y->vals[i])
      return x->vals[i] < y->vals[i] ? -1 : 1;
  return 0;
}

/* The full configuration (every knob) with the swept axes set to vals. */
static json_t *rules_config(const struct rules_knob *ks, unsigned nk, const struct rules_axis *ax,
                            unsigned nax, const long *vals)
{
  json_t *cfg = json_object();
  for (unsigned i = 0; i < nk; i++)
    json_object_set_new(cfg, ks[i].id, json_integer(ks[i].value));
  for (unsigned a = 0; a < nax; a++)
    json_object_set_new(cfg, ax[a].k->id, json_integer(vals[a]));
  return cfg;
}

static int rules_was_measured(const json_t *memory, const char *structure, const json_t *cfg)
{
  const json_t *m;
  size_t i;
  json_array_foreach(memory, i, m)
    if (!strcmp(json_string_value(json_object_get(m, "structure")) ?: "", structure) &&
        json_equal(json_object_get(m, "config"), (json_t *)cfg))
      return 1;
  return 0;
}

/* Picks the swept axes for a family: primary selectors, then partners. */
struct rules_select {
  const char *const *primary, *const *partner;
  unsigned nprimary, npartner;
  const char *direction;
  double ahead_weight;      /* RULES_FILL_AHEAD_WEIGHT for a fill, else 0 */
};

static unsigned rules_axes(const struct rules_select *sel_in, const struct rules_knob *ks,
                           unsigned nk, int no_gpu_partners, struct rules_axis *ax)
{
  unsigned n = 0;
  for (int pass = 0; pass < 2; pass++) {
    const char *const *sel = pass == 0 ? sel_in->primary : sel_in->partner;
    unsigned nsel = pass == 0 ? sel_in->nprimary : sel_in->npartner;
    for (unsigned i = 0; i < nk; i++) {
      int hit = 0, dup = 0;
      for (unsigned s = 0; s < nsel && !hit; s++)
        hit = rules_selects(sel[s], &ks[i]);
      if (pass == 1 && no_gpu_partners &&
          (!strcmp(ks[i].kind, "num_warps") || !strcmp(ks[i].kind, "num_stages")))
        hit = 0;
      for (unsigned a = 0; a < n && !dup; a++)
        dup = ax[a].k == &ks[i];
      if (hit && !dup && ks[i].ndom > 1 && n < RULES_MAX_KNOBS) {
        ax[n].k = &ks[i];
        ax[n].primary = pass == 0;
        n++;
      }
    }
  }
  return n;
}

/* Enumerates the windows' product, drops what is measured or doomed, ranks by distance
 * from the centre. Fills out->candidates. */
static int rules_neighbourhood(const struct rules_plan_in *in, const struct rules_knob *ks,
                               unsigned nk, struct rules_axis *ax, unsigned nax,
                               struct rules_plan_out *out, unsigned *pruned)
{
  struct rules_scored *cands;
  unsigned long total = 1;
  unsigned n = 0, idx[RULES_MAX_KNOBS] = { 0 };
  int rc = 0;

  for (unsigned a = 0; a < nax; a++)
    total *= ax[a].hi - ax[a].lo + 1;
  /* Narrow partner windows first, then primary, until the product is enumerable. */
  for (int shrink = 0; total > RULES_ENUM_MAX && shrink < 8; shrink++) {
    total = 1;
    for (unsigned a = 0; a < nax; a++) {
      if (!ax[a].primary || shrink >= 4) {
        if (ax[a].hi > ax[a].center)
          ax[a].hi--;
        if (ax[a].lo < ax[a].center)
          ax[a].lo++;
      }
      total *= ax[a].hi - ax[a].lo + 1;
    }
  }
  cands = calloc(total, sizeof(*cands));
  if (!cands)
    return -ENOMEM;
  for (unsigned a = 0; a < nax; a++)
    idx[a] = ax[a].lo;
  *pruned = 0;
  for (unsigned long t = 0; t < total; t++) {
    struct rules_scored *s = &cands[n];
    double score = 0;
    int same = 1;
    json_t *cfg;
    memset(s, 0, sizeof(*s));
    for (unsigned a = 0; a < nax; a++) {
      s->vals[a] = ax[a].k->dom[idx[a]];
      same = same && idx[a] == ax[a].k->cur;
      double steps = fabs((double)idx[a] - (double)ax[a].center);
      if (ax[a].ahead_weight > 0 && idx[a] > ax[a].center)
        steps *= ax[a].ahead_weight;
      score += (ax[a].primary ? 1.0 : RULES_PARTNER_WEIGHT) * steps;
      if (ax[a].pref >= 0)
        score += RULES_PREFER_WEIGHT * fabs((double)idx[a] - (double)ax[a].pref);
    }
    cfg = rules_config(ks, nk, ax, nax, s->vals);
    if (same || rules_was_measured(in->memory, in->structure, cfg)) {
      /* the incumbent or already measured: never twice */
    } else if (rules_dominates_failure(in->memory, in->structure, ax, nax, s->vals) ||
               rules_idle_threads(ax, nax, s->vals) ||
               (!in->no_gpu_partners && rules_overloaded_threads(in->tile, ks, nk, ax, nax, s->vals)) ||
               rules_smem_exceeds(in->memory, in->structure, ks, nk, ax, nax, s->vals)) {
      (*pruned)++;
    } else {
      s->score = score;
      n++;
    }
    json_decref(cfg);
    for (unsigned a = 0; a < nax; a++) { /* next index (mixed radix) */
      if (idx[a] < ax[a].hi) {
        idx[a]++;
        break;
      }
      idx[a] = ax[a].lo;
    }
  }
  qsort(cands, n, sizeof(*cands), rules_cmp_scored);
  out->candidates = json_array();
  for (unsigned i = 0; i < n && i < in->max_candidates; i++) {
    json_t *ch = json_object();
    char id[32];
    for (unsigned a = 0; a < nax; a++)
      if (cands[i].vals[a] != ax[a].k->value)
        json_object_set_new(ch, ax[a].k->id, json_integer(cands[i].vals[a]));
    snprintf(id, sizeof(id), "r%dk%u", in->round, i);
    json_array_append_new(out->candidates, json_pack("{s:s, s:o}", "id", id, "changes", ch));
  }
  if (!json_array_size(out->candidates)) {
    json_decref(out->candidates); /* nothing to propose: the caller owns nothing */
    out->candidates = NULL;
    rc = -ENOENT;
  }
  free(cands);
  return rc;
}


/* A window that leaves most of a round's slots idle (a knob of few values, or a
 * neighbourhood measured already) opens to the primary knobs' whole domains, both sides of
 * the direction: ranking by distance from the centre still puts the nearest first, and a
 * value the direction ruled out is measured rather than never (the H200's moe_gating_topk:
 * "up" from 4 warps, while 1 warp was 3.7x faster). 1 when a window grew. */
static int rules_widen(struct rules_axis *ax, unsigned nax)
{
  int grew = 0;
  for (unsigned a = 0; a < nax; a++) {
    if (!ax[a].primary || (ax[a].lo == 0 && ax[a].hi + 1 == ax[a].k->ndom))
      continue;
    ax[a].lo = 0;
    ax[a].hi = ax[a].k->ndom - 1;
    grew = 1;
  }
  return grew;
}

static void rules_describe(const struct rules_axis *ax, unsigned nax, const json_t *center,
                           unsigned n, unsigned pruned, char *out, size_t cap)
{
  size_t len = 0;
  len += (size_t)snprintf(out + len, cap - len, "%s", RULES_SWEEPS);
  for (unsigned a = 0; a < nax && len < cap; a++)
    len += (size_t)snprintf(out + len, cap - len, "%s %s %ld..%ld%s", a ? "," : "", ax[a].k->id,
                            ax[a].k->dom[ax[a].lo], ax[a].k->dom[ax[a].hi],
                            ax[a].primary ? "" : " (partner)");
  if (len < cap)
    len += (size_t)snprintf(out + len, cap - len,
                            ": %u configurations nearest the %s", n,
                            center ? "best measured so far" : "incumbent");
  if (pruned && len < cap)
    snprintf(out + len, cap - len, ", %u pruned (more than %d tile elements per thread, or at "
             "least the registers or shared memory of one that spilled or failed)", pruned,
             RULES_MAX_ELEMS_PER_THREAD);
}

/* The neighbourhood sweep over the knobs sel picks, at most budget candidates; fills
 * out->candidates and out->summary (the caller sets the signature). */
static int rules_sweep(const struct rules_plan_in *in, const char *family,
                       const struct rules_select *sel, unsigned budget, struct rules_plan_out *out,
                       char *why, size_t whylen)
{
  struct rules_knob ks[RULES_MAX_KNOBS];
  struct rules_axis ax[RULES_MAX_KNOBS];
  struct rules_plan_in bounded = *in;
  const json_t *center;
  unsigned nk, nax, pruned = 0;
  int rc;

  bounded.max_candidates = budget;
  nk = rules_parse_knobs(in->knobs, ks);
  nax = rules_axes(sel, ks, nk, in->no_gpu_partners, ax);
  if (!nax || !ax[0].primary) {
    snprintf(why, whylen, "rules: the kernel has no knob for %s (declare tunables, or use a "
             "block constexpr / num_warps / num_stages the harness can find)", family);
    return -ENOENT;
  }
  center = rules_best_measured(in->memory, in->structure);
  for (unsigned a = 0; a < nax; a++) {
    const json_t *v = json_object_get(center, ax[a].k->id);
    ax[a].center = json_is_integer(v) ? rules_index_of(ax[a].k, (long)json_integer_value(v))
                                      : ax[a].k->cur;
    /* A pattern's region: where the first sweep of a structure starts, and a pull after. */
    ax[a].pref = rules_preferred(in->prefer, ax[a].k);
    if (ax[a].pref >= 0 && !center)
      ax[a].center = (unsigned)ax[a].pref;
    ax[a].ahead_weight = ax[a].primary ? sel->ahead_weight : 0;
    rules_axis_window(&ax[a], sel->direction);
    if (ax[a].pref >= 0 && (unsigned)ax[a].pref < ax[a].lo)
      ax[a].lo = (unsigned)ax[a].pref;
    if (ax[a].pref >= 0 && (unsigned)ax[a].pref > ax[a].hi)
      ax[a].hi = (unsigned)ax[a].pref;
  }
  rc = rules_neighbourhood(&bounded, ks, nk, ax, nax, out, &pruned);
  if ((rc == 0 || rc == -ENOENT) && json_array_size(out->candidates) < RULES_MIN_SWEEP &&
      json_array_size(out->candidates) < budget && rules_widen(ax, nax)) {
    json_decref(out->candidates);
    out->candidates = NULL;
    rc = rules_neighbourhood(&bounded, ks, nk, ax, nax, out, &pruned);
  }
  if (rc == -ENOENT)
    snprintf(why, whylen, "rules: every configuration of %s near the best measured one has been "
             "measured%s", family, pruned ? " or pruned" : "");
  if (rc)
    return rc;
  rules_describe(ax, nax, center, (unsigned)json_array_size(out->candidates), pruned, out->summary,
                 sizeof(out->summary));
  for (unsigned a = 0; a < nax; a++)
    if (ax[a].pref >= 0) {
      size_t len = strlen(out->summary);
      snprintf(out->summary + len, sizeof(out->summary) - len,
               "; ranked towards the values pattern %s prefers", in->pattern ? in->pattern : "?");
      break;
    }
  return 0;
}

static struct rules_select rules_family_select(const struct rules_family *f)
{
  struct rules_select s = { f->primary, f->partner, RULES_NSEL(f->primary), RULES_NSEL(f->partner),
                            NULL, 0 };
  return s;
}

/* The unrewritten kernel swept over the family's launch-parameter alternative, at most budget
 * points, into fill (candidates owned by the caller); nonzero when none (no knob, all measured). */
static int rules_fill_sweep(const struct rules_plan_in *in, const struct rules_family *f,
                            unsigned budget, struct rules_plan_out *fill)
{
  struct rules_select sel = rules_family_select(f);
  char why[256];

  if (f->fill[0]) {
    sel.primary = &f->fill[0];
    sel.partner = &f->fill[1];
    sel.nprimary = sel.npartner = 1; /* fill[0] the primary, fill[1] its partner */
  }
  memset(fill, 0, sizeof(*fill));
  if (!sel.primary[0] || !budget)
    return -ENOENT;
  sel.direction = f->fill_direction ? f->fill_direction : in->direction;
  sel.ahead_weight = RULES_FILL_AHEAD_WEIGHT;
  return rules_sweep(in, f->family, &sel, budget, fill, why, sizeof(why));
}

/* The budget kept for the kernel as written, for a family naming its alternative (fill): half
 * when its sweep has a point (rows_per_program's 30 points left none: on the H100 groupnorm's
 * 30 failed to compile, and the wider block that gave 1.9x came four rounds later), else none.
 * Tile configurations and vectorized copies keep their whole lists first. */
static unsigned rules_fill_reserve(const struct rules_plan_in *in, const struct rules_family *f)
{
  struct rules_plan_out probe;
  unsigned reserve = 0;

  if (!f->fill[0])
    return 0;
  if (rules_fill_sweep(in, f, 1, &probe) == 0 && json_array_size(probe.candidates))
    reserve = in->max_candidates / RULES_FILL_SHARE;
  json_decref(probe.candidates);
  return reserve;
}

/* The slots a structural rewrite's points leave free: the unrewritten kernel swept over the
 * family's launch-parameter alternative, appended to out (nothing when there is none). */
static void rules_fill(const struct rules_plan_in *in, const struct rules_family *f,
                       struct rules_plan_out *out)
{
  size_t n = json_array_size(out->candidates), len, i;
  struct rules_plan_out fill;
  json_t *c;

  if (n >= in->max_candidates || rules_fill_sweep(in, f, (unsigned)(in->max_candidates - n), &fill))
    return; /* no knob, or all measured: the rewrite's points alone */
  json_array_foreach(fill.candidates, i, c) {
    /* echoed in the round record's sweep: which side of the round a point was */
    json_object_set_new(c, "origin", json_string(RULES_ORIGIN_AS_WRITTEN));
    json_array_append(out->candidates, c);
  }
  len = strlen(out->summary);
  snprintf(out->summary + len, sizeof(out->summary) - len, " Beside them, the kernel as written: "
           "%s", fill.summary + strlen(RULES_SWEEPS " "));
  json_decref(fill.candidates);
}

int rules_plan(const struct rules_plan_in *in, struct rules_plan_out *out, char *why,
               size_t whylen)
{
  const struct rules_family *f = in->family ? rules_family_find(in->family) : NULL;
  struct rules_select sel;
  int rc;

  memset(out, 0, sizeof(*out));
  if (!f) {
    snprintf(why, whylen, "rules: no rewrite for family %s (an llm or agent proposer can)",
             in->family ? in->family : "(none)");
    return -ENOENT;
  }
  if (f->structural) {
    struct rules_plan_in sin = *in;
    sin.max_candidates = in->max_candidates - rules_fill_reserve(in, f);
    rc = rules_structural_plan(&sin, f->structural, out, why, whylen);
    if (rc == 0)
      rules_fill(in, f, out);
    if (rc != -ENOENT || !f->primary[0])
      return rc;
    json_decref(out->candidates);
    out->candidates = NULL;
  }
  if (!f->primary[0])
    return -ENOENT;
  sel = rules_family_select(f);
  sel.direction = in->direction;
  rc = rules_sweep(in, f->family, &sel, in->max_candidates, out, why, whylen);
  if (rc)
    return rc;
  snprintf(out->signature, sizeof(out->signature), "sweep:%s@%s#%d", f->family, in->structure,
           in->round);
  return 0;
}

/* ------------------------------------------------------------------ the proposer */

static int rules_propose(const struct proposer_input *in, struct proposer_output *out, char *why,
                         size_t whylen)
{
  struct rules_plan_in pi = { in->knobs, in->family, in->direction, in->memory, in->structure,
                              NULL, in->max_candidates, in->round, proposer_ascend_ir(in),
                              in->prefer, in->pattern, NULL };
  struct rules_plan_out po;
  json_t *tile;
  char hyp[PROPOSAL_MAX_HYPOTHESIS];
  int rc;

  if (!in->knobs) {
    snprintf(why, whylen, "rules: the kernel's knobs are unknown (the harness's knobs op failed)");
    return -ENOENT;
  }
  pi.tried = in->tried;
  pi.tile = tile = rules_tile(in->ev, in->knobs);
  rc = rules_plan(&pi, &po, why, whylen);
  json_decref(tile);
  if (rc)
    return rc;
  snprintf(hyp, sizeof(hyp), "L%d: %s %s (%s).", in->from_level, in->diagnosis, po.summary,
           in->family);
  out->candidates = po.candidates;
  out->hypothesis = strdup(hyp);
  snprintf(out->family, sizeof(out->family), "%s", in->family);
  snprintf(out->signature, sizeof(out->signature), "%s", po.signature);
  return out->hypothesis ? 0 : -ENOMEM;
}

const struct proposer proposer_rules = { "rules", rules_propose };
