#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "deadline.h"

/* The harness's defaults when a request leaves them out (harness/kharness/worker.py,
 * sweep.py): compare rounds and repetitions per slot, warm-up calls, the sweep's quick
 * timing. Mirrored here only to size a limit; a mismatch makes a limit looser or tighter by
 * the ratio, never wrong by orders of magnitude. */
#define DL_COMPARE_ROUNDS_GPU 20
#define DL_COMPARE_ROUNDS_CPU 3
#define DL_COMPARE_REPS_GPU 10
#define DL_COMPARE_REPS_CPU 1
#define DL_WARMUP_GPU 10
#define DL_WARMUP_CPU 1
#define DL_SWEEP_BUDGET_S 0.04     /* device time per candidate's quick timing */
#define DL_SWEEP_FWDS_GPU 6        /* its minimum repetitions, plus the estimate */
#define DL_SWEEP_FWDS_CPU 3
#define DL_SWEEP_COMPILE_LIMIT_S 60.0 /* one compile in the pool at most (PRECOMPILE_LIMIT_S) */
/* What a timing costs beyond its forwards (warm-up and repetition windows of both the
 * kernel and the reference), and the forwards it needs at least, per case. */
#define DL_BENCH_FIXED_S 1.5
#define DL_BENCH_FWDS 32
/* Host-side cost of one timed forward beyond its device time (launch, L2 flush). */
#define DL_FWD_OVERHEAD_S 0.001
/* Before a compile or a profile was seen: what one is expected to take besides the load. */
#define DL_COMPILE_FIRST_S 30.0
#define DL_PROFILE_FIRST_S 60.0
#define DL_PER_PASS_FACTOR 3      /* a compile with per-pass dumps, against a plain one */

void deadline_init(struct deadline *d, unsigned floor_s, unsigned cap_s, unsigned load_s,
                   const char *backend)
{
  memset(d, 0, sizeof(*d));
  d->cap_s = cap_s ? cap_s : DEADLINE_CAP_S;
  if (d->cap_s > DEADLINE_CAP_MAX_S)
    d->cap_s = DEADLINE_CAP_MAX_S;
  d->floor_s = floor_s ? floor_s : DEADLINE_FLOOR_S;
  d->load_s = load_s ? load_s : DEADLINE_LOAD_S;
  if (d->floor_s > d->cap_s)
    d->floor_s = d->cap_s;
  d->gpu = backend && strcmp(backend, "interp") != 0;
}

static double dl_num(const json_t *o, const char *key)
{
  const json_t *v = json_object_get(o, key);
  return json_is_number(v) ? json_number_value(v) : 0;
}

static double dl_max(double a, double b) { return a > b ? a : b; }

/* The slower of the kernel's and the reference's median over a bench result's cases. */
static double dl_bench_median_s(const json_t *bench)
{
  const json_t *c;
  size_t i;
  double m = 0;
  json_array_foreach(json_object_get(bench, "cases"), i, c) {
    m = dl_max(m, dl_num(json_object_get(c, "kernel"), "median_ms"));
    m = dl_max(m, dl_num(json_object_get(c, "reference"), "median_ms"));
  }
  return m / 1000.0;
}

void deadline_observe(struct deadline *d, const char *op, const json_t *req,
                      const json_t *result)
{
  double el = dl_num(result, "elapsed_s");
  int initial = !json_object_get(req, "candidate_source");
  if (!op || !json_is_object(result))
    return;
  if (strcmp(op, "load") == 0) {
    size_t nc = json_array_size(json_object_get(result, "correctness_cases"));
    size_t nb = json_array_size(json_object_get(result, "benchmark_cases"));
    d->load = dl_max(d->load, el);
    if (nc)
      d->ncorr = (unsigned)nc;
    if (nb)
      d->nbench = (unsigned)nb;
  } else if (strcmp(op, "validate") == 0 && initial && !d->val_case) {
    size_t n = json_array_size(json_object_get(result, "cases"));
    if (el > 0 && n)
      d->val_case = el / (double)n;
  } else if (strcmp(op, "bench") == 0 && initial && !d->bench_case) {
    size_t n = json_array_size(json_object_get(result, "cases"));
    if (el > 0 && n) {
      d->bench_case = el / (double)n;
      d->fwd = dl_bench_median_s(result) + DL_FWD_OVERHEAD_S;
    }
  } else if (strcmp(op, "compile") == 0 && !json_object_get(result, "error")) {
    d->compile = dl_max(d->compile, el);
  } else if (strcmp(op, "profile") == 0) {
    d->profile = dl_max(d->profile, el);
  }
}

void deadline_from_baseline(struct deadline *d, const json_t *b)
{
  deadline_observe(d, "load", NULL, json_object_get(b, "load"));
  deadline_observe(d, "validate", NULL, json_object_get(b, "validate"));
  deadline_observe(d, "bench", NULL, json_object_get(b, "bench"));
  deadline_observe(d, "compile", NULL, json_object_get(b, "compile"));
  deadline_observe(d, "profile", NULL, json_object_get(b, "profile"));
}

/* A request's case count: its own list, else the problem's default for the op. */
static unsigned dl_cases(const json_t *req, unsigned dflt)
{
  size_t n = json_array_size(json_object_get(req, "cases"));
  return n ? (unsigned)n : dflt ? dflt : 1;
}

static unsigned dl_int(const json_t *req, const char *key, unsigned dflt)
{
  json_int_t v = json_integer_value(json_object_get(req, key));
  return v > 0 ? (unsigned)v : dflt;
}

/* Per case: the initial kernel's validation, else (not measured yet) the load's probe. */
static double dl_case_s(const struct deadline *d) { return d->val_case ? d->val_case : d->load; }
/* One timed forward: measured by the baseline's timing, else a validated case. */
static double dl_fwd_s(const struct deadline *d) { return d->fwd ? d->fwd : dl_case_s(d); }
/* What a new module (a candidate) costs before its first case: an import and a build like
 * the load's, and on a device a compile like those seen. */
static double dl_module_s(const struct deadline *d) { return dl_max(d->load, d->compile); }

/* Expected seconds of op; 0 when nothing to derive it from. expl gets the terms. */
static double dl_expected(const struct deadline *d, const char *op, const json_t *req,
                          char *expl, size_t len)
{
  int cand = json_object_get(req, "candidate_source") != NULL;
  double mod = cand ? dl_module_s(d) : 0, e = 0;
  expl[0] = '\0';
  if (strcmp(op, "validate") == 0) {
    unsigned n = dl_cases(req, d->ncorr);
    e = n * dl_case_s(d) + mod;
    snprintf(expl, len, "%u case%s x %.2f s per %s%s", n, n == 1 ? "" : "s", dl_case_s(d),
             d->val_case ? "validated case" : "case (the load's probe)", cand ? " + a new module" : "");
  } else if (strcmp(op, "bench") == 0) {
    unsigned n = dl_cases(req, d->nbench);
    double per = d->bench_case ? d->bench_case : DL_BENCH_FIXED_S + DL_BENCH_FWDS * dl_fwd_s(d);
    e = n * per + mod;
    snprintf(expl, len, "%u case%s x %.2f s per timed case%s", n, n == 1 ? "" : "s", per,
             cand ? " + a new module" : "");
  } else if (strcmp(op, "compare") == 0) {
    unsigned n = dl_cases(req, d->nbench);
    unsigned rounds = dl_int(req, "rounds", d->gpu ? DL_COMPARE_ROUNDS_GPU : DL_COMPARE_ROUNDS_CPU);
    unsigned reps = dl_int(req, "reps_per_slot", d->gpu ? DL_COMPARE_REPS_GPU : DL_COMPARE_REPS_CPU);
    unsigned warm = d->gpu ? DL_WARMUP_GPU : DL_WARMUP_CPU;
    double fwds = (double)n * (4.0 * rounds * reps + 2.0 * warm + 2);
    e = fwds * dl_fwd_s(d) + 2 * dl_module_s(d);
    snprintf(expl, len, "%.0f forwards x %.4f s + two modules", fwds, dl_fwd_s(d));
  } else if (strcmp(op, "sweep") == 0) {
    size_t m = json_array_size(json_object_get(req, "candidates"));
    double per = dl_case_s(d) + DL_SWEEP_BUDGET_S +
                 (d->gpu ? DL_SWEEP_FWDS_GPU : DL_SWEEP_FWDS_CPU) * dl_fwd_s(d) +
                 (d->gpu ? d->compile : 0);
    /* a compile the pool gives up on costs its limit once, whatever the candidates */
    e = d->load + (d->bench_case ? d->bench_case : per) + (double)m * per +
        (d->gpu ? DL_SWEEP_COMPILE_LIMIT_S : 0);
    snprintf(expl, len, "%zu candidate%s x %.2f s each + the base kernel", m, m == 1 ? "" : "s",
             per);
  } else if (strcmp(op, "compile") == 0) {
    double k = d->compile ? d->compile : DL_COMPILE_FIRST_S + d->load;
    int pp = json_is_true(json_object_get(req, "per_pass"));
    e = k * (pp ? DL_PER_PASS_FACTOR : 1);
    snprintf(expl, len, "%s%.1f s %s", pp ? "3 x " : "", k,
             d->compile ? "per compile seen" : "for a first compile");
  } else if (strcmp(op, "profile") == 0) {
    e = d->profile ? d->profile : DL_PROFILE_FIRST_S + d->load;
    snprintf(expl, len, "%.1f s %s", e, d->profile ? "per profile seen" : "for a first profile");
  } else if (d->load > 0) {
    /* knobs, hello and anything new: no more than a load's worth of work */
    e = d->load;
    snprintf(expl, len, "%.2f s, the load's time", e);
  }
  return e;
}

unsigned deadline_limit(const struct deadline *d, const char *op, const json_t *req, char *why,
                        size_t whylen)
{
  char expl[160], scratch[DEADLINE_WHY_MAX];
  double e, lim;
  unsigned out;
  assert(d->cap_s > 0 && d->floor_s <= d->cap_s);
  if (!why) {
    why = scratch;
    whylen = sizeof(scratch);
  }
  if (strcmp(op, "load") == 0 && d->load <= 0) {
    out = d->load_s < d->cap_s ? d->load_s : d->cap_s;
    snprintf(why, whylen, "nothing measured yet: the load default of %u s%s", d->load_s,
             out < d->load_s ? ", lowered to the cap (KOPT_EVAL_TIMEOUT_S)" : "");
    return out;
  }
  if (strcmp(op, "load") == 0) {
    e = d->load;
    snprintf(expl, sizeof(expl), "the first load's %.2f s", e);
  } else {
    e = dl_expected(d, op, req, expl, sizeof(expl));
  }
  if (e <= 0) {
    snprintf(why, whylen, "nothing measured to derive it from: the cap of %u s", d->cap_s);
    return d->cap_s;
  }
  lim = ceil(DEADLINE_FACTOR * e);
  out = lim < d->floor_s ? d->floor_s : lim > d->cap_s ? d->cap_s : (unsigned)lim;
  snprintf(why, whylen, "%d x %.1f s expected (%s)%s%s", DEADLINE_FACTOR, e, expl,
           lim < d->floor_s  ? ", raised to the floor"
           : lim > d->cap_s ? ", lowered to the cap"
                            : "",
           lim < d->floor_s || lim > d->cap_s ? " (KOPT_EVAL_TIMEOUT_FLOOR_S, KOPT_EVAL_TIMEOUT_S)"
                                              : "");
  return out;
}

unsigned deadline_backstop(const struct deadline *d, unsigned limit)
{
  unsigned reload = d->load > 0 ? deadline_limit(d, "load", NULL, NULL, 0) : d->load_s;
  return limit + reload + DEADLINE_START_S;
}
