#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <microhttpd.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api.h"
#include "http.h"
#include "http_deadline.h"
#include "notify.h"
#include "log.h"
#include "sse.h"

/* The probe listener's own small table: probes are few and short. */
#define HTTP_PROBE_MAX_CONNECTIONS 32
#define HTTP_PROBE_IDLE_TIMEOUT_S 10
#define HTTP_SWEEP_MS 500
/* Each connection's buffer for the request head and I/O. libmicrohttpd clears all of it
 * between keep-alive requests, so its size is paid on every request: 16 KiB holds any head
 * this API needs (a larger one is refused with 431). */
#define HTTP_CONN_MEMORY (16 * 1024)

/* One libmicrohttpd daemon on one socket, driven by the loop through MHD's epoll fd. */
struct http_listener {
  struct http_server *srv;       /* borrowed: the owner */
  struct MHD_Daemon *mhd;        /* owned; NULL when this listener is not configured */
  uv_poll_t poll;                /* on MHD's epoll fd */
  uv_timer_t timer;              /* MHD_get_timeout */
  unsigned port;
  int probe;                     /* serves only /healthz, /readyz and /metrics */
};

struct http_server {
  struct kopt_ctx *ctx;          /* borrowed */
  struct http_listener api;      /* [server] listen: every route */
  struct http_listener probe;    /* [server] probe_listen: the probes, own connection table */
  uv_idle_t kick;                /* one MHD_run after resumes */
  uv_timer_t sweep;              /* header/body deadlines */
  struct http_conn_table conns;  /* every connection of both listeners */
  unsigned inflight;             /* requests between first callback and completion */
  unsigned pending_work;         /* thread-pool items not yet back */
  unsigned handles_open;
  int quiesced;
};

static void http_run(struct http_listener *l);

static void http_timer_cb(uv_timer_t *t) { http_run(t->data); }

static void http_poll_cb(uv_poll_t *p, int status, int events)
{
  (void)status;
  (void)events;
  http_run(p->data);
}

static void http_kick_cb(uv_idle_t *i)
{
  struct http_server *s = i->data;
  uv_idle_stop(i);
  http_run(&s->api);
  http_run(&s->probe);
}

void http_kick(struct http_server *s)
{
  if (s && s->api.mhd)
    uv_idle_start(&s->kick, http_kick_cb);
}

static void http_run(struct http_listener *l)
{
  MHD_UNSIGNED_LONG_LONG to = 0;
  if (!l->mhd)
    return;
  MHD_run(l->mhd);
  /* Waiting longer than MHD_get_timeout would leave timed-out connections open. */
  if (MHD_get_timeout(l->mhd, &to) == MHD_YES)
    uv_timer_start(&l->timer, http_timer_cb, to > 60000 ? 60000 : to, 0);
  else
    uv_timer_start(&l->timer, http_timer_cb, 1000, 0);
}

static void http_sweep_cb(uv_timer_t *t)
{
  struct http_server *s = t->data;
  const struct config *cfg = &s->ctx->cfg;
  unsigned n = http_conn_sweep(&s->conns, ctx_now_ms(), cfg->header_timeout_s * 1000ull,
                               cfg->body_timeout_s * 1000ull);
  if (n) {
    log_info("http.deadline_closed", "connections=%u open=%u header_timeout_s=%u"
             " body_timeout_s=%u", n, s->conns.count, cfg->header_timeout_s,
             cfg->body_timeout_s);
    /* The shut sockets are readable now; MHD closes them on its next run. */
    http_kick(s);
  }
}

/* The per-connection record that MHD keeps as the socket context. */
static struct http_conn *http_conn_of(struct MHD_Connection *c)
{
  const union MHD_ConnectionInfo *i =
      MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return i ? i->socket_context : NULL;
}

static void http_conn_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                             enum MHD_ConnectionNotificationCode code)
{
  struct http_listener *l = cls;
  struct http_server *s = l->srv;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    /* Without a record the connection simply has no deadline beyond MHD's idle limit. */
    *socket_context = i ? http_conn_open(&s->conns, i->connect_fd, ctx_now_ms()) : NULL;
  } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    http_conn_close(&s->conns, *socket_context);
    *socket_context = NULL;
  }
}

static void http_phase(struct api_req *r, enum http_phase p)
{
  if (r->hconn)
    http_conn_phase(r->hconn, p, ctx_now_ms());
}

static void http_work_cb(uv_work_t *w)
{
  api_work(w->data);
}

static void http_after_work_cb(uv_work_t *w, int status)
{
  struct api_req *r = w->data;
  struct http_server *s = r->ctx->http;
  assert(s);
  if (status == UV_ECANCELED)
    api_resp_simple_problem(r, 503, "unavailable", "Shutting down", "koptd is stopping");
  s->pending_work--;
  api_after_work(r);
  r->suspended = 0;
  MHD_resume_connection(r->conn);
  http_kick(s);
}

static void http_add_headers(struct MHD_Response *resp, const struct api_req *r, int draining)
{
  if (r->resp.content_type)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->resp.content_type);
  if (r->resp.location[0])
    MHD_add_response_header(resp, MHD_HTTP_HEADER_LOCATION, r->resp.location);
  if (r->resp.allow[0])
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->resp.allow);
  if (r->resp.www_authenticate)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"kopt\"");
  if (r->resp.etag[0]) {
    /* Clients may keep it, but must ask again each time (If-None-Match: 304). */
    MHD_add_response_header(resp, MHD_HTTP_HEADER_ETAG, r->resp.etag);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "private, no-cache");
  } else {
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  }
  if (draining)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
}

/* 429: the token holds its maximum of event streams. */
static void http_streams_per_token(struct api_req *r, unsigned max)
{
  struct problem p;
  problem_init(&p, 429, "too-many-streams", "Too many event streams for this token");
  problem_add(&p, "Authorization", "maxStreamsPerToken", max,
              "this token already holds %u open event streams, the most one token may hold"
              " (max_streams_per_token); close one and retry",
              max);
  api_resp_problem(r, &p);
}

static enum MHD_Result http_queue_events(struct http_server *s, struct api_req *r)
{
  struct MHD_Response *resp = NULL;
  enum MHD_Result ret;
  unsigned per_token = s->ctx->cfg.max_streams_per_token;
  int rc = sse_open(s->ctx->sse, r->conn, r->id, r->who.token_id, per_token, r->events_from,
                    r->resp.body, r->resp.body_len, r->job_terminal, &resp);
  if (rc == -EDQUOT) {
    http_streams_per_token(r, per_token);
    return MHD_NO; /* caller queues the problem */
  }
  if (rc) {
    api_resp_simple_problem(r, 503, "unavailable", "Too many event streams",
                            "the server holds its maximum of %u event streams; retry later",
                            SSE_MAX_STREAMS);
    return MHD_NO;
  }
  r->responded = 1;
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
  MHD_add_response_header(resp, "X-Accel-Buffering", "no");
  ret = MHD_queue_response(r->conn, 200, resp);
  MHD_destroy_response(resp);
  return ret;
}

static enum MHD_Result http_queue(struct http_server *s, struct api_req *r)
{
  struct MHD_Response *resp;
  enum MHD_Result ret;

  http_phase(r, HTTP_PHASE_BUSY);
  if (r->route == ROUTE_JOB_EVENTS && r->resp.status == 200) {
    ret = http_queue_events(s, r);
    if (r->responded)
      return ret;
  }
  if (!r->resp.body)
    api_resp_simple_problem(r, 500, "internal", "Internal error", "no response was produced");
  /* MUST_FREE: MHD frees the body with free() when the response is destroyed. */
  resp = MHD_create_response_from_buffer(r->resp.body_len, r->resp.body, MHD_RESPMEM_MUST_FREE);
  if (!resp)
    return MHD_NO;
  r->resp.body = NULL;
  http_add_headers(resp, r, s->ctx->draining);
  r->responded = 1;
  ret = MHD_queue_response(r->conn, r->resp.status, resp);
  MHD_destroy_response(resp);
  return ret;
}

/* MHD's query callback: router.c keeps what the routes read. */
static enum MHD_Result http_query_cb(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
  (void)kind;
  api_query_arg(cls, key, value);
  return MHD_YES;
}

static void http_copy_header(struct MHD_Connection *c, const char *name, char *dst, size_t cap,
                             int *too_long, int *present)
{
  const char *v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
  if (!v)
    return;
  if (present)
    *present = 1;
  if (strlen(v) >= cap) {
    if (too_long)
      *too_long = 1;
    dst[0] = '\0';
    return;
  }
  memcpy(dst, v, strlen(v) + 1);
}

static void http_collect(struct api_req *r, struct MHD_Connection *c)
{
  const char *cl;
  http_copy_header(c, MHD_HTTP_HEADER_AUTHORIZATION, r->auth, sizeof(r->auth),
                   &r->auth_too_long, NULL);
  http_copy_header(c, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type, sizeof(r->content_type),
                   NULL, NULL);
  http_copy_header(c, "Last-Event-ID", r->last_event_id, sizeof(r->last_event_id),
                   &r->last_event_id_too_long, NULL);
  http_copy_header(c, MHD_HTTP_HEADER_IF_NONE_MATCH, r->if_none_match, sizeof(r->if_none_match),
                   NULL, NULL);
  http_copy_header(c, "Idempotency-Key", r->idem_key, sizeof(r->idem_key), &r->idem_bad,
                   &r->idem_present);
  if (r->idem_present) {
    size_t n = strlen(r->idem_key);
    if (n == 0 || n > API_IDEM_MAX)
      r->idem_bad = 1;
    for (size_t i = 0; i < n; i++)
      if (r->idem_key[i] < 0x21 || r->idem_key[i] > 0x7e)
        r->idem_bad = 1;
  }
  MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, http_query_cb, r);
  cl = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
  if (cl) {
    char *end;
    unsigned long long n = strtoull(cl, &end, 10);
    if (*end == '\0' && n > r->body.cap)
      r->body_too_large = 1;
  }
}

static void http_too_large(struct api_req *r)
{
  struct problem p;
  problem_init(&p, 413, "body-too-large", "Request body too large");
  problem_add(&p, "body", "maxBytes", (long long)r->body.cap,
              "the request body is over the limit of %zu bytes", r->body.cap);
  api_resp_problem(r, &p);
}

static void http_barrier_cb(struct notify_waiter *w, int ok)
{
  struct api_req *r = (struct api_req *)((char *)w - offsetof(struct api_req, barrier));
  r->barrier_state = ok ? API_BARRIER_PASSED : API_BARRIER_FAILED;
  r->suspended = 0;
  MHD_resume_connection(r->conn);
  http_kick(r->ctx->http);
}

static int http_is_probe(enum api_route route)
{
  return route == ROUTE_HEALTHZ || route == ROUTE_READYZ || route == ROUTE_METRICS;
}

static enum MHD_Result http_access(void *cls, struct MHD_Connection *conn, const char *url,
                                   const char *method, const char *version,
                                   const char *upload_data, size_t *upload_data_size,
                                   void **req_cls)
{
  struct http_listener *l = cls;
  struct http_server *s = l->srv;
  struct api_req *r = *req_cls;
  (void)version;

  if (!r) {
    /* First call: only headers are known. */
    r = calloc(1, sizeof(*r));
    if (!r)
      return MHD_NO;
    r->ctx = s->ctx;
    r->conn = conn;
    r->hconn = http_conn_of(conn);
    r->t_start_ns = uv_hrtime();
    r->max_source_bytes = s->ctx->cfg.max_source_bytes;
    buf_init(&r->body, s->ctx->cfg.max_body_bytes);
    *req_cls = r;
    s->inflight++;
    http_phase(r, HTTP_PHASE_BODY);
    api_route_match(r, method, url);
    if (l->probe && !r->resp.status && !http_is_probe(r->route)) {
      api_resp_simple_problem(r, 404, "not-found", "Not found",
                              "this listener (probe_listen) serves only /healthz, /readyz and"
                              " /metrics");
    }
    http_collect(r, conn);
    if (r->body_too_large) {
      /* Known from Content-Length: answer now, without reading the body. */
      http_too_large(r);
      return http_queue(s, r);
    }
    return MHD_YES;
  }
  if (*upload_data_size) {
    if (!r->body_too_large && buf_append(&r->body, upload_data, *upload_data_size)) {
      r->body_too_large = 1;
      buf_free(&r->body);
    }
    *upload_data_size = 0;
    return MHD_YES;
  }
  if (r->responded)
    return MHD_YES;
  if (r->dispatched)
    return http_queue(s, r); /* resumed after the pool work finished */
  http_phase(r, HTTP_PHASE_BUSY);
  if (r->body_too_large) {
    http_too_large(r);
    return http_queue(s, r);
  }
  if (!r->resp.status && api_needs_barrier(r) && r->barrier_state == API_BARRIER_NONE &&
      notify_barrier(s->ctx->notify, &r->barrier, http_barrier_cb) == 0) {
    /* Park until every change committed before now has reached the caches. */
    r->barrier_state = API_BARRIER_WAITING;
    r->suspended = 1;
    MHD_suspend_connection(conn);
    return MHD_YES;
  }
  r->dispatched = 1;
  if (r->resp.status || api_handle_inline(r))
    return http_queue(s, r);
  r->work.data = r;
  if (uv_queue_work(s->ctx->loop, &r->work, http_work_cb, http_after_work_cb) != 0) {
    api_resp_simple_problem(r, 503, "unavailable", "Busy", "cannot schedule work");
    return http_queue(s, r);
  }
  s->pending_work++;
  r->suspended = 1;
  MHD_suspend_connection(conn);
  return MHD_YES;
}

static void http_completed(void *cls, struct MHD_Connection *conn, void **req_cls,
                           enum MHD_RequestTerminationCode toe)
{
  struct http_listener *l = cls;
  struct http_server *s = l->srv;
  struct api_req *r = *req_cls;
  double secs;
  (void)conn;
  if (!r)
    return;
  notify_barrier_cancel(s->ctx->notify, &r->barrier); /* ended while parked (shutdown) */
  /* The next request's head is due header_timeout_s from now. */
  http_phase(r, HTTP_PHASE_HEAD);
  secs = (double)(uv_hrtime() - r->t_start_ns) / 1e9;
  metrics_observe(&s->ctx->metrics, r->route_name ? r->route_name : "other", r->method,
                  r->responded ? r->resp.status : 499, secs);
  if (log_get_level() <= LOG_LVL_DEBUG)
    log_debug("http.request", "method=%s route=%s status=%u ms=%.2f end=%d", r->method,
              r->route_name ? r->route_name : "other", r->resp.status, secs * 1000, (int)toe);
  buf_free(&r->body);
  api_resp_free(&r->resp);
  free(r);
  *req_cls = NULL;
  s->inflight--;
}

static void http_mhd_log(void *cls, const char *fmt, va_list ap)
{
  char msg[512], q[600];
  size_t n;
  (void)cls;
  vsnprintf(msg, sizeof(msg), fmt, ap);
  n = strlen(msg);
  while (n && msg[n - 1] == '\n')
    msg[--n] = '\0';
  log_debug("http.mhd", "msg=%s", log_quote(q, sizeof(q), msg));
}

/* Starts l on host:port. 0 or -errno with err filled. */
static int http_listen(struct http_server *s, struct http_listener *l, const char *host,
                       unsigned port, int probe, char *err, size_t errlen)
{
  const struct config *cfg = &s->ctx->cfg;
  struct addrinfo hints, *ai = NULL;
  char portstr[16];
  const union MHD_DaemonInfo *info;
  int rc = 0, epfd;

  l->srv = s;
  l->probe = probe;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  snprintf(portstr, sizeof(portstr), "%u", port);
  if (getaddrinfo(host, portstr, &hints, &ai) != 0 || !ai) {
    snprintf(err, errlen, "%s: cannot resolve %s", probe ? "probe_listen" : "listen", host);
    rc = -EINVAL;
    goto out;
  }
  /* The probe listener has a connection table of its own, so clients that fill the API's
   * table (or hold their per-IP share of it) cannot make /healthz unreachable. */
  l->mhd = MHD_start_daemon(
      MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG |
          (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
      (uint16_t)port, NULL, NULL, http_access, l,
      MHD_OPTION_EXTERNAL_LOGGER, http_mhd_log, s, /* first: it applies to what follows */
      MHD_OPTION_SOCK_ADDR, ai->ai_addr,
      MHD_OPTION_NOTIFY_COMPLETED, http_completed, l,
      MHD_OPTION_NOTIFY_CONNECTION, http_conn_notify, l,
      MHD_OPTION_CONNECTION_LIMIT,
      probe ? (unsigned)HTTP_PROBE_MAX_CONNECTIONS : cfg->max_connections,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, probe ? 0u : cfg->max_connections_per_ip,
      MHD_OPTION_CONNECTION_TIMEOUT,
      probe ? (unsigned)HTTP_PROBE_IDLE_TIMEOUT_S : cfg->connection_timeout_s,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)HTTP_CONN_MEMORY,
      MHD_OPTION_SIGPIPE_HANDLED_BY_APP, (int)1,
      MHD_OPTION_END);
  if (!l->mhd) {
    snprintf(err, errlen, "%s: cannot bind %s:%u (in use, or not a local address?)",
             probe ? "probe_listen" : "listen", host, port);
    rc = -EADDRINUSE;
    goto out;
  }
  info = MHD_get_daemon_info(l->mhd, MHD_DAEMON_INFO_EPOLL_FD);
  epfd = info ? info->epoll_fd : -1;
  info = MHD_get_daemon_info(l->mhd, MHD_DAEMON_INFO_BIND_PORT);
  l->port = info ? info->port : port;
  if (epfd < 0) {
    snprintf(err, errlen, "libmicrohttpd gave no epoll descriptor");
    MHD_stop_daemon(l->mhd);
    l->mhd = NULL;
    rc = -EIO;
    goto out;
  }
  uv_poll_init(s->ctx->loop, &l->poll, epfd);
  uv_timer_init(s->ctx->loop, &l->timer);
  l->poll.data = l->timer.data = l;
  s->handles_open += 2;
  uv_poll_start(&l->poll, UV_READABLE, http_poll_cb);
  http_run(l);
out:
  if (ai)
    freeaddrinfo(ai);
  return rc;
}

int http_start(struct kopt_ctx *ctx, char *err, size_t errlen)
{
  struct http_server *s = calloc(1, sizeof(*s));
  const struct config *cfg = &ctx->cfg;
  int rc;

  if (!s)
    return -ENOMEM;
  s->ctx = ctx;
  http_conn_table_init(&s->conns);
  uv_idle_init(ctx->loop, &s->kick);
  uv_timer_init(ctx->loop, &s->sweep);
  s->kick.data = s->sweep.data = s;
  s->handles_open = 2;
  ctx->http = s;
  rc = http_listen(s, &s->api, cfg->listen_host, cfg->listen_port, 0, err, errlen);
  if (!rc && cfg->probe_listen_host[0])
    rc = http_listen(s, &s->probe, cfg->probe_listen_host, cfg->probe_listen_port, 1, err,
                     errlen);
  if (rc) {
    http_stop(s); /* frees s once its handles have closed */
    return rc;
  }
  uv_timer_start(&s->sweep, http_sweep_cb, HTTP_SWEEP_MS, HTTP_SWEEP_MS);
  return 0;
}

unsigned http_port(struct http_server *s) { return s->api.port; }

unsigned http_probe_port(struct http_server *s) { return s->probe.mhd ? s->probe.port : 0; }

unsigned http_connections(struct http_server *s) { return s ? s->conns.count : 0; }

unsigned http_deadline_closed(struct http_server *s, int body)
{
  return s ? (unsigned)s->conns.closed[body ? 1 : 0] : 0;
}

static void http_quiesce_one(struct http_listener *l)
{
  MHD_socket fd;
  if (!l->mhd)
    return;
  fd = MHD_quiesce_daemon(l->mhd);
  if (fd != MHD_INVALID_SOCKET)
    close(fd);
}

void http_quiesce(struct http_server *s)
{
  if (!s || s->quiesced)
    return;
  s->quiesced = 1;
  http_quiesce_one(&s->api);
  http_quiesce_one(&s->probe);
}

unsigned http_busy(struct http_server *s) { return s ? s->inflight + s->pending_work : 0; }

static void http_handle_closed(uv_handle_t *h)
{
  struct http_server *s = h->data;
  if (--s->handles_open == 0)
    free(s);
}

static void http_stop_one(struct http_listener *l)
{
  if (!l->mhd)
    return;
  uv_poll_stop(&l->poll);
  l->poll.data = l->timer.data = l->srv;
  uv_close((uv_handle_t *)&l->poll, http_handle_closed);
  uv_close((uv_handle_t *)&l->timer, http_handle_closed);
  /* Closes idle keep-alive connections; completion callbacks free their requests. */
  MHD_stop_daemon(l->mhd);
  l->mhd = NULL;
}

void http_stop(struct http_server *s)
{
  if (!s)
    return;
  uv_timer_stop(&s->sweep);
  uv_close((uv_handle_t *)&s->kick, http_handle_closed);
  uv_close((uv_handle_t *)&s->sweep, http_handle_closed);
  http_stop_one(&s->api);
  http_stop_one(&s->probe);
  s->ctx->http = NULL;
}
