/* api_patterns: the /v1/patterns routes (docs/API.md, "Patterns"; docs/PATTERNS.md). The
 * index lives in PostgreSQL and its logic in the functions of migrations/005_patterns.sql
 * (matching, synthesis, diffs), which the workers read too; these handlers check requests
 * and render what those functions answer. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "jsonlim.h"
#include "log.h"
#include "params.h"

#define API_PV_DIGITS 7            /* a version number in a path or query: 1..API_PV_MAX */
#define API_PV_MAX 9999999
#define API_PV_PAGE_DEFAULT 100    /* versions per page */
#define API_PV_PAGE_MAX 100
#define API_SYNTH_MAX_BATCHES 100  /* batch_ids one synthesis may name */
#define API_SYNTH_NOTE_MAX 512
#define API_SYNTH_MAX_MIN_OPERATORS 1000
#define API_SYNTH_MAX_RETIRE_TRIALS 100000

/* 1..9999999 written in digits only; 0 otherwise. */
static int api_pv_number(const char *s, size_t n)
{
  int v = 0;
  if (n < 1 || n > API_PV_DIGITS || s[0] == '0')
    return 0;
  for (size_t i = 0; i < n; i++) {
    if (!isdigit((unsigned char)s[i]))
      return 0;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

enum api_route api_patterns_match(struct api_req *r, const char *url)
{
  const char *rest = url + 12; /* after "/v1/patterns" */
  const char *v, *slash;

  if (!strcmp(rest, "") || !strcmp(rest, "/"))
    return ROUTE_PATTERNS;
  if (!strcmp(rest, "/versions") || !strcmp(rest, "/versions/"))
    return ROUTE_PATTERN_VERSIONS;
  if (!strcmp(rest, "/synthesize"))
    return ROUTE_PATTERN_SYNTH;
  if (strncmp(rest, "/versions/", 10) != 0)
    return ROUTE_NONE;
  v = rest + 10;
  slash = strchr(v, '/');
  if (!slash || !(r->version = api_pv_number(v, (size_t)(slash - v))))
    return ROUTE_NONE;
  if (!strcmp(slash, "/diff"))
    return ROUTE_PATTERN_DIFF;
  if (!strcmp(slash, "/freeze"))
    return ROUTE_PATTERN_FREEZE;
  return ROUTE_NONE;
}

int api_patterns_query_arg(struct api_req *r, const char *key, const char *value)
{
  char *dst;
  if (!strcmp(key, "version"))
    dst = r->q_version;
  else if (!strcmp(key, "against"))
    dst = r->q_against;
  else if (!strcmp(key, "status"))
    dst = r->q_status;
  else
    return 0;
  /* Too long for any valid value: kept as "!", which every check refuses. */
  snprintf(dst, sizeof(r->q_version), "%s", strlen(value) < sizeof(r->q_version) ? value : "!");
  if (!dst[0])
    snprintf(dst, sizeof(r->q_version), "!");
  return 1;
}

/* Answers 200 with the single text a query returns, 404 (detail) when it returns no row, or
 * 503. */
static void api_pv_answer(struct api_req *r, PGconn *c, const char *what, const char *notfound,
                          const char *sql, int n, const char *const *params)
{
  char err[512];
  PGresult *res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err), sql, n, params);
  if (!res) {
    api_db_fail(r, what, err);
    return;
  }
  if (PQntuples(res) == 0)
    api_resp_simple_problem(r, 404, "not-found", "Not found", "%s", notfound);
  else
    api_resp_set(r, 200, "application/json", strdup(PQgetvalue(res, 0, 0)));
  PQclear(res);
}

static void api_pv_bad_query(struct api_req *r, const char *field, const char *fmt)
{
  struct problem p;
  problem_init(&p, 400, "validation", "Request failed validation");
  problem_add(&p, field, "format", -1, "%s", fmt);
  api_resp_problem(r, &p);
}

/* A version number in the query (?version=, ?against=): 1..API_PV_MAX, read as every integer
 * parameter is (params.h), so a number out of range is a 400 naming its bound. 0 with *v, or
 * -1 when it answered 400 (what: the words for a value that is no number at all). */
static int api_pv_query_number(struct api_req *r, const char *field, const char *s,
                               const char *what, int *v)
{
  struct problem p;
  long long n;

  problem_init(&p, 400, "validation", "Request failed validation");
  if (params_int(s, 1, API_PV_MAX, &n) == PARAMS_NOT_INT)
    problem_add(&p, field, "format", -1, "%s", what);
  else if (params_int_field(&p, field, s, 1, API_PV_MAX, &n) == 0) {
    problem_free(&p);
    *v = (int)n;
    return 0;
  }
  api_resp_problem(r, &p);
  return -1;
}

/* ?version=: "" or latest (NULL, "latest"), frozen (NULL, "frozen") or a number. -1 when
 * it answered 400. */
static int api_pv_version_arg(struct api_req *r, char num[16], const char **mode)
{
  const char *q = r->q_version;
  int v;
  num[0] = '\0';
  *mode = "latest";
  if (!q[0] || !strcmp(q, "latest"))
    return 0;
  if (!strcmp(q, "frozen")) {
    *mode = "frozen";
    return 0;
  }
  if (api_pv_query_number(r, "version", q, "must be latest, frozen or a version number from 1",
                          &v))
    return -1;
  snprintf(num, 16, "%d", v);
  return 0;
}

void api_patterns_list(struct api_req *r, PGconn *c)
{
  char num[16], msg[96];
  const char *mode, *status = r->q_status[0] ? r->q_status : "all";
  const char *params[3];

  if (api_pv_version_arg(r, num, &mode))
    return;
  if (strcmp(status, "all") && strcmp(status, "active") && strcmp(status, "retired")) {
    api_pv_bad_query(r, "status", "must be active, retired or all");
    return;
  }
  params[0] = num[0] ? num : NULL;
  params[1] = mode;
  params[2] = status;
  snprintf(msg, sizeof(msg), "no pattern index version %s", num[0] ? num : mode);
  api_pv_answer(r, c, "reading patterns", msg,
                "WITH v AS (SELECT * FROM pattern_index_versions WHERE version ="
                " coalesce($1::int, (SELECT max(version) FROM pattern_index_versions"
                "                    WHERE frozen OR $2 = 'latest')))"
                " SELECT jsonb_build_object('version', kopt_pattern_version_json(v),"
                "  'counts', (SELECT jsonb_build_object("
                "     'active', count(*) FILTER (WHERE p.status = 'active'),"
                "     'retired', count(*) FILTER (WHERE p.status = 'retired'))"
                "   FROM patterns p WHERE p.version = v.version),"
                "  'patterns', coalesce((SELECT jsonb_agg(kopt_pattern_json(p)"
                "     ORDER BY p.status, p.name) FROM patterns p"
                "     WHERE p.version = v.version AND ($3 = 'all' OR p.status = $3)), '[]'))::text"
                " FROM v",
                3, params);
}

void api_patterns_versions(struct api_req *r, PGconn *c)
{
  char err[512], lim[24], cur[API_CURSOR_MAX];
  const char *params[2] = { NULL, lim };
  long limit;
  PGresult *res;

  if (api_page_args(r, API_PV_PAGE_DEFAULT, API_PV_PAGE_MAX, 'v', cur, &limit))
    return;
  params[0] = cur[0] ? cur : NULL;
  snprintf(lim, sizeof(lim), "%ld", limit + 1);
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT v.version, (kopt_pattern_version_json(v) || (SELECT jsonb_build_object("
                "  'patterns', count(*), 'active', count(*) FILTER (WHERE p.status = 'active'),"
                "  'retired', count(*) FILTER (WHERE p.status = 'retired'))"
                "  FROM patterns p WHERE p.version = v.version))::text"
                " FROM pattern_index_versions v WHERE ($1::bigint IS NULL OR v.version < $1::bigint)"
                " ORDER BY v.version DESC LIMIT $2::int",
                2, params);
  if (!res) {
    api_db_fail(r, "listing pattern index versions", err);
    return;
  }
  api_page_answer(r, res, "versions", 'v', limit);
  PQclear(res);
}

void api_patterns_diff(struct api_req *r, PGconn *c)
{
  char ver[16], against[16] = "", msg[96];
  const char *params[2] = { ver, NULL };

  snprintf(ver, sizeof(ver), "%d", r->version);
  if (r->q_against[0]) {
    int a;
    if (api_pv_query_number(r, "against", r->q_against, "must be a version number from 1", &a))
      return;
    snprintf(against, sizeof(against), "%d", a);
    params[1] = against;
  }
  snprintf(msg, sizeof(msg), "no pattern index version %s%s%s", ver, against[0] ? " or " : "",
           against);
  /* Against the parent by default (the seed has none: every pattern is added). */
  api_pv_answer(r, c, "diffing pattern index versions", msg,
                "SELECT (jsonb_build_object('version', kopt_pattern_version_json(v))"
                " || kopt_patterns_diff(coalesce($2::int, v.parent), v.version))::text"
                " FROM pattern_index_versions v WHERE v.version = $1::int"
                " AND ($2::int IS NULL OR EXISTS (SELECT 1 FROM pattern_index_versions a"
                "                                 WHERE a.version = $2::int))",
                2, params);
}

void api_patterns_freeze(struct api_req *r, PGconn *c)
{
  char ver[16], msg[64];
  const char *params[1] = { ver };

  snprintf(ver, sizeof(ver), "%d", r->version);
  snprintf(msg, sizeof(msg), "no pattern index version %s", ver);
  /* Idempotent: freezing a frozen version keeps its first frozen_at. */
  api_pv_answer(r, c, "freezing a pattern index version", msg,
                "UPDATE pattern_index_versions SET frozen = true,"
                " frozen_at = coalesce(frozen_at, now()) WHERE version = $1::int"
                " RETURNING kopt_pattern_version_json(pattern_index_versions)::text",
                1, params);
  if (r->resp.status == 200)
    log_info("patterns.frozen", "version=%s token=%lld", ver, r->who.token_id);
}

/* Checks a synthesize body ({} when empty) into opts (new reference). 0, or -EINVAL with
 * every broken rule in p. */
static int api_synth_opts(const json_t *doc, json_t **opts, struct problem *p)
{
  static const char *const fields[] = { "base", "batch_ids", "min_operators", "retire_min_trials",
                                        "retire_max_rate", "note", NULL };
  const char *k;
  json_t *v;

  *opts = json_object();
  problem_init(p, 400, "validation", "Request failed validation");
  json_object_foreach((json_t *)doc, k, v) {
    if (contract_find(fields, k) < 0) {
      char f[80];
      snprintf(f, sizeof(f), "%.64s", k);
      problem_add(p, f, "unknown-field", -1, "is not a known field (see docs/API.md)");
    } else if (!strcmp(k, "batch_ids")) {
      size_t i;
      json_t *id;
      int ok = json_is_array(v) && json_array_size(v) >= 1 &&
               json_array_size(v) <= API_SYNTH_MAX_BATCHES;
      json_array_foreach(v, i, id)
        ok = ok && json_is_string(id) && api_is_uuid(json_string_value(id), json_string_length(id));
      if (!ok)
        problem_add(p, "batch_ids", "format", API_SYNTH_MAX_BATCHES,
                    "must be a list of 1 to %d batch ids (UUIDs)", API_SYNTH_MAX_BATCHES);
    } else if (!strcmp(k, "base")) {
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 9999999)
        problem_add(p, "base", "format", -1, "must be a version number from 1");
    } else if (!strcmp(k, "min_operators") || !strcmp(k, "retire_min_trials")) {
      long max = !strcmp(k, "min_operators") ? API_SYNTH_MAX_MIN_OPERATORS
                                              : API_SYNTH_MAX_RETIRE_TRIALS;
      if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > max)
        problem_add(p, k, "range", max, "must be an integer from 1 to %ld", max);
    } else if (!strcmp(k, "retire_max_rate")) {
      if (!json_is_number(v) || json_number_value(v) < 0 || json_number_value(v) > 1)
        problem_add(p, k, "range", 1, "must be a number from 0 to 1");
    } else if (!json_is_string(v) || json_string_length(v) > API_SYNTH_NOTE_MAX) {
      problem_add(p, "note", "maxLength", API_SYNTH_NOTE_MAX,
                  "must be a string of at most %d bytes", API_SYNTH_NOTE_MAX);
    }
    json_object_set(*opts, k, v);
  }
  if (!problem_has_errors(p))
    return 0;
  json_decref(*opts);
  *opts = NULL;
  return -EINVAL;
}

/* 1 when the base version and every batch in opts.batch_ids exist, 0 (400 set) when one
 * does not, -1 (503). */
static int api_synth_refs_exist(struct api_req *r, PGconn *c, const json_t *opts)
{
  const json_t *ids = json_object_get(opts, "batch_ids"), *base = json_object_get(opts, "base");
  char err[512], *txt;
  const char *params[1];
  PGresult *res;
  int ok;

  if (base) {
    char num[16];
    const char *pb[1] = { num };
    snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(base));
    res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                  "SELECT 1 FROM pattern_index_versions WHERE version = $1::int", 1, pb);
    if (!res) {
      api_db_fail(r, "reading pattern index versions", err);
      return -1;
    }
    ok = PQntuples(res) == 1;
    PQclear(res);
    if (!ok) {
      struct problem p;
      problem_init(&p, 400, "validation", "Request failed validation");
      problem_add(&p, "base", "exists", -1, "version %s does not exist", num);
      api_resp_problem(r, &p);
      return 0;
    }
  }
  if (!ids)
    return 1;
  txt = json_dumps(ids, JSON_COMPACT);
  params[0] = txt;
  if (!txt) {
    api_resp_simple_problem(r, 500, "internal", "Internal error", "out of memory");
    return -1;
  }
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT count(*) = (SELECT count(DISTINCT x) FROM jsonb_array_elements_text($1::jsonb) x)"
                " FROM batches WHERE id IN (SELECT x::uuid FROM jsonb_array_elements_text($1::jsonb) x)",
                1, params);
  free(txt);
  if (!res) {
    api_db_fail(r, "reading batches", err);
    return -1;
  }
  ok = !strcmp(PQgetvalue(res, 0, 0), "t");
  PQclear(res);
  if (!ok) {
    struct problem p;
    problem_init(&p, 400, "validation", "Request failed validation");
    problem_add(&p, "batch_ids", "exists", -1, "names a batch that does not exist");
    api_resp_problem(r, &p);
  }
  return ok;
}

void api_patterns_synthesize(struct api_req *r, PGconn *c)
{
  struct problem p;
  json_t *doc = NULL, *opts = NULL;
  char msg[256], err[512], *otxt = NULL;
  const char *params[1];
  PGresult *res = NULL;
  int in_tx = 0;
  enum jsonlim_result jr;

  if (r->body.len && api_require_json(r))
    return;
  jr = jsonlim_parse_object(r->body.len ? r->body.data : "{}", r->body.len ? r->body.len : 2,
                            &doc, msg, sizeof(msg));
  if (jr != JSONLIM_OK) {
    api_resp_simple_problem(r, 400, jr == JSONLIM_TOO_DEEP ? "json-too-deep" : "malformed-json",
                            jr == JSONLIM_TOO_DEEP ? "JSON nested too deeply" : "Malformed JSON",
                            "%s", msg);
    goto out;
  }
  if (api_synth_opts(doc, &opts, &p)) {
    api_resp_problem(r, &p);
    goto out;
  }
  problem_free(&p);
  if (api_synth_refs_exist(r, c, opts) != 1)
    goto out;
  otxt = json_dumps(opts, JSON_COMPACT);
  params[0] = otxt;
  res = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err), "BEGIN", 0, NULL);
  if (!res)
    goto dberr;
  in_tx = 1;
  PQclear(res);
  /* Two statements: the second reads what the first wrote. */
  res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT kopt_patterns_synthesize($1::jsonb)", 1, params);
  if (!res)
    goto dberr;
  params[0] = PQgetvalue(res, 0, 0);
  {
    PGresult *doc_res = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                                "SELECT (jsonb_build_object('version', kopt_pattern_version_json(v))"
                                " || jsonb_build_object('diff', kopt_patterns_diff(v.parent, v.version)))::text"
                                " FROM pattern_index_versions v WHERE v.version = $1::int",
                                1, params);
    if (!doc_res)
      goto dberr;
    snprintf(r->resp.location, sizeof(r->resp.location), "/v1/patterns?version=%s", params[0]);
    api_resp_set(r, 201, "application/json", strdup(PQgetvalue(doc_res, 0, 0)));
    log_info("patterns.synthesized", "version=%s token=%lld", params[0], r->who.token_id);
    PQclear(doc_res);
  }
  PQclear(res);
  res = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err), "COMMIT", 0, NULL);
  if (!res)
    goto dberr;
  in_tx = 0;
  goto out;
dberr:
  api_db_fail(r, "synthesizing the pattern index", err);
out:
  if (in_tx)
    PQclear(PQexec(c, "ROLLBACK"));
  PQclear(res);
  free(otxt);
  json_decref(opts);
  json_decref(doc);
}
