#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "ladder.h"
#include "utf8.h"

/* The policies' names are the contract's (common/contract.h), in enum ladder_policy order. */
_Static_assert(LADDER_PATTERN_ONLY + 1 == CONTRACT_POLICY_COUNT, "one name per policy");

int ladder_policy_parse(const char *s, enum ladder_policy *out)
{
  int i = contract_find(contract_policies, s);
  if (i < 0)
    return -EINVAL;
  *out = (enum ladder_policy)i;
  return 0;
}

const char *ladder_policy_name(enum ladder_policy p) { return contract_policies[p]; }

int ladder_max_level(enum ladder_policy p)
{
  switch (p) {
  case LADDER_PATTERN_ONLY: return 1;
  case LADDER_PROFILE_ONLY: return 2;
  default: return 4;
  }
}

static void ladder_reset(struct ladder_diag *d, int level)
{
  memset(d, 0, sizeof(*d));
  d->level = level;
  d->available = 1;
  d->waves = -1;
}

void ladder_add(struct ladder_diag *d, const char *family, int needs_level, const char *dir)
{
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (strcmp(d->family[i], family) == 0)
      return;
  if (d->nfamilies == LADDER_MAX_FAMILIES)
    return;
  snprintf(d->family[d->nfamilies], sizeof(d->family[0]), "%s", family);
  snprintf(d->direction[d->nfamilies], sizeof(d->direction[0]), "%s", dir ? dir : "");
  d->needs_level[d->nfamilies] = needs_level;
  d->nfamilies++;
}

void ladder_why(struct ladder_diag *d, const char *fmt, ...)
{
  size_t n = strlen(d->why);
  va_list ap;
  if (n >= sizeof(d->why) - 1)
    return;
  if (n)
    d->why[n++] = ' ';
  va_start(ap, fmt);
  vsnprintf(d->why + n, sizeof(d->why) - n, fmt, ap);
  va_end(ap);
  utf8_scrub(d->why + n);
}

/* Sets the hotspot. Like why, it quotes evidence (kernel names, pass names) and is cut to
 * its buffer; both go into the round record as JSON strings, so both stay UTF-8. */
static void ladder_hotspot(struct ladder_diag *d, const char *fmt, ...)
  __attribute__((format(printf, 2, 3)));
static void ladder_hotspot(struct ladder_diag *d, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->hotspot, sizeof(d->hotspot), fmt, ap);
  va_end(ap);
  utf8_scrub(d->hotspot);
}

static unsigned ladder_count(const char *s, const char *needle)
{
  unsigned n = 0;
  size_t l = strlen(needle);
  for (const char *p = s; (p = strstr(p, needle)) != NULL; p += l)
    n++;
  return n;
}

static long ladder_launch_int(const json_t *launch, const char *name, long def)
{
  json_t *v = json_object_get(launch, name);
  if (json_is_object(v))
    v = json_object_get(v, "value");
  return json_is_integer(v) ? (long)json_integer_value(v) : def;
}

/* Whether the launch value `name` is a block size: a knob the harness classified as one (a
 * constexpr that sizes a tl.arange, whatever its name: ROWS, TILE_N, CHUNK), or, without
 * knobs, a name starting BLOCK/XBLOCK. */
static int ladder_is_block(const json_t *knobs, const char *name)
{
  const json_t *k;
  size_t i;
  if (!strncmp(name, "BLOCK", 5) || !strncmp(name, "XBLOCK", 6))
    return 1;
  json_array_foreach(json_object_get(knobs, "knobs"), i, k)
    if (!strcmp(json_string_value(json_object_get(k, "name")) ?: "", name) &&
        !strcmp(json_string_value(json_object_get(k, "kind")) ?: "", "block"))
      return 1;
  return 0;
}

/* The largest block-size launch value (BLOCK, BLOCK_SIZE, BLOCK_M, or a knob of kind block). */
static long ladder_block(const json_t *launch, const json_t *knobs)
{
  const char *k;
  json_t *v;
  long best = -1;
  json_object_foreach((json_t *)launch, k, v) {
    long x;
    if (!ladder_is_block(knobs, k))
      continue;
    x = ladder_launch_int(launch, k, -1);
    if (x > best)
      best = x;
  }
  return best;
}

int ladder_knob_counts(const json_t *knobs, unsigned *dots, unsigned *loops, unsigned *reds)
{
  const json_t *k;
  size_t i;
  int any = 0;
  json_array_foreach(json_object_get(knobs, "kernels"), i, k) {
    any = 1;
    *dots += json_is_true(json_object_get(k, "uses_dot"));
    *loops += (unsigned)json_integer_value(json_object_get(k, "loops"));
    *reds += (unsigned)json_integer_value(json_object_get(k, "reductions"));
  }
  return any;
}

/* Symptoms named the same way by triage and by the pattern index. The class comes from the
 * harness's syntax tree when the knobs are known, else from counting calls in the source. */
void ladder_source_symptoms(const char *src, const json_t *launch, const json_t *knobs,
                            char out[LADDER_MAX_SYMPTOMS][LADDER_SYMPTOM_LEN], unsigned *n)
{
  unsigned loads = ladder_count(src, "tl.load("), dots = 0, loops = 0, reds = 0;
  long block = ladder_block(launch, knobs), warps = ladder_launch_int(launch, "num_warps", 4);
  if (!ladder_knob_counts(knobs, &dots, &loops, &reds)) {
    dots = ladder_count(src, "tl.dot(");
    loops = ladder_count(src, " in range(") + ladder_count(src, " in tl.range(");
    reds = ladder_count(src, "tl.sum(") + ladder_count(src, "tl.max(") + ladder_count(src, "tl.min(") +
           ladder_count(src, "tl.argmax(") + ladder_count(src, "tl.argmin(") + ladder_count(src, ".sum(axis");
  }
  *n = 0;
  if (dots)
    snprintf(out[(*n)++], LADDER_SYMPTOM_LEN, "%s", loops ? "matmul:loop" : "matmul");
  else if (reds)
    snprintf(out[(*n)++], LADDER_SYMPTOM_LEN, "reduction");
  else if (loads)
    snprintf(out[(*n)++], LADDER_SYMPTOM_LEN, "elementwise");
  if (!dots && loads && block > 0 && block < 1024)
    snprintf(out[(*n)++], LADDER_SYMPTOM_LEN, "small_block");
  if (!dots && loads && block > 0 && warps > 0 && block / (32 * warps) < 4)
    snprintf(out[(*n)++], LADDER_SYMPTOM_LEN, "under_4_per_thread");
  if (ladder_count(src, "@triton.jit") > 1)
    snprintf(out[(*n)++], LADDER_SYMPTOM_LEN, "several_kernels");
}

void ladder_l1(const char *source, const json_t *launch, const json_t *knobs,
               const json_t *patterns, struct ladder_diag *d)
{
  char sym[LADDER_MAX_SYMPTOMS][LADDER_SYMPTOM_LEN];
  unsigned nsym = 0, jits;
  size_t i;
  json_t *p;
  const char *src = source ? source : "";

  ladder_reset(d, 1);
  ladder_source_symptoms(src, launch, knobs, sym, &nsym);
  jits = ladder_count(src, "@triton.jit");
  if (jits == 1) {
    const char *def = strstr(strstr(src, "@triton.jit"), "def ");
    char name[64] = "";
    if (def && sscanf(def + 4, "%63[A-Za-z0-9_]", name) == 1)
      ladder_hotspot(d, "kernel %s (the only Triton kernel)", name);
  }
  ladder_why(d, "source symptoms:");
  for (unsigned s = 0; s < nsym; s++)
    ladder_why(d, "%s%s", sym[s], s + 1 < nsym ? "," : ".");
  if (!nsym)
    ladder_why(d, "none.");
  /* The pattern index first: a symptom whose family has been validated before is enough
   * evidence at this level. */
  json_array_foreach((json_t *)patterns, i, p) {
    const char *ps = json_string_value(json_object_get(p, "symptom"));
    const char *pf = json_string_value(json_object_get(p, "rewrite_family"));
    long succ = (long)json_integer_value(json_object_get(p, "successes"));
    long trials = (long)json_integer_value(json_object_get(p, "trials"));
    if (!ps || !pf || trials <= 0 || succ * 2 < trials)
      continue;
    for (unsigned s = 0; s < nsym; s++)
      if (strcmp(ps, sym[s]) == 0) {
        ladder_add(d, pf, 1, json_string_value(json_object_get(p, "direction")));
        ladder_why(d, "pattern index: %s -> %s worked %ld of %ld times.", ps, pf, succ, trials);
      }
  }
  /* Built-in triage, strongest cause first. */
  {
    static const struct {
      const char *symptom, *family, *dir;
      int needs;
    } map[] = {
      { "under_4_per_thread", "vectorize_access", "up", 3 },
      { "several_kernels", "fuse_kernels", "", 2 },
      { "matmul:loop", "num_stages", "up", 4 },
      { "matmul", "block_size", "up", 2 },
      { "reduction", "num_warps", "up", 2 },
      { "small_block", "block_size", "up", 2 },
    };
    for (unsigned m = 0; m < sizeof(map) / sizeof(map[0]); m++)
      for (unsigned s = 0; s < nsym; s++)
        if (!strcmp(sym[s], map[m].symptom))
          ladder_add(d, map[m].family, map[m].needs, map[m].dir);
  }
}

static double ladder_num(const json_t *o, const char *k, double def)
{
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : def;
}

/* The profiled kernel that takes longest: the hotspot. */
static const json_t *ladder_hot_kernel(const json_t *profile, char *name, size_t namelen)
{
  const json_t *best = NULL, *k;
  double bt = -2; /* a kernel without times still beats none */
  size_t i;
  json_array_foreach(json_object_get(profile, "kernels"), i, k) {
    const json_t *s = json_object_get(k, "summary");
    double t = ladder_num(s ? s : k, "duration_us", -1);
    if (t < 0)
      t = ladder_num(k, "time_us", ladder_num(k, "aiv_time_us_max", -1));
    if (t > bt) {
      bt = t;
      best = k;
    }
  }
  if (best && name)
    snprintf(name, namelen, "%s", json_string_value(json_object_get(best, "kernel"))
                                      ? json_string_value(json_object_get(best, "kernel"))
                                      : "?");
  return best;
}

const char *ladder_l2_class(const json_t *profile, char *why, size_t whylen)
{
  const json_t *k, *s, *ratios;
  const char *tool = json_string_value(json_object_get(profile, "tool"));
  double mem, sm, dur, vec, scal, mte, cube;

  if (!json_is_true(json_object_get(profile, "available")))
    return NULL;
  k = ladder_hot_kernel(profile, NULL, 0);
  if (!k)
    return NULL;
  s = json_object_get(k, "summary");
  if (tool && strncmp(tool, "msprof", 6) == 0) {
    ratios = json_object_get(s ? s : k, "ratios");
    vec = ladder_num(ratios, "aiv_vec_ratio", 0);
    scal = fmax(ladder_num(ratios, "aiv_scalar_ratio", 0), ladder_num(ratios, "aic_scalar_ratio", 0));
    mte = fmax(ladder_num(ratios, "aiv_mte2_ratio", 0), ladder_num(ratios, "aiv_mte3_ratio", 0));
    cube = ladder_num(ratios, "aic_cube_ratio", 0);
    snprintf(why, whylen, "pipe ratios: vec %.2f, scalar %.2f, mte %.2f, cube %.2f", vec, scal,
             mte, cube);
    if (scal >= vec && scal >= mte && scal >= cube && scal > 0.2)
      return "scalar";
    if (mte >= vec && mte >= cube)
      return "mte";
    if (cube >= vec)
      return "cube";
    return "vector";
  }
  if (!s)
    return NULL; /* proton: times only, no counters */
  mem = fmax(ladder_num(s, "memory_throughput_pct", 0), ladder_num(s, "dram_throughput_pct", 0));
  sm = ladder_num(s, "sm_throughput_pct", 0);
  dur = ladder_num(s, "duration_us", -1);
  snprintf(why, whylen, "%.1f us; memory %.0f%%, SM %.0f%% of peak; occupancy %.0f%%", dur, mem,
           sm, ladder_num(s, "achieved_occupancy_pct", -1));
  if (dur >= 0 && dur < 5)
    return "launch";
  if (mem >= 60 && mem >= sm)
    return "memory";
  if (sm >= 60)
    return "compute";
  if (mem < 40 && sm < 40)
    return "latency";
  return "balanced";
}

void ladder_l2(const json_t *profile, struct ladder_diag *d)
{
  char why[256] = "", hot[96] = "";
  const char *cls;
  const json_t *k, *s;

  ladder_reset(d, 2);
  if (!json_is_true(json_object_get(profile, "available"))) {
    d->available = 0;
    ladder_why(d, "no profile: %s",
               json_string_value(json_object_get(profile, "reason"))
                   ? json_string_value(json_object_get(profile, "reason"))
                   : "profiler unavailable");
    return;
  }
  k = ladder_hot_kernel(profile, hot, sizeof(hot));
  if (k)
    ladder_hotspot(d, "kernel %s", hot);
  cls = ladder_l2_class(profile, why, sizeof(why));
  if (!cls) {
    ladder_why(d, "profile has kernel times but no counters: no bottleneck class.");
    return;
  }
  s = json_object_get(k, "summary");
  d->waves = ladder_num(s, "waves_per_sm", -1);
  ladder_why(d, "%s-bound (%s).", cls, why);
  if (!strcmp(cls, "launch")) {
    ladder_add(d, "fuse_kernels", 2, "");
    ladder_add(d, "block_size", 2, "up");
  } else if (!strcmp(cls, "memory")) {
    if (ladder_num(s, "dram_throughput_pct", 0) >= 85) {
      ladder_why(d, "DRAM near its roofline: only moving fewer bytes helps.");
      ladder_add(d, "algorithmic", 2, "");
    } else {
      ladder_add(d, "vectorize_access", 3, "up");
      ladder_add(d, "block_size", 2, "up");
    }
  } else if (!strcmp(cls, "compute")) {
    ladder_add(d, "use_tensor_cores", 3, "");
    ladder_add(d, "num_stages", 4, "up");
    ladder_add(d, "block_size", 2, "up");
  } else if (!strcmp(cls, "latency")) {
    if (ladder_num(s, "achieved_occupancy_pct", 100) < 50) {
      ladder_add(d, "num_warps", 2, "up");
      ladder_add(d, "block_size", 2, "up");
    } else {
      ladder_add(d, "num_stages", 4, "up");
      ladder_add(d, "block_size", 2, "up");
    }
  } else if (!strcmp(cls, "balanced")) {
    ladder_add(d, "block_size", 2, "up");
    ladder_add(d, "num_warps", 2, "up");
  } else if (!strcmp(cls, "scalar")) {
    ladder_add(d, "reduce_scalar_work", 3, "");
  } else if (!strcmp(cls, "mte")) {
    ladder_add(d, "block_size", 2, "up");
    ladder_add(d, "pipeline_loads", 3, "");
  } else if (!strcmp(cls, "cube")) {
    ladder_add(d, "block_size", 2, "up");
  } else {
    ladder_add(d, "algorithmic", 2, "");
  }
}

/* An integer member (keys may contain dots, e.g. "ld.global.32"); 0 when absent. */
long ladder_ir_int(const json_t *o, const char *key)
{
  const json_t *v = json_object_get(o, key);
  return json_is_integer(v) ? (long)json_integer_value(v) : 0;
}

/* Global accesses of op ("ld" or "st") narrower than 128 bits: 8-, 16-, 32- and 64-bit ones
 * (a scalar float16 access is ld.global.b16; the 64-bit, half-vectorized ones count too). */
long ladder_narrow(const json_t *ptx, const char *op)
{
  static const int bits[] = { 8, 16, 32, 64 };
  char key[32];
  long n = 0;
  for (unsigned i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
    snprintf(key, sizeof(key), "%s.global.%d", op, bits[i]);
    n += ladder_ir_int(ptx, key);
  }
  return n;
}

/* Ascend HIVM IR after sync injection (ir_hivm.h): scalar lowering and sync are the usual
 * pathologies (research notes). Not run on real bishengir output. */
static void ladder_l3_hivm(const json_t *hir, struct ladder_diag *d)
{
  const json_t *hv = json_object_get(hir, "hivm");
  long scal = ladder_ir_int(hir, "scalar_ops");
  long flags = ladder_ir_int(hv, "set_flag") + ladder_ir_int(hv, "wait_flag");
  ladder_why(d, "HIVM: %ld scalar ops, %ld set/wait flags, core %s.", scal, flags,
             json_string_value(json_object_get(hir, "core_type"))
                 ? json_string_value(json_object_get(hir, "core_type"))
                 : "?");
  if (scal > 0)
    ladder_add(d, "reduce_scalar_work", 3, "");
  if (flags > 8)
    ladder_add(d, "reduce_barriers", 3, "");
}

/* Local buffers may take this share of the unified buffer before the block is called small:
 * bishengir double-buffers them by default (multibuffer=True), so twice their bytes must fit. */
#define LADDER_UB_MULTIBUFFER 2
#define LADDER_UB_SMALL_SHARE 8 /* under 1/8 of the UB: room for a larger block */

/* Ascend adapter IR (ir_adapter.h). Discrete accesses first (a gather scalarized element by
 * element is the costliest thing the adapter does), then masks it could not keep, then
 * scalar work, then the unified buffer. */
static void ladder_l3_adapter(const json_t *ir, const json_t *launch, struct ladder_diag *d)
{
  const json_t *mem = json_object_get(ir, "memory"), *bufs = json_object_get(ir, "local_buffers");
  long dl = ladder_ir_int(mem, "discrete_loads"), ds = ladder_ir_int(mem, "discrete_stores");
  long sl = ladder_ir_int(mem, "scalar_loads"), ss = ladder_ir_int(mem, "scalar_stores");
  long rmw = ladder_ir_int(mem, "masked_rmw_stores"), br = ladder_ir_int(ir, "branches_on_load");
  long dloops = ladder_ir_int(ir, "discrete_loops"), sloops = ladder_ir_int(ir, "scalar_loops") - dloops;
  long i64 = ladder_ir_int(ir, "scalar_i64"), bytes = ladder_ir_int(bufs, "bytes");
  long ub = ladder_ir_int(bufs, "ub_bytes"), need = bytes * LADDER_UB_MULTIBUFFER;
  long matmul = ladder_ir_int(json_object_get(ir, "linalg"), "linalg.matmul");
  const char *mix = json_string_value(json_object_get(ir, "mix_mode"));
  (void)launch;
  ladder_why(d, "Ascend adapter IR (mix_mode %s): block copies in %ld, out %ld; discrete accesses %ld "
                "(in %ld scalar loop%s); scalar global loads %ld, stores %ld; masked read-modify-write "
                "stores %ld; branches on a loaded value %ld; local buffers %ld KiB (x%d multi-buffered) of "
                "%ld KiB UB%s.",
             mix ? mix : "?", ladder_ir_int(mem, "copies_in"), ladder_ir_int(mem, "copies_out"), dl + ds,
             dloops, dloops == 1 ? "" : "s", sl, ss, rmw, br, bytes >> 10, LADDER_UB_MULTIBUFFER, ub >> 10,
             matmul ? "; cube work (linalg.matmul)" : "");
  if (dl + ds > 0) {
    ladder_why(d, "A gather/scatter became one scalar access per element: contiguous offsets or a "
                  "block pointer where the index math allows.");
    ladder_add(d, "structured_access", 3, "");
  }
  if (rmw > 0) {
    ladder_why(d, "A mask that is not a bound made the store read, select and rewrite the whole "
                  "block: a bound (offs < n) keeps it a masked copy.");
    ladder_add(d, "structured_mask", 3, "");
  }
  if (br > 0 || sl + ss > 0 || sloops > 0 || i64 > 0) {
    ladder_why(d, "Scalar work on the scalar pipe (loads of single elements, branches on them, i64 "
                  "arithmetic): vector forms (tl.where, block loads) instead.");
    ladder_add(d, "reduce_scalar_work", 3, "");
  }
  if (ub > 0 && need > ub) {
    ladder_why(d, "The local buffers do not fit the unified buffer twice over: a smaller block.");
    ladder_add(d, "block_size", 3, "down");
  } else if (!d->nfamilies && ub > 0 && bytes > 0 && need * LADDER_UB_SMALL_SHARE <= ub) {
    ladder_why(d, "Accesses are structured and the block uses little of the unified buffer: a larger "
                  "block, fewer programs.");
    ladder_add(d, "block_size", 3, "up");
  }
}

void ladder_l3(const json_t *ir, const char *l2_class, const json_t *launch,
               struct ladder_diag *d)
{
  const json_t *hot, *ptx, *tg, *sp, *loop;
  long ldn, ld64, ld128, stn, st64, st128, spills = 0, async, loops_sync = 0, mma, cvt, bars;
  size_t i;

  ladder_reset(d, 3);
  if (!json_is_object(ir) || json_is_false(json_object_get(ir, "available"))) {
    d->available = 0;
    ladder_why(d, "no IR: %s",
               json_string_value(json_object_get(ir, "reason"))
                   ? json_string_value(json_object_get(ir, "reason"))
                   : "compile failed");
    return;
  }
  hot = json_object_get(ir, "hotspot");
  if (json_is_object(hot) && json_integer_value(json_object_get(hot, "line")) > 0)
    ladder_hotspot(d, "line %lld (%s)", (long long)json_integer_value(json_object_get(hot, "line")),
                   json_string_value(json_object_get(hot, "reason"))
                       ? json_string_value(json_object_get(hot, "reason"))
                       : "global memory");
  /* Ascend: the adapter IR (everywhere), the HIVM IR (where CANN ran bishengir-compile). */
  if (json_is_string(json_object_get(ir, "ir")) &&
      !strcmp(json_string_value(json_object_get(ir, "ir")), "ttadapter")) {
    ladder_l3_adapter(ir, launch, d);
    if (json_is_object(json_object_get(ir, "hivm_ir")))
      ladder_l3_hivm(json_object_get(ir, "hivm_ir"), d);
    return;
  }
  if (json_is_object(json_object_get(ir, "hivm")) || json_object_get(ir, "scalar_ops")) {
    ladder_l3_hivm(ir, d);
    return;
  }
  ptx = json_object_get(ir, "ptx");
  tg = json_object_get(ir, "ttgir");
  sp = json_object_get(ir, "spills");
  /* 64-bit accesses are half-vectorized: they count with the narrow ones here. */
  ld64 = ladder_ir_int(ptx, "ld.global.64");
  st64 = ladder_ir_int(ptx, "st.global.64");
  ldn = ladder_narrow(ptx, "ld");
  ld128 = ladder_ir_int(ptx, "ld.global.128");
  stn = ladder_narrow(ptx, "st");
  st128 = ladder_ir_int(ptx, "st.global.128");
  if (json_is_object(sp)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)sp, k, v)
      if (json_is_integer(v) && json_integer_value(v) > 0)
        spills += (long)json_integer_value(v);
  }
  async = ladder_ir_int(tg, "async_copies") + ladder_ir_int(tg, "tma_copies");
  json_array_foreach(json_object_get(tg, "loops"), i, loop)
    if (json_integer_value(json_object_get(loop, "loads")) > 0 &&
        json_integer_value(json_object_get(loop, "async_copies")) <= 0)
      loops_sync++;
  mma = ladder_ir_int(tg, "dots") + ladder_ir_int(ptx, "mma.sync") + ladder_ir_int(ptx, "wgmma");
  cvt = ladder_ir_int(tg, "layout_conversions");
  bars = ladder_ir_int(ptx, "bar.sync");
  ladder_why(d, "IR: global loads up to 32-bit %ld, 64-bit %ld, 128-bit %ld; stores up to "
                "32-bit %ld, 64-bit %ld, 128-bit %ld; local memory %ld; async copies %ld; loops "
                "with synchronous loads %ld; dots %ld; layout conversions %ld; barriers %ld.",
             ldn - ld64, ld64, ld128, stn - st64, st64, st128, spills, async, loops_sync, mma,
             cvt, bars);
  if (spills > 0) {
    ladder_why(d, "local memory (spills): a smaller tile or fewer stages.");
    ladder_add(d, "block_size", 3, "down");
    ladder_add(d, "num_stages", 3, "down");
    return;
  }
  if ((ldn > 0 || stn > 0) && ld128 <= 0 && st128 <= 0 &&
      (!l2_class || !strcmp(l2_class, "memory") || !strcmp(l2_class, "latency") ||
       !strcmp(l2_class, "balanced"))) {
    ladder_why(d, "every global access is narrower than 128 bits (8 to 64 bits): vectorize.");
    ladder_add(d, "vectorize_access", 3, "up");
    return;
  }
  if (loops_sync > 0 && async <= 0) {
    ladder_why(d, "a loop loads synchronously: pipeline it (L4 says why the pipeliner did not).");
    ladder_add(d, "num_stages", 4, "up");
  }
  if (cvt > 4)
    ladder_add(d, "coalesce_access", 3, "");
  if (bars > 8)
    ladder_add(d, "reduce_barriers", 3, "");
  if (!d->nfamilies) {
    long block = ladder_block(launch, NULL);
    ladder_why(d, "accesses are vectorized; more work per program hides latency.");
    ladder_add(d, "block_size", 3, block >= 16384 ? "down" : "up");
    ladder_add(d, "num_warps", 3, "up");
  }
}

void ladder_l4(const json_t *findings, const json_t *ir, struct ladder_diag *d)
{
  size_t i;
  const json_t *f;
  (void)ir;
  ladder_reset(d, 4);
  if (!json_is_array(findings)) {
    d->available = 0;
    ladder_why(d, "no per-pass IR.");
    return;
  }
  if (json_array_size(findings) == 0)
    ladder_why(d, "per-pass IR: no tracked symptom (cuda: synchronous loads in a loop, scalar "
                  "global access, layout conversions; Ascend: discrete access, masked access, "
                  "local buffers) appeared in or persisted through a pass.");
  json_array_foreach((json_t *)findings, i, f) {
    const char *sym = json_string_value(json_object_get(f, "symptom"));
    const char *pass = json_string_value(json_object_get(f, "pass"));
    const char *desc = json_string_value(json_object_get(f, "description"));
    const char *verdict = json_string_value(json_object_get(f, "verdict"));
    int persisted = json_is_true(json_object_get(f, "persisted"));
    if (!sym || !pass)
      continue;
    /* Ascend's informational findings (masks kept, local buffers made) name no hotspot. */
    if (!d->hotspot[0] && !(!strcmp(sym, "masked_access") && persisted) && strcmp(sym, "local_buffer"))
      ladder_hotspot(d, "pass %s", pass);
    ladder_why(d, "%s %s %s (%s).", sym,
               persisted                                   ? "persisted through"
               : verdict && !strcmp(verdict, "removed")    ? "was removed by"
               : verdict && !strcmp(verdict, "reduced")    ? "was reduced by"
               : verdict && !strcmp(verdict, "increased")  ? "increased at"
                                                           : "appeared after",
               pass, desc ? desc : "no description");
    if (!strcmp(sym, "sync_loads_in_loop") && persisted)
      ladder_add(d, "num_stages", 4, "up");
    else if (!strcmp(sym, "discrete_access") && !persisted)
      ladder_add(d, "structured_access", 4, "");
    else if (!strcmp(sym, "masked_access") && verdict &&
             (!strcmp(verdict, "removed") || !strcmp(verdict, "reduced")))
      ladder_add(d, "structured_mask", 4, "");
    else if (!strcmp(sym, "scalar_global_access"))
      ladder_add(d, "vectorize_access", 4, "up");
    else if (!strcmp(sym, "layout_conversion") && !persisted)
      ladder_add(d, "coalesce_access", 4, "");
    else if (!strcmp(sym, "shared_memory") && !persisted)
      ladder_add(d, "num_stages", 4, "down");
  }
}

void ladder_first(struct ladder_diag *d, const char *family)
{
  for (unsigned i = 1; i < d->nfamilies; i++) {
    if (strcmp(d->family[i], family) == 0) {
      char f[32], dir[8];
      int needs = d->needs_level[i];
      memcpy(f, d->family[i], sizeof(f));
      memcpy(dir, d->direction[i], sizeof(dir));
      memmove(&d->family[1], &d->family[0], i * sizeof(d->family[0]));
      memmove(&d->needs_level[1], &d->needs_level[0], i * sizeof(d->needs_level[0]));
      memmove(&d->direction[1], &d->direction[0], i * sizeof(d->direction[0]));
      memcpy(d->family[0], f, sizeof(f));
      memcpy(d->direction[0], dir, sizeof(dir));
      d->needs_level[0] = needs;
      return;
    }
  }
}

int ladder_skipped(const char *fam, const char *const *skip)
{
  for (; skip && *skip; skip++)
    if (strcmp(fam, *skip) == 0)
      return 1;
  return 0;
}

unsigned ladder_fallback(struct ladder_diag *d, const char *const *skip)
{
  /* the launch-parameter families every kernel with knobs has, most often paying first */
  static const char *const fams[] = { "block_size", "num_warps", "num_stages", NULL };
  unsigned added = 0;

  for (unsigned i = 0; fams[i]; i++) {
    unsigned before = d->nfamilies;
    if (ladder_skipped(fams[i], skip))
      continue;
    ladder_add(d, fams[i], d->level, "");
    added += d->nfamilies > before;
  }
  if (added)
    ladder_why(d, " No family the evidence justifies is left: as a last resort, the launch "
               "parameters it did not name.");
  return added;
}

const char *ladder_pick(const struct ladder_diag *d, const char *const *skip, int *index)
{
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (!ladder_skipped(d->family[i], skip)) {
      if (index)
        *index = (int)i;
      return d->family[i];
    }
  return NULL;
}

void ladder_tests(const struct ladder_diag *d, const char *const *skip, struct ladder_tests *t)
{
  unsigned live = 0;
  int first = -1;
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (!ladder_skipped(d->family[i], skip)) {
      if (first < 0)
        first = (int)i;
      live++;
    }
  t->hotspot = d->available && d->hotspot[0] != '\0';
  t->one_family = d->available && live == 1;
  t->sufficient = d->available && first >= 0 && d->needs_level[first] <= d->level;
}

json_t *ladder_diag_json(const struct ladder_diag *d, const struct ladder_tests *t)
{
  json_t *fams = json_array();
  for (unsigned i = 0; i < d->nfamilies; i++)
    json_array_append_new(fams, json_pack("{s:s, s:i, s:s}", "family", d->family[i],
                                          "needs_level", d->needs_level[i], "direction",
                                          d->direction[i]));
  return json_pack("{s:i, s:b, s:s?, s:o, s:s, s:{s:b, s:b, s:b}}", "level", d->level,
                   "available", d->available, "hotspot", d->hotspot[0] ? d->hotspot : NULL,
                   "families", fams, "why", d->why, "tests", "hotspot", t->hotspot,
                   "one_family", t->one_family, "sufficient", t->sufficient);
}
