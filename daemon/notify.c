#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "notify.h"

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
  int connecting, stopping, timer_closed;
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

static void notify_poll_cb(uv_poll_t *p, int status, int events)
{
  struct notify_listener *n = p->data;
  PGnotify *note;
  (void)events;
  if (status < 0 || !PQconsumeInput(n->conn)) {
    log_warn("notify.lost", "err=\"%s\"", status < 0 ? uv_strerror(status) : "connection lost");
    notify_drop(n);
    notify_schedule(n);
    return;
  }
  while ((note = PQnotifies(n->conn)) != NULL) {
    n->cb(n->ctx, note->relname, note->extra);
    PQfreemem(note);
  }
}

static void notify_connect_done(uv_work_t *w, int status)
{
  struct notify_listener *n = w->data;
  n->connecting = 0;
  if (n->stopping) {
    if (n->pending)
      PQfinish(n->pending);
    n->pending = NULL;
    if (n->timer_closed)
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
  log_info("notify.listening", "channels=%s%s%s", n->channels[0],
           n->channels[1] ? "," : "", n->channels[1] ? n->channels[1] : "");
  n->cb(n->ctx, "", "");
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
  uv_timer_init(ctx->loop, &n->retry);
  n->retry.data = n;
  ctx->notify = n;
  uv_timer_start(&n->retry, notify_retry_cb, 0, 0);
  return 0;
}

static void notify_timer_closed(uv_handle_t *h)
{
  struct notify_listener *n = h->data;
  n->timer_closed = 1;
  if (!n->connecting)
    free(n);
}

void notify_stop(struct notify_listener *n)
{
  if (!n)
    return;
  n->stopping = 1;
  n->ctx->notify = NULL;
  notify_drop(n);
  uv_timer_stop(&n->retry);
  /* Whichever ends last, the timer's close or a connect in flight, frees n. */
  uv_close((uv_handle_t *)&n->retry, notify_timer_closed);
}
