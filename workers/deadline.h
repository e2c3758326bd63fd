/* deadline: the time limit of each harness call, derived from what the job has measured so
 * far (the load of the problem, the initial kernel's validation per case, its timings and
 * the reference's, the compile and profile times seen) and from how much work the call
 * asks for (cases, repetitions, candidates), times a safety factor, within a floor and a
 * cap. A hang then costs about five times what the work should take, not the cap.
 *
 * Before anything is measured (the first load: imports, cases, one probe forward) the
 * limit is the configured load default. Each limit comes with a sentence that says how it
 * was derived, for the failure reason. Not thread-safe; one per job. */
#ifndef KOPT_DEADLINE_H
#define KOPT_DEADLINE_H
#include <jansson.h>
#include <stddef.h>

#define DEADLINE_FACTOR 5        /* limit = factor x expected: a busy host runs 2-3x slower */
#define DEADLINE_FLOOR_S 30      /* default floor (KOPT_EVAL_TIMEOUT_FLOOR_S) */
#define DEADLINE_LOAD_S 120      /* default limit of a first load (KOPT_LOAD_TIMEOUT_S) */
#define DEADLINE_CAP_S 900       /* default cap (KOPT_EVAL_TIMEOUT_S) */
#define DEADLINE_CAP_MAX_S 7200  /* the harness refuses a longer timeout_s (MAX_TIMEOUT_S) */
/* The harness may have to start its worker process (the supervisor waits up to its
 * --start-timeout, 300 s) and replay the load before a request's own clock starts: the
 * worker's backstop allows for both beyond the request's limit. */
#define DEADLINE_START_S 300
#define DEADLINE_WHY_MAX 320

struct deadline {
  unsigned floor_s, cap_s, load_s; /* configured */
  int gpu;                         /* a device backend: many repetitions per timing */
  /* Measured, seconds (0: not yet). */
  double load;                     /* the problem's load (largest seen) */
  double val_case;                 /* the initial kernel's validation, per case */
  double bench_case;               /* the baseline's timing (kernel + reference), per case */
  double fwd;                      /* one timed forward: the slower median, plus overhead */
  double compile, profile;         /* the largest compile and profile seen */
  unsigned ncorr, nbench;          /* the problem's correctness and benchmark cases */
};

void deadline_init(struct deadline *d, unsigned floor_s, unsigned cap_s, unsigned load_s,
                   const char *backend);
/* Learns from a successful call: op, its request (borrowed; NULL: the initial kernel's) and
 * its result (borrowed). Only the initial kernel's validation and timing are the yardstick
 * (a candidate is judged against them, not the other way round). */
void deadline_observe(struct deadline *d, const char *op, const json_t *req,
                      const json_t *result);
/* Learns what a committed baseline measured (a job resumed after a crash). */
void deadline_from_baseline(struct deadline *d, const json_t *baseline);
/* The limit in seconds of op with req (borrowed); why (may be NULL) gets how it was
 * derived, e.g. "5 x 2.0 s expected (1 case x 0.8 s per validated case + 1.2 s load),
 * raised to the floor of 30 s". */
unsigned deadline_limit(const struct deadline *d, const char *op, const json_t *req, char *why,
                        size_t whylen);
/* The worker's own backstop for a call whose limit is limit: room for the harness to start
 * its worker and replay the load first. */
unsigned deadline_backstop(const struct deadline *d, unsigned limit);

#endif
