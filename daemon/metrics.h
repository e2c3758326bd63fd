/* metrics: request counters and latency histograms kept on the loop thread, rendered in
 * Prometheus text format 0.0.4. */
#ifndef KOPT_METRICS_H
#define KOPT_METRICS_H
#include <stdint.h>

#include "buf.h"

#define METRICS_MAX_ROUTES 24
#define METRICS_BUCKETS 13
#define METRICS_CODES 16

struct metrics_route {
  const char *name;       /* static route template, e.g. "/v1/jobs/{id}" */
  uint64_t count[3][METRICS_CODES]; /* [method GET/POST/other][code index] */
  uint64_t bucket[METRICS_BUCKETS]; /* cumulative at render time, raw here */
  uint64_t total;
  double sum_s;
};

struct metrics {
  struct metrics_route routes[METRICS_MAX_ROUTES];
  unsigned nroutes;
  uint64_t started_ms;
};

void metrics_init(struct metrics *m, uint64_t now_ms);
/* Records one finished request. route_name must be a static string. */
void metrics_observe(struct metrics *m, const char *route_name, const char *method,
                     unsigned code, double seconds);
/* Appends the exposition text for HTTP metrics. 0 or -E2BIG/-ENOMEM. */
int metrics_render(const struct metrics *m, struct buf *out);

#endif
