/* Unit tests for daemon/jobcache.c: hits and misses, the fill race (a change announced
 * during a read voids its fill), the live switch, bounds in entries and bytes (least
 * recently used out first), lists dropped by any change, ETags and If-None-Match. */
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

#include "jobcache.h"

static const char *const A = "8c0d6b3e-1f2a-4b5c-9d8e-7f6a5b4c3d2e";
static const char *const B = "11111111-2222-4333-8444-555555555555";

static void put(struct jobcache *c, int is_list, const char *key, const char *body, long long owner)
{
  char etag[JOBCACHE_ETAG_LEN + 1];
  struct jobcache_ticket t = jobcache_ticket(c, is_list, key);
  jobcache_etag(body, strlen(body), etag);
  jobcache_put(c, &t, is_list, key, body, strlen(body), etag, owner);
}

/* The body cached under key, or NULL (static buffer). */
static const char *get(struct jobcache *c, int is_list, const char *key)
{
  static char out[256];
  struct jobcache_hit h;
  if (jobcache_get(c, is_list, key, NULL, &h) != 1)
    return NULL;
  snprintf(out, sizeof(out), "%s", h.body);
  assert_int_equal(h.len, strlen(h.body));
  free(h.body);
  return out;
}

static int setup(void **state)
{
  struct jobcache *c = calloc(1, sizeof(*c));
  if (!c)
    return -1;
  jobcache_init(c, 100, 1u << 20);
  jobcache_set_live(c, 1);
  *state = c;
  return 0;
}

static int teardown(void **state)
{
  jobcache_destroy(*state);
  free(*state);
  return 0;
}

static void test_hit_miss_owner_etag(void **state)
{
  struct jobcache *c = *state;
  struct jobcache_hit h;
  char etag[JOBCACHE_ETAG_LEN + 1];
  assert_null(get(c, 0, A));
  put(c, 0, A, "{\"id\":1}", 7);
  assert_int_equal(jobcache_get(c, 0, A, NULL, &h), 1);
  assert_string_equal(h.body, "{\"id\":1}");
  assert_int_equal(h.owner, 7);
  jobcache_etag("{\"id\":1}", 8, etag);
  assert_string_equal(h.etag, etag);
  assert_int_equal(strlen(etag), JOBCACHE_ETAG_LEN);
  assert_true(etag[0] == '"' && etag[JOBCACHE_ETAG_LEN - 1] == '"');
  free(h.body);
  /* a request that names the tag gets no copy: its answer is a 304 */
  assert_int_equal(jobcache_get(c, 0, A, etag, &h), 1);
  assert_null(h.body);
  assert_string_equal(h.etag, etag);
  assert_int_equal(jobcache_get(c, 0, A, "\"other\"", &h), 1);
  assert_non_null(h.body);
  free(h.body);
  /* a job key and a list key never meet */
  assert_null(get(c, 1, A));
  assert_null(get(c, 0, B));
  /* a newer fill replaces the entry */
  put(c, 0, A, "{\"id\":2}", 7);
  assert_string_equal(get(c, 0, A), "{\"id\":2}");
  assert_int_equal(c->st.entries, 1);
  assert_true(c->st.hits >= 2 && c->st.misses >= 3);
}

static void test_change_during_read_voids_fill(void **state)
{
  struct jobcache *c = *state;
  struct jobcache_ticket t;
  /* reader: ticket, then (in real life) the query; meanwhile the job changes */
  t = jobcache_ticket(c, 0, A);
  jobcache_invalidate(c, A);
  jobcache_put(c, &t, 0, A, "old", 3, "\"x\"", 0);
  assert_null(get(c, 0, A));
  assert_int_equal(c->st.stale_fills, 1);
  /* a change to another job does not void it (unless they share a generation slot) */
  t = jobcache_ticket(c, 0, A);
  jobcache_invalidate(c, B);
  jobcache_put(c, &t, 0, A, "fresh", 5, "\"y\"", 0);
  assert_string_equal(get(c, 0, A), "fresh");
  /* ... but any change voids a list fill */
  t = jobcache_ticket(c, 1, "*0||-|-");
  jobcache_invalidate(c, B);
  jobcache_put(c, &t, 1, "*0||-|-", "[]", 2, "\"z\"", 0);
  assert_null(get(c, 1, "*0||-|-"));
  /* an invalidation removes the entry itself */
  jobcache_invalidate(c, A);
  assert_null(get(c, 0, A));
}

static void test_lists_dropped_by_any_change(void **state)
{
  struct jobcache *c = *state;
  put(c, 1, "l1", "[1]", 0);
  put(c, 1, "l2", "[2]", 0);
  put(c, 0, A, "a", 0);
  assert_string_equal(get(c, 1, "l1"), "[1]");
  jobcache_invalidate(c, B); /* a job nobody cached: every list goes, A stays */
  assert_null(get(c, 1, "l1"));
  assert_null(get(c, 1, "l2"));
  assert_string_equal(get(c, 0, A), "a");
  assert_int_equal(c->st.entries, 1);
  jobcache_invalidate(c, "*");
  assert_null(get(c, 0, A));
  assert_int_equal(c->st.entries, 0);
  assert_int_equal(c->st.bytes, 0);
}

static void test_live_switch(void **state)
{
  struct jobcache *c = *state;
  struct jobcache_ticket t;
  put(c, 0, A, "a", 0);
  t = jobcache_ticket(c, 0, B);
  jobcache_set_live(c, 0); /* the NOTIFY channel went down */
  assert_null(get(c, 0, A));
  put(c, 0, A, "a", 0); /* no fills while down */
  assert_null(get(c, 0, A));
  jobcache_set_live(c, 1);
  jobcache_put(c, &t, 0, B, "b", 1, "\"b\"", 0); /* read began before: dropped */
  assert_null(get(c, 0, B));
  put(c, 0, A, "a", 0);
  assert_string_equal(get(c, 0, A), "a");
}

static void test_bounds_lru(void **state)
{
  struct jobcache *c = *state;
  char key[64], body[64];
  jobcache_destroy(c);
  jobcache_init(c, 3, 1u << 20);
  jobcache_set_live(c, 1);
  for (int i = 0; i < 3; i++) {
    snprintf(key, sizeof(key), "job-%d", i);
    put(c, 0, key, key, 0);
  }
  assert_non_null(get(c, 0, "job-0")); /* job-0 is now the most recently used */
  put(c, 0, "job-3", "job-3", 0);
  assert_int_equal(c->st.entries, 3);
  assert_null(get(c, 0, "job-1")); /* the least recently used went */
  assert_non_null(get(c, 0, "job-0"));
  assert_non_null(get(c, 0, "job-2"));
  assert_non_null(get(c, 0, "job-3"));
  assert_int_equal(c->st.evictions, 1);
  /* bytes: a cache of 1 MiB keeps no more than 1 MiB */
  jobcache_destroy(c);
  jobcache_init(c, 100000, 1u << 20);
  jobcache_set_live(c, 1);
  memset(body, 'x', sizeof(body) - 1);
  body[sizeof(body) - 1] = '\0';
  for (int i = 0; i < 20000; i++) {
    snprintf(key, sizeof(key), "k%d", i);
    put(c, 0, key, body, 0);
  }
  assert_true(c->st.bytes <= (1u << 20));
  assert_true(c->st.entries < 20000 && c->st.entries > 1000);
  assert_non_null(get(c, 0, "k19999"));
  assert_null(get(c, 0, "k0"));
}

static void test_oversized_and_off(void **state)
{
  struct jobcache *c = *state;
  struct jobcache_ticket t;
  char *big = malloc(JOBCACHE_ENTRY_MAX + 2);
  assert_non_null(big);
  memset(big, 'y', JOBCACHE_ENTRY_MAX + 1);
  big[JOBCACHE_ENTRY_MAX + 1] = '\0';
  t = jobcache_ticket(c, 0, A);
  jobcache_put(c, &t, 0, A, big, JOBCACHE_ENTRY_MAX + 1, "\"b\"", 0);
  assert_null(get(c, 0, A));
  free(big);
  /* max_entries 0: off */
  jobcache_destroy(c);
  jobcache_init(c, 0, 1u << 20);
  jobcache_set_live(c, 1);
  put(c, 0, A, "a", 0);
  assert_null(get(c, 0, A));
}

static void test_if_none_match(void **state)
{
  const char *e = "\"0123456789abcdef\"";
  (void)state;
  assert_true(jobcache_etag_matches("\"0123456789abcdef\"", e));
  assert_true(jobcache_etag_matches("W/\"0123456789abcdef\"", e));
  assert_true(jobcache_etag_matches("\"x\", \"0123456789abcdef\"", e));
  assert_true(jobcache_etag_matches("\"x\",W/\"0123456789abcdef\" ", e));
  assert_true(jobcache_etag_matches("*", e));
  assert_false(jobcache_etag_matches("", e));
  assert_false(jobcache_etag_matches(NULL, e));
  assert_false(jobcache_etag_matches("0123456789abcdef", e)); /* unquoted */
  assert_false(jobcache_etag_matches("\"0123456789abcde\"", e));
  assert_false(jobcache_etag_matches("\"0123456789abcdef0\"", e));
  assert_false(jobcache_etag_matches(",,, ", e));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_hit_miss_owner_etag, setup, teardown),
    cmocka_unit_test_setup_teardown(test_change_during_read_voids_fill, setup, teardown),
    cmocka_unit_test_setup_teardown(test_lists_dropped_by_any_change, setup, teardown),
    cmocka_unit_test_setup_teardown(test_live_switch, setup, teardown),
    cmocka_unit_test_setup_teardown(test_bounds_lru, setup, teardown),
    cmocka_unit_test_setup_teardown(test_oversized_and_off, setup, teardown),
    cmocka_unit_test(test_if_none_match),
  };
  return cmocka_run_group_tests_name("jobcache", tests, NULL, NULL);
}
