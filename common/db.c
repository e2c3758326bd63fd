#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"

#define DB_IDLE_READS_MAX 4 /* reads of what an idle connection was sent (db_read_idle) */

/* Server NOTICEs ("relation already exists, skipping") go to the debug log, not raw stderr. */
static void db_notice(void *arg, const char *message)
{
  char q[512];
  (void)arg;
  log_debug("db.notice", "msg=%s", log_quote(q, sizeof(q), message));
}

/* Settings of a new session, again after each PQreset (which starts one). */
static void db_session_setup(PGconn *c)
{
  /* Nothing the daemon runs should take long; a stuck statement must not hold a pool slot. */
  PQclear(PQexec(c, "SET statement_timeout = '30s'; SET application_name = 'koptd'"));
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
  db_session_setup(c);
  return c;
}

int db_pool_init(struct db_pool *p, const char *conninfo, unsigned size, char *err,
                 size_t errlen)
{
  int rc = 0;
  memset(p, 0, sizeof(*p));
  p->conninfo = strdup(conninfo);
  p->slots = calloc(size, sizeof(*p->slots));
  p->size = size;
  if (!p->conninfo || !p->slots) {
    rc = -ENOMEM;
    goto out;
  }
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->cv, NULL);
  /* Only the first is opened now; others open on first use, so start-up stays fast. */
  p->slots[0].conn = db_connect(conninfo, err, errlen);
  if (!p->slots[0].conn)
    rc = -ECONNREFUSED;
out:
  if (rc) {
    free(p->conninfo);
    free(p->slots);
    memset(p, 0, sizeof(*p));
  }
  return rc;
}

/* A session the server ended while the connection sat idle (PostgreSQL restarted, the
 * backend was terminated) left its goodbye and then EOF in the socket. Reading what is
 * there, without waiting, marks the connection bad now, so the pool resets it before use
 * rather than failing the request's first statement. PQconsumeInput reads once per call:
 * the goodbye, then the EOF. A healthy idle connection costs one poll(). */
static void db_read_idle(PGconn *c)
{
  struct pollfd pfd = { .fd = PQsocket(c), .events = POLLIN };
  for (int i = 0; i < DB_IDLE_READS_MAX && PQstatus(c) == CONNECTION_OK; i++) {
    if (poll(&pfd, 1, 0) != 1 || !PQconsumeInput(c))
      break;
  }
}

PGconn *db_pool_acquire(struct db_pool *p, char *err, size_t errlen)
{
  unsigned slot = 0;
  PGconn *c;

  pthread_mutex_lock(&p->mu);
  for (;;) {
    unsigned i;
    for (i = 0; i < p->size; i++)
      if (!p->slots[i].busy)
        break;
    if (i < p->size) {
      slot = i;
      break;
    }
    pthread_cond_wait(&p->cv, &p->mu);
  }
  p->slots[slot].busy = 1;
  c = p->slots[slot].conn;
  pthread_mutex_unlock(&p->mu);

  /* The slot is ours now: its prepared list is touched without the lock. A reset or a new
   * connection is a new session, which has prepared nothing. */
  if (c)
    db_read_idle(c);
  if (c && PQstatus(c) != CONNECTION_OK) {
    p->slots[slot].nprepared = 0;
    PQreset(c);
    if (PQstatus(c) != CONNECTION_OK) {
      PQfinish(c);
      c = NULL;
    } else {
      db_session_setup(c);
    }
  }
  if (!c) {
    p->slots[slot].nprepared = 0;
    c = db_connect(p->conninfo, err, errlen);
  }
  pthread_mutex_lock(&p->mu);
  p->slots[slot].conn = c;
  if (!c) {
    p->slots[slot].busy = 0;
    pthread_cond_signal(&p->cv);
  }
  pthread_mutex_unlock(&p->mu);
  return c;
}

void db_pool_release(struct db_pool *p, PGconn *c)
{
  pthread_mutex_lock(&p->mu);
  for (unsigned i = 0; i < p->size; i++) {
    if (p->slots[i].conn == c && p->slots[i].busy) {
      /* A connection left inside a transaction by an error path must not leak it. */
      if (PQtransactionStatus(c) != PQTRANS_IDLE)
        PQclear(PQexec(c, "ROLLBACK"));
      p->slots[i].busy = 0;
      break;
    }
  }
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
}

void db_pool_close(struct db_pool *p)
{
  if (!p->slots)
    return;
  for (unsigned i = 0; i < p->size; i++)
    if (p->slots[i].conn)
      PQfinish(p->slots[i].conn);
  free(p->slots);
  free(p->conninfo);
  pthread_mutex_destroy(&p->mu);
  pthread_cond_destroy(&p->cv);
  memset(p, 0, sizeof(*p));
}

/* Copies the failure of r (or of the connection when r is NULL) into err, without the
 * trailing newline libpq adds. */
static void db_error_text(PGconn *c, const PGresult *r, char *err, size_t errlen)
{
  const char *m = r ? PQresultErrorMessage(r) : PQerrorMessage(c);
  size_t n;
  snprintf(err, errlen, "%s", m && *m ? m : "query failed");
  n = strlen(err);
  while (n && err[n - 1] == '\n')
    err[--n] = '\0';
}

PGresult *db_exec(PGconn *c, ExecStatusType want, char *err, size_t errlen, const char *sql,
                  int nparams, const char *const *params)
{
  PGresult *r = PQexecParams(c, sql, nparams, NULL, params, NULL, NULL, 0);
  if (PQresultStatus(r) != want) {
    db_error_text(c, r, err, errlen);
    PQclear(r);
    return NULL;
  }
  return r;
}

int db_conn_broken(PGconn *c) { return PQstatus(c) != CONNECTION_OK; }

/* ------------------------------------------------------------ prepared statements */

#define DB_SQLSTATE_NO_STATEMENT "26000"        /* invalid_sql_statement_name */
#define DB_SQLSTATE_DUPLICATE_STATEMENT "42P05" /* duplicate_prepared_statement */

/* The slot holding c, which the calling thread has acquired; NULL if c is not one of p's. */
static struct db_slot *db_slot_of(struct db_pool *p, PGconn *c)
{
  struct db_slot *sl = NULL;
  pthread_mutex_lock(&p->mu);
  for (unsigned i = 0; i < p->size && !sl; i++)
    if (p->slots[i].conn == c && p->slots[i].busy)
      sl = &p->slots[i];
  pthread_mutex_unlock(&p->mu);
  return sl;
}

static int db_slot_has(const struct db_slot *sl, const struct db_stmt *s)
{
  for (unsigned i = 0; i < sl->nprepared; i++)
    if (sl->prepared[i] == s)
      return 1;
  return 0;
}

static int db_sqlstate_is(const PGresult *r, const char *code)
{
  const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
  return st && strcmp(st, code) == 0;
}

/* Prepares s on the slot's connection and records it. 0; -ENOSPC when the slot's list is
 * full (run s unprepared); -ESTALE when the session had it already (42P05: the list was
 * emptied after another statement went missing) inside a transaction, which that error
 * aborted; -EIO with err filled. */
static int db_prepare(struct db_pool *p, struct db_slot *sl, const struct db_stmt *s,
                      char *err, size_t errlen)
{
  PGresult *r;
  int rc = 0;
  if (sl->nprepared == DB_PREPARED_MAX)
    return -ENOSPC;
  r = PQprepare(sl->conn, s->name, s->sql, s->nparams, NULL);
  if (PQresultStatus(r) == PGRES_COMMAND_OK) {
    pthread_mutex_lock(&p->mu);
    p->prepares++;
    pthread_mutex_unlock(&p->mu);
  } else if (!db_sqlstate_is(r, DB_SQLSTATE_DUPLICATE_STATEMENT)) {
    db_error_text(sl->conn, r, err, errlen);
    rc = -EIO;
    goto out;
  } else if (PQtransactionStatus(sl->conn) != PQTRANS_IDLE) {
    db_error_text(sl->conn, r, err, errlen);
    rc = -ESTALE;
  }
  sl->prepared[sl->nprepared++] = s; /* prepared now, or found there already (42P05) */
out:
  PQclear(r);
  return rc;
}

int db_pool_exec(struct db_pool *p, PGconn *c, const struct db_stmt *s, ExecStatusType want,
                 const char *const *params, PGresult **out, char *err, size_t errlen)
{
  struct db_slot *sl = db_slot_of(p, c);
  PGresult *r = NULL;
  int rc = -EIO;

  assert(sl); /* c was acquired from p by this thread */
  *out = NULL;
  /* Twice at most: the second pass follows a statement the session had lost. */
  for (int again = 0; again < 2; again++) {
    int prepared = sl && db_slot_has(sl, s);
    if (sl && !prepared) {
      rc = db_prepare(p, sl, s, err, errlen);
      if (rc == -EIO || rc == -ESTALE)
        goto out;
      prepared = rc == 0;
    }
    r = prepared ? PQexecPrepared(c, s->name, s->nparams, params, NULL, NULL, 0)
                 : PQexecParams(c, s->sql, s->nparams, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) == want) {
      *out = r; /* the caller's now */
      r = NULL;
      rc = 0;
      goto out;
    }
    db_error_text(c, r, err, errlen);
    rc = -EIO;
    if (!prepared || !db_sqlstate_is(r, DB_SQLSTATE_NO_STATEMENT))
      goto out;
    /* The session lost it, and with it (DISCARD ALL, a new session the pool did not
     * see) most likely everything else it had prepared. */
    sl->nprepared = 0;
    pthread_mutex_lock(&p->mu);
    p->lost++;
    pthread_mutex_unlock(&p->mu);
    rc = PQtransactionStatus(c) == PQTRANS_IDLE ? -EIO : -ESTALE;
    log_warn("db.statement_missing", "name=%s action=%s", s->name,
             rc == -ESTALE ? "retry_transaction" : "prepare_again");
    if (rc == -ESTALE)
      goto out;
    PQclear(r);
    r = NULL;
  }
out:
  PQclear(r);
  return rc;
}

void db_pool_prepare_counts(struct db_pool *p, unsigned long long *prepares,
                            unsigned long long *lost)
{
  pthread_mutex_lock(&p->mu);
  *prepares = p->prepares;
  *lost = p->lost;
  pthread_mutex_unlock(&p->mu);
}
