#include <errno.h>
#include <jansson.h>
#include <microhttpd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/queue.h>
#include <sys/socket.h>

#include "buf.h"
#include "contract.h"
#include "http.h"
#include "log.h"
#include "params.h"
#include "sse.h"

struct sse_stream {
  TAILQ_ENTRY(sse_stream) link;      /* in hub->streams while !dead */
  struct sse_hub *hub;               /* borrowed; only touched while !dead */
  struct kopt_ctx *ctx;              /* borrowed; outlives every stream */
  struct MHD_Connection *conn;       /* borrowed; valid while the response lives */
  char job_id[KOPT_JOB_ID_SIZE];
  long long token_id;                /* who opened it: streams are capped per token */
  long long last_id;
  struct buf out;                    /* bytes not yet handed to MHD */
  size_t off;
  int suspended, terminal, closing, dead;
  int fetching, refetch;
  int refs;                          /* MHD response + an in-flight fetch */
  uv_work_t work;
  /* Fetch results, written on the pool thread, read in the after-callback. */
  struct buf fetched;
  long long fetched_last;
  int fetched_terminal, fetch_failed;
};

struct sse_hub {
  struct kopt_ctx *ctx;              /* borrowed */
  TAILQ_HEAD(sse_streams, sse_stream) streams; /* live, newest first; borrowed: refs own */
  unsigned count;
  uv_timer_t keepalive;
};

static void sse_unref(struct sse_stream *st)
{
  if (--st->refs > 0)
    return;
  buf_free(&st->out);
  buf_free(&st->fetched);
  free(st);
}

static void sse_wake(struct sse_stream *st)
{
  if (st->suspended && !st->dead) {
    st->suspended = 0;
    MHD_resume_connection(st->conn);
    http_kick(st->hub->ctx->http);
  }
}

static void sse_push(struct sse_stream *st, const char *s, size_t n)
{
  if (buf_append(&st->out, s, n)) {
    /* A client this far behind is dropped rather than buffered without bound. */
    log_warn("sse.overflow", "job=%s", st->job_id);
    st->closing = 1;
  }
  sse_wake(st);
}

static ssize_t sse_reader(void *cls, uint64_t pos, char *out, size_t max)
{
  struct sse_stream *st = cls;
  size_t avail = st->out.len - st->off;
  (void)pos;
  if (avail) {
    size_t n = avail < max ? avail : max;
    memcpy(out, st->out.data + st->off, n);
    st->off += n;
    if (st->off == st->out.len) {
      buf_reset(&st->out);
      st->off = 0;
    }
    return (ssize_t)n;
  }
  if (st->terminal || st->closing)
    return MHD_CONTENT_READER_END_OF_STREAM;
  /* Nothing to send: park the connection until an event arrives (0 + suspend, never a
   * busy loop). */
  st->suspended = 1;
  MHD_suspend_connection(st->conn);
  return 0;
}

static void sse_free_cb(void *cls)
{
  struct sse_stream *st = cls;
  struct sse_hub *h = st->hub;
  st->dead = 1;
  TAILQ_REMOVE(&h->streams, st, link);
  h->count--;
  sse_unref(st);
}

int sse_last_event_id(const char *v, int too_long, struct problem *p, long long *id)
{
  *id = -1;
  if (too_long) {
    problem_add(p, SSE_LAST_EVENT_ID, "maximum", INT64_MAX,
                "must be an event id this server sent (an integer up to %lld)",
                (long long)INT64_MAX);
    return -EINVAL;
  }
  if (!v || !v[0])
    return 0;
  /* A mangled id is the client's bug: answered 400, not hidden by a restart. */
  return params_int_field(p, SSE_LAST_EVENT_ID, v, 0, INT64_MAX, id) ? -EINVAL : 0;
}

int sse_read_events(PGconn *c, const char *job_id, long long after, int limit, struct buf *out,
                    long long *last, int *terminal, char *err, size_t errlen)
{
  char from[24], lim[16];
  const char *params[3] = { job_id, from, lim };
  PGresult *res;
  int n = 0;

  snprintf(from, sizeof(from), "%lld", after);
  snprintf(lim, sizeof(lim), "%d", limit);
  /* The job's state comes from the same snapshot as the events: when it is final and
   * fewer than `limit` events follow `after`, this read saw the last of them, whatever
   * `after` was (the client's Last-Event-ID may lie past the end). */
  res = db_exec(c, PGRES_TUPLES_OK, err, errlen,
                "SELECT e.id, e.kind, e.data::text, e.data->>'state', j.state FROM jobs j"
                " LEFT JOIN LATERAL (SELECT id, kind, data FROM job_events"
                "  WHERE job_id = j.id AND id > $2::bigint ORDER BY id LIMIT $3::int) e ON true"
                " WHERE j.id = $1::uuid ORDER BY e.id",
                3, params);
  if (!res)
    return -EIO;
  for (int i = 0; i < PQntuples(res); i++) {
    if (PQgetisnull(res, i, 0))
      continue; /* the job, without events after `after` */
    n++;
    *last = atoll(PQgetvalue(res, i, 0));
    buf_appendf(out, "id: %s\nevent: %s\ndata: %s\n\n", PQgetvalue(res, i, 0),
                PQgetvalue(res, i, 1), PQgetvalue(res, i, 2));
    if (contract_state_terminal(PQgetvalue(res, i, 3)))
      *terminal = 1;
  }
  if (PQntuples(res) == 0 || (n < limit && contract_state_terminal(PQgetvalue(res, 0, 4))))
    *terminal = 1; /* final, or the job is gone: nothing more will come */
  PQclear(res);
  return 0;
}

static void sse_fetch_work(uv_work_t *w)
{
  struct sse_stream *st = w->data;
  struct kopt_ctx *ctx = st->ctx;
  char err[256];
  PGconn *c = db_pool_acquire(&ctx->pool, err, sizeof(err));

  st->fetch_failed = 1;
  if (!c)
    return;
  st->fetch_failed = sse_read_events(c, st->job_id, st->fetched_last, 200, &st->fetched,
                                     &st->fetched_last, &st->fetched_terminal, err,
                                     sizeof(err)) != 0;
  db_pool_release(&ctx->pool, c);
}

static void sse_fetch(struct sse_stream *st);

static void sse_fetch_done(uv_work_t *w, int status)
{
  struct sse_stream *st = w->data;
  st->fetching = 0;
  if (!st->dead && status == 0 && !st->fetch_failed) {
    if (st->fetched.len)
      sse_push(st, st->fetched.data, st->fetched.len);
    st->last_id = st->fetched_last;
    if (st->fetched_terminal) {
      st->terminal = 1;
      sse_wake(st);
    }
  }
  buf_reset(&st->fetched);
  if (!st->dead && st->refetch && !st->terminal) {
    st->refetch = 0;
    sse_fetch(st);
  }
  sse_unref(st);
}

static void sse_fetch(struct sse_stream *st)
{
  if (st->dead || st->terminal || st->closing)
    return;
  if (st->fetching) {
    st->refetch = 1;
    return;
  }
  st->fetching = 1;
  st->fetched_last = st->last_id;
  st->fetched_terminal = 0;
  st->work.data = st;
  st->refs++;
  if (uv_queue_work(st->ctx->loop, &st->work, sse_fetch_work, sse_fetch_done) != 0) {
    st->fetching = 0;
    st->refs--;
  }
}

static void sse_keepalive_cb(uv_timer_t *t)
{
  struct sse_hub *h = t->data;
  struct sse_stream *st;
  TAILQ_FOREACH(st, &h->streams, link) {
    sse_push(st, ": keepalive\n\n", 13);
    sse_fetch(st); /* NOTIFY is a hint; this catches any that were missed */
  }
}

int sse_hub_init(struct kopt_ctx *ctx)
{
  struct sse_hub *h = calloc(1, sizeof(*h));
  if (!h)
    return -ENOMEM;
  h->ctx = ctx;
  TAILQ_INIT(&h->streams);
  uv_timer_init(ctx->loop, &h->keepalive);
  h->keepalive.data = h;
  uv_timer_start(&h->keepalive, sse_keepalive_cb, SSE_KEEPALIVE_MS, SSE_KEEPALIVE_MS);
  ctx->sse = h;
  return 0;
}

/* Whether the client has gone: a parked stream is not watched by MHD, so a client that
 * closed its end would hold its place until the next keepalive write. */
static int sse_client_gone(struct sse_stream *st)
{
  const union MHD_ConnectionInfo *i =
      MHD_get_connection_info(st->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
  char b;
  ssize_t n;
  if (!i)
    return 0;
  n = recv(i->connect_fd, &b, 1, MSG_PEEK | MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

/* Streams held (not ending) by token_id, or by anyone when token_id is -1. With reap, the
 * ones whose client has gone are ended first and not counted. */
static unsigned sse_streams_held(struct sse_hub *h, long long token_id, int reap)
{
  unsigned n = 0;
  struct sse_stream *st;
  TAILQ_FOREACH(st, &h->streams, link) {
    if (st->closing || (token_id != -1 && st->token_id != token_id))
      continue;
    if (reap && sse_client_gone(st)) {
      st->closing = 1;
      sse_wake(st);
      continue;
    }
    n++;
  }
  return n;
}

int sse_open(struct sse_hub *h, struct MHD_Connection *conn, const char *job_id,
             long long token_id, unsigned per_token_max, long long last_id, const char *initial,
             size_t initial_len, int terminal, struct MHD_Response **out)
{
  struct sse_stream *st;
  struct MHD_Response *resp;

  *out = NULL;
  /* Walks of at most SSE_MAX_STREAMS: cheaper than keeping a per-token table in step. The
   * socket checks run only at a limit. */
  if (h->count >= 2 * SSE_MAX_STREAMS || /* ending ones included: a hard bound */
      (h->count >= SSE_MAX_STREAMS && sse_streams_held(h, -1, 1) >= SSE_MAX_STREAMS))
    return -EBUSY;
  if (sse_streams_held(h, token_id, 0) >= per_token_max &&
      sse_streams_held(h, token_id, 1) >= per_token_max)
    return -EDQUOT;
  st = calloc(1, sizeof(*st));
  if (!st)
    return -ENOMEM;
  st->hub = h;
  st->ctx = h->ctx;
  st->conn = conn;
  snprintf(st->job_id, sizeof(st->job_id), "%s", job_id);
  st->token_id = token_id;
  st->last_id = last_id;
  st->terminal = terminal;
  st->refs = 1;
  buf_init(&st->out, SSE_OUT_CAP);
  buf_init(&st->fetched, SSE_OUT_CAP);
  if (buf_append(&st->out, initial, initial_len)) {
    sse_unref(st);
    return -ENOMEM;
  }
  resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, sse_reader, st,
                                           sse_free_cb);
  if (!resp) {
    sse_unref(st);
    return -ENOMEM;
  }
  TAILQ_INSERT_HEAD(&h->streams, st, link);
  h->count++;
  /* Events committed between the initial read and now are picked up at once. */
  if (!terminal)
    sse_fetch(st);
  *out = resp;
  return 0;
}

void sse_on_notify(struct sse_hub *h, const char *job_id)
{
  struct sse_stream *st;
  TAILQ_FOREACH(st, &h->streams, link)
    if (strcmp(st->job_id, job_id) == 0)
      sse_fetch(st);
}

void sse_close_all(struct sse_hub *h)
{
  static const char bye[] = "event: shutdown\ndata: {\"reason\":\"server stopping\"}\n\n";
  struct sse_stream *st;
  TAILQ_FOREACH(st, &h->streams, link) {
    if (!st->closing)
      sse_push(st, bye, sizeof(bye) - 1);
    st->closing = 1;
    sse_wake(st);
  }
}

unsigned sse_count(struct sse_hub *h) { return h ? h->count : 0; }

static void sse_hub_closed(uv_handle_t *hd) { free(hd->data); }

void sse_hub_stop(struct sse_hub *h)
{
  if (!h)
    return;
  h->ctx->sse = NULL;
  uv_timer_stop(&h->keepalive);
  uv_close((uv_handle_t *)&h->keepalive, sse_hub_closed);
}
