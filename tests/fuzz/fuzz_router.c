/* fuzz_router: what the loop thread and the routes read from a request line before any
 * database work: api_route_match (method and path), api_query_arg (each query argument, as
 * MHD hands them over), GET /v1/jobs's query check (api_jobs_list_query), the other lists'
 * pages (api_page_query) and the Last-Event-ID header (sse_last_event_id). */
#include <ctype.h>

#include "api.h"
#include "fuzz.h"
#include "fuzz_sse_id.h"

enum { F_METHOD, F_URL, F_QUERY, F_LAST_ID, F_NPARTS };

/* A 404/405 or validation answer: one problem document that keeps its detail. */
static void fuzz_problem_body(const struct api_resp *resp)
{
  json_t *doc;
  FUZZ_CHECK(resp->body != NULL, "status %u without a body", resp->status);
  doc = json_loadb(resp->body, resp->body_len, 0, NULL);
  FUZZ_CHECK(json_is_object(doc), "body is not a JSON object: %s", resp->body);
  FUZZ_CHECK(json_is_string(json_object_get(doc, "detail")), "detail dropped: %s", resp->body);
  json_decref(doc);
}

static void fuzz_route(struct api_req *r, const char *method, const char *url)
{
  unsigned st = api_route_match(r, method, url);
  FUZZ_CHECK(st == 0 || st == 404 || st == 405, "status %u", st);
  if (st) {
    FUZZ_CHECK(r->resp.status == st, "answered %u, returned %u", r->resp.status, st);
    fuzz_problem_body(&r->resp);
    return;
  }
  FUZZ_CHECK(r->route != ROUTE_NONE && r->route_name, "matched nothing");
  if (r->id[0]) {
    FUZZ_CHECK(strlen(r->id) == 36, "id %s", r->id);
    for (size_t i = 0; i < 36; i++)
      FUZZ_CHECK(r->id[i] == '-' || isdigit((unsigned char)r->id[i]) ||
                     (r->id[i] >= 'a' && r->id[i] <= 'f'),
                 "id %s", r->id);
  }
  if (r->route == ROUTE_JOB_ARTIFACT) {
    FUZZ_CHECK(r->art_round[0] && strspn(r->art_round, "0123456789") == strlen(r->art_round),
               "round %s", r->art_round);
    FUZZ_CHECK(r->art_kind[0], "empty kind");
  }
}

/* Splits a query string as MHD does (& between arguments, the first = between key and
 * value; no '=' gives a NULL value); MHD's %-decoding can yield any byte but NUL, which the
 * fuzzer's bytes already cover. */
static void fuzz_query(struct api_req *r, char *q)
{
  char *save = NULL;
  for (char *arg = strtok_r(q, "&", &save); arg; arg = strtok_r(NULL, "&", &save)) {
    char *eq = strchr(arg, '=');
    if (eq)
      *eq = '\0';
    api_query_arg(r, arg, eq ? eq + 1 : NULL);
  }
}

static void fuzz_list_query(struct api_req *r)
{
  struct api_list_query q;
  struct problem p;
  int rc;

  FUZZ_CHECK(strlen(r->q_state) <= API_Q_STATE_MAX, "state filter past its cap");
  problem_init(&p, 400, "validation", "Request failed validation");
  rc = api_jobs_list_query(r, &q, &p);
  if (rc == 0) {
    FUZZ_CHECK(q.limit >= 1 && q.limit <= 100, "limit %ld", q.limit);
    FUZZ_CHECK(strspn(q.cursor, "0123456789") == strlen(q.cursor) && strlen(q.cursor) <= 19,
               "cursor %s", q.cursor);
    FUZZ_CHECK(!q.states[0] || (q.states[0] == '{' && q.states[strlen(q.states) - 1] == '}'),
               "states %s", q.states);
    FUZZ_CHECK(!problem_has_errors(&p), "accepted with errors");
    problem_free(&p);
  } else {
    FUZZ_CHECK(rc == -EINVAL && problem_has_errors(&p), "rc %d", rc);
    api_resp_problem(r, &p); /* frees p's errors */
    fuzz_problem_body(&r->resp);
    api_resp_free(&r->resp);
  }
}

/* The batch and pattern-version lists' pages (api_page_query, which GET /v1/jobs's check
 * uses too): accepted, a limit in bounds and a bigint's digits; refused, errors. */
static void fuzz_page_query(const struct api_req *r)
{
  static const char prefixes[] = { 'b', 'v' };
  for (size_t i = 0; i < sizeof(prefixes); i++) {
    char cur[API_CURSOR_MAX];
    struct problem p;
    long limit;
    int rc;

    problem_init(&p, 400, "validation", "Request failed validation");
    rc = api_page_query(r, 20, 100, prefixes[i], cur, &limit, &p);
    FUZZ_CHECK(rc == 0 ? !problem_has_errors(&p) : rc == -EINVAL && problem_has_errors(&p),
               "rc %d", rc);
    if (rc == 0)
      FUZZ_CHECK(limit >= 1 && limit <= 100 && strspn(cur, "0123456789") == strlen(cur) &&
                     strlen(cur) <= 19,
                 "limit %ld cursor %s", limit, cur);
    problem_free(&p);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *part[F_NPARTS];
  struct api_req *r;
  char *copy = fuzz_split(data, size, part, NULL, F_NPARTS), *q;

  r = calloc(1, sizeof(*r));
  if (!copy || !r)
    goto out;
  fuzz_route(r, part[F_METHOD], part[F_URL]);
  api_resp_free(&r->resp);
  q = strdup(part[F_QUERY]);
  if (q)
    fuzz_query(r, q);
  free(q);
  fuzz_page_query(r);
  fuzz_list_query(r);
  fuzz_last_event_id(part[F_LAST_ID]);
out:
  free(r);
  free(copy);
  return 0;
}
