/* api_jobs: the /v1/jobs routes. Each runs on a pool thread with its own connection; every
 * write happens inside one transaction so a failure never leaves a partial row. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "hash.h"
#include "jsonlim.h"
#include "log.h"
#include "params.h"
#include "spec.h"
#include "sse.h"

#define API_LIST_DEFAULT 20
#define API_LIST_MAX 100
#define API_EVENTS_REPLAY_MAX 1000
#define API_ROUND_MAX 100 /* jobs.rounds is at most 100; round numbers run 0..rounds */

/* The statements of a submission and of a job read, prepared once per pool connection
 * (db_pool_exec): parsing and planning them on every call (PQexecParams) cost PostgreSQL
 * more CPU than running them, and PostgreSQL's CPU is what caps submissions here. */
static const struct db_stmt api_stmt_kernel_insert = {
  "kopt_kernel_insert",
  "INSERT INTO kernels (sha256, source) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING", 2
};
static const struct db_stmt api_stmt_job_insert = {
  "kopt_job_insert",
  "INSERT INTO jobs (name, backend, priority, rounds, policy, proposer, spec,"
  " kernel_sha256, reference_sha256, owner_token_id, owner_token_name,"
  " idempotency_key, request_sha256)"
  " SELECT $1, $2, $3::int, $4::int, $5, $6, $7::jsonb, $8, $9, t.id, t.name,"
  " $11, $12 FROM api_tokens t WHERE t.id = $10::bigint"
  " AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())"
  " ON CONFLICT (owner_token_id, idempotency_key)"
  " WHERE idempotency_key IS NOT NULL DO NOTHING"
  " RETURNING id, kopt_job_json(jobs)::text", 12
};
static const struct db_stmt api_stmt_xact_id = {
  "kopt_xact_id", "SELECT pg_current_xact_id()", 0
};
static const struct db_stmt api_stmt_job_read = {
  "kopt_job_read",
  "SELECT (kopt_job_json(j) || jsonb_build_object('spec', j.spec))::text,"
  " coalesce(owner_token_id, 0) FROM jobs j WHERE id = $1::uuid", 1
};

static void api_db_error(struct api_req *r, const char *what, const char *err)
{
  log_error("db.query_failed", "route=%s what=%s err=\"%.300s\"", r->route_name, what, err);
  api_resp_simple_problem(r, 503, "unavailable", "Database error",
                          "the database failed while %s; nothing was changed, retry later",
                          what);
}

/* Fixed SQL, possibly several statements, in one round trip (simple protocol). 0 or -EIO. */
static int api_exec_simple(PGconn *c, const char *sql, char *err, size_t errlen)
{
  PGresult *res = PQexec(c, sql);
  int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
  if (!ok)
    snprintf(err, errlen, "%s", PQerrorMessage(c));
  PQclear(res);
  return ok ? 0 : -EIO;
}

static int api_exec_cmd(PGconn *c, const char *sql, char *err, size_t errlen)
{
  PGresult *res = db_exec(c, PGRES_COMMAND_OK, err, errlen, sql, 0, NULL);
  if (!res)
    return -EIO;
  PQclear(res);
  return 0;
}

/* 404 for a job that does not exist or that this token may not see (one answer for both,
 * so a submitter learns nothing about others' jobs). */
static void api_job_not_found(struct api_req *r)
{
  if (r->who.role == AUTH_SUBMITTER)
    api_resp_simple_problem(r, 404, "not-found", "Not found",
                            "no job %s among this token's jobs (a submitter sees only the jobs"
                            " it submitted)",
                            r->id);
  else
    api_resp_simple_problem(r, 404, "not-found", "Not found", "no job %s", r->id);
}

/* Moves kernel.source / reference.source out of spec into {sha256, filename, bytes}, so
 * sources live once in the kernels table. *src_out gets the (borrowed-from-spec, then
 * owned-by-caller) source string references. */
static int api_extract_source(json_t *spec, const char *field, char sha[KOPT_SHA256_HEX_SIZE], json_t **src_out)
{
  json_t *o = json_object_get(spec, field), *src;
  *src_out = NULL;
  if (!json_is_object(o))
    return 0;
  src = json_object_get(o, "source");
  if (hash_sha256_hex(json_string_value(src), json_string_length(src), sha))
    return -EIO;
  *src_out = json_incref(src);
  json_object_set_new(o, "sha256", json_string(sha));
  json_object_set_new(o, "bytes", json_integer((json_int_t)json_string_length(src)));
  json_object_del(o, "source");
  return 1;
}

/* Asks the database (not the cache) whether the request's token is still valid: 0 if so,
 * 1 with the 401 set if not, -EIO. */
static int api_recheck_token(struct api_req *r, PGconn *c)
{
  struct auth_identity who;
  char why[128];
  if (auth_resolve(&r->ctx->auth, 0, c, r->auth, &who, ctx_wall_ms()))
    return -EIO;
  if (who.role != AUTH_NONE)
    return 0;
  auth_refusal_text(&who, why, sizeof(why));
  r->resp.www_authenticate = 1;
  api_resp_simple_problem(r, 401, "unauthorized", "Unauthorized", "%s", why);
  return 1;
}

/* The answer when the Idempotency-Key was used before: the same job (200) for the same
 * normalized body, else 409. 0 or -EIO. */
static int api_jobs_replay(struct api_req *r, PGconn *c, const char *owner,
                           const char *reqsha, char *err, size_t errlen)
{
  const char *params[2] = { owner, r->idem_key };
  PGresult *res = db_exec(c, PGRES_TUPLES_OK, err, errlen,
                          "SELECT id, request_sha256, kopt_job_json(j)::text FROM jobs j"
                          " WHERE owner_token_id = $1 AND idempotency_key = $2",
                          2, params);
  if (!res)
    return -EIO;
  if (PQntuples(res) != 1) {
    snprintf(err, errlen, "the job of this Idempotency-Key vanished");
    PQclear(res);
    return -EIO;
  }
  if (strcmp(PQgetvalue(res, 0, 1), reqsha) == 0) {
    snprintf(r->resp.location, sizeof(r->resp.location), "/v1/jobs/%s", PQgetvalue(res, 0, 0));
    api_resp_set(r, 200, "application/json", strdup(PQgetvalue(res, 0, 2)));
  } else {
    api_resp_simple_problem(r, 409, "idempotency-conflict", "Idempotency-Key reused",
                            "Idempotency-Key was already used for job %s with a different "
                            "body; use a new key for a new job",
                            PQgetvalue(res, 0, 0));
  }
  PQclear(res);
  return 0;
}

/* INSERT of one source, content-addressed (a second copy is a no-op). 0, -EIO or -ESTALE
 * (db_pool_exec). */
static int api_store_source(struct db_pool *p, PGconn *c, const char *sha, const char *src,
                            char *err, size_t errlen)
{
  const char *params[2] = { sha, src };
  PGresult *res;
  int rc = db_pool_exec(p, c, &api_stmt_kernel_insert, PGRES_COMMAND_OK, params, &res, err,
                        errlen);
  PQclear(res);
  return rc;
}

/* Waits until everything this connection has committed is on disk: a transaction of our
 * own (it takes an id) commits synchronously, and a synchronous commit flushes the WAL up
 * to its record, past every earlier commit. Concurrent waits share one flush. 0 or -EIO. */
static int api_wait_durable(struct db_pool *p, PGconn *c, char *err, size_t errlen)
{
  PGresult *res;
  int rc = db_pool_exec(p, c, &api_stmt_xact_id, PGRES_TUPLES_OK, NULL, &res, err, errlen);
  PQclear(res);
  return rc ? -EIO : 0;
}

/* Stores the sources and the job in one transaction. The job's INSERT checks the token
 * again (the identity may come from the token cache without a NOTIFY barrier): a token
 * revoked or expired by now stores nothing, and the transaction is rolled back. Sets the
 * 201, the replay answer or the 401. 0, -EIO (nothing stored) or -EAGAIN (stored, but
 * whether it reached the disk is unknown).
 *
 * Durable, yet not one flush per job in a row: the insert's trigger sends NOTIFYs, and
 * PostgreSQL serializes every notifying transaction's commit, its WAL flush included (one
 * lock until the end of the commit), which caps durable submissions at one per disk
 * flush. So the transaction commits asynchronously (its commit does not wait for the
 * flush, and the notifying ones pass the lock at memory speed), and the 201 waits for
 * the flush afterwards (api_wait_durable), where concurrent submissions share it. A 201
 * therefore still means the job is on disk. What changes: for the instant between commit
 * and flush, other readers can see the job before it is durable; a PostgreSQL crash in
 * that instant loses it, unacknowledged. A worker never runs such a job: its claim is a
 * synchronous commit, which flushes the job first.
 * (Separate statements measured faster here than one statement with data-modifying CTEs.)
 * -ESTALE: a prepared statement was missing (db_pool_exec); nothing stored, run it again. */
static int api_jobs_store(struct api_req *r, PGconn *c, json_t *spec, const char *spec_txt,
                          const char *ksha, const char *ksrc, const char *rsha,
                          const char *rsrc, const char *reqsha, char *err, size_t errlen)
{
  char owner[API_OWNER_MAX];
  struct api_job_cols cols;
  struct db_pool *pool = &r->ctx->pool;
  const char *params[12];
  PGresult *res = NULL;
  int rc = -EIO, in_tx = 0;

  snprintf(owner, sizeof(owner), "%lld", r->who.token_id);
  api_job_cols(spec, &cols, params);
  params[6] = spec_txt;
  params[7] = ksha;
  params[8] = rsha;
  params[9] = owner;
  params[10] = r->idem_present ? r->idem_key : NULL;
  params[11] = reqsha;
  in_tx = 1;
  if (api_exec_simple(c, "BEGIN; SET LOCAL synchronous_commit TO off", err, errlen))
    goto out;
  if ((rc = api_store_source(pool, c, ksha, ksrc, err, errlen)) != 0 ||
      (rsha && (rc = api_store_source(pool, c, rsha, rsrc, err, errlen)) != 0) ||
      (rc = db_pool_exec(pool, c, &api_stmt_job_insert, PGRES_TUPLES_OK, params, &res, err,
                         errlen)) != 0)
    goto out;
  rc = -EIO;
  if (PQntuples(res) == 1) {
    if (api_exec_cmd(c, "COMMIT", err, errlen))
      goto out;
    in_tx = 0;
    if (api_wait_durable(pool, c, err, errlen)) {
      rc = -EAGAIN;
      goto out;
    }
    snprintf(r->resp.location, sizeof(r->resp.location), "/v1/jobs/%s", PQgetvalue(res, 0, 0));
    api_resp_set(r, 201, "application/json", strdup(PQgetvalue(res, 0, 1)));
    rc = 0;
    goto out;
  }
  /* Nothing stored: the token is no longer valid, or the Idempotency-Key was used before
   * (possibly by a concurrent request that has now committed). Neither keeps the sources. */
  if (api_exec_cmd(c, "ROLLBACK", err, errlen))
    goto out;
  in_tx = 0;
  rc = api_recheck_token(r, c);
  if (rc == 0)
    rc = api_jobs_replay(r, c, owner, reqsha, err, errlen);
  else if (rc > 0)
    rc = 0; /* the 401 is set */
out:
  if (in_tx)
    PQclear(PQexec(c, "ROLLBACK"));
  PQclear(res);
  return rc;
}

void api_jobs_create(struct api_req *r, PGconn *c)
{
  struct problem p;
  struct spec_limits lim = { r->max_source_bytes };
  json_t *doc = NULL, *spec = NULL, *ksrc = NULL, *rsrc = NULL;
  char msg[256], err[512], ksha[KOPT_SHA256_HEX_SIZE], rsha[KOPT_SHA256_HEX_SIZE],
      reqsha[KOPT_SHA256_HEX_SIZE];
  char *canon = NULL, *spec_txt = NULL;
  int has_ref, rc;
  enum jsonlim_result jr;

  if (strncasecmp(r->content_type, "application/json", 16) != 0 ||
      (r->content_type[16] && r->content_type[16] != ';' && r->content_type[16] != ' ')) {
    api_resp_simple_problem(r, 415, "unsupported-media-type", "Unsupported media type",
                            "Content-Type must be application/json (got \"%.60s\")",
                            r->content_type[0] ? r->content_type : "none");
    goto out;
  }
  if (r->idem_bad) {
    problem_init(&p, 400, "validation", "Request failed validation");
    problem_add(&p, "Idempotency-Key", "format", API_IDEM_MAX,
                "must be 1 to %d printable ASCII characters", API_IDEM_MAX);
    api_resp_problem(r, &p);
    goto out;
  }
  jr = jsonlim_parse_object(r->body.data ? r->body.data : "", r->body.len, &doc, msg,
                            sizeof(msg));
  if (jr == JSONLIM_TOO_DEEP) {
    api_resp_simple_problem(r, 400, "json-too-deep", "JSON nested too deeply", "%s", msg);
    goto out;
  }
  if (jr != JSONLIM_OK) {
    api_resp_simple_problem(r, 400, "malformed-json", "Malformed JSON", "%s", msg);
    goto out;
  }
  if (spec_validate(doc, &lim, &spec, &p)) {
    api_resp_problem(r, &p);
    goto out;
  }
  problem_free(&p);
  /* The request hash covers the normalized spec (defaults filled, keys sorted), so two
   * bodies that mean the same job match under one Idempotency-Key. */
  canon = json_dumps(spec, JSON_COMPACT | JSON_SORT_KEYS);
  if (!canon || hash_sha256_hex(canon, strlen(canon), reqsha))
    goto oom;
  if (api_extract_source(spec, "kernel", ksha, &ksrc) < 0)
    goto oom;
  has_ref = api_extract_source(spec, "reference", rsha, &rsrc);
  if (has_ref < 0)
    goto oom;
  spec_txt = json_dumps(spec, JSON_COMPACT);
  if (!spec_txt)
    goto oom;

  /* Twice at most: -ESTALE stored nothing, and the second run prepares afresh. */
  for (int tries = 0; tries < 2; tries++) {
    rc = api_jobs_store(r, c, spec, spec_txt, ksha, json_string_value(ksrc),
                        has_ref ? rsha : NULL, has_ref ? json_string_value(rsrc) : NULL,
                        reqsha, err, sizeof(err));
    if (rc != -ESTALE)
      break;
  }
  if (rc == -EAGAIN) {
    log_error("db.query_failed", "route=%s what=\"waiting for the job to reach the disk\""
              " err=\"%.300s\"", r->route_name, err);
    api_resp_simple_problem(r, 503, "unavailable", "Database error",
                            "the database failed after storing the job, before it was known"
                            " to be on disk; retry with the same Idempotency-Key");
    goto out;
  }
  if (rc)
    goto dberr;
  if (r->resp.status == 201)
    log_info("job.created", "job=%.36s backend=%s token=%lld", r->resp.location + 9,
             json_string_value(json_object_get(spec, "backend")), r->who.token_id);
  goto out;

oom:
  api_resp_simple_problem(r, 500, "internal", "Internal error", "out of memory");
  goto out;
dberr:
  api_db_error(r, "storing the job", err);
out:
  free(canon);
  free(spec_txt);
  json_decref(ksrc);
  json_decref(rsrc);
  json_decref(spec);
  json_decref(doc);
}

int api_list_cache_key(const struct api_req *r, char *out, size_t cap)
{
  int n;
  /* Raw query values are the key: the same query has the same answer. Values that were
   * cut to fit are refused (and never cached). */
  if (r->q_state_too_long || (r->q_cursor_set && r->q_cursor[0] == '!'))
    return -1;
  n = snprintf(out, cap, "%s%lld|%s|%s|%s",
               r->who.role == AUTH_SUBMITTER ? "o" : "*",
               r->who.role == AUTH_SUBMITTER ? r->who.token_id : 0LL, r->q_state,
               r->q_limit_set ? r->q_limit : "-", r->q_cursor_set ? r->q_cursor : "-");
  return n > 0 && (size_t)n < cap ? 0 : -1;
}

/* state filter: comma-separated, possibly repeated (joined by the loop thread with ','). */
static int api_parse_states(const char *q, char *arr, size_t cap, struct problem *p)
{
  char tmp[API_Q_STATE_MAX + 1];
  char *save = NULL, *tok;
  size_t o = 0;

  snprintf(tmp, sizeof(tmp), "%s", q);
  arr[o++] = '{';
  for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (contract_find(contract_states, tok) < 0) {
      problem_add(p, "state", "enum", -1,
                  "must be one or more of queued, running, succeeded, failed, cancelled");
      return -EINVAL;
    }
    if (o + strlen(tok) + 2 >= cap)
      return -E2BIG;
    if (o > 1)
      arr[o++] = ',';
    memcpy(arr + o, tok, strlen(tok));
    o += strlen(tok);
  }
  arr[o++] = '}';
  arr[o] = '\0';
  return o > 2 ? 0 : -ENOENT;
}

int api_jobs_list_query(const struct api_req *r, struct api_list_query *q, struct problem *p)
{
  q->states[0] = '\0';
  api_page_query(r, API_LIST_DEFAULT, API_LIST_MAX, 'c', q->cursor, &q->limit, p);
  if (r->q_state_too_long)
    problem_add(p, "state", "maxLength", API_Q_STATE_MAX, "filter is too long");
  else if (r->q_state[0]) {
    int rc = api_parse_states(r->q_state, q->states, sizeof(q->states), p);
    if (rc != 0)
      q->states[0] = '\0';
    if (rc != 0 && rc != -EINVAL)
      problem_add(p, "state", "format", -1, "must name at least one state");
  }
  return problem_has_errors(p) ? -EINVAL : 0;
}

void api_jobs_list(struct api_req *r, PGconn *c)
{
  struct problem p;
  struct api_list_query q;
  char limit1[24], owner[API_OWNER_MAX], err[512];
  const char *params[4] = { NULL, NULL, NULL, api_owner_filter(r, owner) };
  PGresult *res = NULL;
  struct buf b;
  struct jobcache_ticket t = { 0, 0, 0 };
  char key[JOBCACHE_KEY_MAX];
  long limit;
  int n, cacheable = 0;

  buf_init(&b, 64u << 20);
  problem_init(&p, 400, "validation", "Request failed validation");
  if (api_jobs_list_query(r, &q, &p)) {
    api_resp_problem(r, &p);
    goto out;
  }
  limit = q.limit;
  params[0] = q.states[0] ? q.states : NULL;
  params[1] = q.cursor[0] ? q.cursor : NULL;
  problem_free(&p);
  cacheable = api_list_cache_key(r, key, sizeof(key)) == 0;
  if (cacheable)
    t = jobcache_ticket(&r->ctx->jobs, 1, key);
  snprintf(limit1, sizeof(limit1), "%ld", limit + 1);
  params[2] = limit1;
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT seq, kopt_job_json(j)::text FROM jobs j"
                " WHERE ($1::text[] IS NULL OR state = ANY($1::text[]))"
                " AND ($2::bigint IS NULL OR seq < $2::bigint)"
                " AND ($4::bigint IS NULL OR owner_token_id = $4::bigint)"
                " ORDER BY seq DESC LIMIT $3::int",
                4, params);
  if (!res) {
    api_db_error(r, "listing jobs", err);
    goto out;
  }
  n = PQntuples(res);
  buf_appends(&b, "{\"jobs\":[");
  for (int i = 0; i < n && i < limit; i++) {
    if (i)
      buf_appends(&b, ",");
    buf_appends(&b, PQgetvalue(res, i, 1));
  }
  if (n > limit)
    buf_appendf(&b, "],\"next_cursor\":\"c%s\"}", PQgetvalue(res, (int)limit - 1, 0));
  else
    buf_appends(&b, "],\"next_cursor\":null}");
  if (b.data) {
    char etag[JOBCACHE_ETAG_LEN + 1];
    size_t len = b.len;
    jobcache_etag(b.data, len, etag);
    if (cacheable)
      jobcache_put(&r->ctx->jobs, &t, 1, key, b.data, len, etag, 0);
    api_resp_tagged(r, buf_take(&b, NULL), len, etag);
  } else {
    api_resp_simple_problem(r, 500, "internal", "Internal error", "out of memory");
  }
out:
  PQclear(res);
  buf_free(&b);
}

void api_jobs_get(struct api_req *r, PGconn *c)
{
  char err[512], etag[JOBCACHE_ETAG_LEN + 1];
  const char *params[1] = { r->id };
  /* Before the query: a change announced while it runs voids the fill. */
  struct jobcache_ticket t = jobcache_ticket(&r->ctx->jobs, 0, r->id);
  PGresult *res = NULL;
  const char *doc;
  size_t len;
  long long owner;
  int rc = db_pool_exec(&r->ctx->pool, c, &api_stmt_job_read, PGRES_TUPLES_OK, params, &res,
                        err, sizeof(err));

  if (rc) {
    api_db_error(r, "reading the job", err);
    return;
  }
  if (PQntuples(res) == 0) {
    api_job_not_found(r);
    goto out;
  }
  doc = PQgetvalue(res, 0, 0);
  len = (size_t)PQgetlength(res, 0, 0);
  owner = atoll(PQgetvalue(res, 0, 1));
  jobcache_etag(doc, len, etag);
  /* The document is the same for every reader: cached whoever asked; tenancy is checked
   * on each answer. */
  jobcache_put(&r->ctx->jobs, &t, 0, r->id, doc, len, etag, owner);
  if (r->who.role == AUTH_SUBMITTER && owner != r->who.token_id)
    api_job_not_found(r);
  else
    api_resp_tagged(r, strdup(doc), len, etag);
out:
  PQclear(res);
}

void api_jobs_cancel(struct api_req *r, PGconn *c)
{
  char err[512];
  const char *params[1] = { r->id };
  PGresult *res = NULL;
  const char *state;
  int in_tx = 0;

  if (api_exec_cmd(c, "BEGIN", err, sizeof(err)))
    goto dberr;
  in_tx = 1;
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT state, coalesce(owner_token_id, 0) FROM jobs WHERE id = $1::uuid"
                " FOR UPDATE",
                1, params);
  if (!res)
    goto dberr;
  if (PQntuples(res) == 0) {
    api_resp_simple_problem(r, 404, "not-found", "Not found", "no job %s", r->id);
    goto out;
  }
  state = PQgetvalue(res, 0, 0);
  if (r->who.role < AUTH_ADMIN && atoll(PQgetvalue(res, 0, 1)) != r->who.token_id) {
    api_resp_simple_problem(r, 403, "forbidden", "Forbidden",
                            "a submitter may cancel only jobs it submitted");
    goto out;
  }
  if (contract_state_terminal(state)) {
    api_resp_simple_problem(r, 409, "conflict", "Job already finished",
                            "job %s is already %s and cannot be cancelled", r->id, state);
    goto out;
  }
  PQclear(res);
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "UPDATE jobs SET"
                " cancel_requested = true,"
                " state = CASE WHEN state = 'queued' THEN 'cancelled' ELSE state END,"
                " finished_at = CASE WHEN state = 'queued' THEN now() ELSE finished_at END,"
                " error = CASE WHEN state = 'queued' THEN 'cancelled by request' ELSE error END"
                " WHERE id = $1::uuid RETURNING kopt_job_json(jobs)::text",
                1, params);
  if (!res)
    goto dberr;
  if (api_exec_cmd(c, "COMMIT", err, sizeof(err)))
    goto dberr;
  in_tx = 0;
  log_info("job.cancel", "job=%s token=%lld", r->id, r->who.token_id);
  api_resp_set(r, 200, "application/json", strdup(PQgetvalue(res, 0, 0)));
  goto out;
dberr:
  api_db_error(r, "cancelling the job", err);
out:
  if (in_tx)
    PQclear(PQexec(c, "ROLLBACK"));
  PQclear(res);
}

/* Answers 200 with the one JSON text a query returns (the database renders it), or 503. */
static void api_json_query(struct api_req *r, PGconn *c, const char *what, const char *sql,
                           int nparams, const char *const *params)
{
  char err[512];
  PGresult *res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err), sql, nparams, params);
  if (!res) {
    api_db_error(r, what, err);
    return;
  }
  api_resp_set(r, 200, "application/json", strdup(PQgetvalue(res, 0, 0)));
  PQclear(res);
}

/* 1 if the job exists and this token may read it, 0 (404 set) if not, -1 (503 set) on
 * failure. */
static int api_job_exists(struct api_req *r, PGconn *c)
{
  char err[512], owner[API_OWNER_MAX];
  const char *params[2] = { r->id, api_owner_filter(r, owner) };
  PGresult *res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                          "SELECT 1 FROM jobs WHERE id = $1::uuid"
                          " AND ($2::bigint IS NULL OR owner_token_id = $2::bigint)",
                          2, params);
  int n;
  if (!res) {
    api_db_error(r, "reading the job", err);
    return -1;
  }
  n = PQntuples(res);
  PQclear(res);
  if (!n)
    api_job_not_found(r);
  return n ? 1 : 0;
}

void api_jobs_rounds(struct api_req *r, PGconn *c)
{
  const char *params[1] = { r->id };

  if (api_job_exists(r, c) != 1)
    return;
  /* Evidence comes back as recorded (summaries); large artifacts are fetched separately. */
  api_json_query(r, c, "reading rounds",
                 "SELECT json_build_object('rounds', coalesce(json_agg(json_build_object("
                 " 'round', round, 'level_reached', level_reached, 'escalation', escalation,"
                 " 'evidence', evidence, 'hotspot', hotspot, 'hypothesis', hypothesis,"
                 " 'rewrite_family', rewrite_family, 'proposer', proposer,"
                 " 'kernel_sha256', kernel_sha256, 'diff', diff, 'correctness', correctness,"
                 " 'timing', timing, 'accepted', accepted, 'reject_reason', reject_reason,"
                 " 'tokens', tokens, 'created_at', kopt_ts(created_at)) ORDER BY round),"
                 " '[]'::json))::text FROM rounds WHERE job_id = $1::uuid",
                 1, params);
}

void api_jobs_kernel(struct api_req *r, PGconn *c)
{
  char err[512];
  const char *params[2] = { r->id, NULL };
  PGresult *res = NULL;
  long round = -1;

  if (r->q_round_set) {
    struct problem p;
    long long v;
    problem_init(&p, 400, "validation", "Request failed validation");
    if (params_int_field(&p, "round", r->q_round, 0, API_ROUND_MAX, &v)) {
      api_resp_problem(r, &p);
      return;
    }
    problem_free(&p);
    round = (long)v;
    params[1] = r->q_round;
  }
  if (api_job_exists(r, c) != 1)
    return;
  if (round >= 0)
    res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                  "SELECT k.source FROM rounds rd JOIN kernels k ON k.sha256 = rd.kernel_sha256"
                  " WHERE rd.job_id = $1::uuid AND rd.round = $2::int",
                  2, params);
  else
    res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                  "SELECT k.source FROM jobs j JOIN kernels k ON k.sha256 ="
                  " coalesce(j.best->>'kernel_sha256', j.kernel_sha256) WHERE j.id = $1::uuid",
                  1, params);
  if (!res) {
    api_db_error(r, "reading the kernel", err);
    return;
  }
  if (PQntuples(res) == 0)
    api_resp_simple_problem(r, 404, "not-found", "Not found", "job %s has no round %ld",
                            r->id, round);
  else
    api_resp_set(r, 200, "text/x-python; charset=utf-8", strdup(PQgetvalue(res, 0, 0)));
  PQclear(res);
}

void api_jobs_events_open(struct api_req *r, PGconn *c)
{
  char err[512], owner[API_OWNER_MAX];
  const char *params[2] = { r->id, api_owner_filter(r, owner) };
  PGresult *res = NULL;
  struct buf b;
  long long after, last;

  buf_init(&b, 32u << 20);
  {
    struct problem p;
    problem_init(&p, 400, "validation", "Request failed validation");
    if (sse_last_event_id(r->last_event_id, r->last_event_id_too_long, &p, &after)) {
      api_resp_problem(r, &p);
      goto out;
    }
    problem_free(&p);
  }
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT kopt_job_json(j)::text, j.state,"
                " coalesce((SELECT max(id) FROM job_events e WHERE e.job_id = j.id), 0)"
                " FROM jobs j WHERE j.id = $1::uuid"
                " AND ($2::bigint IS NULL OR owner_token_id = $2::bigint)",
                2, params);
  if (!res) {
    api_db_error(r, "opening the event stream", err);
    goto out;
  }
  if (PQntuples(res) == 0) {
    api_job_not_found(r);
    goto out;
  }
  last = atoll(PQgetvalue(res, 0, 2));
  if (after < 0 || after > last) {
    /* No Last-Event-ID, or one past this job's last event (another job's, or made up):
     * start from the job as it is now. */
    const char *st = PQgetvalue(res, 0, 1);
    r->events_from = last;
    buf_appendf(&b, "retry: 2000\nid: %lld\nevent: state\ndata: %s\n\n", r->events_from,
                PQgetvalue(res, 0, 0));
    r->job_terminal = contract_state_terminal(st);
  } else {
    r->events_from = after;
    buf_appends(&b, "retry: 2000\n\n");
    if (sse_read_events(c, r->id, after, API_EVENTS_REPLAY_MAX, &b, &r->events_from,
                        &r->job_terminal, err, sizeof(err))) {
      api_db_error(r, "replaying events", err);
      goto out;
    }
  }
  api_resp_set(r, 200, "text/event-stream", buf_take(&b, NULL));
out:
  PQclear(res);
  buf_free(&b);
}

void api_workers_list(struct api_req *r, PGconn *c)
{
  api_json_query(r, c, "listing workers",
                 "SELECT json_build_object('workers', coalesce(json_agg(json_build_object("
                 " 'id', id, 'host', host, 'device', device, 'state', state, 'pid', pid,"
                 " 'current_job', current_job, 'heartbeat_at', kopt_ts(heartbeat_at),"
                 " 'started_at', kopt_ts(started_at), 'restarts', restarts, 'ready', ready,"
                 " 'check_error', check_error, 'harness', harness) ORDER BY id),"
                 " '[]'::json))::text FROM workers",
                 0, NULL);
}

void api_jobs_artifacts(struct api_req *r, PGconn *c)
{
  const char *params[1] = { r->id };

  if (api_job_exists(r, c) != 1)
    return;
  /* The list carries sizes and where to fetch each; bodies come one per request. */
  api_json_query(r, c, "listing artifacts",
                 "SELECT json_build_object('artifacts', coalesce(json_agg(json_build_object("
                 " 'round', round, 'kind', kind, 'size', size, 'compression', compression,"
                 " 'created_at', kopt_ts(created_at), 'href', '/v1/jobs/' || job_id || '/artifacts/'"
                 " || round || '/' || kind) ORDER BY round, kind), '[]'::json))::text"
                 " FROM artifacts WHERE job_id = $1::uuid",
                 1, params);
}

void api_jobs_log(struct api_req *r, PGconn *c)
{
  const char *params[1] = { r->id };

  if (api_job_exists(r, c) != 1)
    return;
  /* Text submitted code printed: served only here, as data, never mixed into koptd's log. */
  api_json_query(r, c, "reading the job log",
                 "SELECT json_build_object('entries', coalesce(json_agg(json_build_object("
                 " 'seq', seq, 'round', round, 'step', step, 'source', source, 'bytes', bytes,"
                 " 'truncated', truncated, 'text', text, 'created_at', kopt_ts(created_at))"
                 " ORDER BY seq), '[]'::json))::text FROM job_logs WHERE job_id = $1::uuid",
                 1, params);
}

void api_jobs_artifact(struct api_req *r, PGconn *c)
{
  char err[512];
  const char *params[3] = { r->id, r->art_round, r->art_kind };
  PGresult *res;
  char *body;
  int len;

  long long round;
  struct problem p;

  problem_init(&p, 400, "validation", "Request failed validation");
  if (params_int_field(&p, "round", r->art_round, 0, API_ROUND_MAX, &round)) {
    api_resp_problem(r, &p);
    return;
  }
  problem_free(&p);
  if (api_job_exists(r, c) != 1)
    return;
  res = PQexecParams(c,
                     "SELECT data FROM artifacts WHERE job_id = $1::uuid AND round = $2::int"
                     " AND kind = $3",
                     3, NULL, params, NULL, NULL, 1 /* binary: the bytes as stored */);
  if (PQresultStatus(res) != PGRES_TUPLES_OK) {
    snprintf(err, sizeof(err), "%s", PQresultErrorMessage(res));
    PQclear(res);
    api_db_error(r, "reading an artifact", err);
    return;
  }
  if (PQntuples(res) == 0) {
    PQclear(res);
    api_resp_simple_problem(r, 404, "not-found", "Not found",
                            "job %s has no artifact %s of round %s", r->id, r->art_kind,
                            r->art_round);
    return;
  }
  len = PQgetlength(res, 0, 0);
  body = malloc((size_t)len + 1);
  if (body) {
    memcpy(body, PQgetvalue(res, 0, 0), (size_t)len);
    body[len] = '\0';
  }
  PQclear(res);
  api_resp_set(r, 200, "text/plain; charset=utf-8", body);
  r->resp.body_len = body ? (size_t)len : 0;
}
