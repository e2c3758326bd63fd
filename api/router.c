/* router: path matching, role table, and the pool-thread entry that authenticates and
 * calls the handler. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "http.h"
#include "log.h"
#include "migrate.h"
#include "pool.h"
#include "version.h"

void api_resp_set(struct api_req *r, unsigned status, const char *ctype, char *body)
{
  free(r->resp.body);
  r->resp.status = status;
  r->resp.content_type = ctype;
  r->resp.body = body;
  r->resp.body_len = body ? strlen(body) : 0;
}

void api_resp_json(struct api_req *r, unsigned status, json_t *doc)
{
  char *s = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  if (!s) {
    api_resp_simple_problem(r, 500, "internal", "Internal error", "out of memory");
    return;
  }
  api_resp_set(r, status, "application/json", s);
}

void api_resp_problem(struct api_req *r, struct problem *p)
{
  char *s = problem_render(p);
  api_resp_set(r, p->status, PROBLEM_CONTENT_TYPE, s);
  if (!s) {
    /* Rendering failed for lack of memory: a fixed document still tells the client. */
    api_resp_set(r, 500, PROBLEM_CONTENT_TYPE,
                 strdup("{\"type\":\"urn:kopt:problem:internal\",\"title\":\"Internal error\","
                        "\"status\":500}"));
  }
  problem_free(p);
}

void api_resp_simple_problem(struct api_req *r, unsigned status, const char *type,
                             const char *title, const char *fmt, ...)
{
  struct problem p;
  va_list ap;
  problem_init(&p, status, type, title);
  va_start(ap, fmt);
  vsnprintf(p.detail, sizeof(p.detail), fmt, ap);
  va_end(ap);
  api_resp_problem(r, &p);
}

void api_resp_free(struct api_resp *resp)
{
  free(resp->body);
  resp->body = NULL;
}

/* A canonical UUID (any version); anything else cannot name a job. */
int api_is_uuid(const char *s, size_t n)
{
  if (n != 36)
    return 0;
  for (size_t i = 0; i < n; i++) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-')
        return 0;
    } else if (!isxdigit((unsigned char)s[i])) {
      return 0;
    }
  }
  return 1;
}

struct api_route_def {
  enum api_route route;
  const char *tmpl;       /* metrics label */
  const char *get_role;   /* NULL: GET not allowed; "" public */
  const char *post_role;
  const char *allow;
};

static const struct api_route_def api_routes[] = {
  { ROUTE_HEALTHZ, "/healthz", "", NULL, "GET" },
  { ROUTE_READYZ, "/readyz", "", NULL, "GET" },
  { ROUTE_METRICS, "/metrics", "", NULL, "GET" },
  { ROUTE_DASHBOARD, "/", "", NULL, "GET" },
  { ROUTE_OPENAPI, "/v1/openapi.json", "viewer", NULL, "GET" },
  { ROUTE_JOBS, "/v1/jobs", "viewer", "submitter", "GET, POST" },
  { ROUTE_JOB, "/v1/jobs/{id}", "viewer", NULL, "GET" },
  { ROUTE_JOB_CANCEL, "/v1/jobs/{id}/cancel", NULL, "submitter", "POST" },
  { ROUTE_JOB_ROUNDS, "/v1/jobs/{id}/rounds", "viewer", NULL, "GET" },
  { ROUTE_JOB_EVENTS, "/v1/jobs/{id}/events", "viewer", NULL, "GET" },
  { ROUTE_JOB_KERNEL, "/v1/jobs/{id}/kernel", "viewer", NULL, "GET" },
  { ROUTE_JOB_ARTIFACTS, "/v1/jobs/{id}/artifacts", "viewer", NULL, "GET" },
  { ROUTE_JOB_LOG, "/v1/jobs/{id}/log", "viewer", NULL, "GET" },
  { ROUTE_JOB_ARTIFACT, "/v1/jobs/{id}/artifacts/{round}/{kind}", "viewer", NULL, "GET" },
  { ROUTE_WORKERS, "/v1/workers", "viewer", NULL, "GET" },
  { ROUTE_PATTERNS, "/v1/patterns", "viewer", NULL, "GET" },
  { ROUTE_PATTERN_VERSIONS, "/v1/patterns/versions", "viewer", NULL, "GET" },
  { ROUTE_PATTERN_DIFF, "/v1/patterns/versions/{v}/diff", "viewer", NULL, "GET" },
  { ROUTE_PATTERN_FREEZE, "/v1/patterns/versions/{v}/freeze", NULL, "admin", "POST" },
  { ROUTE_PATTERN_SYNTH, "/v1/patterns/synthesize", NULL, "admin", "POST" },
  { ROUTE_BATCHES, "/v1/batches", "viewer", "submitter", "GET, POST" },
  { ROUTE_BATCH, "/v1/batches/{id}", "viewer", NULL, "GET" },
  { ROUTE_UI_ASSET, "/ui/{asset}", "", NULL, "GET" },
};

unsigned api_route_match(struct api_req *r, const char *method, const char *url)
{
  enum api_route route = ROUTE_NONE;
  const struct api_route_def *def = NULL;
  const char *role;
  size_t n = strlen(url);

  snprintf(r->method, sizeof(r->method), "%s", method);
  if (strcmp(url, "/healthz") == 0)
    route = ROUTE_HEALTHZ;
  else if (strcmp(url, "/readyz") == 0)
    route = ROUTE_READYZ;
  else if (strcmp(url, "/metrics") == 0)
    route = ROUTE_METRICS;
  else if (strcmp(url, "/") == 0)
    route = ROUTE_DASHBOARD;
  else if (strcmp(url, "/v1/openapi.json") == 0)
    route = ROUTE_OPENAPI;
  else if (strcmp(url, "/v1/jobs") == 0 || strcmp(url, "/v1/jobs/") == 0)
    route = ROUTE_JOBS;
  else if (strcmp(url, "/v1/workers") == 0)
    route = ROUTE_WORKERS;
  else if (strncmp(url, "/v1/patterns", 12) == 0)
    route = api_patterns_match(r, url);
  else if (strncmp(url, "/v1/batches", 11) == 0)
    route = api_batches_match(r, url);
  else if (strncmp(url, "/ui/", 4) == 0)
    route = api_ui_match(r, url);
  else if (n > 9 && strncmp(url, "/v1/jobs/", 9) == 0) {
    const char *id = url + 9, *slash = strchr(id, '/');
    size_t idlen = slash ? (size_t)(slash - id) : strlen(id);
    if (api_is_uuid(id, idlen)) {
      memcpy(r->id, id, idlen);
      r->id[idlen] = '\0';
      for (size_t i = 0; i < idlen; i++)
        r->id[i] = (char)tolower((unsigned char)r->id[i]);
      if (!slash)
        route = ROUTE_JOB;
      else if (strcmp(slash, "/cancel") == 0)
        route = ROUTE_JOB_CANCEL;
      else if (strcmp(slash, "/rounds") == 0)
        route = ROUTE_JOB_ROUNDS;
      else if (strcmp(slash, "/events") == 0)
        route = ROUTE_JOB_EVENTS;
      else if (strcmp(slash, "/kernel") == 0)
        route = ROUTE_JOB_KERNEL;
      else if (strcmp(slash, "/artifacts") == 0)
        route = ROUTE_JOB_ARTIFACTS;
      else if (strcmp(slash, "/log") == 0)
        route = ROUTE_JOB_LOG;
      else if (strncmp(slash, "/artifacts/", 11) == 0) {
        /* /artifacts/{round}/{kind}: round digits, kind [A-Za-z0-9_.-] */
        const char *rd = slash + 11, *sl = strchr(rd, '/');
        size_t rl = sl ? (size_t)(sl - rd) : 0, kl = sl ? strlen(sl + 1) : 0;
        int ok = sl && rl >= 1 && rl < sizeof(r->art_round) && kl >= 1 &&
                 kl < sizeof(r->art_kind);
        for (size_t i = 0; ok && i < rl; i++)
          ok = isdigit((unsigned char)rd[i]);
        for (size_t i = 0; ok && i < kl; i++)
          ok = isalnum((unsigned char)sl[1 + i]) || strchr("_.-", sl[1 + i]);
        if (ok) {
          memcpy(r->art_round, rd, rl);
          r->art_round[rl] = '\0';
          memcpy(r->art_kind, sl + 1, kl);
          r->art_kind[kl] = '\0';
          route = ROUTE_JOB_ARTIFACT;
        }
      }
    } else if (!slash || slash[1] == '\0' || strchr(slash + 1, '/') == NULL) {
      r->route_name = "/v1/jobs/{id}";
      api_resp_simple_problem(r, 404, "not-found", "Not found",
                              "job id must be a UUID like 8c0d6b3e-1f2a-4b5c-9d8e-7f6a5b4c3d2e");
      return 404;
    }
  }
  for (unsigned i = 0; i < sizeof(api_routes) / sizeof(api_routes[0]); i++)
    if (api_routes[i].route == route)
      def = &api_routes[i];
  if (!def) {
    r->route_name = "other";
    api_resp_simple_problem(r, 404, "not-found", "Not found", "no route for %.200s", url);
    return 404;
  }
  r->route = route;
  r->route_name = def->tmpl;
  role = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0 ? def->get_role
         : strcmp(method, "POST") == 0                             ? def->post_role
                                                                   : NULL;
  if (!role) {
    snprintf(r->resp.allow, sizeof(r->resp.allow), "%s", def->allow);
    api_resp_simple_problem(r, 405, "method-not-allowed", "Method not allowed",
                            "%s is not allowed on %s; allowed: %s", method, def->tmpl,
                            def->allow);
    return 405;
  }
  r->need_role = *role ? (int)auth_role_parse(role) : 0;
  return 0;
}

void api_resp_tagged(struct api_req *r, char *body, size_t len, const char *etag)
{
  snprintf(r->resp.etag, sizeof(r->resp.etag), "%s", etag);
  if (jobcache_etag_matches(r->if_none_match, etag)) {
    free(body);
    api_resp_set(r, 304, NULL, strdup(""));
    return;
  }
  api_resp_set(r, 200, "application/json", body);
  r->resp.body_len = body ? len : 0;
}

/* GET /v1/jobs/{id} and GET /v1/jobs from the job cache, on the loop thread: 1 when
 * answered. Only after the request's NOTIFY barrier passed, and only for a token the
 * token cache knows; anything else goes to the database. */
static int api_from_cache(struct api_req *r)
{
  struct jobcache_hit hit;
  char key[JOBCACHE_KEY_MAX];
  int is_list = r->route == ROUTE_JOBS;

  if ((r->route != ROUTE_JOB && !is_list) || r->barrier_state != API_BARRIER_PASSED ||
      (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0))
    return 0;
  if (auth_resolve(&r->ctx->auth, 1, NULL, r->auth_too_long ? NULL : r->auth, &r->who,
                   ctx_wall_ms()) != 0 ||
      r->who.role == AUTH_NONE || (int)r->who.role < r->need_role)
    return 0;
  if (is_list ? api_list_cache_key(r, key, sizeof(key)) != 0
              : snprintf(key, sizeof(key), "%s", r->id) < 0)
    return 0;
  if (jobcache_get(&r->ctx->jobs, is_list, key, r->if_none_match, &hit) != 1)
    return 0;
  if (!is_list && r->who.role == AUTH_SUBMITTER && hit.owner != r->who.token_id) {
    free(hit.body); /* not this token's: the database path says so */
    return 0;
  }
  if (!hit.body) { /* If-None-Match named it: 304, and nothing was copied */
    snprintf(r->resp.etag, sizeof(r->resp.etag), "%s", hit.etag);
    api_resp_set(r, 304, NULL, strdup(""));
    return 1;
  }
  api_resp_tagged(r, hit.body, hit.len, hit.etag);
  return 1;
}

void api_query_arg(struct api_req *r, const char *key, const char *value)
{
  size_t have, add;
  if (!value)
    value = "";
  if (strcmp(key, "state") == 0) {
    /* A repeated key (state=a&state=b) is collected into "a,b". */
    have = strlen(r->q_state);
    add = strlen(value) + (have ? 1 : 0);
    if (have + add > API_Q_STATE_MAX) {
      r->q_state_too_long = 1;
    } else {
      if (have)
        r->q_state[have++] = ',';
      memcpy(r->q_state + have, value, strlen(value) + 1);
    }
  } else if (strcmp(key, "limit") == 0) {
    r->q_limit_set = 1;
    if (strlen(value) >= sizeof(r->q_limit))
      snprintf(r->q_limit, sizeof(r->q_limit), "x"); /* rejected as not an integer */
    else
      snprintf(r->q_limit, sizeof(r->q_limit), "%s", value);
  } else if (strcmp(key, "cursor") == 0) {
    r->q_cursor_set = 1;
    snprintf(r->q_cursor, sizeof(r->q_cursor), "%.*s", (int)sizeof(r->q_cursor) - 1, value);
    if (strlen(value) >= sizeof(r->q_cursor))
      r->q_cursor[0] = '!';
  } else if (api_patterns_query_arg(r, key, value)) {
    /* version, against, status */
  } else if (strcmp(key, "round") == 0) {
    r->q_round_set = 1;
    snprintf(r->q_round, sizeof(r->q_round), "%.*s", (int)sizeof(r->q_round) - 1, value);
    if (strlen(value) >= sizeof(r->q_round))
      r->q_round[0] = 'x';
  }
}

int api_handle_inline(struct api_req *r)
{
  if (api_from_cache(r))
    return 1;
  if (r->route == ROUTE_HEALTHZ) {
    api_resp_set(r, 200, "application/json", strdup("{\"status\":\"ok\"}"));
    return 1;
  }
  if (r->route == ROUTE_DASHBOARD) {
    char *s = malloc(api_dashboard_html_len + 1);
    if (s) {
      memcpy(s, api_dashboard_html, api_dashboard_html_len);
      s[api_dashboard_html_len] = '\0';
    }
    api_resp_set(r, 200, "text/html; charset=utf-8", s);
    return 1;
  }
  if (r->route == ROUTE_UI_ASSET) {
    api_ui_serve(r);
    return 1;
  }
  return 0;
}

static void api_readyz(struct api_req *r, PGconn *c)
{
  int v = migrate_current(c);
  if (v < 0) {
    api_resp_simple_problem(r, 503, "unavailable", "Not ready",
                            "schema table missing: run koptd migrate");
  } else if (v < r->ctx->schema_latest) {
    api_resp_simple_problem(r, 503, "unavailable", "Not ready",
                            "schema at version %d, this koptd needs %d", v,
                            r->ctx->schema_latest);
  } else {
    char *s = NULL;
    if (asprintf(&s, "{\"status\":\"ready\",\"schema_version\":%d,\"draining\":%s}", v,
                 r->ctx->draining ? "true" : "false") < 0)
      s = NULL;
    api_resp_set(r, 200, "application/json", s);
  }
}

static void api_metrics_query(struct api_req *r, PGconn *c)
{
  char err[256];
  PGresult *res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                          "SELECT state, count(*) FROM jobs GROUP BY state", 0, NULL);
  r->db_ok = res != NULL;
  if (!res)
    return;
  for (int i = 0; i < PQntuples(res); i++)
    for (int s = 0; s < CONTRACT_STATE_COUNT; s++)
      if (strcmp(PQgetvalue(res, i, 0), contract_states[s]) == 0)
        r->jobs_by_state[s] = atoll(PQgetvalue(res, i, 1));
  PQclear(res);
}

static int api_is_submit(const struct api_req *r)
{
  return r->route == ROUTE_JOBS && strcmp(r->method, "POST") == 0;
}

int api_needs_barrier(const struct api_req *r) { return r->need_role && !api_is_submit(r); }

void api_work(struct api_req *r)
{
  char err[256];
  PGconn *c = db_pool_acquire(&r->ctx->pool, err, sizeof(err));

  if (!c) {
    if (r->route == ROUTE_METRICS) {
      r->db_ok = 0;
      return;
    }
    log_warn("db.unavailable", "route=%s", r->route_name);
    api_resp_simple_problem(r, 503, "unavailable", "Database unavailable",
                            "the database cannot be reached; retry later");
    return;
  }
  if (r->need_role) {
    /* The token cache is trusted after the barrier, or where the statement checks the
     * token again (a submission). */
    int use_cache = r->barrier_state == API_BARRIER_PASSED || api_is_submit(r);
    int rc = auth_resolve(&r->ctx->auth, use_cache, c, r->auth_too_long ? NULL : r->auth,
                          &r->who, ctx_wall_ms());
    if (rc) {
      api_resp_simple_problem(r, 503, "unavailable", "Database unavailable",
                              "token lookup failed; retry later");
      goto out;
    }
    if (r->who.role == AUTH_NONE) {
      char why[128];
      if (r->who.why == AUTH_MISSING && (r->auth[0] || r->auth_too_long))
        r->who.why = AUTH_UNKNOWN; /* a header was sent, just not a well-formed token */
      auth_refusal_text(&r->who, why, sizeof(why));
      r->resp.www_authenticate = 1;
      api_resp_simple_problem(r, 401, "unauthorized", "Unauthorized", "%s", why);
      goto out;
    }
    if ((int)r->who.role < r->need_role) {
      api_resp_simple_problem(r, 403, "forbidden", "Forbidden",
                              "role %s may not %s %s (needs %s)", auth_role_name(r->who.role),
                              r->method, r->route_name,
                              auth_role_name((enum auth_role)r->need_role));
      goto out;
    }
  }
  switch (r->route) {
  case ROUTE_READYZ: api_readyz(r, c); break;
  case ROUTE_METRICS: api_metrics_query(r, c); break;
  case ROUTE_OPENAPI: {
    char *s = malloc(api_openapi_json_len + 1);
    if (s) {
      memcpy(s, api_openapi_json, api_openapi_json_len);
      s[api_openapi_json_len] = '\0';
    }
    api_resp_set(r, 200, "application/json", s);
    break;
  }
  case ROUTE_JOBS:
    if (strcmp(r->method, "POST") == 0)
      api_jobs_create(r, c);
    else
      api_jobs_list(r, c);
    break;
  case ROUTE_JOB: api_jobs_get(r, c); break;
  case ROUTE_JOB_CANCEL: api_jobs_cancel(r, c); break;
  case ROUTE_JOB_ROUNDS: api_jobs_rounds(r, c); break;
  case ROUTE_JOB_KERNEL: api_jobs_kernel(r, c); break;
  case ROUTE_JOB_ARTIFACTS: api_jobs_artifacts(r, c); break;
  case ROUTE_JOB_LOG: api_jobs_log(r, c); break;
  case ROUTE_JOB_ARTIFACT: api_jobs_artifact(r, c); break;
  case ROUTE_JOB_EVENTS: api_jobs_events_open(r, c); break;
  case ROUTE_WORKERS: api_workers_list(r, c); break;
  case ROUTE_PATTERNS: api_patterns_list(r, c); break;
  case ROUTE_PATTERN_VERSIONS: api_patterns_versions(r, c); break;
  case ROUTE_PATTERN_DIFF: api_patterns_diff(r, c); break;
  case ROUTE_PATTERN_FREEZE: api_patterns_freeze(r, c); break;
  case ROUTE_PATTERN_SYNTH: api_patterns_synthesize(r, c); break;
  case ROUTE_BATCHES:
    if (strcmp(r->method, "POST") == 0)
      api_batches_create(r, c);
    else
      api_batches_list(r, c);
    break;
  case ROUTE_BATCH: api_batches_get(r, c); break;
  default:
    api_resp_simple_problem(r, 404, "not-found", "Not found", "no such route");
  }
out:
  db_pool_release(&r->ctx->pool, c);
}

#define API_READYZ_DETAIL_MAX 480 /* + the prefix and "...": under a problem's 511 */

/* /readyz also needs every worker's start-up check passed: a koptd whose workers cannot
 * start a harness would otherwise take jobs it can only queue. Loop thread (the pool lives
 * there). */
static void api_readyz_workers(struct api_req *r)
{
  json_t *doc, *arr;
  struct buf why;
  unsigned bad = pool_unready(r->ctx, NULL);
  char *s;

  if (r->resp.status != 200 || bad == 0)
    return;
  buf_init(&why, 1 << 16);
  pool_unready(r->ctx, &why);
  arr = json_array();
  for (unsigned i = 0; i < pool_count(r->ctx); i++) {
    struct pool_worker *w = pool_at(r->ctx, i);
    if (pool_worker_check(w) == POOL_CHECK_OK)
      continue;
    json_array_append_new(
        arr, json_pack("{s:s, s:s, s:s}", "device", pool_worker_device(w)->name, "state",
                       pool_state_label(pool_worker_state(w)), "reason",
                       pool_worker_check(w) == POOL_CHECK_FAILED
                           ? pool_worker_reason(w)
                           : "its start-up check has not finished"));
  }
  /* The detail is capped like every problem's (the full reasons are in workers[]); the
   * cut falls on a UTF-8 character boundary. */
  if (why.len > API_READYZ_DETAIL_MAX) {
    size_t n = API_READYZ_DETAIL_MAX;
    while (n && ((unsigned char)why.data[n] & 0xC0) == 0x80)
      n--;
    why.len = n;
    why.data[n] = '\0';
    buf_appends(&why, "...");
  }
  doc = json_pack("{s:s, s:s, s:i, s:s+, s:o}", "type", "urn:kopt:problem:unavailable", "title",
                  "Not ready", "status", 503, "detail", "workers cannot run jobs: ",
                  why.data ? why.data : "", "workers", arr);
  s = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
  json_decref(doc);
  buf_free(&why);
  if (s)
    api_resp_set(r, 503, PROBLEM_CONTENT_TYPE, s);
  else
    api_resp_simple_problem(r, 503, "unavailable", "Not ready", "workers cannot run jobs");
}

void api_after_work(struct api_req *r)
{
  struct buf b;
  if (r->route == ROUTE_READYZ)
    api_readyz_workers(r);
  if (r->route != ROUTE_METRICS)
    return;
  buf_init(&b, 1 << 20);
  metrics_render(&r->ctx->metrics, &b);
  buf_appends(&b, "# HELP kopt_jobs Jobs by state, read from the database at scrape time.\n"
                  "# TYPE kopt_jobs gauge\n");
  if (r->db_ok)
    for (int s = 0; s < CONTRACT_STATE_COUNT; s++)
      buf_appendf(&b, "kopt_jobs{state=\"%s\"} %lld\n", contract_states[s],
                  r->jobs_by_state[s]);
  pool_render_metrics(r->ctx, &b);
  buf_appendf(&b, "# HELP kopt_http_connections Open HTTP connections, both listeners.\n"
                  "# TYPE kopt_http_connections gauge\nkopt_http_connections %u\n"
                  "# HELP kopt_http_deadline_closed_total Connections shut because a request"
                  " head or body was not in by its deadline.\n"
                  "# TYPE kopt_http_deadline_closed_total counter\n"
                  "kopt_http_deadline_closed_total{part=\"header\"} %u\n"
                  "kopt_http_deadline_closed_total{part=\"body\"} %u\n",
              http_connections(r->ctx->http), http_deadline_closed(r->ctx->http, 0),
              http_deadline_closed(r->ctx->http, 1));
  {
    struct jobcache_stats st;
    jobcache_stats(&r->ctx->jobs, &st);
    buf_appendf(&b, "# HELP kopt_cache_requests_total Job cache lookups (GET /v1/jobs,"
                    " GET /v1/jobs/{id}) by result.\n"
                    "# TYPE kopt_cache_requests_total counter\n"
                    "kopt_cache_requests_total{result=\"hit\"} %llu\n"
                    "kopt_cache_requests_total{result=\"miss\"} %llu\n"
                    "# HELP kopt_cache_fills_total Documents read from the database into the"
                    " job cache, by outcome (stale: a change was announced during the read).\n"
                    "# TYPE kopt_cache_fills_total counter\n"
                    "kopt_cache_fills_total{outcome=\"kept\"} %llu\n"
                    "kopt_cache_fills_total{outcome=\"stale\"} %llu\n"
                    "# HELP kopt_cache_invalidations_total Job changes announced (NOTIFY).\n"
                    "# TYPE kopt_cache_invalidations_total counter\n"
                    "kopt_cache_invalidations_total %llu\n"
                    "# HELP kopt_cache_evictions_total Entries dropped to stay in bounds.\n"
                    "# TYPE kopt_cache_evictions_total counter\nkopt_cache_evictions_total %llu\n"
                    "# HELP kopt_cache_entries Entries in the job cache.\n"
                    "# TYPE kopt_cache_entries gauge\nkopt_cache_entries %zu\n"
                    "# HELP kopt_cache_bytes Bytes held by the job cache.\n"
                    "# TYPE kopt_cache_bytes gauge\nkopt_cache_bytes %zu\n"
                    "# HELP kopt_notify_listening 1 while the LISTEN connection is up (caches"
                    " in use); 0: every read goes to the database.\n"
                    "# TYPE kopt_notify_listening gauge\nkopt_notify_listening %d\n"
                    "# HELP kopt_notify_barrier_round_trips_total Round trips on the LISTEN"
                    " connection that let parked requests trust the caches.\n"
                    "# TYPE kopt_notify_barrier_round_trips_total counter\n"
                    "kopt_notify_barrier_round_trips_total %llu\n",
                (unsigned long long)st.hits, (unsigned long long)st.misses,
                (unsigned long long)st.fills, (unsigned long long)st.stale_fills,
                (unsigned long long)st.invalidations, (unsigned long long)st.evictions,
                st.entries, st.bytes, notify_listening(r->ctx->notify),
                (unsigned long long)notify_round_trips(r->ctx->notify));
  }
  {
    unsigned long long prepares, lost;
    db_pool_prepare_counts(&r->ctx->pool, &prepares, &lost);
    buf_appendf(&b, "# HELP kopt_db_prepares_total Statements prepared on koptd's database"
                    " connections (once per connection and statement, again in a new"
                    " session).\n# TYPE kopt_db_prepares_total counter\n"
                    "kopt_db_prepares_total %llu\n"
                    "# HELP kopt_db_statements_lost_total Prepared statements a session"
                    " had lost (SQLSTATE 26000, e.g. DISCARD ALL from a pooler), prepared"
                    " again.\n# TYPE kopt_db_statements_lost_total counter\n"
                    "kopt_db_statements_lost_total %llu\n",
                prepares, lost);
  }
  buf_appendf(&b, "# HELP kopt_database_up Whether the last scrape reached the database.\n"
                  "# TYPE kopt_database_up gauge\nkopt_database_up %d\n"
                  "# HELP kopt_draining 1 while koptd drains for shutdown.\n"
                  "# TYPE kopt_draining gauge\nkopt_draining %d\n"
                  "# HELP kopt_build_info Build metadata.\n# TYPE kopt_build_info gauge\n"
                  "kopt_build_info{version=\"%s\"} 1\n",
              r->db_ok, r->ctx->draining, kopt_version);
  api_resp_set(r, 200, "text/plain; version=0.0.4; charset=utf-8", buf_take(&b, NULL));
}
