#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "notify.h"

/* A barrier round trip that takes longer means PostgreSQL or the connection is stuck:
 * drop it (the caches go down, requests read the database) and reconnect. */
#define NOTIFY_SYNC_TIMEOUT_MS 2000

struct notify_listener {
  struct kopt_ctx *ctx;               /* borrowed */
  const char *const *channels;        /* borrowed, static */
  notify_cb cb;
  PGconn *conn;                       /* owned; NULL while disconnected */
  PGconn *pending;                    /* set by the connect work */
  uv_poll_t *poll;                    /* owned; freed in its close callback */
  uv_timer_t retry;
  uv_work_t work;
  char err[256];
  unsigned backoff_ms;
  int connecting, stopping;
  unsigned timers_open;               /* retry, sync_timer, sync_idle: n is freed when all
                                       * have closed */
  /* Barriers: waiters in arrival order; each needs the round trip numbered `need`. */
  TAILQ_HEAD(notify_waitq, notify_waiter) waiters; /* borrowed: callers' records own them */
  uint64_t sync_sent;                 /* round trips sent on this listener, ever */
  int sync_inflight;
  uv_timer_t sync_timer;              /* a round trip slower than this drops the connection */
  uv_idle_t sync_idle;                /* sends the next round trip once this loop iteration's
                                       * I/O is done, for every waiter queued during it (an
                                       * idle handle also keeps the loop from blocking) */
};

static void notify_schedule(struct notify_listener *n);

static void notify_connect_work(uv_work_t *w)
{
  struct notify_listener *n = w->data;
  char sql[512];
  size_t o = 0;
  PGconn *c = db_connect(n->ctx->cfg.database_url, n->err, sizeof(n->err));
  n->pending = NULL;
  if (!c)
    return;
  for (int i = 0; n->channels[i]; i++)
    o += (size_t)snprintf(sql + o, sizeof(sql) - o, "LISTEN %s;", n->channels[i]);
  {
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
      snprintf(n->err, sizeof(n->err), "%s", PQresultErrorMessage(r));
      PQclear(r);
      PQfinish(c);
      return;
    }
    PQclear(r);
  }
  PQsetnonblocking(c, 1);
  n->pending = c;
}

static void notify_poll_closed(uv_handle_t *h) { free(h); }

static unsigned notify_count(const char *const *channels)
{
  unsigned k = 0;
  while (channels[k])
    k++;
  return k;
}

static void notify_drop(struct notify_listener *n)
{
  if (n->poll) {
    uv_poll_stop(n->poll);
    uv_close((uv_handle_t *)n->poll, notify_poll_closed);
    n->poll = NULL;
  }
  if (n->conn) {
    PQfinish(n->conn);
    n->conn = NULL;
  }
}

/* Ends every waiting barrier with ok (1: passed, 0: the connection is gone). */
static void notify_wake(struct notify_listener *n, uint64_t upto, int ok)
{
  struct notify_waiter *w;
  while ((w = TAILQ_FIRST(&n->waiters)) && (!ok || w->need <= upto)) {
    TAILQ_REMOVE(&n->waiters, w, link);
    w->queued = 0;
    w->cb(w, ok);
  }
}

static void notify_lost(struct notify_listener *n, const char *why)
{
  log_warn("notify.lost", "err=\"%s\"", why);
  uv_timer_stop(&n->sync_timer);
  uv_idle_stop(&n->sync_idle);
  n->sync_inflight = 0;
  notify_drop(n);
  notify_schedule(n);
  /* Down first: the caches stop trusting themselves before any waiter goes on. */
  n->cb(n->ctx, "", NOTIFY_DOWN);
  notify_wake(n, 0, 0);
}

static void notify_deliver(struct notify_listener *n)
{
  PGnotify *note;
  while ((note = PQnotifies(n->conn)) != NULL) {
    n->cb(n->ctx, note->relname, note->extra);
    PQfreemem(note);
  }
}

static void notify_poll_cb(uv_poll_t *p, int status, int events);

static void notify_sync_timeout_cb(uv_timer_t *t)
{
  struct notify_listener *n = t->data;
  if (n->conn && n->sync_inflight)
    notify_lost(n, "barrier round trip timed out");
}

/* Sends the next round trip: an empty query. PostgreSQL sends a listening session every
 * notification it is due before it says ReadyForQuery, and a committing transaction
 * signals the listeners before its COMMIT returns; so once this round trip is back, every
 * change committed before it was sent has been announced here. */
static void notify_sync_send(struct notify_listener *n)
{
  int f;
  if (!PQsendQuery(n->conn, "")) {
    notify_lost(n, PQerrorMessage(n->conn));
    return;
  }
  n->sync_sent++;
  n->sync_inflight = 1;
  uv_timer_start(&n->sync_timer, notify_sync_timeout_cb, NOTIFY_SYNC_TIMEOUT_MS, 0);
  f = PQflush(n->conn);
  if (f < 0)
    notify_lost(n, PQerrorMessage(n->conn));
  else if (f > 0)
    uv_poll_start(n->poll, UV_READABLE | UV_WRITABLE, notify_poll_cb);
}

static void notify_sync_idle_cb(uv_idle_t *h)
{
  struct notify_listener *n = h->data;
  uv_idle_stop(h);
  if (!TAILQ_EMPTY(&n->waiters) && n->conn && !n->sync_inflight)
    notify_sync_send(n);
}

/* The round trip in flight is back: deliver what came before it, then pass its waiters. */
static void notify_sync_done(struct notify_listener *n)
{
  uint64_t done = n->sync_sent;
  uv_timer_stop(&n->sync_timer);
  n->sync_inflight = 0;
  notify_deliver(n);
  notify_wake(n, done, 1);
  if (!TAILQ_EMPTY(&n->waiters))
    uv_idle_start(&n->sync_idle, notify_sync_idle_cb); /* those who came meanwhile */
}

static void notify_poll_cb(uv_poll_t *p, int status, int events)
{
  struct notify_listener *n = p->data;
  if (status < 0) {
    notify_lost(n, uv_strerror(status));
    return;
  }
  if (events & UV_WRITABLE) {
    int f = PQflush(n->conn);
    if (f < 0) {
      notify_lost(n, PQerrorMessage(n->conn));
      return;
    }
    if (f == 0)
      uv_poll_start(p, UV_READABLE, notify_poll_cb);
  }
  if ((events & UV_READABLE) && !PQconsumeInput(n->conn)) {
    notify_lost(n, "connection lost");
    return;
  }
  notify_deliver(n);
  while (n->conn && n->sync_inflight && !PQisBusy(n->conn)) {
    PGresult *r = PQgetResult(n->conn);
    if (!r) {
      notify_sync_done(n);
      break;
    }
    PQclear(r); /* the empty query's answer */
  }
}

int notify_barrier(struct notify_listener *n, struct notify_waiter *w, notify_waiter_cb cb)
{
  if (!n || !n->conn || n->stopping)
    return -ENOTCONN;
  assert(!w->queued);
  w->cb = cb;
  /* A round trip already in flight may have been sent before this caller's request
   * arrived: only the next one counts. */
  w->need = n->sync_sent + 1;
  w->queued = 1;
  TAILQ_INSERT_TAIL(&n->waiters, w, link);
  /* Not at once: after this loop iteration's I/O, so that one round trip serves every
   * request read in it (a round trip sent now would not count for those read after). */
  if (!n->sync_inflight)
    uv_idle_start(&n->sync_idle, notify_sync_idle_cb);
  return 0;
}

int notify_listening(const struct notify_listener *n) { return n && n->conn && !n->stopping; }

uint64_t notify_round_trips(const struct notify_listener *n) { return n ? n->sync_sent : 0; }

void notify_barrier_cancel(struct notify_listener *n, struct notify_waiter *w)
{
  if (!n || !w->queued)
    return;
  TAILQ_REMOVE(&n->waiters, w, link);
  w->queued = 0;
}

static void notify_connect_done(uv_work_t *w, int status)
{
  struct notify_listener *n = w->data;
  n->connecting = 0;
  if (n->stopping) {
    if (n->pending)
      PQfinish(n->pending);
    n->pending = NULL;
    if (n->timers_open == 0)
      free(n);
    return;
  }
  if (status != 0 || !n->pending) {
    log_warn("notify.connect_failed", "retry_ms=%u err=\"%.200s\"", n->backoff_ms, n->err);
    notify_schedule(n);
    return;
  }
  n->conn = n->pending;
  n->pending = NULL;
  n->poll = malloc(sizeof(*n->poll));
  if (!n->poll || uv_poll_init(n->ctx->loop, n->poll, PQsocket(n->conn)) != 0) {
    free(n->poll);
    n->poll = NULL;
    PQfinish(n->conn);
    n->conn = NULL;
    notify_schedule(n);
    return;
  }
  n->poll->data = n;
  uv_poll_start(n->poll, UV_READABLE, notify_poll_cb);
  n->backoff_ms = 250;
  log_info("notify.listening", "channels=%u first=%s", notify_count(n->channels),
           n->channels[0]);
  n->cb(n->ctx, "", NOTIFY_UP);
}

static void notify_retry_cb(uv_timer_t *t)
{
  struct notify_listener *n = t->data;
  if (n->stopping || n->connecting)
    return;
  n->connecting = 1;
  n->work.data = n;
  if (uv_queue_work(n->ctx->loop, &n->work, notify_connect_work, notify_connect_done) != 0) {
    n->connecting = 0;
    notify_schedule(n);
  }
}

static void notify_schedule(struct notify_listener *n)
{
  uv_timer_start(&n->retry, notify_retry_cb, n->backoff_ms, 0);
  n->backoff_ms = n->backoff_ms * 2 > 10000 ? 10000 : n->backoff_ms * 2;
}

int notify_start(struct kopt_ctx *ctx, const char *const *channels, notify_cb cb)
{
  struct notify_listener *n = calloc(1, sizeof(*n));
  if (!n)
    return -ENOMEM;
  n->ctx = ctx;
  n->channels = channels;
  n->cb = cb;
  n->backoff_ms = 250;
  TAILQ_INIT(&n->waiters);
  uv_timer_init(ctx->loop, &n->retry);
  uv_timer_init(ctx->loop, &n->sync_timer);
  uv_idle_init(ctx->loop, &n->sync_idle);
  n->retry.data = n->sync_timer.data = n->sync_idle.data = n;
  n->timers_open = 3;
  ctx->notify = n;
  uv_timer_start(&n->retry, notify_retry_cb, 0, 0);
  return 0;
}

static void notify_timer_closed(uv_handle_t *h)
{
  struct notify_listener *n = h->data;
  if (--n->timers_open == 0 && !n->connecting)
    free(n);
}

void notify_stop(struct notify_listener *n)
{
  if (!n)
    return;
  n->stopping = 1;
  n->ctx->notify = NULL;
  notify_drop(n);
  notify_wake(n, 0, 0);
  uv_timer_stop(&n->retry);
  uv_timer_stop(&n->sync_timer);
  uv_idle_stop(&n->sync_idle);
  /* Whichever ends last, the handles' close or a connect in flight, frees n. */
  uv_close((uv_handle_t *)&n->retry, notify_timer_closed);
  uv_close((uv_handle_t *)&n->sync_timer, notify_timer_closed);
  uv_close((uv_handle_t *)&n->sync_idle, notify_timer_closed);
}
