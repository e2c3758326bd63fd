/* Unit tests for common/db.c's prepared statements, against a real PostgreSQL named by
 * KOPT_TEST_DATABASE_URL (tests/integration/test_db_prepared.py runs this binary with a
 * fresh database; without the variable those cases are skipped). A statement is prepared
 * once per pool connection; a session that lost it (DEALLOCATE ALL / DISCARD ALL, as a
 * connection pooler sends) gets it prepared again: at once outside a transaction, by
 * running the transaction again (-ESTALE) inside one; a connection whose backend was
 * terminated is reset at the next acquire and prepares afresh. */
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
#include <unistd.h>

#include "db.h"

#define TEST_ERR_MAX 512
#define TEST_WAIT_MS 5000 /* for a terminated backend's EOF to reach the socket */

static const struct db_stmt add_one = { "kopt_test_add_one", "SELECT $1::int + 1", 1 };
static const struct db_stmt times_two = { "kopt_test_times_two", "SELECT $1::int * 2", 1 };

struct fixture {
  struct db_pool pool;
  PGconn *c; /* acquired from pool */
};

static const char *test_url(void) { return getenv("KOPT_TEST_DATABASE_URL"); }

static int setup(void **state)
{
  struct fixture *f = calloc(1, sizeof(*f));
  char err[TEST_ERR_MAX];
  if (!f)
    return -1;
  if (db_pool_init(&f->pool, test_url(), 1, err, sizeof(err))) {
    fprintf(stderr, "db_pool_init: %s\n", err);
    free(f);
    return -1;
  }
  f->c = db_pool_acquire(&f->pool, err, sizeof(err));
  *state = f;
  return f->c ? 0 : -1;
}

static int teardown(void **state)
{
  struct fixture *f = *state;
  if (f) {
    if (f->c)
      db_pool_release(&f->pool, f->c);
    db_pool_close(&f->pool);
    free(f);
  }
  return 0;
}

/* Runs s with the one parameter n and returns the integer it answers; fails the test on
 * any error. */
static long run_int(struct fixture *f, const struct db_stmt *s, int n)
{
  char arg[16], err[TEST_ERR_MAX];
  const char *params[1] = { arg };
  PGresult *res;
  long v;
  int rc;
  snprintf(arg, sizeof(arg), "%d", n);
  rc = db_pool_exec(&f->pool, f->c, s, PGRES_TUPLES_OK, params, &res, err, sizeof(err));
  if (rc)
    fail_msg("db_pool_exec(%s) = %d: %s", s->name, rc, err);
  v = atol(PQgetvalue(res, 0, 0));
  PQclear(res);
  return v;
}

static unsigned long long prepares(struct fixture *f, unsigned long long *lost)
{
  unsigned long long n, r;
  db_pool_prepare_counts(&f->pool, &n, &r);
  if (lost)
    *lost = r;
  return n;
}

/* How many statements named name this connection's session has prepared. */
static long session_has(struct fixture *f, const char *name)
{
  const char *params[1] = { name };
  char err[TEST_ERR_MAX];
  PGresult *res = db_exec(f->c, PGRES_TUPLES_OK, err, sizeof(err),
                          "SELECT count(*) FROM pg_prepared_statements WHERE name = $1", 1,
                          params);
  long n;
  assert_non_null(res);
  n = atol(PQgetvalue(res, 0, 0));
  PQclear(res);
  return n;
}

static void exec_ok(PGconn *c, const char *sql)
{
  PGresult *res = PQexec(c, sql);
  ExecStatusType st = PQresultStatus(res);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
    fail_msg("%s: %s", sql, PQresultErrorMessage(res));
  PQclear(res);
}

static void test_unreachable(void **state)
{
  struct db_pool p;
  char err[TEST_ERR_MAX] = "";
  (void)state;
  assert_int_equal(db_pool_init(&p, "host=127.0.0.1 port=1 connect_timeout=2", 2, err,
                                sizeof(err)),
                   -ECONNREFUSED);
  assert_true(err[0] != '\0');
}

static void test_prepared_once(void **state)
{
  struct fixture *f = *state;
  for (int i = 0; i < 5; i++)
    assert_int_equal(run_int(f, &add_one, i), i + 1);
  assert_int_equal(prepares(f, NULL), 1);
  assert_int_equal(session_has(f, add_one.name), 1);
  assert_int_equal(run_int(f, &times_two, 21), 42);
  assert_int_equal(run_int(f, &times_two, 4), 8);
  assert_int_equal(prepares(f, NULL), 2);
}

static void test_lost_outside_transaction(void **state)
{
  struct fixture *f = *state;
  unsigned long long again;
  assert_int_equal(run_int(f, &add_one, 1), 2);
  exec_ok(f->c, "DISCARD ALL"); /* what a pooler sends between clients */
  assert_int_equal(session_has(f, add_one.name), 0);
  assert_int_equal(run_int(f, &add_one, 2), 3);
  assert_int_equal(prepares(f, &again), 2);
  assert_int_equal(again, 1);
  assert_int_equal(session_has(f, add_one.name), 1);
}

static void test_lost_inside_transaction(void **state)
{
  struct fixture *f = *state;
  const char *params[1] = { "7" };
  char err[TEST_ERR_MAX];
  unsigned long long again;
  PGresult *res;
  assert_int_equal(run_int(f, &add_one, 1), 2);
  exec_ok(f->c, "DEALLOCATE ALL");
  exec_ok(f->c, "BEGIN");
  assert_int_equal(db_pool_exec(&f->pool, f->c, &add_one, PGRES_TUPLES_OK, params, &res, err,
                                sizeof(err)),
                   -ESTALE);
  assert_null(res);
  assert_non_null(strstr(err, "does not exist"));
  assert_int_equal(PQtransactionStatus(f->c), PQTRANS_INERROR);
  exec_ok(f->c, "ROLLBACK");
  /* the transaction again: prepared afresh, then it commits */
  exec_ok(f->c, "BEGIN");
  assert_int_equal(run_int(f, &add_one, 7), 8);
  exec_ok(f->c, "COMMIT");
  assert_int_equal(prepares(f, &again), 2);
  assert_int_equal(again, 1);
}

/* One statement of two dropped: the pool forgets both; the other, still there, is found
 * (42P05) and used, outside a transaction at once, inside one after a retry. */
static void test_one_of_two_lost(void **state)
{
  struct fixture *f = *state;
  const char *params[1] = { "5" };
  char err[TEST_ERR_MAX];
  PGresult *res;
  assert_int_equal(run_int(f, &add_one, 1), 2);
  assert_int_equal(run_int(f, &times_two, 1), 2);
  exec_ok(f->c, "DEALLOCATE kopt_test_add_one");
  assert_int_equal(run_int(f, &add_one, 2), 3);     /* 26000: prepared again */
  assert_int_equal(run_int(f, &times_two, 3), 6);   /* 42P05: there all along */
  assert_int_equal(prepares(f, NULL), 3);
  exec_ok(f->c, "DEALLOCATE kopt_test_add_one");
  assert_int_equal(run_int(f, &add_one, 2), 3);
  exec_ok(f->c, "BEGIN");
  assert_int_equal(db_pool_exec(&f->pool, f->c, &times_two, PGRES_TUPLES_OK, params, &res,
                                err, sizeof(err)),
                   -ESTALE);
  exec_ok(f->c, "ROLLBACK");
  exec_ok(f->c, "BEGIN");
  assert_int_equal(run_int(f, &times_two, 5), 10);
  exec_ok(f->c, "COMMIT");
}

/* The backend is terminated between uses: the next acquire resets the connection, and
 * the new session prepares what it runs. */
static void test_terminated_backend(void **state)
{
  struct fixture *f = *state;
  char pid[16], err[TEST_ERR_MAX];
  const char *params[1] = { pid };
  PGconn *killer = db_connect(test_url(), err, sizeof(err));
  PGresult *res;
  unsigned long long again;
  int waited = 0;

  assert_non_null(killer);
  assert_int_equal(run_int(f, &add_one, 1), 2);
  snprintf(pid, sizeof(pid), "%d", PQbackendPID(f->c));
  db_pool_release(&f->pool, f->c);
  f->c = NULL;
  res = db_exec(killer, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT pg_terminate_backend($1::int, 5000)", 1, params);
  assert_non_null(res);
  assert_string_equal(PQgetvalue(res, 0, 0), "t");
  PQclear(res);
  PQfinish(killer);
  /* The backend is gone; its EOF reaches our socket a moment later. */
  for (; waited < TEST_WAIT_MS; waited += 10) {
    f->c = db_pool_acquire(&f->pool, err, sizeof(err));
    assert_non_null(f->c);
    if (PQbackendPID(f->c) != atoi(pid))
      break;
    db_pool_release(&f->pool, f->c);
    f->c = NULL;
    usleep(10 * 1000);
  }
  assert_true(waited < TEST_WAIT_MS);
  assert_int_equal(session_has(f, add_one.name), 0);
  assert_int_equal(run_int(f, &add_one, 2), 3);
  assert_int_equal(prepares(f, &again), 2);
  assert_int_equal(again, 0); /* a reset the pool saw loses nothing it did not expect */
}

#define PG_TEST(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
  const struct CMUnitTest offline[] = { cmocka_unit_test(test_unreachable) };
  const struct CMUnitTest online[] = {
    PG_TEST(test_prepared_once),           PG_TEST(test_lost_outside_transaction),
    PG_TEST(test_lost_inside_transaction), PG_TEST(test_one_of_two_lost),
    PG_TEST(test_terminated_backend),
  };
  int rc = cmocka_run_group_tests_name("db", offline, NULL, NULL);
  if (!test_url()) {
    printf("db: KOPT_TEST_DATABASE_URL unset: the PostgreSQL cases run in the integration"
           " suite (test_db_prepared.py)\n");
    return rc;
  }
  return rc + cmocka_run_group_tests_name("db (PostgreSQL)", online, NULL, NULL);
}
