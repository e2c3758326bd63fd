/* pool: the worker processes koptd supervises, one per configured device. Each speaks JSON
 * lines over a pipe pair (workers/PROTOCOL.md); a worker that exits is restarted with
 * exponential backoff, and one that stops sending heartbeats is killed (then restarted).
 *
 * A worker takes jobs only once its start-up check passed (workers/check.c: its harness
 * runs as the sandbox user and imports torch and Triton). One that failed it is "unready":
 * it keeps the reason, is asked to check again every POOL_RECHECK_MS (and at once on
 * SIGHUP), and makes /readyz answer 503 until it passes; queued jobs wait meanwhile. */
#ifndef KOPT_POOL_H
#define KOPT_POOL_H
#include "ctx.h"
#include "devices.h"

#define POOL_HEARTBEAT_TIMEOUT_MS 20000
#define POOL_RECHECK_MS 10000        /* an unready worker checks again this often */
#define POOL_REASON_MAX 1024         /* why a worker is unready */
#define POOL_FACTS_MAX 512           /* what its check found (JSON) */

enum pool_state {
  POOL_STARTING = 0, /* spawned; its first check has not answered yet */
  POOL_IDLE,
  POOL_BUSY,
  POOL_BACKOFF,
  POOL_STOPPED,
  POOL_UNREADY,      /* its last check failed: no jobs until one passes */
  POOL_STATE_COUNT
};

/* The verdict of a worker's last start-up check. */
enum pool_check { POOL_CHECK_PENDING = 0, POOL_CHECK_OK, POOL_CHECK_FAILED };

struct pool_worker;

/* Starts one worker per device. 0 or -errno. */
int pool_start(struct kopt_ctx *ctx, const struct device_list *devs);
/* Asks every worker to stop (SIGTERM: abandon the current step, leave the job claimable);
 * handles close as the processes exit. */
void pool_stop(struct kopt_ctx *ctx);
/* Frees the pool once the loop has closed every handle. */
void pool_free(struct kopt_ctx *ctx);
/* Workers whose handles are still open (drain waits for 0). */
unsigned pool_live(struct kopt_ctx *ctx);
/* Appends kopt_workers{state} and kopt_worker_restarts_total to a metrics page. */
void pool_render_metrics(struct kopt_ctx *ctx, struct buf *out);
/* After SIGHUP. restart: the settings workers start with changed (daemon/workercfg.c), so
 * each is restarted now, or after its job when busy; otherwise unready workers check again
 * at once. */
void pool_reconfigure(struct kopt_ctx *ctx, int restart);
/* Workers whose last check did not pass (pending or failed); appends "device: reason" for
 * each to why ("; "-separated) when why is not NULL. Loop thread. */
unsigned pool_unready(struct kopt_ctx *ctx, struct buf *why);

/* For the scheduler: the n-th worker, its state/device/job. */
unsigned pool_count(struct kopt_ctx *ctx);
struct pool_worker *pool_at(struct kopt_ctx *ctx, unsigned i);
enum pool_state pool_worker_state(const struct pool_worker *w);
const struct device *pool_worker_device(const struct pool_worker *w);
const char *pool_worker_job(const struct pool_worker *w);
/* Hands a claimed job to an idle worker under the claim named lease_owner (copied), with the
 * job's attempt number and infra retries so far; 0 or -EBUSY/-EPIPE/-ENOMEM. */
int pool_assign(struct pool_worker *w, const char *job_id, const char *lease_owner, int attempt,
                int infra_retries);
/* Marks a worker idle-but-reserved while a claim for it is in flight. */
void pool_reserve(struct pool_worker *w, int reserved);
int pool_reserved(const struct pool_worker *w);
const char *pool_state_label(enum pool_state s);
int pool_worker_pid(const struct pool_worker *w);
unsigned pool_worker_restarts(const struct pool_worker *w);
enum pool_check pool_worker_check(const struct pool_worker *w);
const char *pool_worker_reason(const struct pool_worker *w);  /* "" unless the check failed */
const char *pool_worker_facts(const struct pool_worker *w);   /* JSON object text, or "" */

#endif
