/* workers/deadline.c: each harness call's limit follows what was measured, within the floor
 * and the cap; a first load has its own default; the reason says how it was derived. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "deadline.h"

uint64_t ctx_now_ms(void);
int64_t ctx_wall_ms(void);
uint64_t ctx_now_ms(void) { return 0; }
int64_t ctx_wall_ms(void) { return 0; }

static json_t *js(const char *text)
{
  json_error_t e;
  json_t *v = json_loads(text, 0, &e);
  assert_non_null(v);
  return v;
}

/* An interp job as the harness reports it: load 2 s (3 correctness cases, 2 benchmark
 * cases), validation 1.5 s per case, timing 4 s per case with medians of 200 ms. */
static void measured(struct deadline *d)
{
  json_t *load = js("{\"elapsed_s\": 2.0, \"correctness_cases\": [0, 1, 2],"
                    " \"benchmark_cases\": [0, 3]}");
  json_t *val = js("{\"elapsed_s\": 4.5, \"cases\": [{}, {}, {}], \"passed\": true}");
  json_t *bench = js("{\"elapsed_s\": 8.0, \"cases\": [{\"kernel\": {\"median_ms\": 200},"
                     " \"reference\": {\"median_ms\": 1}}, {\"kernel\": {\"median_ms\": 150}}]}");
  deadline_init(d, 30, 900, 120, "interp");
  deadline_observe(d, "load", NULL, load);
  deadline_observe(d, "validate", NULL, val);
  deadline_observe(d, "bench", NULL, bench);
  json_decref(load);
  json_decref(val);
  json_decref(bench);
}

static void test_first_load_default_and_cap(void **state)
{
  struct deadline d;
  char why[DEADLINE_WHY_MAX];
  (void)state;
  deadline_init(&d, 30, 900, 120, "interp");
  assert_int_equal(deadline_limit(&d, "load", NULL, why, sizeof(why)), 120);
  assert_non_null(strstr(why, "load default of 120 s"));
  /* a cap below the load default wins, and the reason names it */
  deadline_init(&d, 30, 20, 120, "interp");
  assert_int_equal(deadline_limit(&d, "load", NULL, why, sizeof(why)), 20);
  assert_non_null(strstr(why, "cap"));
  /* defaults when nothing is configured */
  deadline_init(&d, 0, 0, 0, "cuda");
  assert_int_equal(deadline_limit(&d, "load", NULL, NULL, 0), DEADLINE_LOAD_S);
  assert_int_equal(d.cap_s, DEADLINE_CAP_S);
  assert_int_equal(d.floor_s, DEADLINE_FLOOR_S);
  /* no cap beyond what the harness accepts as a request's timeout_s */
  deadline_init(&d, 30, 86400, 120, "cuda");
  assert_int_equal(d.cap_s, DEADLINE_CAP_MAX_S);
}

static void test_floor_applies_to_quick_work(void **state)
{
  struct deadline d;
  char why[DEADLINE_WHY_MAX];
  json_t *req = js("{\"op\": \"validate\"}");
  (void)state;
  deadline_init(&d, 30, 900, 120, "interp");
  {
    json_t *load = js("{\"elapsed_s\": 0.5, \"correctness_cases\": [0]}");
    deadline_observe(&d, "load", NULL, load);
    json_decref(load);
  }
  /* 5 x (1 case x 0.5 s) = 2.5 s: the floor */
  assert_int_equal(deadline_limit(&d, "validate", req, why, sizeof(why)), 30);
  assert_non_null(strstr(why, "raised to the floor"));
  json_decref(req);
}

static void test_scales_with_measured_work(void **state)
{
  struct deadline d;
  char why[DEADLINE_WHY_MAX];
  json_t *v = js("{\"op\": \"validate\"}");
  json_t *v10 = js("{\"op\": \"validate\", \"cases\": [0,1,2,3,4,5,6,7,8,9]}");
  json_t *b = js("{\"op\": \"bench\"}");
  (void)state;
  measured(&d);
  assert_true(d.val_case > 1.49 && d.val_case < 1.51);
  assert_true(d.bench_case > 3.99 && d.bench_case < 4.01);
  /* 3 cases x 1.5 s = 4.5 s expected: 5 x 4.5 = 22.5 -> the floor of 30 */
  assert_int_equal(deadline_limit(&d, "validate", v, NULL, 0), 30);
  /* 10 cases x 1.5 s = 15 s: 75 s */
  assert_int_equal(deadline_limit(&d, "validate", v10, why, sizeof(why)), 75);
  assert_non_null(strstr(why, "10 cases x 1.50 s per validated case"));
  /* 2 cases x 4 s = 8 s: 40 s */
  assert_int_equal(deadline_limit(&d, "bench", b, NULL, 0), 40);
  /* a reload: 5 x the first load's 2 s, raised to the floor */
  assert_int_equal(deadline_limit(&d, "load", NULL, NULL, 0), 30);
  json_decref(v);
  json_decref(v10);
  json_decref(b);
}

static void test_candidates_pay_for_a_module(void **state)
{
  struct deadline d;
  json_t *v = js("{\"op\": \"validate\", \"candidate_source\": \"x\", \"cases\": [0,1,2,3,4,5,6,7,8,9]}");
  (void)state;
  measured(&d);
  /* 10 x 1.5 + 2 s (a module like the load's) = 17 s: 85 s */
  assert_int_equal(deadline_limit(&d, "validate", v, NULL, 0), 85);
  json_decref(v);
}

static void test_sweep_grows_with_candidates(void **state)
{
  struct deadline d;
  char one[64 * 40], many[64 * 40];
  json_t *s1, *s40;
  unsigned l1, l40;
  size_t o1 = 0, o40 = 0;
  (void)state;
  measured(&d);
  o1 += (size_t)snprintf(one + o1, sizeof(one) - o1, "{\"op\":\"sweep\",\"candidates\":[{}]}");
  o40 += (size_t)snprintf(many + o40, sizeof(many) - o40, "{\"op\":\"sweep\",\"candidates\":[");
  for (int i = 0; i < 40; i++)
    o40 += (size_t)snprintf(many + o40, sizeof(many) - o40, "%s{}", i ? "," : "");
  snprintf(many + o40, sizeof(many) - o40, "]}");
  s1 = js(one);
  s40 = js(many);
  l1 = deadline_limit(&d, "sweep", s1, NULL, 0);
  l40 = deadline_limit(&d, "sweep", s40, NULL, 0);
  assert_true(l40 > l1);
  /* per candidate: 1.5 s screen + 0.04 s + 3 forwards x 0.201 s ~ 2.14 s; 40 of them plus
   * the base (2 s load + 4 s timing): ~ 91.7 s expected, 459 s */
  assert_in_range(l40, 440, 480);
  assert_true(l40 <= d.cap_s);
  json_decref(s1);
  json_decref(s40);
}

static void test_compile_and_profile_follow_what_was_seen(void **state)
{
  struct deadline d;
  char why[DEADLINE_WHY_MAX];
  json_t *c = js("{\"op\": \"compile\"}");
  json_t *pp = js("{\"op\": \"compile\", \"per_pass\": true}");
  json_t *res = js("{\"elapsed_s\": 10.0}");
  json_t *err = js("{\"elapsed_s\": 500.0, \"error\": \"x\"}");
  (void)state;
  measured(&d);
  /* first compile: 30 s + the 2 s load, x 5 */
  assert_int_equal(deadline_limit(&d, "compile", c, why, sizeof(why)), 160);
  assert_non_null(strstr(why, "first compile"));
  deadline_observe(&d, "compile", c, res);
  deadline_observe(&d, "compile", c, err); /* a failed compile measures nothing */
  assert_int_equal(deadline_limit(&d, "compile", c, NULL, 0), 50);
  assert_int_equal(deadline_limit(&d, "compile", pp, NULL, 0), 150);
  assert_int_equal(deadline_limit(&d, "profile", NULL, NULL, 0), 310);
  json_decref(c);
  json_decref(pp);
  json_decref(res);
  json_decref(err);
}

static void test_cap_and_backstop(void **state)
{
  struct deadline d;
  char why[DEADLINE_WHY_MAX];
  json_t *v = js("{\"op\": \"validate\", \"cases\": [0,1,2,3,4,5,6,7,8,9]}");
  (void)state;
  measured(&d);
  d.cap_s = 60;
  assert_int_equal(deadline_limit(&d, "validate", v, why, sizeof(why)), 60);
  assert_non_null(strstr(why, "lowered to the cap"));
  /* room for a harness restart and a reload beyond the limit */
  assert_true(deadline_backstop(&d, 60) >= 60 + DEADLINE_START_S);
  json_decref(v);
}

static void test_candidate_does_not_move_the_yardstick(void **state)
{
  struct deadline d;
  json_t *req = js("{\"candidate_source\": \"x\"}");
  json_t *slow = js("{\"elapsed_s\": 300.0, \"cases\": [{}]}");
  (void)state;
  measured(&d);
  deadline_observe(&d, "validate", req, slow);
  assert_true(d.val_case > 1.49 && d.val_case < 1.51);
  json_decref(req);
  json_decref(slow);
}

static void test_from_baseline(void **state)
{
  struct deadline d;
  json_t *b = js("{\"load\": {\"elapsed_s\": 3.0, \"correctness_cases\": [0],"
                 " \"benchmark_cases\": [0]},"
                 " \"validate\": {\"elapsed_s\": 2.0, \"cases\": [{}]},"
                 " \"bench\": {\"elapsed_s\": 6.0, \"cases\": [{\"kernel\": {\"median_ms\": 1}}]},"
                 " \"compile\": {\"error\": \"no\"}, \"profile\": {\"available\": false}}");
  (void)state;
  deadline_init(&d, 1, 900, 120, "cuda");
  deadline_from_baseline(&d, b);
  assert_true(d.load > 2.99 && d.val_case > 1.99 && d.bench_case > 5.99);
  assert_true(d.compile == 0);
  assert_int_equal(d.ncorr, 1);
  /* a resumed job's reload is derived, not the first-load default */
  assert_int_equal(deadline_limit(&d, "load", NULL, NULL, 0), 15);
  json_decref(b);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_first_load_default_and_cap),
    cmocka_unit_test(test_floor_applies_to_quick_work),
    cmocka_unit_test(test_scales_with_measured_work),
    cmocka_unit_test(test_candidates_pay_for_a_module),
    cmocka_unit_test(test_sweep_grows_with_candidates),
    cmocka_unit_test(test_compile_and_profile_follow_what_was_seen),
    cmocka_unit_test(test_cap_and_backstop),
    cmocka_unit_test(test_candidate_does_not_move_the_yardstick),
    cmocka_unit_test(test_from_baseline),
  };
  return cmocka_run_group_tests_name("deadline", tests, NULL, NULL);
}
