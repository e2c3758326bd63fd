/* pool: the worker processes koptd supervises, one per configured device. Each speaks JSON
 * lines over a pipe pair; a worker that exits is restarted with exponential backoff, and
 * one that stops sending heartbeats is killed (then restarted). */
#ifndef KOPT_POOL_H
#define KOPT_POOL_H
#include "ctx.h"
#include "devices.h"

#define POOL_HEARTBEAT_TIMEOUT_MS 20000

enum pool_state { POOL_STARTING = 0, POOL_IDLE, POOL_BUSY, POOL_BACKOFF, POOL_STOPPED };

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

#endif
