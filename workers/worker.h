/* worker: the kopt-worker process. It owns one device, keeps one harness running on it, and
 * runs the jobs koptd hands it, writing every committed step to PostgreSQL itself. */
#ifndef KOPT_WORKER_H
#define KOPT_WORKER_H
#include <libpq-fe.h>
#include <pthread.h>
#include <signal.h>

#include "contract.h"
#include "harness.h"

#define WORKER_MAX_ARGV 24

struct worker {
  char device[KOPT_DEVICE_NAME_SIZE]; /* "cuda:0" */
  char backend[KOPT_BACKEND_SIZE];
  int index;
  char db_url[1024];
  char work_dir[1024];       /* per-job directories are made under it */
  char interp_target[32];    /* compile target for offline IR on interp, e.g. cuda:90 */
  unsigned eval_timeout_s;   /* cap of any harness operation's limit (deadline.h) */
  unsigned eval_floor_s;     /* floor of a derived limit */
  unsigned load_timeout_s;   /* limit of a load before anything is measured */
  unsigned max_attempts;     /* attempts (runs ended by the job's own faults) before failing */
  unsigned max_infra_retries; /* requeues for faults outside the job before failing */
  unsigned pattern_min_support; /* KOPT_PATTERN_MIN_SUPPORT: operators a pattern needs to settle L1 */
  char python[1024];         /* the harness interpreter (KOPT_HARNESS_PYTHON) */
  char sandbox_user[32];     /* the user the launcher runs it as; "" without a launcher */
  char limit_args[2][24];    /* --max-source-bytes, --max-line-bytes values for the harness */
  const char *harness_argv[WORKER_MAX_ARGV];
  char harness_env[4][160];
  const char *harness_envp[5];
  PGconn *db;                /* owned; reconnected when it breaks */
  int in_tx;                 /* inside BEGIN: a broken connection is not replaced mid-way */
  struct harness h;
  volatile sig_atomic_t stop; /* set by SIGTERM: abandon the step, keep the job claimable */
  pthread_mutex_t out_mu;    /* serializes lines written to koptd */
  char job_id[KOPT_JOB_ID_SIZE]; /* current job, "" when idle; read by the heartbeat thread */
  char step[24];
};

/* Writes one JSON line to koptd (stdout). Thread-safe. */
void worker_send(struct worker *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs (or resumes) one job under the lease named owner. Returns the outcome word sent to
 * koptd: "succeeded", "failed", "cancelled", "aborted" (stopping, or the database lost: the
 * job is left claimable, a fault outside the job), "requeued" (a fault of the job ended this
 * attempt; it is queued for its next), or "lost" (the lease is no longer ours). */
const char *job_run(struct worker *w, const char *job_id, const char *owner, int attempt);

#endif
