/* sched: gives queued jobs to idle workers. Claims run on the thread pool as one
 * statement (SELECT ... FOR UPDATE SKIP LOCKED inside an UPDATE) that takes the highest
 * priority, oldest job whose backend matches the device (or is "any"), or a running job
 * whose lease expired, and leases it to one worker of this koptd (each claim has an owner
 * name of its own); leases are renewed while our workers run them. NOTIFY kopt_jobs_queued wakes it; a poll every few seconds backs that up. */
#ifndef KOPT_SCHEDULER_H
#define KOPT_SCHEDULER_H
#include "ctx.h"

int sched_start(struct kopt_ctx *ctx);
/* Look for work now (new job announced, a worker became idle). */
void sched_kick(struct kopt_ctx *ctx);
/* Longest lease owner name: "<instance id>/<device>/<claim number>". */
#define SCHED_OWNER_MAX 400
/* A worker stopped running job_id under the claim named owner (it finished, or the worker
 * died): stop renewing that claim and, when expire is set, expire it at once so any koptd
 * can resume the job (the next claim counts an infra retry, not an attempt). */
void sched_release(struct kopt_ctx *ctx, const char *job_id, const char *owner, int expire);
/* Stop claiming (drain). */
void sched_stop(struct kopt_ctx *ctx);
/* Jobs this koptd holds leases on right now. */
unsigned sched_leases(struct kopt_ctx *ctx);
/* Database work items in flight (drain waits for 0). */
unsigned sched_pending(struct kopt_ctx *ctx);

#endif
