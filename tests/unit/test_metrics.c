/* Unit tests for daemon/metrics.c: counters by route/method/code and cumulative latency
 * histograms in Prometheus text format 0.0.4. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "metrics.h"

static const char *const bounds[METRICS_BUCKETS] = {
  "0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1",
  "2.5", "10"
};

struct fixture {
  struct metrics m;
  struct buf out;
};

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));
  if (!f)
    return -1;
  metrics_init(&f->m, 12345);
  buf_init(&f->out, 1u << 20);
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  buf_free(&f->out);
  free(f);
  return 0;
}

static const char *render(struct fixture *f)
{
  buf_reset(&f->out);
  assert_int_equal(metrics_render(&f->m, &f->out), 0);
  assert_non_null(f->out.data);
  assert_int_equal(f->out.data[f->out.len - 1], '\n');
  return f->out.data;
}

/* True when text holds line as a whole line. */
static int has_line(const char *text, const char *line)
{
  size_t n = strlen(line);
  for (const char *p = text; (p = strstr(p, line)) != NULL; p++)
    if ((p == text || p[-1] == '\n') && p[n] == '\n')
      return 1;
  return 0;
}

static void expect_line(const char *text, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void expect_line(const char *text, const char *fmt, ...)
{
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof(line), fmt, ap);
  va_end(ap);
  if (!has_line(text, line))
    fail_msg("missing line \"%s\" in:\n%s", line, text);
}

static int count_substr(const char *text, const char *s)
{
  int n = 0;
  for (const char *p = text; (p = strstr(p, s)) != NULL; p += strlen(s))
    n++;
  return n;
}

/* Asserts the cumulative counts of route's 13 buckets and +Inf. */
static void expect_buckets(const char *text, const char *route, const unsigned long long *cum,
                           unsigned long long inf)
{
  for (int b = 0; b < METRICS_BUCKETS; b++)
    expect_line(text, "kopt_http_request_duration_seconds_bucket{route=\"%s\",le=\"%s\"} %llu",
                route, bounds[b], cum[b]);
  expect_line(text, "kopt_http_request_duration_seconds_bucket{route=\"%s\",le=\"+Inf\"} %llu",
              route, inf);
  expect_line(text, "kopt_http_request_duration_seconds_count{route=\"%s\"} %llu", route, inf);
}

static void test_init(void **state)
{
  struct fixture *f = *state;
  assert_int_equal(f->m.nroutes, 0);
  assert_int_equal(f->m.started_ms, 12345);
  /* Re-init clears. */
  metrics_observe(&f->m, "/healthz", "GET", 200, 0.001);
  metrics_init(&f->m, 7);
  assert_int_equal(f->m.nroutes, 0);
  assert_int_equal(f->m.started_ms, 7);
}

static void test_render_empty(void **state)
{
  struct fixture *f = *state;
  const char *t = render(f);
  expect_line(t, "# TYPE kopt_http_requests_total counter");
  expect_line(t, "# TYPE kopt_http_request_duration_seconds histogram");
  assert_non_null(strstr(t, "# HELP kopt_http_requests_total "));
  assert_non_null(strstr(t, "# HELP kopt_http_request_duration_seconds "));
  assert_null(strstr(t, "kopt_http_requests_total{"));
  assert_null(strstr(t, "_bucket{"));
}

static void test_counters(void **state)
{
  struct fixture *f = *state;
  const char *t;
  for (int i = 0; i < 3; i++)
    metrics_observe(&f->m, "/v1/jobs/{id}", "GET", 200, 0.002);
  metrics_observe(&f->m, "/v1/jobs/{id}", "GET", 404, 0.002);
  metrics_observe(&f->m, "/v1/jobs", "POST", 201, 0.004);
  metrics_observe(&f->m, "/v1/jobs", "POST", 201, 0.004);
  metrics_observe(&f->m, "/v1/jobs", "POST", 400, 0.004);
  metrics_observe(&f->m, "/v1/jobs", "GET", 200, 0.004);
  metrics_observe(&f->m, "/v1/jobs", "DELETE", 405, 0.004);
  metrics_observe(&f->m, "/v1/jobs", "PUT", 405, 0.004);
  metrics_observe(&f->m, "/v1/jobs", "GET", 418, 0.004); /* not a tracked code */
  metrics_observe(&f->m, "/v1/jobs", "GET", 502, 0.004);
  t = render(f);
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs/{id}\",method=\"GET\",code=\"200\"} 3");
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs/{id}\",method=\"GET\",code=\"404\"} 1");
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs\",method=\"POST\",code=\"201\"} 2");
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs\",method=\"POST\",code=\"400\"} 1");
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs\",method=\"GET\",code=\"200\"} 1");
  /* Other methods share "other"; other codes share "other". */
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs\",method=\"other\",code=\"405\"} 2");
  expect_line(t, "kopt_http_requests_total{route=\"/v1/jobs\",method=\"GET\",code=\"other\"} 2");
  /* Zero counts are not printed. */
  assert_null(strstr(t, "route=\"/v1/jobs/{id}\",method=\"POST\""));
  assert_int_equal(count_substr(t, "kopt_http_requests_total{"), 7);
  assert_int_equal(f->m.nroutes, 2);
}

static void test_tracked_codes(void **state)
{
  struct fixture *f = *state;
  static const unsigned codes[] = { 200, 201, 204, 400, 401, 403, 404, 405, 409, 413, 415, 429,
                                    500, 503, 431 };
  const char *t;
  for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
    metrics_observe(&f->m, "/r", "GET", codes[i], 0.001);
  t = render(f);
  for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
    expect_line(t, "kopt_http_requests_total{route=\"/r\",method=\"GET\",code=\"%u\"} 1", codes[i]);
  assert_null(strstr(t, "code=\"other\""));
}

static void test_histogram_cumulative(void **state)
{
  struct fixture *f = *state;
  const char *t;
  /* One observation in each of a few buckets, some exactly on a bound (le is inclusive). */
  metrics_observe(&f->m, "/h", "GET", 200, 0.0001); /* le 0.0005 */
  metrics_observe(&f->m, "/h", "GET", 200, 0.0005); /* le 0.0005 (on the bound) */
  metrics_observe(&f->m, "/h", "GET", 200, 0.0007); /* le 0.001 */
  metrics_observe(&f->m, "/h", "GET", 200, 0.003);  /* le 0.005 */
  metrics_observe(&f->m, "/h", "GET", 200, 0.2);    /* le 0.25 */
  metrics_observe(&f->m, "/h", "GET", 200, 1.0);    /* le 1 (on the bound) */
  metrics_observe(&f->m, "/h", "GET", 200, 9.0);    /* le 10 */
  metrics_observe(&f->m, "/h", "GET", 200, 30.0);   /* +Inf only */
  t = render(f);
  {
    /*                                   .0005 .001 .0025 .005 .01 .025 .05 .1 .25 .5 1 2.5 10 */
    static const unsigned long long cum[METRICS_BUCKETS] = { 2, 3, 3, 4, 4, 4, 4, 4, 5, 5, 6, 6, 7 };
    expect_buckets(t, "/h", cum, 8);
  }
  expect_line(t, "kopt_http_request_duration_seconds_sum{route=\"/h\"} %.6f",
              0.0001 + 0.0005 + 0.0007 + 0.003 + 0.2 + 1.0 + 9.0 + 30.0);
  expect_line(t, "kopt_http_requests_total{route=\"/h\",method=\"GET\",code=\"200\"} 8");
  /* Rendering does not change the raw counts: a second render is the same. */
  {
    char *first = strdup(t);
    assert_string_equal(render(f), first);
    free(first);
  }
}

static void test_histogram_order_and_monotonic(void **state)
{
  struct fixture *f = *state;
  const char *t, *p;
  unsigned long long prev = 0, v;
  int seen = 0;
  for (int i = 0; i < 200; i++)
    metrics_observe(&f->m, "/m", "POST", 201, (double)i * 0.013);
  t = render(f);
  /* Buckets come in increasing le order, +Inf last, counts never decrease. */
  p = t;
  for (int b = 0; b <= METRICS_BUCKETS; b++) {
    char key[160];
    snprintf(key, sizeof(key), "kopt_http_request_duration_seconds_bucket{route=\"/m\",le=\"%s\"} ",
             b < METRICS_BUCKETS ? bounds[b] : "+Inf");
    p = strstr(p, key);
    assert_non_null(p);
    p += strlen(key);
    v = strtoull(p, NULL, 10);
    assert_true(v >= prev);
    prev = v;
    seen++;
  }
  assert_int_equal(seen, METRICS_BUCKETS + 1);
  assert_int_equal(prev, 200);
  assert_int_equal(count_substr(t, "_bucket{route=\"/m\""), METRICS_BUCKETS + 1);
}

static void test_routes_separate_histograms(void **state)
{
  struct fixture *f = *state;
  const char *t;
  char name_copy[32];
  static const unsigned long long a_cum[METRICS_BUCKETS] = { 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
  static const unsigned long long b_cum[METRICS_BUCKETS] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2 };
  metrics_observe(&f->m, "/a", "GET", 200, 0.001);
  metrics_observe(&f->m, "/b", "GET", 200, 2.0);
  /* A different pointer to the same text is the same route. */
  snprintf(name_copy, sizeof(name_copy), "/b");
  metrics_observe(&f->m, name_copy, "GET", 200, 2.5);
  assert_int_equal(f->m.nroutes, 2);
  t = render(f);
  expect_buckets(t, "/a", a_cum, 1);
  expect_buckets(t, "/b", b_cum, 2);
  expect_line(t, "kopt_http_requests_total{route=\"/b\",method=\"GET\",code=\"200\"} 2");
}

static void test_route_table_full(void **state)
{
  struct fixture *f = *state;
  static char names[METRICS_MAX_ROUTES + 4][24];
  const char *t;
  for (int i = 0; i < METRICS_MAX_ROUTES + 4; i++) {
    snprintf(names[i], sizeof(names[i]), "/route%d", i);
    metrics_observe(&f->m, names[i], "GET", 200, 0.01);
  }
  assert_int_equal(f->m.nroutes, METRICS_MAX_ROUTES);
  t = render(f);
  expect_line(t, "kopt_http_requests_total{route=\"/route%d\",method=\"GET\",code=\"200\"} 1",
              METRICS_MAX_ROUTES - 1);
  /* Routes past the table are dropped, not written over others. */
  assert_null(strstr(t, "/route24\""));
  assert_int_equal(count_substr(t, "kopt_http_requests_total{"), METRICS_MAX_ROUTES);
}

static void test_render_appends(void **state)
{
  struct fixture *f = *state;
  metrics_observe(&f->m, "/x", "GET", 200, 0.01);
  buf_reset(&f->out);
  assert_int_equal(buf_appends(&f->out, "# prefix\n"), 0);
  assert_int_equal(metrics_render(&f->m, &f->out), 0);
  assert_int_equal(strncmp(f->out.data, "# prefix\n# HELP ", 16), 0);
}

static void test_render_over_cap(void **state)
{
  struct fixture *f = *state;
  struct buf small;
  metrics_observe(&f->m, "/x", "GET", 200, 0.01);
  buf_init(&small, 200);
  assert_int_equal(metrics_render(&f->m, &small), -E2BIG);
  assert_true(small.len <= 200);
  buf_free(&small);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_init, setup, teardown),
    cmocka_unit_test_setup_teardown(test_render_empty, setup, teardown),
    cmocka_unit_test_setup_teardown(test_counters, setup, teardown),
    cmocka_unit_test_setup_teardown(test_tracked_codes, setup, teardown),
    cmocka_unit_test_setup_teardown(test_histogram_cumulative, setup, teardown),
    cmocka_unit_test_setup_teardown(test_histogram_order_and_monotonic, setup, teardown),
    cmocka_unit_test_setup_teardown(test_routes_separate_histograms, setup, teardown),
    cmocka_unit_test_setup_teardown(test_route_table_full, setup, teardown),
    cmocka_unit_test_setup_teardown(test_render_appends, setup, teardown),
    cmocka_unit_test_setup_teardown(test_render_over_cap, setup, teardown),
  };
  return cmocka_run_group_tests_name("metrics", tests, NULL, NULL);
}
