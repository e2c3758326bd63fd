/* api_batches: the /v1/batches routes (docs/API.md, "Batches"). A batch is a list of job
 * specs submitted together under one policy and one pattern index version (resolved here,
 * once, and written into every job: synthesis that runs meanwhile cannot change what the
 * batch's later jobs read), reported together by kopt_batch_json (migrations/005): every
 * job's result, and the aggregate with every failure in its denominator. A submitter sees
 * its own batches; viewers and admins see all. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "hash.h"
#include "jsonlim.h"
#include "log.h"
#include "spec.h"

#define API_BATCH_MAX_JOBS 256
#define API_BATCH_PAGE_DEFAULT 20
#define API_BATCH_PAGE_MAX 100
#define API_BATCH_FIELD_MAX 96   /* "jobs[255].kernel.source" and the like */

enum api_route api_batches_match(struct api_req *r, const char *url)
{
  const char *rest = url + 11; /* after "/v1/batches" */
  if (!strcmp(rest, "") || !strcmp(rest, "/"))
    return ROUTE_BATCHES;
  if (rest[0] != '/' || !api_is_uuid(rest + 1, strlen(rest + 1)))
    return ROUTE_NONE;
  for (size_t i = 0; i < KOPT_UUID_LEN; i++)
    r->id[i] = (char)tolower((unsigned char)rest[1 + i]);
  r->id[KOPT_UUID_LEN] = '\0';
  return ROUTE_BATCH;
}

/* ------------------------------------------------------------------------ validation */

struct api_batch_in {
  json_t *specs;              /* owned: normalized job specs */
  const char *name;           /* borrowed from the document; NULL: "" */
  const char *policy;         /* borrowed: a contract word */
  const char *pindex_mode;    /* "latest", "frozen" or NULL when pindex_num is set */
  long pindex_num;
  int synthesize_after;
};

/* Copies every error of one job's problem into p, its field under "jobs[i].". */
static void api_batch_errors(struct problem *p, size_t i, const struct problem *pj)
{
  const json_t *e;
  size_t k;
  json_array_foreach(pj->errors, k, e) {
    char field[API_BATCH_FIELD_MAX];
    const json_t *lim = json_object_get(e, "limit");
    snprintf(field, sizeof(field), "jobs[%zu].%.64s", i,
             json_string_value(json_object_get(e, "field")) ?: "?");
    problem_add(p, field, json_string_value(json_object_get(e, "rule")) ?: "invalid",
                json_is_integer(lim) ? (long long)json_integer_value(lim) : -1, "%s",
                json_string_value(json_object_get(e, "detail")) ?: "is not valid");
  }
}

/* One job of the batch: the batch's policy (a job may repeat it, never change it), its own
 * exclude_same_operator or the batch's; the version is the batch's to set. */
static void api_batch_job(const struct api_req *r, size_t i, const json_t *job,
                          struct api_batch_in *b, const json_t *excl, struct problem *p)
{
  struct spec_limits lim = { r->max_source_bytes };
  struct problem pj;
  json_t *copy, *spec = NULL;
  const json_t *pol = json_object_get(job, "policy");
  char field[API_BATCH_FIELD_MAX];

  if (!json_is_object(job)) {
    snprintf(field, sizeof(field), "jobs[%zu]", i);
    problem_add(p, field, "type", -1, "must be a job spec object (docs/API.md)");
    return;
  }
  if (pol && !(json_is_string(pol) && !strcmp(json_string_value(pol), b->policy))) {
    snprintf(field, sizeof(field), "jobs[%zu].policy", i);
    problem_add(p, field, "batch", -1, "must be absent or the batch's policy (%s)", b->policy);
  }
  if (json_object_get(job, "pattern_index")) {
    snprintf(field, sizeof(field), "jobs[%zu].pattern_index", i);
    problem_add(p, field, "batch", -1, "is the batch's to set (pattern_index of the batch)");
  }
  copy = json_copy((json_t *)job);
  json_object_set_new(copy, "policy", json_string(b->policy));
  json_object_del(copy, "pattern_index");
  if (excl && !json_object_get(copy, "exclude_same_operator"))
    json_object_set(copy, "exclude_same_operator", (json_t *)excl);
  if (spec_validate(copy, &lim, &spec, &pj))
    api_batch_errors(p, i, &pj);
  else
    json_array_append_new(b->specs, spec);
  problem_free(&pj);
  json_decref(copy);
}

/* Checks the batch document into b. 0, or -EINVAL with every broken rule in p. */
static int api_batch_validate(const struct api_req *r, const json_t *doc, struct api_batch_in *b,
                              struct problem *p)
{
  static const char *const fields[] = { "name", "policy", "pattern_index",
                                        "exclude_same_operator", "synthesize_after", "jobs", NULL };
  const json_t *v, *jobs = json_object_get(doc, "jobs"), *excl, *job;
  const char *k;
  size_t i;

  memset(b, 0, sizeof(*b));
  b->specs = json_array();
  problem_init(p, 400, "validation", "Request failed validation");
  json_object_foreach((json_t *)doc, k, v)
    if (contract_find(fields, k) < 0) {
      char f[80];
      snprintf(f, sizeof(f), "%.64s", k);
      problem_add(p, f, "unknown-field", -1, "is not a known field (see docs/API.md)");
    }
  v = json_object_get(doc, "name");
  if (v && (!json_is_string(v) || !json_string_length(v) || json_string_length(v) > SPEC_MAX_NAME))
    problem_add(p, "name", "maxLength", SPEC_MAX_NAME, "must be 1 to %d characters", SPEC_MAX_NAME);
  b->name = json_string_value(v);
  v = json_object_get(doc, "policy");
  b->policy = contract_policies[0];
  if (v && (!json_is_string(v) || contract_find(contract_policies, json_string_value(v)) < 0))
    problem_add(p, "policy", "enum", -1, "must be hierarchy, profile_only, always_deep or pattern_only");
  else if (v)
    b->policy = json_string_value(v);
  v = json_object_get(doc, "pattern_index");
  b->pindex_mode = "latest";
  if (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= 1000000) {
    b->pindex_mode = NULL;
    b->pindex_num = (long)json_integer_value(v);
  } else if (json_is_string(v) && !strcmp(json_string_value(v), "frozen")) {
    b->pindex_mode = "frozen";
  } else if (v && !json_is_null(v) && !(json_is_string(v) && !strcmp(json_string_value(v), "latest"))) {
    problem_add(p, "pattern_index", "format", -1,
                "must be \"latest\", \"frozen\" or a version number from 1");
  }
  excl = json_object_get(doc, "exclude_same_operator");
  if (excl && !json_is_boolean(excl))
    problem_add(p, "exclude_same_operator", "type", -1, "must be true or false");
  v = json_object_get(doc, "synthesize_after");
  if (v && !json_is_boolean(v))
    problem_add(p, "synthesize_after", "type", -1, "must be true or false");
  b->synthesize_after = json_is_true(v);
  if (!json_is_array(jobs) || !json_array_size(jobs) || json_array_size(jobs) > API_BATCH_MAX_JOBS) {
    problem_add(p, "jobs", "format", API_BATCH_MAX_JOBS,
                "must be a list of 1 to %d job specs", API_BATCH_MAX_JOBS);
    return -EINVAL;
  }
  json_array_foreach(jobs, i, job)
    api_batch_job(r, i, job, b, json_is_boolean(excl) ? excl : NULL, p);
  return problem_has_errors(p) ? -EINVAL : 0;
}

/* ------------------------------------------------------------------------ storing */

/* Stores a source of spec (field "kernel" or "reference") content-addressed and leaves its
 * {sha256, bytes, filename} in the spec, as POST /v1/jobs does. sha gets the hash ("" when
 * the spec has none). 0 or -EIO (err). */
static int api_batch_source(PGconn *c, json_t *spec, const char *field,
                            char sha[KOPT_SHA256_HEX_SIZE], char *err, size_t errlen)
{
  json_t *o = json_object_get(spec, field), *src;
  const char *pk[2];
  PGresult *res;

  sha[0] = '\0';
  if (!json_is_object(o))
    return 0;
  src = json_object_get(o, "source");
  if (hash_sha256_hex(json_string_value(src), json_string_length(src), sha)) {
    snprintf(err, errlen, "hashing a source failed");
    return -EIO;
  }
  pk[0] = sha;
  pk[1] = json_string_value(src);
  res = db_exec(c, PGRES_COMMAND_OK, err, errlen,
                "INSERT INTO kernels (sha256, source) VALUES ($1, $2) ON CONFLICT (sha256) DO NOTHING",
                2, pk);
  if (!res)
    return -EIO;
  PQclear(res);
  json_object_set_new(o, "bytes", json_integer((json_int_t)json_string_length(src)));
  json_object_set_new(o, "sha256", json_string(sha));
  json_object_del(o, "source");
  return 0;
}

/* Inserts one job of batch bid, named for its submitter as POST /v1/jobs names it
 * (jobs.owner_token_name: the job document's submitted_by). 0 or -EIO (err). */
static int api_batch_insert_job(struct api_req *r, PGconn *c, const char *bid, const char *ver,
                                json_t *spec, char *err, size_t errlen)
{
  char ksha[KOPT_SHA256_HEX_SIZE], rsha[KOPT_SHA256_HEX_SIZE], owner[API_OWNER_MAX];
  struct api_job_cols cols;
  char *txt;
  const char *params[12];
  PGresult *res;

  if (ver)
    json_object_set_new(spec, "pattern_index", json_integer(atol(ver)));
  if (api_batch_source(c, spec, "kernel", ksha, err, errlen) ||
      api_batch_source(c, spec, "reference", rsha, err, errlen))
    return -EIO;
  txt = json_dumps(spec, JSON_COMPACT);
  if (!txt) {
    snprintf(err, errlen, "out of memory");
    return -EIO;
  }
  snprintf(owner, sizeof(owner), "%lld", r->who.token_id);
  api_job_cols(spec, &cols, params);
  params[6] = txt;
  params[7] = ksha;
  params[8] = rsha[0] ? rsha : NULL;
  params[9] = owner;
  params[10] = bid;
  params[11] = ver;
  res = db_exec(c, PGRES_COMMAND_OK, err, errlen,
                "INSERT INTO jobs (name, backend, priority, rounds, policy, proposer, spec,"
                " kernel_sha256, reference_sha256, owner_token_id, owner_token_name, batch_id,"
                " pattern_version)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,"
                " (SELECT name FROM api_tokens WHERE id = $10::bigint), $11::uuid, $12::int)",
                12, params);
  free(txt);
  if (!res)
    return -EIO;
  PQclear(res);
  return 0;
}

/* The version the batch pins: ver gets it ("" when the index has no version at all).
 * 0, 1 when the asked number does not exist (400 set), -EIO (err). */
static int api_batch_version(struct api_req *r, PGconn *c, const struct api_batch_in *b,
                             char ver[16], char *err, size_t errlen)
{
  char num[16];
  const char *params[2] = { NULL, b->pindex_mode };
  PGresult *res;

  if (!b->pindex_mode) {
    snprintf(num, sizeof(num), "%ld", b->pindex_num);
    params[0] = num;
  }
  res = db_exec(c, PGRES_TUPLES_OK, err, errlen,
                "SELECT CASE WHEN $1::int IS NOT NULL"
                " THEN (SELECT version FROM pattern_index_versions WHERE version = $1::int)"
                " ELSE (SELECT max(version) FROM pattern_index_versions"
                "       WHERE frozen OR $2 = 'latest') END",
                2, params);
  if (!res)
    return -EIO;
  snprintf(ver, 16, "%s", PQgetisnull(res, 0, 0) ? "" : PQgetvalue(res, 0, 0));
  PQclear(res);
  if (!ver[0] && !b->pindex_mode) {
    struct problem p;
    problem_init(&p, 400, "validation", "Request failed validation");
    problem_add(&p, "pattern_index", "exists", -1,
                "version %ld does not exist (GET /v1/patterns/versions lists them)", b->pindex_num);
    api_resp_problem(r, &p);
    return 1;
  }
  return 0;
}

/* The batch row. *bid gets its id, or "" when the Idempotency-Key was used before (then the
 * response is set: 200 with that batch, or 409). 0 or -EIO (err). */
static int api_batch_insert(struct api_req *r, PGconn *c, const struct api_batch_in *b,
                            const char *ver, const char *reqsha, char bid[KOPT_JOB_ID_SIZE],
                            char *err, size_t errlen)
{
  char owner[API_OWNER_MAX], *spec_txt;
  json_t *spec = json_pack("{s:s, s:s, s:b, s:i}", "policy", b->policy, "pattern_index_asked",
                           b->pindex_mode ? b->pindex_mode : "number", "synthesize_after",
                           b->synthesize_after, "jobs", (int)json_array_size(b->specs));
  const char *params[7];
  PGresult *res;

  bid[0] = '\0';
  spec_txt = spec ? json_dumps(spec, JSON_COMPACT) : NULL;
  json_decref(spec);
  if (!spec_txt) {
    snprintf(err, errlen, "out of memory");
    return -EIO;
  }
  snprintf(owner, sizeof(owner), "%lld", r->who.token_id);
  params[0] = b->name ? b->name : "";
  params[1] = spec_txt;
  params[2] = owner;
  params[3] = b->policy;
  params[4] = ver[0] ? ver : NULL;
  params[5] = b->synthesize_after ? "t" : "f";
  params[6] = r->idem_present ? r->idem_key : NULL;
  {
    const char *all[8];
    memcpy(all, params, sizeof(params));
    all[7] = reqsha;
    res = db_exec(c, PGRES_TUPLES_OK, err, errlen,
                  "INSERT INTO batches (name, spec, owner_token_id, policy, pattern_version,"
                  " synthesize_after, idempotency_key, request_sha256)"
                  " VALUES ($1, $2, $3, $4, $5::int, $6::bool, $7, $8)"
                  " ON CONFLICT (owner_token_id, idempotency_key)"
                  " WHERE idempotency_key IS NOT NULL DO NOTHING RETURNING id",
                  8, all);
  }
  free(spec_txt);
  if (!res)
    return -EIO;
  if (PQntuples(res) == 1) {
    snprintf(bid, KOPT_JOB_ID_SIZE, "%s", PQgetvalue(res, 0, 0));
    PQclear(res);
    return 0;
  }
  PQclear(res);
  {
    const char *q[2] = { owner, r->idem_key };
    res = db_exec(c, PGRES_TUPLES_OK, err, errlen,
                  "SELECT id, request_sha256, kopt_batch_json(b)::text FROM batches b"
                  " WHERE owner_token_id = $1 AND idempotency_key = $2",
                  2, q);
  }
  if (!res)
    return -EIO;
  if (PQntuples(res) == 1 && !strcmp(PQgetvalue(res, 0, 1), reqsha)) {
    snprintf(r->resp.location, sizeof(r->resp.location), "/v1/batches/%s", PQgetvalue(res, 0, 0));
    api_resp_set(r, 200, "application/json", strdup(PQgetvalue(res, 0, 2)));
  } else {
    api_resp_simple_problem(r, 409, "idempotency-conflict", "Idempotency-Key reused",
                            "Idempotency-Key was already used for batch %s with a different "
                            "body; use a new key for a new batch",
                            PQntuples(res) == 1 ? PQgetvalue(res, 0, 0) : "(unknown)");
  }
  PQclear(res);
  return 0;
}

void api_batches_create(struct api_req *r, PGconn *c)
{
  struct problem p;
  struct api_batch_in b = { 0 };
  json_t *doc = NULL, *spec;
  char msg[256], err[512], ver[16] = "", bid[KOPT_JOB_ID_SIZE], reqsha[KOPT_SHA256_HEX_SIZE];
  char *canon = NULL;
  PGresult *res = NULL;
  int in_tx = 0, rc;
  size_t i;
  enum jsonlim_result jr;

  if (api_require_json(r))
    return;
  if (r->idem_bad) {
    problem_init(&p, 400, "validation", "Request failed validation");
    problem_add(&p, "Idempotency-Key", "format", API_IDEM_MAX,
                "must be 1 to %d printable ASCII characters", API_IDEM_MAX);
    api_resp_problem(r, &p);
    return;
  }
  jr = jsonlim_parse_object(r->body.data ? r->body.data : "", r->body.len, &doc, msg, sizeof(msg));
  if (jr != JSONLIM_OK) {
    api_resp_simple_problem(r, 400, jr == JSONLIM_TOO_DEEP ? "json-too-deep" : "malformed-json",
                            jr == JSONLIM_TOO_DEEP ? "JSON nested too deeply" : "Malformed JSON",
                            "%s", msg);
    goto out;
  }
  if (api_batch_validate(r, doc, &b, &p)) {
    api_resp_problem(r, &p);
    goto out;
  }
  problem_free(&p);
  canon = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
  if (!canon || hash_sha256_hex(canon, strlen(canon), reqsha)) {
    api_resp_simple_problem(r, 500, "internal", "Internal error", "out of memory");
    goto out;
  }
  if (!(res = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err), "BEGIN", 0, NULL)))
    goto dberr;
  PQclear(res);
  res = NULL;
  in_tx = 1;
  rc = api_batch_version(r, c, &b, ver, err, sizeof(err));
  if (rc < 0)
    goto dberr;
  if (rc > 0)
    goto out;
  if (api_batch_insert(r, c, &b, ver, reqsha, bid, err, sizeof(err)))
    goto dberr;
  if (!bid[0]) /* the Idempotency-Key's earlier batch (or its conflict) was answered */
    goto commit;
  json_array_foreach(b.specs, i, spec)
    if (api_batch_insert_job(r, c, bid, ver[0] ? ver : NULL, spec, err, sizeof(err)))
      goto dberr;
  {
    const char *q[1] = { bid };
    res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                  "SELECT kopt_batch_json(b)::text FROM batches b WHERE id = $1::uuid", 1, q);
  }
  if (!res)
    goto dberr;
  snprintf(r->resp.location, sizeof(r->resp.location), "/v1/batches/%s", bid);
  api_resp_set(r, 201, "application/json", strdup(PQgetvalue(res, 0, 0)));
  PQclear(res);
  res = NULL;
commit:
  if (!(res = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err), "COMMIT", 0, NULL)))
    goto dberr;
  in_tx = 0;
  if (bid[0])
    log_info("batch.created", "batch=%s jobs=%zu version=%s token=%lld", bid,
             json_array_size(b.specs), ver[0] ? ver : "none", r->who.token_id);
  goto out;
dberr:
  api_db_fail(r, "storing the batch", err);
out:
  if (in_tx)
    PQclear(PQexec(c, "ROLLBACK"));
  PQclear(res);
  free(canon);
  json_decref(b.specs);
  json_decref(doc);
}

/* ------------------------------------------------------------------------ reading */

void api_batches_get(struct api_req *r, PGconn *c)
{
  char err[512], owner[API_OWNER_MAX];
  const char *params[2] = { r->id, api_owner_filter(r, owner) };
  PGresult *res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                          "SELECT kopt_batch_json(b)::text FROM batches b WHERE id = $1::uuid"
                          " AND ($2::bigint IS NULL OR owner_token_id = $2::bigint)",
                          2, params);
  if (!res) {
    api_db_fail(r, "reading the batch", err);
    return;
  }
  if (PQntuples(res) == 0)
    api_resp_simple_problem(r, 404, "not-found", "Not found", "no batch %s", r->id);
  else
    api_resp_set(r, 200, "application/json", strdup(PQgetvalue(res, 0, 0)));
  PQclear(res);
}

void api_batches_list(struct api_req *r, PGconn *c)
{
  char err[512], owner[API_OWNER_MAX], lim[24], cur[API_CURSOR_MAX];
  const char *params[3] = { NULL, api_owner_filter(r, owner), lim };
  long limit;
  PGresult *res;

  if (api_page_args(r, API_BATCH_PAGE_DEFAULT, API_BATCH_PAGE_MAX, 'b', cur, &limit))
    return;
  params[0] = cur[0] ? cur : NULL;
  snprintf(lim, sizeof(lim), "%ld", limit + 1);
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT b.seq, jsonb_build_object('id', b.id, 'name', b.name,"
                " 'created_at', kopt_ts(b.created_at), 'finished_at', kopt_ts(b.finished_at),"
                " 'state', CASE WHEN b.finished_at IS NULL THEN 'running' ELSE 'done' END,"
                " 'policy', b.policy, 'pattern_index', b.pattern_version,"
                " 'synthesize_after', b.synthesize_after,"
                " 'synthesized_version', b.synthesized_version,"
                " 'jobs', (SELECT count(*) FROM jobs j WHERE j.batch_id = b.id))::text"
                " FROM batches b WHERE ($1::bigint IS NULL OR b.seq < $1::bigint)"
                " AND ($2::bigint IS NULL OR b.owner_token_id = $2::bigint)"
                " ORDER BY b.seq DESC LIMIT $3::int",
                3, params);
  if (!res) {
    api_db_fail(r, "listing batches", err);
    return;
  }
  api_page_answer(r, res, "batches", 'b', limit);
  PQclear(res);
}
