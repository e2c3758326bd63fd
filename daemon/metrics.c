#include <string.h>

#include "metrics.h"

static const double metrics_bounds[METRICS_BUCKETS] = {
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10
};
/* Codes we count separately; the last slot counts every other code. */
static const unsigned metrics_codes[METRICS_CODES - 1] = {
  200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415, 429, 500, 503, 431
};
static const char *const metrics_methods[3] = { "GET", "POST", "other" };

void metrics_init(struct metrics *m, uint64_t now_ms)
{
  memset(m, 0, sizeof(*m));
  m->started_ms = now_ms;
}

static struct metrics_route *metrics_route_get(struct metrics *m, const char *name)
{
  for (unsigned i = 0; i < m->nroutes; i++)
    if (m->routes[i].name == name || strcmp(m->routes[i].name, name) == 0)
      return &m->routes[i];
  if (m->nroutes == METRICS_MAX_ROUTES)
    return NULL;
  m->routes[m->nroutes].name = name;
  return &m->routes[m->nroutes++];
}

void metrics_observe(struct metrics *m, const char *route_name, const char *method,
                     unsigned code, double seconds)
{
  struct metrics_route *r = metrics_route_get(m, route_name);
  unsigned mi = 2, ci = METRICS_CODES - 1;
  if (!r)
    return;
  if (strcmp(method, "GET") == 0)
    mi = 0;
  else if (strcmp(method, "POST") == 0)
    mi = 1;
  for (unsigned i = 0; i < METRICS_CODES - 1; i++)
    if (metrics_codes[i] == code)
      ci = i;
  r->count[mi][ci]++;
  for (unsigned b = 0; b < METRICS_BUCKETS; b++)
    if (seconds <= metrics_bounds[b]) {
      r->bucket[b]++;
      break;
    }
  r->total++;
  r->sum_s += seconds;
}

/* Keeps the first failure, so the caller sees -E2BIG or -ENOMEM as documented. */
static int metrics_first(int rc, int r) { return rc ? rc : r; }

int metrics_render(const struct metrics *m, struct buf *out)
{
  int rc = 0;
  rc = metrics_first(rc, buf_appends(out, "# HELP kopt_http_requests_total HTTP requests answered, by route "
                         "template, method and status code.\n"
                         "# TYPE kopt_http_requests_total counter\n"));
  for (unsigned i = 0; i < m->nroutes; i++) {
    const struct metrics_route *r = &m->routes[i];
    for (unsigned mi = 0; mi < 3; mi++)
      for (unsigned ci = 0; ci < METRICS_CODES; ci++) {
        if (!r->count[mi][ci])
          continue;
        if (ci < METRICS_CODES - 1)
          rc = metrics_first(rc, buf_appendf(out,
                            "kopt_http_requests_total{route=\"%s\",method=\"%s\",code=\"%u\"} %llu\n",
                            r->name, metrics_methods[mi], metrics_codes[ci],
                            (unsigned long long)r->count[mi][ci]));
        else
          rc = metrics_first(rc, buf_appendf(out,
                            "kopt_http_requests_total{route=\"%s\",method=\"%s\",code=\"other\"} %llu\n",
                            r->name, metrics_methods[mi], (unsigned long long)r->count[mi][ci]));
      }
  }
  rc = metrics_first(rc, buf_appends(out, "# HELP kopt_http_request_duration_seconds Time from the first byte "
                         "of a request to its response, by route template.\n"
                         "# TYPE kopt_http_request_duration_seconds histogram\n"));
  for (unsigned i = 0; i < m->nroutes; i++) {
    const struct metrics_route *r = &m->routes[i];
    uint64_t cum = 0;
    for (unsigned b = 0; b < METRICS_BUCKETS; b++) {
      cum += r->bucket[b];
      rc = metrics_first(rc, buf_appendf(out, "kopt_http_request_duration_seconds_bucket{route=\"%s\",le=\"%g\"} %llu\n",
                        r->name, metrics_bounds[b], (unsigned long long)cum));
    }
    rc = metrics_first(rc, buf_appendf(out, "kopt_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu\n"
                           "kopt_http_request_duration_seconds_sum{route=\"%s\"} %.6f\n"
                           "kopt_http_request_duration_seconds_count{route=\"%s\"} %llu\n",
                      r->name, (unsigned long long)r->total, r->name, r->sum_s, r->name,
                      (unsigned long long)r->total));
  }
  return rc;
}
