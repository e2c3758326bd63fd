/* api: the v1 routes. A request is collected on the loop thread (daemon/http.c), matched to
 * a route here, and its database work runs on a pool thread; the response is built there
 * and handed back to the loop. */
#ifndef KOPT_API_H
#define KOPT_API_H
#include <libpq-fe.h>
#include <stdint.h>
#include <uv.h>

#include "auth.h"
#include "buf.h"
#include "contract.h"
#include "ctx.h"
#include "jobcache.h"
#include "notify.h"
#include "problem.h"

struct MHD_Connection;
struct http_conn;

enum api_route {
  ROUTE_NONE = 0,
  ROUTE_HEALTHZ,
  ROUTE_READYZ,
  ROUTE_METRICS,
  ROUTE_OPENAPI,
  ROUTE_JOBS,
  ROUTE_JOB,
  ROUTE_JOB_CANCEL,
  ROUTE_JOB_ROUNDS,
  ROUTE_JOB_EVENTS,
  ROUTE_JOB_KERNEL,
  ROUTE_JOB_ARTIFACTS,
  ROUTE_JOB_LOG,
  ROUTE_JOB_ARTIFACT,
  ROUTE_WORKERS,
  ROUTE_DASHBOARD,
  /* the pattern index, batches and the dashboard's assets (api_patterns.c, api_batches.c,
   * api_ui.c) */
  ROUTE_PATTERNS,
  ROUTE_PATTERN_VERSIONS,
  ROUTE_PATTERN_DIFF,
  ROUTE_PATTERN_FREEZE,
  ROUTE_PATTERN_SYNTH,
  ROUTE_BATCHES,
  ROUTE_BATCH,
  ROUTE_UI_ASSET,
};

struct api_resp {
  unsigned status;
  char *body;                /* owned, malloc'd; handed to MHD */
  size_t body_len;
  const char *content_type;  /* static */
  char location[96];
  char allow[32];            /* for 405 */
  int www_authenticate;
  char etag[JOBCACHE_ETAG_LEN + 1]; /* set: ETag sent, Cache-Control private, no-cache */
};

#define API_Q_STATE_MAX 160
#define API_IDEM_MAX 255
#define API_CURSOR_MAX 24 /* a cursor's digits and NUL: any bigint */

struct api_req {
  struct kopt_ctx *ctx;            /* borrowed */
  struct MHD_Connection *conn;     /* borrowed from MHD */
  struct http_conn *hconn;         /* borrowed: the connection's deadline record, or NULL */
  uv_work_t work;
  enum api_route route;
  const char *route_name;          /* static template for metrics */
  char method[8];
  char id[KOPT_JOB_ID_SIZE];       /* path parameter (job id) */
  char art_round[12];              /* artifact path parameters: round, kind */
  char art_kind[100];
  int version;                     /* /v1/patterns/versions/{v}/... */
  int ui_asset;                    /* /ui/{asset}: index into the embedded assets */
  char q_version[16], q_against[16], q_status[16]; /* patterns' query ("" when absent) */
  int need_role;                   /* enum auth_role; 0 = public route */
  /* Copied from headers and query on the first call (loop thread). */
  char auth[160];
  int auth_too_long;
  char idem_key[API_IDEM_MAX + 2];
  int idem_present, idem_bad;
  char content_type[128];
  char last_event_id[24];
  int last_event_id_too_long;
  char if_none_match[256];         /* "" when absent or too long (then nothing matches) */
  char q_state[API_Q_STATE_MAX + 1];
  int q_state_too_long;
  char q_limit[24], q_cursor[48], q_round[24];
  int q_limit_set, q_cursor_set, q_round_set, q_bad;
  struct buf body;                 /* capped at max_body_bytes */
  int body_too_large;
  size_t max_source_bytes;         /* snapshot of the setting for the pool thread */
  uint64_t t_start_ns;
  int dispatched, suspended, responded;
  /* Caches (tokens, jobs) are trusted only once a NOTIFY barrier sent after the request
   * arrived has passed: then every change committed before it has invalidated them. */
  struct notify_waiter barrier;
  enum { API_BARRIER_NONE = 0, API_BARRIER_WAITING, API_BARRIER_PASSED, API_BARRIER_FAILED }
      barrier_state;
  struct auth_identity who;
  struct api_resp resp;
  /* ROUTE_METRICS: counts by state, filled on the pool thread. */
  long long jobs_by_state[CONTRACT_STATE_COUNT];
  int db_ok;
  /* ROUTE_JOB_EVENTS: where the stream starts. */
  long long events_from;
  int job_terminal;
};

/* Matches method+path; fills route, route_name, id, need_role. Returns 0, or a status
 * (404, 405) with a problem already in resp. Loop thread. */
unsigned api_route_match(struct api_req *r, const char *method, const char *url);
/* Whether the request waits for a NOTIFY barrier before it is answered: every route
 * that needs a token (so a revoked one is refused at once, and cached documents are
 * current), except POST /v1/jobs, whose statement checks the token itself. */
int api_needs_barrier(const struct api_req *r);
/* Records one query argument (key=value; value may be NULL) in r's q_* fields, capped;
 * other keys are ignored. Loop thread, before dispatch. */
void api_query_arg(struct api_req *r, const char *key, const char *value);
/* Runs the route's work (auth, validation, database) on a pool thread. */
void api_work(struct api_req *r);
/* Loop-thread completion: routes that need loop state (metrics) finish here. */
void api_after_work(struct api_req *r);
/* Routes answered on the loop thread without the database (healthz). 1 if handled. */
int api_handle_inline(struct api_req *r);

/* Response helpers (any thread). They take ownership of body. */
void api_resp_set(struct api_req *r, unsigned status, const char *ctype, char *body);
void api_resp_json(struct api_req *r, unsigned status, json_t *doc); /* steals doc */
void api_resp_problem(struct api_req *r, struct problem *p);         /* frees p's errors */
void api_resp_simple_problem(struct api_req *r, unsigned status, const char *type,
                             const char *title, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void api_resp_free(struct api_resp *resp);
/* 200 with body (JSON, owned) and its ETag, or 304 without a body when the request's
 * If-None-Match names the tag. */
void api_resp_tagged(struct api_req *r, char *body, size_t len, const char *etag);
/* The job cache key of a GET /v1/jobs request (its raw query and, for a submitter, the
 * owner it is limited to); -1 when the request is not cacheable. Needs r->who. */
int api_list_cache_key(const struct api_req *r, char *out, size_t cap);

/* GET /v1/jobs's query (limit, cursor, state), checked: 0 with q filled, or -EINVAL with
 * every broken rule added to p. Pure, so it is fuzzed (tests/fuzz/fuzz_router.c). */
struct api_list_query {
  long limit;
  char states[API_Q_STATE_MAX + 8]; /* PostgreSQL text[] literal; "" for no filter */
  char cursor[API_CURSOR_MAX];      /* seq digits after the 'c'; "" for the first page */
};
int api_jobs_list_query(const struct api_req *r, struct api_list_query *q, struct problem *p);

/* Handlers on a pool thread, conn acquired, auth done. */
void api_jobs_create(struct api_req *r, PGconn *c);
void api_jobs_list(struct api_req *r, PGconn *c);
void api_jobs_get(struct api_req *r, PGconn *c);
void api_jobs_cancel(struct api_req *r, PGconn *c);
void api_jobs_rounds(struct api_req *r, PGconn *c);
void api_jobs_kernel(struct api_req *r, PGconn *c);
void api_jobs_artifacts(struct api_req *r, PGconn *c);
/* GET /v1/jobs/{id}/log: what the job's kernels printed, per harness step (capped). */
void api_jobs_log(struct api_req *r, PGconn *c);
void api_jobs_artifact(struct api_req *r, PGconn *c);
void api_jobs_events_open(struct api_req *r, PGconn *c);
void api_workers_list(struct api_req *r, PGconn *c);

/* The pattern index (docs/API.md, "Patterns"). api_patterns_match: the route of a
 * /v1/patterns... path (r->version filled), or ROUTE_NONE. */
enum api_route api_patterns_match(struct api_req *r, const char *url);
void api_patterns_list(struct api_req *r, PGconn *c);
void api_patterns_versions(struct api_req *r, PGconn *c);
void api_patterns_diff(struct api_req *r, PGconn *c);
void api_patterns_freeze(struct api_req *r, PGconn *c);
void api_patterns_synthesize(struct api_req *r, PGconn *c);
/* Patterns' query arguments (version, against, status); 1 when key was one of them. */
int api_patterns_query_arg(struct api_req *r, const char *key, const char *value);

/* Batches (docs/API.md, "Batches"). api_batches_match: the route of a /v1/batches... path
 * (r->id filled), or ROUTE_NONE. */
enum api_route api_batches_match(struct api_req *r, const char *url);
void api_batches_create(struct api_req *r, PGconn *c);
void api_batches_get(struct api_req *r, PGconn *c);
void api_batches_list(struct api_req *r, PGconn *c);

/* The dashboard's static assets (/ui/...), embedded at build time. */
enum api_route api_ui_match(struct api_req *r, const char *url);
void api_ui_serve(struct api_req *r);

/* 1 when s (n bytes) is a canonical UUID (router.c). */
int api_is_uuid(const char *s, size_t n);
/* Shared by the handlers: 503 for a failed query (logged), 415 unless the request is
 * application/json (returns -1 when it answered). */
void api_db_fail(struct api_req *r, const char *what, const char *err);
int api_require_json(struct api_req *r);
/* Tenancy: a submitter reads only the jobs and batches it submitted; viewers and admins read
 * all. The owner to filter on as a query parameter ($N::bigint IS NULL OR owner_token_id =
 * $N), or NULL for no filter; buf holds the digits. */
/* The columns every jobs INSERT takes from a validated spec, as query parameters $1..$6:
 * name, backend, priority, rounds, policy, proposer (borrowed from spec; the two numbers'
 * digits in cols, which must outlive the query). */
struct api_job_cols {
  char prio[16], rounds[16];
};
void api_job_cols(const json_t *spec, struct api_job_cols *cols, const char *params[6]);
#define API_OWNER_MAX 24
const char *api_owner_filter(const struct api_req *r, char buf[API_OWNER_MAX]);
/* A list route's ?limit= (default def, 1..max) and ?cursor= (prefix, then a bigint; cursor
 * gets its digits, "" when absent), parsed as every integer parameter is (params.h). Pure:
 * 0, or -EINVAL with every broken rule added to p (fuzzed, tests/fuzz/fuzz_router.c).
 * api_page_args: the same, answering the 400 itself (0, or -1 when it answered). */
int api_page_query(const struct api_req *r, long def, long max, char prefix,
                   char cursor[API_CURSOR_MAX], long *limit, struct problem *p);
int api_page_args(struct api_req *r, long def, long max, char prefix, char cursor[API_CURSOR_MAX],
                  long *limit);
/* Answers {"<key>": [column 1 of each row, at most limit], "next_cursor": prefix + column 0
 * of the last row shown, or null when res (asked for limit + 1 rows) had no more}. */
void api_page_answer(struct api_req *r, PGresult *res, const char *key, char prefix, long limit);

/* Embedded OpenAPI document (generated from api/openapi.json). */
extern const char api_openapi_json[];
extern const unsigned long api_openapi_json_len;
/* Embedded dashboard page (generated from api/dashboard.html). */
extern const char api_dashboard_html[];
extern const unsigned long api_dashboard_html_len;

#endif
