#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"

/* Server NOTICEs ("relation already exists, skipping") go to the debug log, not raw stderr. */
static void db_notice(void *arg, const char *message)
{
  char q[512];
  (void)arg;
  log_debug("db.notice", "msg=%s", log_quote(q, sizeof(q), message));
}

PGconn *db_connect(const char *conninfo, char *err, size_t errlen)
{
  PGconn *c = PQconnectdb(conninfo);
  if (!c) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  if (PQstatus(c) != CONNECTION_OK) {
    char *m = PQerrorMessage(c);
    size_t n;
    snprintf(err, errlen, "%s", m);
    n = strlen(err);
    while (n && (err[n - 1] == '\n' || err[n - 1] == ' '))
      err[--n] = '\0';
    PQfinish(c);
    return NULL;
  }
  PQsetNoticeProcessor(c, db_notice, NULL);
  /* Nothing the daemon runs should take long; a stuck statement must not hold a pool slot. */
  PQclear(PQexec(c, "SET statement_timeout = '30s'; SET application_name = 'koptd'"));
  return c;
}

int db_pool_init(struct db_pool *p, const char *conninfo, unsigned size, char *err,
                 size_t errlen)
{
  int rc = 0;
  memset(p, 0, sizeof(*p));
  p->conninfo = strdup(conninfo);
  p->conns = calloc(size, sizeof(*p->conns));
  p->busy = calloc(size, sizeof(*p->busy));
  p->size = size;
  if (!p->conninfo || !p->conns || !p->busy) {
    rc = -ENOMEM;
    goto out;
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  /* Only the first is opened now; others open on first use, so start-up stays fast. */
  p->conns[0] = db_connect(conninfo, err, errlen);
  if (!p->conns[0])
    rc = -ECONNREFUSED;
out:
  if (rc) {
    free(p->conninfo);
    free(p->conns);
    free(p->busy);
    memset(p, 0, sizeof(*p));
  }
  return rc;
}

PGconn *db_pool_acquire(struct db_pool *p, char *err, size_t errlen)
{
  unsigned slot = 0;
  PGconn *c;

  pthread_mutex_lock(&p->mu);
  for (;;) {
    unsigned i;
    for (i = 0; i < p->size; i++)
      if (!p->busy[i])
        break;
    if (i < p->size) {
      slot = i;
      break;
    }
    pthread_cond_wait(&p->cv, &p->mu);
  }
  p->busy[slot] = 1;
  c = p->conns[slot];
  pthread_mutex_unlock(&p->mu);

  if (c && PQstatus(c) != CONNECTION_OK) {
    PQreset(c);
    if (PQstatus(c) != CONNECTION_OK) {
      PQfinish(c);
      c = NULL;
    }
  }
  if (!c)
    c = db_connect(p->conninfo, err, errlen);
  pthread_mutex_lock(&p->mu);
  p->conns[slot] = c;
  if (!c) {
    p->busy[slot] = 0;
    pthread_cond_signal(&p->cv);
  }
  pthread_mutex_unlock(&p->mu);
  return c;
}

void db_pool_release(struct db_pool *p, PGconn *c)
{
  pthread_mutex_lock(&p->mu);
  for (unsigned i = 0; i < p->size; i++) {
    if (p->conns[i] == c && p->busy[i]) {
      /* A connection left inside a transaction by an error path must not leak it. */
      if (PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(PQexec(c, "ROLLBACK"));
      p->busy[i] = 0;
      break;
    }
  }
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

void db_pool_close(struct db_pool *p)
{
  if (!p->conns)
    return;
  for (unsigned i = 0; i < p->size; i++)
    if (p->conns[i])
      PQfinish(p->conns[i]);
  free(p->conns);
  free(p->busy);
  free(p->conninfo);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  memset(p, 0, sizeof(*p));
}

PGresult *db_exec(PGconn *c, ExecStatusType want, char *err, size_t errlen, const char *sql,
                  int nparams, const char *const *params)
{
  PGresult *r = PQexecParams(c, sql, nparams, NULL, params, NULL, NULL, 0);
  if (PQresultStatus(r) != want) {
    const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
    size_t n;
    snprintf(err, errlen, "%s", m && *m ? m : "query failed");
    n = strlen(err);
    while (n && err[n - 1] == '\n')
      err[--n] = '\0';
    PQclear(r);
    return NULL;
  }
  return r;
}

int db_conn_broken(PGconn *c) { return PQstatus(c) != CONNECTION_OK; }
