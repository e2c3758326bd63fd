/* api_common: what the pattern and batch handlers share (api_jobs.c has its own copies from
 * before; they say the same). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "log.h"
#include "params.h"

void api_db_fail(struct api_req *r, const char *what, const char *err)
{
  log_error("db.query_failed", "route=%s what=%s err=\"%.300s\"", r->route_name, what, err);
  api_resp_simple_problem(r, 503, "unavailable", "Database error",
                          "the database failed while %s; nothing was changed, retry later",
                          what);
}

const char *api_owner_filter(const struct api_req *r, char buf[API_OWNER_MAX])
{
  if (r->who.role != AUTH_SUBMITTER)
    return NULL;
  snprintf(buf, API_OWNER_MAX, "%lld", r->who.token_id);
  return buf;
}

void api_job_cols(const json_t *spec, struct api_job_cols *cols, const char *params[6])
{
  snprintf(cols->prio, sizeof(cols->prio), "%lld",
           (long long)json_integer_value(json_object_get(spec, "priority")));
  snprintf(cols->rounds, sizeof(cols->rounds), "%lld",
           (long long)json_integer_value(json_object_get(spec, "rounds")));
  params[0] = json_string_value(json_object_get(spec, "name")); /* NULL when null */
  params[1] = json_string_value(json_object_get(spec, "backend"));
  params[2] = cols->prio;
  params[3] = cols->rounds;
  params[4] = json_string_value(json_object_get(spec, "policy"));
  params[5] = json_string_value(json_object_get(spec, "proposer"));
}

int api_require_json(struct api_req *r)
{
  const char *ct = r->content_type;
  if (strncasecmp(ct, "application/json", 16) == 0 && (!ct[16] || ct[16] == ';' || ct[16] == ' '))
    return 0;
  api_resp_simple_problem(r, 415, "unsupported-media-type", "Unsupported media type",
                          "Content-Type must be application/json (got \"%.60s\")",
                          ct[0] ? ct : "none");
  return -1;
}

int api_page_query(const struct api_req *r, long def, long max, char prefix,
                   char cursor[API_CURSOR_MAX], long *limit, struct problem *p)
{
  *limit = def;
  cursor[0] = '\0';
  if (r->q_limit_set) {
    long long v = def;
    if (params_int_field(p, "limit", r->q_limit, 1, max, &v) == 0)
      *limit = (long)v;
  }
  if (r->q_cursor_set) {
    long long seq;
    /* The prefix, then a bigint key: anything else, or a number past bigint (which the
     * database would refuse with an error), is not a cursor this server issued. */
    if (r->q_cursor[0] != prefix || params_int(r->q_cursor + 1, 0, INT64_MAX, &seq) != PARAMS_OK)
      problem_add(p, "cursor", "format", -1,
                  "is not a cursor this server issued (use next_cursor from a previous page)");
    else
      snprintf(cursor, API_CURSOR_MAX, "%lld", seq);
  }
  return problem_has_errors(p) ? -EINVAL : 0;
}

int api_page_args(struct api_req *r, long def, long max, char prefix, char cursor[API_CURSOR_MAX],
                  long *limit)
{
  struct problem p;
  problem_init(&p, 400, "validation", "Request failed validation");
  if (api_page_query(r, def, max, prefix, cursor, limit, &p)) {
    api_resp_problem(r, &p);
    return -1;
  }
  problem_free(&p);
  return 0;
}

void api_page_answer(struct api_req *r, PGresult *res, const char *key, char prefix, long limit)
{
  struct buf b;
  int n = PQntuples(res);

  buf_init(&b, 16u << 20);
  buf_appendf(&b, "{\"%s\":[", key);
  for (int i = 0; i < n && i < limit; i++)
    buf_appendf(&b, "%s%s", i ? "," : "", PQgetvalue(res, i, 1));
  if (n > limit)
    buf_appendf(&b, "],\"next_cursor\":\"%c%s\"}", prefix, PQgetvalue(res, (int)limit - 1, 0));
  else
    buf_appends(&b, "],\"next_cursor\":null}");
  api_resp_set(r, 200, "application/json", buf_take(&b, NULL));
  buf_free(&b);
}
