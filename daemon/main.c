/* koptd: the kopt daemon. `koptd [-c FILE]` serves; `koptd migrate` applies migrations;
 * `koptd token create --role R` prints a new API token on its last line, `token list` and
 * `token revoke` manage them (daemon/tokens.c). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ctx.h"
#include "http.h"
#include "log.h"
#include "migrate.h"
#include "notify.h"
#include "pool.h"
#include "scheduler.h"
#include "devices.h"
#include "sdnotify.h"
#include "sse.h"
#include "tokens.h"
#include "workercfg.h"
#include "version.h"

#define DRAIN_LIMIT_MS 8000

uint64_t ctx_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int64_t ctx_wall_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void usage(FILE *f)
{
  fprintf(f,
          "usage: koptd [-c FILE] [serve]\n"
          "       koptd [-c FILE] migrate\n"
          "       koptd [-c FILE] token create --role viewer|submitter|admin [--name NAME]\n"
          "                                    [--expires-in 30d]\n"
          "       koptd [-c FILE] token list\n"
          "       koptd [-c FILE] token revoke ID|PREFIX|TOKEN\n"
          "       koptd --version\n"
          "Settings come from FILE (INI) and the environment (KOPT_DATABASE_URL, KOPT_LISTEN,\n"
          "KOPT_DEVICES, KOPT_LOG_LEVEL, KOPT_POOL_SIZE, KOPT_MAX_BODY_BYTES, ...).\n"
          "See deploy/koptd.conf.example.\n");
}

/* Every change to a job is announced on kopt_job_events or kopt_job_changed (migration
 * 003); either one invalidates the job cache. */
static const char *const notify_channels[] = { "kopt_job_changed", "kopt_job_events",
                                               "kopt_jobs_queued", "kopt_tokens_changed",
                                               NULL };

/* {"job_id": "<uuid>", ...} (kopt_job_events) -> the id; "" when it is not there. */
static void notify_job_id(const char *payload, char id[40])
{
  json_error_t je;
  json_t *doc = json_loads(payload, 0, &je);
  const char *s = json_string_value(json_object_get(doc, "job_id"));
  snprintf(id, 40, "%s", s ? s : "");
  json_decref(doc);
}

static void on_notify(struct kopt_ctx *ctx, const char *channel, const char *payload)
{
  if (strcmp(channel, "kopt_job_changed") == 0) {
    jobcache_invalidate(&ctx->jobs, payload);
  } else if (strcmp(channel, "kopt_job_events") == 0) {
    char id[40];
    notify_job_id(payload, id);
    /* Invalidate first: a stream woken here makes its reader read the job again. */
    jobcache_invalidate(&ctx->jobs, id[0] ? id : "*");
    if (ctx->sse && id[0])
      sse_on_notify(ctx->sse, id);
  }
  else if (strcmp(channel, "kopt_jobs_queued") == 0)
    sched_kick(ctx);
  else if (strcmp(channel, "kopt_tokens_changed") == 0) {
    auth_cache_flush(&ctx->auth); /* revoked (or otherwise changed): forget it now */
    jobcache_invalidate(&ctx->jobs, "*"); /* job documents name their token */
  }
  else if (channel[0] == '\0') {
    /* Up: listening again, and anything may have changed meanwhile. Down: changes would go
     * unannounced, so the token cache is bypassed until the channel is back. */
    int up = strcmp(payload, NOTIFY_UP) == 0;
    auth_cache_set_live(&ctx->auth, up);
    jobcache_set_live(&ctx->jobs, up);
    if (up)
      sched_kick(ctx);
  }
}

static void close_walk_cb(uv_handle_t *h, void *arg)
{
  (void)arg;
  if (!uv_is_closing(h))
    uv_close(h, NULL);
}

static void shutdown_now(struct kopt_ctx *ctx)
{
  uv_timer_stop(&ctx->drain_timer);
  /* The listener first: requests parked on a NOTIFY barrier are resumed (failed) before
   * MHD stops, which it must not do with connections still suspended. */
  notify_stop(ctx->notify);
  http_stop(ctx->http);
  sse_hub_stop(ctx->sse);
  /* Signals, timers: everything left that main owns. */
  uv_walk(ctx->loop, close_walk_cb, NULL);
}

static void drain_tick(uv_timer_t *t)
{
  struct kopt_ctx *ctx = t->data;
  unsigned busy = http_busy(ctx->http) + pool_live(ctx) + sched_pending(ctx);
  if (busy == 0 || ctx_now_ms() >= ctx->drain_deadline_ms) {
    if (busy)
      log_warn("koptd.drain_timeout", "unfinished=%u", busy);
    log_info("koptd.stopped", "exit=%d", ctx->exit_code);
    shutdown_now(ctx);
  }
}

static void begin_drain(struct kopt_ctx *ctx, int signum)
{
  if (ctx->draining) {
    log_warn("koptd.second_signal", "signal=%d action=exit_now", signum);
    ctx->exit_code = 1;
    shutdown_now(ctx);
    return;
  }
  ctx->draining = 1;
  log_info("koptd.draining", "signal=%d in_flight=%u limit_ms=%d", signum,
           http_busy(ctx->http), DRAIN_LIMIT_MS);
  sdnotify_send("STOPPING=1");
  http_quiesce(ctx->http);
  sched_stop(ctx);
  pool_stop(ctx);
  if (ctx->sse)
    sse_close_all(ctx->sse);
  ctx->drain_deadline_ms = ctx_now_ms() + DRAIN_LIMIT_MS;
  uv_timer_start(&ctx->drain_timer, drain_tick, 0, 50);
}

static void on_signal(uv_signal_t *s, int signum)
{
  struct kopt_ctx *ctx = s->data;
  if (signum == SIGHUP) {
    struct config nc;
    char err[512];
    if (config_load(&nc, ctx->config_path, err, sizeof(err)) != 0) {
      log_error("config.reload_failed", "err=\"%s\" action=kept_old", err);
      return;
    }
    if (strcmp(nc.listen_host, ctx->cfg.listen_host) || nc.listen_port != ctx->cfg.listen_port ||
        strcmp(nc.probe_listen_host, ctx->cfg.probe_listen_host) ||
        nc.probe_listen_port != ctx->cfg.probe_listen_port ||
        nc.max_connections != ctx->cfg.max_connections ||
        nc.max_connections_per_ip != ctx->cfg.max_connections_per_ip ||
        nc.connection_timeout_s != ctx->cfg.connection_timeout_s ||
        nc.cache_max_entries != ctx->cfg.cache_max_entries ||
        nc.cache_max_bytes != ctx->cfg.cache_max_bytes ||
        strcmp(nc.database_url, ctx->cfg.database_url) || nc.pool_size != ctx->cfg.pool_size)
      log_warn("config.restart_needed",
               "keys=\"listen probe_listen max_connections max_connections_per_ip"
               " connection_timeout_s cache_max_entries cache_max_bytes database.url"
               " pool_size\"");
    /* Keep what only a restart can change (the listeners' sockets and tables, the
     * database pool); take the rest. */
    snprintf(nc.listen_host, sizeof(nc.listen_host), "%s", ctx->cfg.listen_host);
    nc.listen_port = ctx->cfg.listen_port;
    snprintf(nc.probe_listen_host, sizeof(nc.probe_listen_host), "%s",
             ctx->cfg.probe_listen_host);
    nc.probe_listen_port = ctx->cfg.probe_listen_port;
    nc.max_connections = ctx->cfg.max_connections;
    nc.max_connections_per_ip = ctx->cfg.max_connections_per_ip;
    nc.connection_timeout_s = ctx->cfg.connection_timeout_s;
    nc.cache_max_entries = ctx->cfg.cache_max_entries;
    nc.cache_max_bytes = ctx->cfg.cache_max_bytes;
    snprintf(nc.database_url, sizeof(nc.database_url), "%s", ctx->cfg.database_url);
    nc.pool_size = ctx->cfg.pool_size;
    if (ctx->workers) {
      /* Workers read their settings when they start: restart them if those changed. */
      char **env;
      workercfg_resolve(&nc);
      if (workercfg_changed(&ctx->cfg, &nc) && (env = workercfg_env(&nc))) {
        workercfg_env_free(ctx->worker_env);
        ctx->worker_env = env;
        ctx->cfg = nc;
        pool_reconfigure(ctx, 1);
      } else {
        pool_reconfigure(ctx, 0);
      }
    }
    ctx->cfg = nc;
    log_set_level(nc.log_level);
    log_info("config.reloaded", "path=%s max_body_bytes=%zu max_source_bytes=%zu",
             ctx->config_path[0] ? ctx->config_path : "-", nc.max_body_bytes,
             nc.max_source_bytes);
    return;
  }
  begin_drain(ctx, signum);
}

static void watchdog_cb(uv_timer_t *t)
{
  (void)t;
  sdnotify_send("WATCHDOG=1");
}

static int cmd_migrate(struct kopt_ctx *ctx)
{
  char err[512];
  unsigned applied = 0;
  PGconn *c = db_connect(ctx->cfg.database_url, err, sizeof(err));
  int rc;
  if (!c) {
    log_error("db.connect_failed", "err=\"%s\"", err);
    return 1;
  }
  rc = migrate_apply(c, &applied, err, sizeof(err));
  if (rc)
    log_error("migrate.failed", "err=\"%s\"", err);
  else
    log_info("migrate.done", "applied=%u version=%d", applied, migrate_current(c));
  PQfinish(c);
  return rc ? 1 : 0;
}

static int cmd_serve(struct kopt_ctx *ctx)
{
  char err[512], env[16];
  struct device_list devs;
  unsigned applied = 0;
  PGconn *c;
  uint64_t wd;
  int rc = 1;

  /* The thread pool runs database work; size it to the connection pool. */
  snprintf(env, sizeof(env), "%u", ctx->cfg.pool_size + 2);
  setenv("UV_THREADPOOL_SIZE", env, 1);
  signal(SIGPIPE, SIG_IGN);
  ctx->loop = uv_default_loop();
  snprintf(ctx->instance_id, sizeof(ctx->instance_id), "%s:%d", ctx->cfg.host_id, (int)getpid());
  auth_cache_init(&ctx->auth);
  jobcache_init(&ctx->jobs, ctx->cfg.cache_max_entries, ctx->cfg.cache_max_bytes);
  metrics_init(&ctx->metrics, ctx_now_ms());
  ctx->schema_latest = migrate_latest();

  if (db_pool_init(&ctx->pool, ctx->cfg.database_url, ctx->cfg.pool_size, err, sizeof(err))) {
    log_error("db.connect_failed", "err=\"%s\"", err);
    goto out_nopool;
  }
  /* Start-up migration runs before the loop serves anything, so blocking here is fine. */
  c = db_pool_acquire(&ctx->pool, err, sizeof(err));
  if (!c || migrate_apply(c, &applied, err, sizeof(err))) {
    log_error("migrate.failed", "err=\"%s\"", err);
    if (c)
      db_pool_release(&ctx->pool, c);
    goto out;
  }
  db_pool_release(&ctx->pool, c);

  if (devices_parse(ctx->cfg.devices, "/dev", &devs, err, sizeof(err))) {
    log_error("config.invalid", "err=\"%s\"", err);
    goto out;
  }
  auth_cache_set_live(&ctx->auth, 0); /* until the NOTIFY channel listens */
  if (sse_hub_init(ctx) || notify_start(ctx, notify_channels, on_notify)) {
    log_error("koptd.init_failed", "err=out_of_memory");
    goto out;
  }
  if (http_start(ctx, err, sizeof(err))) {
    log_error("http.start_failed", "err=\"%s\"", err);
    goto out;
  }
  uv_signal_init(ctx->loop, &ctx->sig_term);
  uv_signal_init(ctx->loop, &ctx->sig_int);
  uv_signal_init(ctx->loop, &ctx->sig_hup);
  ctx->sig_term.data = ctx->sig_int.data = ctx->sig_hup.data = ctx;
  uv_signal_start(&ctx->sig_term, on_signal, SIGTERM);
  uv_signal_start(&ctx->sig_int, on_signal, SIGINT);
  uv_signal_start(&ctx->sig_hup, on_signal, SIGHUP);
  uv_timer_init(ctx->loop, &ctx->drain_timer);
  ctx->drain_timer.data = ctx;
  uv_timer_init(ctx->loop, &ctx->watchdog);
  wd = sdnotify_watchdog_usec();
  if (wd)
    uv_timer_start(&ctx->watchdog, watchdog_cb, 0, wd / 2000 ? wd / 2000 : 1);

  if (devs.n) {
    workercfg_resolve(&ctx->cfg);
    ctx->worker_env = workercfg_env(&ctx->cfg);
    if (!ctx->worker_env) {
      log_error("koptd.init_failed", "err=out_of_memory");
      goto out;
    }
    if (pool_start(ctx, &devs) || sched_start(ctx)) {
      log_error("koptd.init_failed", "err=out_of_memory");
      goto out;
    }
  }
  log_info("koptd.ready",
           "listen=%s:%u probe_listen=%s:%u version=%s schema=%d pool=%u devices=%u"
           " instance=%s",
           ctx->cfg.listen_host, http_port(ctx->http),
           ctx->cfg.probe_listen_host[0] ? ctx->cfg.probe_listen_host : "none",
           http_probe_port(ctx->http), kopt_version, ctx->schema_latest, ctx->cfg.pool_size,
           devs.n, ctx->instance_id);
  sdnotify_send("READY=1");
  uv_run(ctx->loop, UV_RUN_DEFAULT);
  rc = ctx->exit_code;
out:
  if (ctx->http || ctx->sse || ctx->notify) {
    /* Failed part-way through start-up: close what was opened, then let it finish. */
    if (ctx->http)
      http_stop(ctx->http);
    sse_hub_stop(ctx->sse);
    notify_stop(ctx->notify);
    uv_walk(ctx->loop, close_walk_cb, NULL);
    uv_run(ctx->loop, UV_RUN_DEFAULT);
  }
  free(ctx->sched);
  pool_free(ctx);
  workercfg_env_free(ctx->worker_env);
  ctx->worker_env = NULL;
  db_pool_close(&ctx->pool);
out_nopool:
  auth_cache_destroy(&ctx->auth);
  jobcache_destroy(&ctx->jobs);
  if (ctx->loop)
    uv_loop_close(ctx->loop);
  return rc;
}

int main(int argc, char **argv)
{
  static const struct option opts[] = { { "config", required_argument, NULL, 'c' },
                                        { "help", no_argument, NULL, 'h' },
                                        { "version", no_argument, NULL, 'V' },
                                        { NULL, 0, NULL, 0 } };
  static struct kopt_ctx ctx; /* the one context; static only to keep it off the stack */
  const char *cfgpath = getenv("KOPT_CONFIG");
  char err[512];
  int o;

  log_set_component("koptd");
  while ((o = getopt_long(argc, argv, "+c:hV", opts, NULL)) != -1) {
    switch (o) {
    case 'c': cfgpath = optarg; break;
    case 'h': usage(stdout); return 0;
    case 'V': printf("koptd %s\n", kopt_version); return 0;
    default: usage(stderr); return 2;
    }
  }
  if (config_load(&ctx.cfg, cfgpath, err, sizeof(err)) != 0) {
    fprintf(stderr, "koptd: config: %s\n", err);
    return 2;
  }
  snprintf(ctx.config_path, sizeof(ctx.config_path), "%s", cfgpath ? cfgpath : "");
  log_set_level(ctx.cfg.log_level);
  if (optind >= argc || strcmp(argv[optind], "serve") == 0)
    return cmd_serve(&ctx);
  if (strcmp(argv[optind], "migrate") == 0)
    return cmd_migrate(&ctx);
  if (strcmp(argv[optind], "token") == 0)
    return tokens_cmd(ctx.cfg.database_url, argc - optind, argv + optind);
  fprintf(stderr, "koptd: unknown command '%s'\n", argv[optind]);
  usage(stderr);
  return 2;
}
