#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "log.h"
#include "pool.h"
#include "scheduler.h"

#define POOL_LINE_MAX 65536
#define POOL_BACKOFF_MIN_MS 500
#define POOL_BACKOFF_MAX_MS 60000

struct pool_worker {
  struct kopt_ctx *ctx;          /* borrowed */
  struct device dev;
  enum pool_state state;
  uv_process_t proc;
  uv_pipe_t to, from;            /* koptd -> worker stdin, worker stdout -> koptd */
  uv_timer_t restart;
  int running;                   /* process and pipes open */
  int handles_open;              /* proc, to, from (restart timer counted separately) */
  int reserved;
  int pid;
  char job[KOPT_JOB_ID_SIZE];
  char lease_owner[SCHED_OWNER_MAX]; /* the claim the job runs under */
  uint64_t last_heartbeat_ms, started_ms;
  unsigned restarts, backoff_ms;
  struct buf line;
  /* The start-up check (workers/check.c). Kept across a crash and its restart, so /readyz
   * does not flap; reset when the settings change. */
  enum pool_check check;
  char reason[POOL_REASON_MAX];  /* why the last check failed */
  char facts[POOL_FACTS_MAX];    /* what the last passing check found (JSON) */
  uint64_t check_asked_ms;       /* when the last "check" was sent; 0 when none is pending */
  uint64_t check_done_ms;        /* when the last verdict came */
  int restart_asked;             /* stopped on purpose (SIGHUP): restart at once */
  int restart_after_job;         /* settings changed while busy */
};

struct pool {
  struct pool_worker w[DEVICES_MAX];
  unsigned n;
  uv_timer_t check;
  int stopping;
};

static struct pool *pool_of(struct kopt_ctx *ctx) { return ctx->workers; }

unsigned pool_count(struct kopt_ctx *ctx) { return pool_of(ctx) ? pool_of(ctx)->n : 0; }
struct pool_worker *pool_at(struct kopt_ctx *ctx, unsigned i) { return &pool_of(ctx)->w[i]; }
enum pool_state pool_worker_state(const struct pool_worker *w) { return w->state; }
const struct device *pool_worker_device(const struct pool_worker *w) { return &w->dev; }
const char *pool_worker_job(const struct pool_worker *w) { return w->job; }
enum pool_check pool_worker_check(const struct pool_worker *w) { return w->check; }
const char *pool_worker_reason(const struct pool_worker *w)
{
  return w->check == POOL_CHECK_FAILED ? w->reason : "";
}
const char *pool_worker_facts(const struct pool_worker *w) { return w->facts; }
void pool_reserve(struct pool_worker *w, int reserved) { w->reserved = reserved; }
int pool_reserved(const struct pool_worker *w) { return w->reserved; }
int pool_worker_pid(const struct pool_worker *w) { return w->running ? w->pid : 0; }
unsigned pool_worker_restarts(const struct pool_worker *w) { return w->restarts; }

static const char *pool_state_name(enum pool_state s)
{
  static const char *const n[POOL_STATE_COUNT] = { "starting", "idle",    "busy",
                                                   "backoff",  "stopped", "unready" };
  return n[s];
}

static void pool_spawn(struct pool_worker *w);

static void pool_write_cb(uv_write_t *req, int status)
{
  (void)status;
  free(req->data);
  free(req);
}

static int pool_send(struct pool_worker *w, const char *line)
{
  uv_write_t *req;
  uv_buf_t b;
  size_t n = strlen(line);
  char *copy;
  if (!w->running)
    return -EPIPE;
  req = malloc(sizeof(*req));
  copy = malloc(n + 1);
  if (!req || !copy) {
    free(req);
    free(copy);
    return -ENOMEM;
  }
  memcpy(copy, line, n);
  copy[n] = '\n';
  req->data = copy; /* freed in pool_write_cb */
  b = uv_buf_init(copy, (unsigned)n + 1);
  if (uv_write(req, (uv_stream_t *)&w->to, &b, 1, pool_write_cb) != 0) {
    free(copy);
    free(req);
    return -EPIPE;
  }
  return 0;
}

int pool_assign(struct pool_worker *w, const char *job_id, const char *lease_owner, int attempt,
                int infra_retries)
{
  json_t *m;
  char *msg;
  int rc;
  w->reserved = 0;
  if (w->state != POOL_IDLE)
    return -EBUSY;
  m = json_pack("{s:s, s:s, s:s, s:i, s:i}", "type", "run", "job_id", job_id, "lease_owner",
                lease_owner, "attempt", attempt, "infra_retries", infra_retries);
  msg = m ? json_dumps(m, JSON_COMPACT) : NULL;
  json_decref(m);
  rc = msg ? pool_send(w, msg) : -ENOMEM;
  free(msg);
  if (rc)
    return rc == -ENOMEM ? rc : -EPIPE;
  snprintf(w->job, sizeof(w->job), "%s", job_id);
  snprintf(w->lease_owner, sizeof(w->lease_owner), "%s", lease_owner);
  w->state = POOL_BUSY;
  log_info("pool.assigned", "device=%s job=%s attempt=%d infra_retries=%d owner=%s", w->dev.name,
           job_id, attempt, infra_retries, lease_owner);
  return 0;
}

/* Stops a worker so that it starts again at once with the current settings. */
static void pool_restart_now(struct pool_worker *w)
{
  w->restart_after_job = 0;
  if (!w->running)
    return;
  w->restart_asked = 1;
  w->check = POOL_CHECK_PENDING; /* the old verdict was about the old settings */
  uv_process_kill(&w->proc, SIGTERM);
}

/* {"type":"status","ready":true,"harness":{...}} or {"type":"status","ready":false,
 * "reason":"..."}: the verdict of the worker's check. */
static void pool_on_status(struct pool_worker *w, json_t *m)
{
  const char *reason = json_string_value(json_object_get(m, "reason"));
  int ready = json_is_true(json_object_get(m, "ready"));
  w->check_asked_ms = 0;
  w->check_done_ms = ctx_now_ms();
  if (ready) {
    char *facts = json_dumps(json_object_get(m, "harness"), JSON_COMPACT);
    snprintf(w->facts, sizeof(w->facts), "%s", facts ? facts : "");
    free(facts);
    if (w->check != POOL_CHECK_OK || w->state != POOL_BUSY)
      log_info("pool.worker_ready", "device=%s pid=%d harness=%s", w->dev.name, w->pid,
               w->facts[0] ? w->facts : "{}");
    w->check = POOL_CHECK_OK;
    w->reason[0] = '\0';
    if (w->state == POOL_STARTING || w->state == POOL_UNREADY) {
      w->state = POOL_IDLE;
      sched_kick(w->ctx);
    }
    return;
  }
  if (!reason || !*reason)
    reason = "the worker's start-up check failed without a reason";
  /* Said once per reason; the periodic re-checks that fail alike stay quiet. */
  if (w->check != POOL_CHECK_FAILED || strcmp(w->reason, reason) != 0) {
    char q[POOL_REASON_MAX + 64];
    log_error("pool.worker_unready", "device=%s pid=%d reason=%s action=recheck_every_%us",
              w->dev.name, w->pid, log_quote(q, sizeof(q), reason), POOL_RECHECK_MS / 1000);
  }
  w->check = POOL_CHECK_FAILED;
  snprintf(w->reason, sizeof(w->reason), "%s", reason);
  w->facts[0] = '\0';
  if (w->state == POOL_STARTING || w->state == POOL_IDLE)
    w->state = POOL_UNREADY;
}

static void pool_handle_line(struct pool_worker *w, const char *line)
{
  json_error_t je;
  json_t *m = json_loads(line, 0, &je);
  const char *type = json_string_value(json_object_get(m, "type"));

  if (!type) {
    log_warn("pool.bad_line", "device=%s", w->dev.name);
    goto out;
  }
  w->last_heartbeat_ms = ctx_now_ms();
  if (strcmp(type, "hello") == 0) {
    /* Alive; it takes jobs once its check says so (a status line). */
    log_info("pool.worker_hello", "device=%s pid=%d", w->dev.name, w->pid);
  } else if (strcmp(type, "status") == 0) {
    pool_on_status(w, m);
  } else if (strcmp(type, "job_done") == 0) {
    const char *id = json_string_value(json_object_get(m, "job_id"));
    const char *outcome = json_string_value(json_object_get(m, "outcome"));
    log_info("pool.job_done", "device=%s job=%s outcome=%s", w->dev.name, id ? id : "?",
             outcome ? outcome : "?");
    if (id)
      sched_release(w->ctx, id, w->lease_owner, outcome && strcmp(outcome, KOPT_OUTCOME_ABORTED) == 0);
    w->job[0] = '\0';
    if (w->state == POOL_BUSY)
      w->state = w->check == POOL_CHECK_FAILED ? POOL_UNREADY : POOL_IDLE;
    if (w->restart_after_job)
      pool_restart_now(w);
    else
      sched_kick(w->ctx);
  }
out:
  json_decref(m);
}

static void pool_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
  static char scratch[65536]; /* loop thread only; consumed before the next read */
  (void)h;
  (void)suggested;
  *b = uv_buf_init(scratch, sizeof(scratch));
}

static void pool_read_cb(uv_stream_t *s, ssize_t nread, const uv_buf_t *b)
{
  struct pool_worker *w = s->data;
  if (nread <= 0)
    return; /* EOF/error: the exit callback does the rest */
  for (ssize_t i = 0; i < nread; i++) {
    char c = b->base[i];
    if (c == '\n') {
      if (w->line.data)
        pool_handle_line(w, w->line.data);
      buf_reset(&w->line);
    } else if (buf_append(&w->line, &c, 1)) {
      log_warn("pool.line_too_long", "device=%s", w->dev.name);
      buf_reset(&w->line);
    }
  }
}

static void pool_restart_cb(uv_timer_t *t) { pool_spawn(t->data); }

static void pool_handle_closed(uv_handle_t *h)
{
  struct pool_worker *w = h->data;
  struct pool *p = pool_of(w->ctx);
  if (--w->handles_open > 0)
    return;
  w->running = 0;
  if (p->stopping || w->ctx->draining) {
    w->state = POOL_STOPPED;
    return;
  }
  /* Exponential backoff, reset once a worker has stayed up for a minute. */
  if (ctx_now_ms() - w->started_ms > 60000 || w->restart_asked)
    w->backoff_ms = POOL_BACKOFF_MIN_MS;
  w->restart_asked = 0;
  w->state = POOL_BACKOFF;
  uv_timer_start(&w->restart, pool_restart_cb, w->backoff_ms, 0);
  log_info("pool.restart_scheduled", "device=%s in_ms=%u", w->dev.name, w->backoff_ms);
  w->backoff_ms = w->backoff_ms * 2 > POOL_BACKOFF_MAX_MS ? POOL_BACKOFF_MAX_MS : w->backoff_ms * 2;
}

static void pool_exit_cb(uv_process_t *proc, int64_t status, int sig)
{
  struct pool_worker *w = proc->data;
  log_warn("pool.worker_exited", "device=%s pid=%d status=%lld signal=%d job=%s", w->dev.name,
           w->pid, (long long)status, sig, w->job[0] ? w->job : "-");
  if (w->job[0]) {
    /* Its job keeps its committed steps; expiring the lease lets any koptd resume it. */
    sched_release(w->ctx, w->job, w->lease_owner, 1);
    w->job[0] = '\0';
  }
  w->state = POOL_STOPPED;
  w->restarts++;
  uv_close((uv_handle_t *)&w->proc, pool_handle_closed);
  uv_close((uv_handle_t *)&w->to, pool_handle_closed);
  uv_close((uv_handle_t *)&w->from, pool_handle_closed);
}

static void pool_spawn(struct pool_worker *w)
{
  struct kopt_ctx *ctx = w->ctx;
  uv_process_options_t o;
  uv_stdio_container_t io[3];
  char *args[4];
  int rc;

  if (pool_of(ctx)->stopping || ctx->draining)
    return;
  memset(&o, 0, sizeof(o));
  uv_pipe_init(ctx->loop, &w->to, 0);
  uv_pipe_init(ctx->loop, &w->from, 0);
  w->to.data = w->from.data = w->proc.data = w;
  io[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
  io[0].data.stream = (uv_stream_t *)&w->to;
  io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  io[1].data.stream = (uv_stream_t *)&w->from;
  io[2].flags = UV_INHERIT_FD;
  io[2].data.fd = 2;
  args[0] = ctx->cfg.worker_bin;
  args[1] = "--device";
  args[2] = w->dev.name;
  args[3] = NULL;
  o.file = ctx->cfg.worker_bin;
  o.args = args;
  o.env = ctx->worker_env;
  o.stdio = io;
  o.stdio_count = 3;
  o.exit_cb = pool_exit_cb;
  w->state = POOL_STARTING;
  w->check_asked_ms = 0;
  w->started_ms = w->last_heartbeat_ms = ctx_now_ms();
  buf_reset(&w->line);
  rc = uv_spawn(ctx->loop, &w->proc, &o);
  w->handles_open = 3;
  if (rc != 0) {
    log_error("pool.spawn_failed", "device=%s bin=%s err=\"%s\"", w->dev.name,
              ctx->cfg.worker_bin, uv_strerror(rc));
    w->running = 1; /* so the close path schedules the retry */
    uv_close((uv_handle_t *)&w->proc, pool_handle_closed);
    uv_close((uv_handle_t *)&w->to, pool_handle_closed);
    uv_close((uv_handle_t *)&w->from, pool_handle_closed);
    return;
  }
  w->running = 1;
  w->pid = w->proc.pid;
  uv_read_start((uv_stream_t *)&w->from, pool_alloc_cb, pool_read_cb);
  log_info("pool.worker_started", "device=%s pid=%d", w->dev.name, w->pid);
}

/* Asks an idle or unready worker to run its check again. */
static int pool_ask_check(struct pool_worker *w, uint64_t now)
{
  if (pool_send(w, "{\"type\":\"check\"}"))
    return -EPIPE;
  w->check_asked_ms = now;
  return 0;
}

static void pool_check_cb(uv_timer_t *t)
{
  struct kopt_ctx *ctx = t->data;
  struct pool *p = pool_of(ctx);
  uint64_t now = ctx_now_ms();
  for (unsigned i = 0; i < p->n; i++) {
    struct pool_worker *w = &p->w[i];
    if (w->running && (w->state == POOL_IDLE || w->state == POOL_BUSY ||
                       w->state == POOL_STARTING) &&
        now - w->last_heartbeat_ms > POOL_HEARTBEAT_TIMEOUT_MS) {
      log_error("pool.heartbeat_missed", "device=%s pid=%d silent_ms=%llu action=kill",
                w->dev.name, w->pid, (unsigned long long)(now - w->last_heartbeat_ms));
      uv_process_kill(&w->proc, SIGKILL);
      w->last_heartbeat_ms = now; /* one kill per silence */
    }
    /* An unready worker checks again: a fixed interpreter makes it ready without a
     * restart of koptd. */
    if (w->running && w->state == POOL_UNREADY && !w->check_asked_ms &&
        now - w->check_done_ms >= POOL_RECHECK_MS)
      pool_ask_check(w, now);
  }
}

int pool_start(struct kopt_ctx *ctx, const struct device_list *devs)
{
  struct pool *p = calloc(1, sizeof(*p));
  if (!p)
    return -ENOMEM;
  ctx->workers = p;
  uv_timer_init(ctx->loop, &p->check);
  p->check.data = ctx;
  uv_timer_start(&p->check, pool_check_cb, 1000, 1000);
  for (unsigned i = 0; i < devs->n; i++) {
    struct pool_worker *w = &p->w[p->n++];
    w->ctx = ctx;
    w->dev = devs->dev[i];
    w->backoff_ms = POOL_BACKOFF_MIN_MS;
    buf_init(&w->line, POOL_LINE_MAX);
    uv_timer_init(ctx->loop, &w->restart);
    w->restart.data = w;
    pool_spawn(w);
  }
  return 0;
}

void pool_stop(struct kopt_ctx *ctx)
{
  struct pool *p = pool_of(ctx);
  if (!p || p->stopping)
    return;
  p->stopping = 1;
  uv_timer_stop(&p->check);
  for (unsigned i = 0; i < p->n; i++) {
    struct pool_worker *w = &p->w[i];
    uv_timer_stop(&w->restart);
    if (w->running && w->proc.pid)
      uv_process_kill(&w->proc, SIGTERM);
  }
}

void pool_free(struct kopt_ctx *ctx)
{
  struct pool *p = pool_of(ctx);
  if (!p)
    return;
  for (unsigned i = 0; i < p->n; i++)
    buf_free(&p->w[i].line);
  free(p);
  ctx->workers = NULL;
}

unsigned pool_live(struct kopt_ctx *ctx)
{
  struct pool *p = pool_of(ctx);
  unsigned n = 0;
  if (!p)
    return 0;
  for (unsigned i = 0; i < p->n; i++)
    if (p->w[i].running)
      n++;
  return n;
}

void pool_render_metrics(struct kopt_ctx *ctx, struct buf *out)
{
  struct pool *p = pool_of(ctx);
  unsigned count[POOL_STATE_COUNT] = { 0 };
  unsigned long long restarts = 0;
  if (!p)
    return;
  for (unsigned i = 0; i < p->n; i++) {
    count[p->w[i].state]++;
    restarts += p->w[i].restarts;
  }
  buf_appends(out, "# HELP kopt_workers Worker processes of this koptd by state.\n"
                   "# TYPE kopt_workers gauge\n");
  for (int s = 0; s < POOL_STATE_COUNT; s++)
    buf_appendf(out, "kopt_workers{state=\"%s\"} %u\n", pool_state_name((enum pool_state)s),
                count[s]);
  buf_appends(out, "# HELP kopt_worker_busy 1 while the device's worker runs a job.\n"
                   "# TYPE kopt_worker_busy gauge\n");
  for (unsigned i = 0; i < p->n; i++)
    buf_appendf(out, "kopt_worker_busy{device=\"%s\"} %d\n", p->w[i].dev.name,
                p->w[i].state == POOL_BUSY);
  buf_appends(out, "# HELP kopt_worker_ready 1 when the worker's last start-up check passed.\n"
                   "# TYPE kopt_worker_ready gauge\n");
  for (unsigned i = 0; i < p->n; i++)
    buf_appendf(out, "kopt_worker_ready{device=\"%s\"} %d\n", p->w[i].dev.name,
                p->w[i].check == POOL_CHECK_OK);
  buf_appendf(out, "# HELP kopt_worker_restarts_total Worker processes that exited.\n"
                   "# TYPE kopt_worker_restarts_total counter\nkopt_worker_restarts_total %llu\n",
              restarts);
}

const char *pool_state_label(enum pool_state s) { return pool_state_name(s); }

void pool_reconfigure(struct kopt_ctx *ctx, int restart)
{
  struct pool *p = pool_of(ctx);
  if (!p || p->stopping)
    return;
  for (unsigned i = 0; i < p->n; i++) {
    struct pool_worker *w = &p->w[i];
    if (!w->running)
      continue;
    if (restart && w->state == POOL_BUSY) {
      w->restart_after_job = 1;
      log_info("pool.restart_after_job", "device=%s job=%s why=settings_changed", w->dev.name,
               w->job);
    } else if (restart) {
      log_info("pool.restart", "device=%s why=settings_changed", w->dev.name);
      pool_restart_now(w);
    } else if (w->state == POOL_UNREADY && !w->check_asked_ms) {
      pool_ask_check(w, ctx_now_ms());
    }
  }
}

unsigned pool_unready(struct kopt_ctx *ctx, struct buf *why)
{
  struct pool *p = pool_of(ctx);
  unsigned n = 0;
  if (!p)
    return 0;
  for (unsigned i = 0; i < p->n; i++) {
    const struct pool_worker *w = &p->w[i];
    if (w->check == POOL_CHECK_OK)
      continue;
    if (why)
      buf_appendf(why, "%s%s: %s", n ? "; " : "", w->dev.name,
                  w->check == POOL_CHECK_FAILED ? w->reason
                                                : "its start-up check has not finished");
    n++;
  }
  return n;
}
