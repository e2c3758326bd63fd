/* contract: the words and sizes that koptd, its HTTP API, the workers and koptctl must agree
 * on, defined once. Job states, the outcomes a worker reports, backends, ladder policies,
 * proposers, the sizes of ids, and the limits on what a job may carry (with the one rule
 * that turns them into the harness's own limits, so that a job the API accepted can always
 * be loaded).
 *
 * The same words appear outside C: the CHECK constraints of migrations/001_init.sql, the
 * enums of api/openapi.json, the harness's protocol limits (harness/kharness/protocol.py,
 * which takes the configured ones as arguments). tests/unit/test_contract.c holds them to
 * this file. */
#ifndef KOPT_CONTRACT_H
#define KOPT_CONTRACT_H
#include <stddef.h>

/* ---- job states (jobs.state) */
#define KOPT_STATE_QUEUED "queued"
#define KOPT_STATE_RUNNING "running"
#define KOPT_STATE_SUCCEEDED "succeeded"
#define KOPT_STATE_FAILED "failed"
#define KOPT_STATE_CANCELLED "cancelled"
enum contract_state {
  CONTRACT_QUEUED = 0,
  CONTRACT_RUNNING,
  CONTRACT_SUCCEEDED,
  CONTRACT_FAILED,
  CONTRACT_CANCELLED,
  CONTRACT_STATE_COUNT
};
/* Indexed by enum contract_state; NULL after the last. */
extern const char *const contract_states[CONTRACT_STATE_COUNT + 1];

/* ---- what a worker reports for a job it ran (job_done.outcome, workers/PROTOCOL.md):
 * the three final states, or "aborted" (the worker is stopping; the job stays claimable and
 * keeps its attempt) or "lost" (its lease went to someone else; it changed nothing). */
#define KOPT_OUTCOME_SUCCEEDED KOPT_STATE_SUCCEEDED
#define KOPT_OUTCOME_FAILED KOPT_STATE_FAILED
#define KOPT_OUTCOME_CANCELLED KOPT_STATE_CANCELLED
#define KOPT_OUTCOME_ABORTED "aborted"
#define KOPT_OUTCOME_LOST "lost"
/* the job's own fault ended this run with attempts left: it went back to the queue */
#define KOPT_OUTCOME_REQUEUED "requeued"
extern const char *const contract_outcomes[]; /* NULL-terminated */

/* ---- backends of a device; a job may also ask for "any" */
#define KOPT_BACKEND_CUDA "cuda"
#define KOPT_BACKEND_ASCEND "ascend"
#define KOPT_BACKEND_INTERP "interp"
#define KOPT_BACKEND_ANY "any"
extern const char *const contract_backends[];      /* device backends, NULL-terminated */
extern const char *const contract_job_backends[];  /* the same and "any" */

/* ---- ladder policies (enum ladder_policy follows this order) and proposers */
extern const char *const contract_policies[];      /* NULL-terminated; the first is the default */
extern const char *const contract_proposers[];     /* NULL-terminated; the first is the default */
#define CONTRACT_POLICY_COUNT 4

/* ---- sizes */
#define KOPT_UUID_LEN 36                /* a job id as text: 8-4-4-4-12 hex digits */
#define KOPT_JOB_ID_SIZE 40             /* a buffer that holds a job id and its NUL */
#define KOPT_SHA256_HEX_SIZE 65         /* 64 hex digits and the NUL */
#define KOPT_BACKEND_SIZE 8             /* "interp" and the NUL */
#define KOPT_DEVICE_NAME_SIZE 24        /* "cuda:63" */

/* ---- what a job may carry ([server] settings: default, and the range a setting may take) */
#define KOPT_SOURCE_BYTES_DEFAULT (256u << 10)  /* max_source_bytes: kernel or reference source */
#define KOPT_SOURCE_BYTES_MIN 64u
#define KOPT_SOURCE_BYTES_MAX (16u << 20)
#define KOPT_BODY_BYTES_DEFAULT (4u << 20)      /* max_body_bytes: one request body */
#define KOPT_BODY_BYTES_MIN 1024u
#define KOPT_BODY_BYTES_MAX (64u << 20)
#define KOPT_CASES_MAX 1024                     /* cases in a spec (the harness's limit too) */
/* The harness's own floor for one request line (its default when started without limits). */
#define KOPT_HARNESS_LINE_MIN (16u << 20)

/* The harness's request-line limit for a koptd with these settings. A `load` line carries
 * what the accepted body carried (sources and cases, re-encoded: never longer than the
 * body's own JSON plus the fields the worker adds); a `validate`/`compare` line carries two
 * sources, each at most 6 bytes a byte once escaped (\u0001). */
size_t contract_harness_line_max(size_t max_body_bytes, size_t max_source_bytes);

/* Index of s in a NULL-terminated table, or -1 (also for s == NULL). */
int contract_find(const char *const *table, const char *s);
/* 1 for succeeded, failed and cancelled. */
int contract_state_terminal(const char *state);

#endif
