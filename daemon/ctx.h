/* ctx: the daemon's one context struct. Everything long-lived hangs off it; nothing else is
 * global (log settings aside). Owned by main(); lives for the process. */
#ifndef KOPT_CTX_H
#define KOPT_CTX_H
#include <stdint.h>
#include <uv.h>

#include "auth.h"
#include "config.h"
#include "db.h"
#include "jobcache.h"
#include "metrics.h"

struct http_server;
struct sse_hub;
struct notify_listener;
struct sched;
struct pool;

struct kopt_ctx {
  uv_loop_t *loop;               /* borrowed: uv_default_loop() */
  struct config cfg;             /* current settings; replaced on SIGHUP */
  char config_path[CONFIG_STR_MAX];
  struct db_pool pool;
  struct auth_cache auth;
  struct jobcache jobs;          /* job documents and lists, invalidated by NOTIFY */
  struct metrics metrics;        /* loop thread only */
  struct http_server *http;      /* owned */
  struct sse_hub *sse;           /* owned */
  struct notify_listener *notify; /* owned */
  struct sched *sched;           /* owned; NULL when no devices are configured */
  struct pool *workers;          /* owned; the supervised worker processes */
  char **worker_env;             /* owned: the environment workers start with (workercfg.h) */
  uv_signal_t sig_term, sig_int, sig_hup;
  uv_timer_t watchdog;
  uv_timer_t drain_timer;
  uint64_t drain_deadline_ms;
  int draining;
  int exit_code;
  int schema_latest;             /* highest migration this binary knows */
  char instance_id[320];         /* host_id:pid, the lease owner name */
};

uint64_t ctx_now_ms(void);       /* CLOCK_MONOTONIC milliseconds */
int64_t ctx_wall_ms(void);       /* CLOCK_REALTIME milliseconds */

#endif
