#include <errno.h>
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
#include "log.h"
#include "sse.h"

struct http_server {
  struct kopt_ctx *ctx;          /* borrowed */
  struct MHD_Daemon *mhd;        /* owned */
  uv_poll_t poll;                /* on MHD's epoll fd */
  uv_timer_t timer;              /* MHD_get_timeout */
  uv_idle_t kick;                /* one MHD_run after resumes */
  unsigned inflight;             /* requests between first callback and completion */
  unsigned pending_work;         /* thread-pool items not yet back */
  unsigned handles_open;
  unsigned port;
  int quiesced;
};

static void http_run(struct http_server *s);

static void http_timer_cb(uv_timer_t *t) { http_run(t->data); }

static void http_poll_cb(uv_poll_t *p, int status, int events)
{
  (void)status;
  (void)events;
  http_run(p->data);
}

static void http_kick_cb(uv_idle_t *i)
{
  uv_idle_stop(i);
  http_run(i->data);
}

void http_kick(struct http_server *s)
{
  if (s && s->mhd)
    uv_idle_start(&s->kick, http_kick_cb);
}

static void http_run(struct http_server *s)
{
  MHD_UNSIGNED_LONG_LONG to = 0;
  if (!s->mhd)
    return;
  MHD_run(s->mhd);
  /* Waiting longer than MHD_get_timeout would leave timed-out connections open. */
  if (MHD_get_timeout(s->mhd, &to) == MHD_YES)
    uv_timer_start(&s->timer, http_timer_cb, to > 60000 ? 60000 : to, 0);
  else
    uv_timer_start(&s->timer, http_timer_cb, 1000, 0);
}

static void http_work_cb(uv_work_t *w)
{
  api_work(w->data);
}

static void http_after_work_cb(uv_work_t *w, int status)
{
  struct api_req *r = w->data;
  struct http_server *s = r->ctx->http;
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
  MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
  if (draining)
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
}

static enum MHD_Result http_queue(struct http_server *s, struct api_req *r)
{
  struct MHD_Response *resp;
  enum MHD_Result ret;

  if (r->route == ROUTE_JOB_EVENTS && r->resp.status == 200) {
    resp = sse_response(s->ctx->sse, r->conn, r->id, r->events_from, r->resp.body,
                        r->resp.body_len, r->job_terminal);
    if (!resp) {
      api_resp_simple_problem(r, 503, "unavailable", "Too many event streams",
                              "the server holds its maximum of event streams; retry later");
    } else {
      r->responded = 1;
      MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream");
      MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
      MHD_add_response_header(resp, "X-Accel-Buffering", "no");
      ret = MHD_queue_response(r->conn, 200, resp);
      MHD_destroy_response(resp);
      return ret;
    }
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
  http_copy_header(c, "Last-Event-ID", r->last_event_id, sizeof(r->last_event_id), NULL, NULL);
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

static enum MHD_Result http_access(void *cls, struct MHD_Connection *conn, const char *url,
                                   const char *method, const char *version,
                                   const char *upload_data, size_t *upload_data_size,
                                   void **req_cls)
{
  struct http_server *s = cls;
  struct api_req *r = *req_cls;
  (void)version;

  if (!r) {
    /* First call: only headers are known. */
    r = calloc(1, sizeof(*r));
    if (!r)
      return MHD_NO;
    r->ctx = s->ctx;
    r->conn = conn;
    r->t_start_ns = uv_hrtime();
    r->max_source_bytes = s->ctx->cfg.max_source_bytes;
    buf_init(&r->body, s->ctx->cfg.max_body_bytes);
    *req_cls = r;
    s->inflight++;
    api_route_match(r, method, url);
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
  r->dispatched = 1;
  if (r->body_too_large) {
    http_too_large(r);
    return http_queue(s, r);
  }
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
  struct http_server *s = cls;
  struct api_req *r = *req_cls;
  double secs;
  (void)conn;
  if (!r)
    return;
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

int http_start(struct kopt_ctx *ctx, char *err, size_t errlen)
{
  struct http_server *s = calloc(1, sizeof(*s));
  struct addrinfo hints, *ai = NULL;
  char port[16];
  const union MHD_DaemonInfo *info;
  int rc = 0, epfd;

  if (!s)
    return -ENOMEM;
  s->ctx = ctx;
  memset(&hints, 0, sizeof(hints));
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  snprintf(port, sizeof(port), "%u", ctx->cfg.listen_port);
  if (getaddrinfo(ctx->cfg.listen_host, port, &hints, &ai) != 0 || !ai) {
    snprintf(err, errlen, "listen: cannot resolve %s", ctx->cfg.listen_host);
    rc = -EINVAL;
    goto out;
  }
  s->mhd = MHD_start_daemon(
      MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG |
          (ai->ai_family == AF_INET6 ? MHD_USE_IPv6 : 0),
      (uint16_t)ctx->cfg.listen_port, NULL, NULL, http_access, s,
      MHD_OPTION_SOCK_ADDR, ai->ai_addr,
      MHD_OPTION_NOTIFY_COMPLETED, http_completed, s,
      MHD_OPTION_CONNECTION_LIMIT, (unsigned)ctx->cfg.max_connections,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)ctx->cfg.connection_timeout_s,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
      MHD_OPTION_SIGPIPE_HANDLED_BY_APP, (int)1,
      MHD_OPTION_EXTERNAL_LOGGER, http_mhd_log, s,
      MHD_OPTION_END);
  if (!s->mhd) {
    snprintf(err, errlen, "listen: cannot bind %s:%u (in use, or not a local address?)",
             ctx->cfg.listen_host, ctx->cfg.listen_port);
    rc = -EADDRINUSE;
    goto out;
  }
  info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_EPOLL_FD);
  epfd = info ? info->epoll_fd : -1;
  info = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_BIND_PORT);
  s->port = info ? info->port : ctx->cfg.listen_port;
  if (epfd < 0) {
    snprintf(err, errlen, "libmicrohttpd gave no epoll descriptor");
    rc = -EIO;
    goto out;
  }
  uv_poll_init(ctx->loop, &s->poll, epfd);
  uv_timer_init(ctx->loop, &s->timer);
  uv_idle_init(ctx->loop, &s->kick);
  s->poll.data = s->timer.data = s->kick.data = s;
  s->handles_open = 3;
  uv_poll_start(&s->poll, UV_READABLE, http_poll_cb);
  ctx->http = s;
  http_run(s);
out:
  if (ai)
    freeaddrinfo(ai);
  if (rc) {
    if (s->mhd)
      MHD_stop_daemon(s->mhd);
    free(s);
  }
  return rc;
}

unsigned http_port(struct http_server *s) { return s->port; }

void http_quiesce(struct http_server *s)
{
  MHD_socket fd;
  if (!s || s->quiesced)
    return;
  s->quiesced = 1;
  fd = MHD_quiesce_daemon(s->mhd);
  if (fd != MHD_INVALID_SOCKET)
    close(fd);
}

unsigned http_busy(struct http_server *s) { return s ? s->inflight + s->pending_work : 0; }

static void http_handle_closed(uv_handle_t *h)
{
  struct http_server *s = h->data;
  if (--s->handles_open == 0)
    free(s);
}

void http_stop(struct http_server *s)
{
  if (!s)
    return;
  uv_poll_stop(&s->poll);
  uv_close((uv_handle_t *)&s->poll, http_handle_closed);
  uv_close((uv_handle_t *)&s->timer, http_handle_closed);
  uv_close((uv_handle_t *)&s->kick, http_handle_closed);
  /* Closes idle keep-alive connections; completion callbacks free their requests. */
  MHD_stop_daemon(s->mhd);
  s->mhd = NULL;
  s->ctx->http = NULL;
}
