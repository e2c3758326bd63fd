/* spec: validation of a job spec (POST /v1/jobs body) against docs/API.md. Pure: no I/O, so
 * it is unit-tested directly. */
#ifndef KOPT_SPEC_H
#define KOPT_SPEC_H
#include <jansson.h>
#include <stddef.h>

#include "contract.h"
#include "problem.h"

#define SPEC_MAX_NAME 128
#define SPEC_MAX_CASES KOPT_CASES_MAX
#define SPEC_MAX_TUNABLES 16
#define SPEC_MAX_TUNABLE_VALUES 32
#define SPEC_MAX_ROUNDS 100
#define SPEC_MAX_CANDIDATES 64     /* candidates a round may sweep (harness MAX_SWEEP_CANDIDATES) */
#define SPEC_DEFAULT_CANDIDATES 32
#define SPEC_MAX_FILENAME 255
/* The largest integer-output tolerance a job may declare (harness judge.py INT_ATOL_MAX). */
#define SPEC_MAX_INT_ATOL (1 << 20)

struct spec_limits {
  size_t max_source_bytes;
};

/* Validates doc (borrowed). On success returns 0 and *out holds a new reference to the
 * normalized spec: every field present, defaults filled (caller decrefs). On failure
 * returns -EINVAL with every broken rule added to p (status 400, type validation). */
int spec_validate(const json_t *doc, const struct spec_limits *lim, json_t **out,
                  struct problem *p);

/* The per-dtype default tolerances (NPUKernelBench's): fills rtol/atol, 0 or -ENOENT. */
int spec_default_tolerance(const char *dtype, double *rtol, double *atol);

#endif
