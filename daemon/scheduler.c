#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "log.h"
#include "pool.h"
#include "scheduler.h"

#define SCHED_POLL_MS 2000
#define SCHED_PREFIX_MAX 330 /* instance id (ctx.h: 320) and "/" */

/* One claim, one owner: "<instance>/<device>/<claim number>". A worker's fenced writes name
 * the claim it holds, so a job that this same koptd claimed again for another of its workers
 * (its lease lapsed while the database was away) can no longer be written by the first. */
struct sched_lease {
  char job[KOPT_JOB_ID_SIZE];
  char owner[SCHED_OWNER_MAX];
};

struct sched_claim {
  struct pool_worker *w;       /* borrowed; reserved while the claim runs */
  char backend[KOPT_BACKEND_SIZE];
  char worker_name[96];
  char owner[SCHED_OWNER_MAX];
  char got[KOPT_JOB_ID_SIZE];
  int attempt, infra_retries;
};

struct sched {
  struct kopt_ctx *ctx;
  uv_timer_t poll, renew;
  int stopped, claiming, again;
  unsigned pending;            /* work items in flight (claims, renewals, releases) */
  struct sched_lease leases[DEVICES_MAX];
  unsigned nleases;
  uv_work_t claim_work;
  struct sched_claim claims[DEVICES_MAX];
  unsigned nclaims;
  char prefix[SCHED_PREFIX_MAX]; /* "<instance>/": every owner of this koptd starts so */
  unsigned long long nclaimed;  /* claims made, numbering the owners */
  unsigned lease_s;
};

struct sched_release_req {
  uv_work_t work;
  struct sched *s;
  struct sched_lease lease;
};

struct sched_renew_req {
  uv_work_t work;
  struct sched *s;
  char ids[DEVICES_MAX * KOPT_JOB_ID_SIZE + 8];     /* "{a,b}" */
  char rows[DEVICES_MAX][7][96];      /* workers table snapshot: id host device state pid job restarts */
  /* ... and each worker's start-up check: ready ("t", "f", "" while pending), why not, facts */
  char ready[DEVICES_MAX][2];
  char check_error[DEVICES_MAX][POOL_REASON_MAX];
  char harness[DEVICES_MAX][POOL_FACTS_MAX];
  unsigned nrows;
  int lost;
};

/* Copies a NUL-terminated string into a fixed array, truncating. Not snprintf: the source
 * can live in the same struct (claims[].got), and GCC -O1 (make asan) then fails the build
 * with -Werror=restrict although the two arrays never overlap. */
static void sched_copy(char *dst, size_t dstlen, const char *src)
{
  size_t n = strnlen(src, dstlen - 1);
  memcpy(dst, src, n);
  dst[n] = '\0';
}

static void sched_lease_add(struct sched *s, const char *id, const char *owner)
{
  struct sched_lease *l;
  for (unsigned i = 0; i < s->nleases; i++)
    if (strcmp(s->leases[i].job, id) == 0 && strcmp(s->leases[i].owner, owner) == 0)
      return;
  if (s->nleases >= DEVICES_MAX)
    return;
  l = &s->leases[s->nleases++];
  sched_copy(l->job, sizeof(l->job), id);
  sched_copy(l->owner, sizeof(l->owner), owner);
}

unsigned sched_leases(struct kopt_ctx *ctx) { return ctx->sched ? ctx->sched->nleases : 0; }

static void sched_claim_work(uv_work_t *wk)
{
  struct sched *s = wk->data;
  char err[512], lease[16];
  PGconn *c = db_pool_acquire(&s->ctx->pool, err, sizeof(err));
  if (!c)
    return;
  snprintf(lease, sizeof(lease), "%u", s->lease_s);
  for (unsigned i = 0; i < s->nclaims; i++) {
    struct sched_claim *cl = &s->claims[i];
    const char *p[4] = { cl->backend, cl->owner, lease, cl->worker_name };
    /* Attempts count the job's own faults only: a run that ended by the job's fault
     * (last_attempt_end = 'job', written by its worker) spends an attempt; any other end
     * (koptd or worker killed, database lost, drain: nobody may be left to say) is a fault
     * outside the job and counts as an infra retry. The first claim is attempt 1. */
    PGresult *r = db_exec(
        c, PGRES_TUPLES_OK, err, sizeof(err),
        "UPDATE jobs j SET state = 'running', lease_owner = $2,"
        " lease_expires_at = now() + make_interval(secs => $3::int),"
        " attempts = CASE WHEN j.attempts = 0 OR j.last_attempt_end = 'job'"
        "            THEN j.attempts + 1 ELSE j.attempts END,"
        " infra_retries = CASE WHEN j.attempts > 0 AND j.last_attempt_end IS DISTINCT FROM 'job'"
        "                 THEN j.infra_retries + 1 ELSE j.infra_retries END,"
        " last_attempt_end = NULL, worker = $4, started_at = coalesce(j.started_at, now())"
        " FROM (SELECT id FROM jobs"
        "       WHERE (state = 'queued' OR (state = 'running' AND lease_expires_at < now()))"
        "         AND (backend = $1 OR backend = 'any')"
        "       ORDER BY priority DESC, seq LIMIT 1 FOR UPDATE SKIP LOCKED) pick"
        " WHERE j.id = pick.id RETURNING j.id, j.attempts, j.infra_retries",
        4, p);
    if (!r) {
      log_error("sched.claim_failed", "err=\"%.300s\"", err);
      break;
    }
    if (PQntuples(r) == 1) {
      snprintf(cl->got, sizeof(cl->got), "%s", PQgetvalue(r, 0, 0));
      cl->attempt = atoi(PQgetvalue(r, 0, 1));
      cl->infra_retries = atoi(PQgetvalue(r, 0, 2));
    }
    PQclear(r);
  }
  db_pool_release(&s->ctx->pool, c);
}

static void sched_release_expire(struct sched *s, const struct sched_lease *l);

static void sched_claim_done(uv_work_t *wk, int status)
{
  struct sched *s = wk->data;
  int got_any = 0;
  (void)status;
  s->pending--;
  s->claiming = 0;
  for (unsigned i = 0; i < s->nclaims; i++) {
    struct sched_claim *cl = &s->claims[i];
    pool_reserve(cl->w, 0);
    if (!cl->got[0])
      continue;
    got_any = 1;
    if (pool_assign(cl->w, cl->got, cl->owner, cl->attempt, cl->infra_retries) == 0) {
      sched_lease_add(s, cl->got, cl->owner);
    } else {
      struct sched_lease l;
      log_warn("sched.assign_failed", "job=%s action=expire_lease", cl->got);
      sched_copy(l.job, sizeof(l.job), cl->got);
      sched_copy(l.owner, sizeof(l.owner), cl->owner);
      sched_release_expire(s, &l);
    }
  }
  if ((got_any || s->again) && !s->stopped) {
    s->again = 0;
    sched_kick(s->ctx);
  }
}

void sched_kick(struct kopt_ctx *ctx)
{
  struct sched *s = ctx->sched;
  unsigned n = 0;
  if (!s || s->stopped || ctx->draining)
    return;
  if (s->claiming) {
    s->again = 1;
    return;
  }
  for (unsigned i = 0; i < pool_count(ctx); i++) {
    struct pool_worker *w = pool_at(ctx, i);
    if (pool_worker_state(w) != POOL_IDLE || pool_reserved(w))
      continue;
    pool_reserve(w, 1);
    s->claims[n].w = w;
    snprintf(s->claims[n].backend, sizeof(s->claims[n].backend), "%s",
             pool_worker_device(w)->backend);
    snprintf(s->claims[n].worker_name, sizeof(s->claims[n].worker_name), "%.60s/%s",
             ctx->cfg.host_id, pool_worker_device(w)->name);
    snprintf(s->claims[n].owner, sizeof(s->claims[n].owner), "%s%.24s/%llu", s->prefix,
             pool_worker_device(w)->name, ++s->nclaimed);
    s->claims[n].got[0] = '\0';
    n++;
  }
  if (!n)
    return;
  s->nclaims = n;
  s->claiming = 1;
  s->claim_work.data = s;
  if (uv_queue_work(ctx->loop, &s->claim_work, sched_claim_work, sched_claim_done) == 0) {
    s->pending++;
  } else {
    s->claiming = 0;
    for (unsigned i = 0; i < n; i++)
      pool_reserve(s->claims[i].w, 0);
  }
}

static void sched_release_work(uv_work_t *wk)
{
  struct sched_release_req *q = wk->data;
  char err[256];
  const char *p[2] = { q->lease.job, q->lease.owner };
  PGconn *c = db_pool_acquire(&q->s->ctx->pool, err, sizeof(err));
  PGresult *r;
  if (!c)
    return;
  /* The worker died or stopped mid-run: a fault outside the job (the next claim spends no
   * attempt on it; it would not either without this note, which is for the reader). */
  r = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err),
              "UPDATE jobs SET lease_expires_at = now() - interval '1 second',"
              " last_attempt_end = 'infra'"
              " WHERE id = $1::uuid AND lease_owner = $2 AND state = 'running'",
              2, p);
  PQclear(r);
  db_pool_release(&q->s->ctx->pool, c);
}

static void sched_release_done(uv_work_t *wk, int status)
{
  struct sched_release_req *q = wk->data;
  struct sched *s = q->s;
  (void)status;
  s->pending--;
  free(q);
  /* The job is claimable again: an idle worker here may take it at once. */
  sched_kick(s->ctx);
}

static void sched_release_expire(struct sched *s, const struct sched_lease *l)
{
  struct sched_release_req *q = calloc(1, sizeof(*q));
  if (!q)
    return;
  q->s = s;
  q->lease = *l;
  q->work.data = q;
  if (uv_queue_work(s->ctx->loop, &q->work, sched_release_work, sched_release_done) == 0)
    s->pending++;
  else
    free(q);
}

void sched_release(struct kopt_ctx *ctx, const char *job_id, const char *owner, int expire)
{
  struct sched *s = ctx->sched;
  struct sched_lease l;
  if (!s)
    return;
  sched_copy(l.job, sizeof(l.job), job_id);
  sched_copy(l.owner, sizeof(l.owner), owner);
  for (unsigned i = 0; i < s->nleases; i++) {
    if (strcmp(s->leases[i].job, l.job) == 0 && strcmp(s->leases[i].owner, l.owner) == 0) {
      memmove(&s->leases[i], &s->leases[i + 1], (s->nleases - i - 1) * sizeof(s->leases[0]));
      s->nleases--;
      break;
    }
  }
  if (expire)
    sched_release_expire(s, &l);
}

static void sched_renew_work(uv_work_t *wk)
{
  struct sched_renew_req *q = wk->data;
  struct sched *s = q->s;
  char err[512], lease[16];
  PGconn *c = db_pool_acquire(&s->ctx->pool, err, sizeof(err));
  PGresult *r;
  if (!c)
    return;
  snprintf(lease, sizeof(lease), "%u", s->lease_s);
  if (strcmp(q->ids, "{}") != 0) {
    /* Whichever of our claims holds each job now (every owner of ours has our prefix). */
    const char *p[3] = { q->ids, s->prefix, lease };
    r = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err),
                "UPDATE jobs SET lease_expires_at = now() + make_interval(secs => $3::int)"
                " WHERE id = ANY($1::uuid[]) AND starts_with(lease_owner, $2)"
                " AND state = 'running'",
                3, p);
    if (r) {
      int n = atoi(PQcmdTuples(r));
      int want = 1;
      for (const char *x = q->ids; *x; x++)
        want += *x == ',';
      q->lost = want - n;
      PQclear(r);
    }
  }
  for (unsigned i = 0; i < q->nrows; i++) {
    const char *p[10] = { q->rows[i][0], q->rows[i][1], q->rows[i][2], q->rows[i][3],
                          q->rows[i][4][0] ? q->rows[i][4] : NULL,
                          q->rows[i][5][0] ? q->rows[i][5] : NULL, q->rows[i][6],
                          q->ready[i][0] ? q->ready[i] : NULL,
                          q->check_error[i][0] ? q->check_error[i] : NULL,
                          q->harness[i][0] ? q->harness[i] : NULL };
    r = db_exec(c, PGRES_COMMAND_OK, err, sizeof(err),
                "INSERT INTO workers (id, host, device, state, pid, current_job, heartbeat_at,"
                " restarts, ready, check_error, harness) VALUES ($1, $2, $3, $4, $5::int,"
                " $6::uuid, now(), $7::int, $8::boolean, $9, $10::jsonb)"
                " ON CONFLICT (id) DO UPDATE SET state = $4, pid = $5::int, current_job = $6::uuid,"
                " heartbeat_at = now(), restarts = $7::int, ready = $8::boolean,"
                " check_error = $9, harness = $10::jsonb",
                10, p);
    PQclear(r);
  }
  db_pool_release(&s->ctx->pool, c);
}

static void sched_renew_done(uv_work_t *wk, int status)
{
  struct sched_renew_req *q = wk->data;
  (void)status;
  q->s->pending--;
  if (q->lost > 0)
    log_warn("sched.lease_lost", "jobs=%d", q->lost);
  free(q);
}

static void sched_renew_cb(uv_timer_t *t)
{
  struct sched *s = t->data;
  struct kopt_ctx *ctx = s->ctx;
  struct sched_renew_req *q = calloc(1, sizeof(*q));
  size_t o = 0;
  if (!q)
    return;
  q->s = s;
  q->ids[o++] = '{';
  for (unsigned i = 0, n = 0; i < s->nleases; i++) {
    unsigned k;
    for (k = 0; k < i && strcmp(s->leases[k].job, s->leases[i].job) != 0; k++)
      ;
    if (k < i)
      continue; /* one job held twice (an old claim not yet released): renewed once */
    o += (size_t)snprintf(q->ids + o, sizeof(q->ids) - o, "%s%s", n++ ? "," : "",
                          s->leases[i].job);
  }
  q->ids[o++] = '}';
  q->ids[o] = '\0';
  for (unsigned i = 0; i < pool_count(ctx) && i < DEVICES_MAX; i++) {
    struct pool_worker *w = pool_at(ctx, i);
    snprintf(q->rows[i][0], 96, "%.60s/%s", ctx->cfg.host_id, pool_worker_device(w)->name);
    snprintf(q->rows[i][1], 96, "%.90s", ctx->cfg.host_id);
    snprintf(q->rows[i][2], 96, "%s", pool_worker_device(w)->name);
    snprintf(q->rows[i][3], 96, "%s", pool_state_label(pool_worker_state(w)));
    if (pool_worker_pid(w))
      snprintf(q->rows[i][4], 96, "%d", pool_worker_pid(w));
    snprintf(q->rows[i][5], 96, "%s", pool_worker_job(w));
    snprintf(q->rows[i][6], 96, "%u", pool_worker_restarts(w));
    snprintf(q->ready[i], sizeof(q->ready[i]), "%s",
             pool_worker_check(w) == POOL_CHECK_OK       ? "t"
             : pool_worker_check(w) == POOL_CHECK_FAILED ? "f"
                                                         : "");
    snprintf(q->check_error[i], sizeof(q->check_error[i]), "%s", pool_worker_reason(w));
    snprintf(q->harness[i], sizeof(q->harness[i]), "%s", pool_worker_facts(w));
    q->nrows++;
  }
  q->work.data = q;
  if (uv_queue_work(ctx->loop, &q->work, sched_renew_work, sched_renew_done) == 0)
    s->pending++;
  else
    free(q);
}

static void sched_poll_cb(uv_timer_t *t) { sched_kick(((struct sched *)t->data)->ctx); }

int sched_start(struct kopt_ctx *ctx)
{
  struct sched *s = calloc(1, sizeof(*s));
  unsigned every;
  if (!s)
    return -ENOMEM;
  s->ctx = ctx;
  s->lease_s = ctx->cfg.lease_s;
  snprintf(s->prefix, sizeof(s->prefix), "%s/", ctx->instance_id);
  uv_timer_init(ctx->loop, &s->poll);
  uv_timer_init(ctx->loop, &s->renew);
  s->poll.data = s->renew.data = s;
  uv_timer_start(&s->poll, sched_poll_cb, SCHED_POLL_MS, SCHED_POLL_MS);
  every = s->lease_s * 1000 / 3;
  uv_timer_start(&s->renew, sched_renew_cb, 200, every ? every : 1000);
  ctx->sched = s;
  return 0;
}

void sched_stop(struct kopt_ctx *ctx)
{
  struct sched *s = ctx->sched;
  if (!s)
    return;
  s->stopped = 1;
  uv_timer_stop(&s->poll);
  /* Renewal goes on while workers wind down, so no lease lapses before its release. */
}

unsigned sched_pending(struct kopt_ctx *ctx) { return ctx->sched ? ctx->sched->pending : 0; }
