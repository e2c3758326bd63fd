#include <assert.h>
/* job: one job on one worker. Steps are committed as they finish, fenced by the lease
 * (every write says WHERE lease_owner = us), so a job taken over after a crash resumes from
 * its last committed step and a worker that lost its lease can change nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"
#include "db.h"
#include "hash.h"
#include "joblog.h"
#include "log.h"
#include "secret.h"
#include "job.h"
#include "rounds.h"
#include "utf8.h"
#include "worker.h"

#define JOB_ARTIFACT_MAX (8u << 20)
#define JOB_HARNESS_RETRIES 2 /* deaths by SIGKILL tolerated per step (kill -9, OOM killer) */
#define JOB_START_RETRIES 4   /* harness start failures waited out (1+2+4+8 s) */
#define JOB_DB_WAIT_S 60      /* a lost database waited for before the run is abandoned */
#define JOB_COMMIT_RETRIES 3  /* a transaction run again after its connection broke */

int job_db(struct worker *w)
{
  char err[256];
  if (w->db && PQstatus(w->db) == CONNECTION_OK)
    return 0;
  /* A transaction whose connection broke is over: its statements fail until the caller
   * rolls back, never run on a new connection outside it. */
  if (w->in_tx)
    return -EIO;
  if (w->db)
    PQreset(w->db);
  if (w->db && PQstatus(w->db) == CONNECTION_OK)
    return 0;
  if (w->db)
    PQfinish(w->db);
  w->db = db_connect(w->db_url, err, sizeof(err));
  if (!w->db) {
    log_error("worker.db_failed", "err=\"%.200s\"", err);
    return -EIO;
  }
  return 0;
}

int job_tx_begin(struct worker *w)
{
  PGresult *r;
  int ok;
  assert(!w->in_tx);
  if (job_db(w))
    return -EIO;
  r = PQexec(w->db, "BEGIN");
  ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  w->in_tx = ok;
  return ok ? 0 : -EIO;
}

int job_tx_end(struct worker *w, int commit)
{
  PGresult *r;
  int ok;
  assert(w->in_tx);
  w->in_tx = 0;
  r = PQexec(w->db, commit ? "COMMIT" : "ROLLBACK");
  ok = PQresultStatus(r) == PGRES_COMMAND_OK;
  PQclear(r);
  return ok ? 0 : -EIO;
}

/* Waits for the database to answer again (PostgreSQL restarting). 0, or -EIO after
 * JOB_DB_WAIT_S or when the worker stops. */
static int job_db_wait(struct worker *w)
{
  for (unsigned t = 0; t < JOB_DB_WAIT_S * 4; t++) {
    if (job_db(w) == 0)
      return 0;
    if (w->stop)
      break;
    usleep(250000);
  }
  return -EIO;
}

int job_commit(struct job_ctx *j, int (*fn)(struct job_ctx *j, void *arg), void *arg)
{
  int rc;
  for (int tries = 0;; tries++) {
    rc = fn(j, arg);
    /* Only a broken connection is worth another try; an SQL error would repeat. */
    if (rc != -1 || tries >= JOB_COMMIT_RETRIES || (j->w->db && !db_conn_broken(j->w->db)))
      return rc;
    log_warn("job.db_lost", "job=%s action=wait_and_retry try=%d", j->id, tries + 1);
    if (job_db_wait(j->w))
      return rc;
  }
}

/* A fenced UPDATE of our job: 1 when it applied, 0 when the lease is gone, -1 on error. */
int job_update(struct job_ctx *j, const char *set_sql, int nextra, const char **extra)
{
  char sql[1024], err[512];
  const char *params[JOB_UPDATE_MAX_EXTRA + 2];
  char *clean[JOB_UPDATE_MAX_EXTRA] = { NULL }; /* owned: redacted copies of extra */
  PGresult *r;
  int n = -1;

  assert(nextra >= 0 && nextra <= JOB_UPDATE_MAX_EXTRA);
  params[0] = j->id;
  params[1] = j->owner;
  /* Everything written here (progress, error, baseline, best) can carry text that came
   * from a kernel: no registered secret may reach the job document. */
  for (int i = 0; i < nextra; i++) {
    if (extra[i] && secret_found(extra[i]) && !(clean[i] = secret_redact(extra[i])))
      goto out;
    params[2 + i] = clean[i] ? clean[i] : extra[i];
  }
  snprintf(sql, sizeof(sql),
           "UPDATE jobs SET %s WHERE id = $1::uuid AND lease_owner = $2 AND state = 'running'",
           set_sql);
  if (job_db(j->w))
    goto out;
  r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err), sql, 2 + nextra, params);
  if (!r) {
    log_error("job.update_failed", "job=%s err=\"%.300s\"", j->id, err);
    goto out;
  }
  n = atoi(PQcmdTuples(r)) > 0;
  PQclear(r);
out:
  for (int i = 0; i < nextra; i++)
    free(clean[i]);
  return n;
}

static void job_progress(struct job_ctx *j, const char *step)
{
  char prog[256];
  const char *p[1] = { prog };
  snprintf(j->w->step, sizeof(j->w->step), "%s", step);
  snprintf(prog, sizeof(prog), "{\"step\":\"%s\",\"round\":0,\"rounds\":%d}", step, j->rounds);
  job_update(j, "progress = $3::jsonb", 1, p);
}

struct job_final {
  const char *state, *error, *best;
};

static int job_finish_once(struct job_ctx *j, void *arg)
{
  const struct job_final *f = arg;
  const char *p[3] = { f->state, f->error, f->best };
  return job_update(j,
                    "state = $3, error = $4, best = coalesce($5::jsonb, best),"
                    " finished_at = now(), lease_owner = NULL, lease_expires_at = NULL",
                    3, p);
}

int job_finish(struct job_ctx *j, const char *state, const char *error, const char *best)
{
  struct job_final f = { state, error, best };
  return job_commit(j, job_finish_once, &f);
}

static int job_load(struct job_ctx *j)
{
  char err[512];
  const char *p[2] = { j->id, j->owner };
  json_error_t je;
  PGresult *r;
  int rc = 0;

  if (job_db(j->w))
    return -EIO;
  r = db_exec(j->w->db, PGRES_TUPLES_OK, err, sizeof(err),
              "SELECT j.spec::text, ks.source, rs.source, j.baseline::text, j.cancel_requested,"
              " j.rounds, j.kernel_sha256, j.attempts, j.infra_retries"
              " FROM jobs j JOIN kernels ks ON ks.sha256 = j.kernel_sha256"
              " LEFT JOIN kernels rs ON rs.sha256 = j.reference_sha256"
              " WHERE j.id = $1::uuid AND j.lease_owner = $2 AND j.state = 'running'",
              2, p);
  if (!r)
    return -EIO;
  if (PQntuples(r) != 1) {
    rc = -ESTALE;
    goto out;
  }
  j->spec = json_loads(PQgetvalue(r, 0, 0), 0, &je);
  j->ksrc = strdup(PQgetvalue(r, 0, 1));
  j->rsrc = PQgetisnull(r, 0, 2) ? NULL : strdup(PQgetvalue(r, 0, 2));
  if (!PQgetisnull(r, 0, 3))
    j->baseline = json_loads(PQgetvalue(r, 0, 3), 0, &je);
  j->rounds = atoi(PQgetvalue(r, 0, 5));
  snprintf(j->ksha, sizeof(j->ksha), "%s", PQgetvalue(r, 0, 6));
  j->attempt = atoi(PQgetvalue(r, 0, 7));
  j->infra_retries = atoi(PQgetvalue(r, 0, 8));
  if (strcmp(PQgetvalue(r, 0, 4), "t") == 0)
    rc = -ECANCELED;
  else if (!j->spec || !j->ksrc)
    rc = -ENOMEM;
out:
  PQclear(r);
  return rc;
}

/* Starts the harness if it is not running. */
static int job_harness_up(struct job_ctx *j, char *err, size_t errlen)
{
  struct harness_opts o = { j->w->harness_argv, j->w->harness_envp };
  if (j->w->h.pid)
    return 0;
  log_info("harness.start", "device=%s starts=%d", j->w->device, j->w->h.started);
  return harness_start(&j->w->h, &o, err, errlen);
}

/* Killed by SIGKILL, directly or as bubblewrap reports a child's death (128 + 9). */
static int job_killed(int status)
{
  return (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
         (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGKILL);
}

/* A harness answer that says its worker process was killed by SIGKILL (an operator's
 * kill -9, the OOM killer): during the request, or while it restarted the worker and
 * replayed the load first. Nobody in particular is to blame: the step is tried again. */
static int job_reply_killed(const json_t *rep)
{
  const json_t *e = json_object_get(rep, "error");
  const char *kind = json_string_value(json_object_get(e, "kind"));
  const char *cause = json_string_value(json_object_get(e, "cause"));
  if (json_is_true(json_object_get(rep, "ok")) || !kind)
    return 0;
  return strcmp(kind, "killed") == 0 || (cause && strcmp(cause, "killed") == 0);
}

/* Who an operation runs: the words for its failure reason. */
static const char *job_op_who(const char *what, const json_t *req)
{
  if (json_object_get(req, "candidate_source"))
    return "candidate";
  return strcmp(what, "sweep") == 0 ? "round" : "initial kernel";
}

/* The failure reason of a call that ran out of time: the limit and how it was derived,
 * then what the harness saw (its last progress line). */
static void job_timeout_msg(struct job_ctx *j, const char *what, const json_t *req,
                            unsigned after, unsigned limit, const char *why, const char *detail)
{
  snprintf(j->fail_msg, sizeof(j->fail_msg), "%s %s timed out after %u s (limit %u s: %s)%s%s",
           job_op_who(what, req), what, after, limit, why, detail && *detail ? ": " : "",
           detail ? detail : "");
}

/* Counts one SIGKILL death of the harness in this step: 1 to try the step again, or
 * -EAGAIN with j->fail_msg once more than JOB_HARNESS_RETRIES were seen. */
static int job_op_killed(struct job_ctx *j, const char *what, int *kills, const char *who,
                         const char *detail)
{
  if ((*kills)++ < JOB_HARNESS_RETRIES) {
    log_warn("harness.killed", "job=%s step=%s who=%s action=retry", j->id, what, who);
    return 1;
  }
  snprintf(j->fail_msg, sizeof(j->fail_msg),
           "the harness was killed by SIGKILL %d times during %s (the OOM killer, or an "
           "operator): %.300s", *kills, what, detail ? detail : "");
  return -EAGAIN;
}

/* Why a harness call that got no answer failed, into j->fail_msg. */
static void job_op_no_answer(struct job_ctx *j, const char *what, const json_t *req, int hrc,
                             unsigned limit, const char *why, const char *err)
{
  if (hrc == -EPIPE && WIFSIGNALED(j->w->h.last_status))
    snprintf(j->fail_msg, sizeof(j->fail_msg), "initial kernel crashed the harness during %s: %s",
             what, err);
  else if (hrc == -ETIMEDOUT)
    job_timeout_msg(j, what, req, deadline_backstop(&j->dl, limit), limit, why,
                    "the harness itself did not answer; it was killed");
  else
    snprintf(j->fail_msg, sizeof(j->fail_msg),
             "the device harness failed during %s: %s (the worker's log on the koptd host says why)",
             what, err);
}

/* A harness answer that is not ok: the verdict into j->fail_msg (a timeout with its limit). */
static void job_op_refused(struct job_ctx *j, const char *what, const json_t *req,
                           const json_t *rep, unsigned limit, const char *why)
{
  const json_t *e = json_object_get(rep, "error");
  const char *msg = json_string_value(json_object_get(e, "message"));
  const char *kind = json_string_value(json_object_get(e, "kind"));
  if (kind && strcmp(kind, "timeout") == 0)
    job_timeout_msg(j, what, req, limit, limit, why, msg);
  else
    snprintf(j->fail_msg, sizeof(j->fail_msg), "%s", msg ? msg : "harness error");
  utf8_scrub(j->fail_msg); /* a kernel's text, cut to fit: it goes into JSON and the database */
  log_info("job.step_failed", "job=%s step=%s kind=%s limit_s=%u", j->id, what,
           kind ? kind : "?", limit);
  /* A harness that flagged itself poisoned (user code left it unusable) is replaced. */
  if (json_is_true(json_object_get(e, "worker_restarting")))
    harness_kill(&j->w->h);
}

/* Brings the harness up with this job's problem loaded. 0, or job_op's codes. */
static int job_op_ready(struct job_ctx *j, int is_load, int *fresh)
{
  char err[512];
  *fresh = 0;
  if (!j->w->h.pid) {
    *fresh = 1;
    if (job_harness_up(j, err, sizeof(err))) {
      snprintf(j->fail_msg, sizeof(j->fail_msg), "cannot start the device harness: %s", err);
      return -1;
    }
  }
  /* A harness started since the job's problem was loaded has never seen it. */
  if (!is_load && j->w->h.started != j->loaded_gen)
    return job_load_problem(j, NULL);
  return 0;
}

/* One harness operation on user code, under the limit derived from what the job measured
 * (deadline.h): the harness enforces it (it kills only its worker process and keeps the
 * problem loaded); ours, with room for a harness restart, is the backstop. A harness that
 * dies of SIGKILL (an operator's kill -9, the OOM killer) is replaced and the step tried
 * again, up to JOB_HARNESS_RETRIES times; a timeout is never tried again: it is counted
 * once. Returns 0 with *result (new ref), -1 with j->fail_msg set, -EAGAIN with
 * j->fail_msg (killed more often than tolerated), or -EINTR when stopping. */
int job_op(struct job_ctx *j, const char *what, json_t *req, json_t **result)
{
  char err[512], why[DEADLINE_WHY_MAX];
  json_t *rep = NULL;
  int rc = -1, start_fails = 0, kills = 0;
  int is_load = strcmp(what, "load") == 0;
  unsigned limit;

  *result = NULL;
  limit = deadline_limit(&j->dl, what, req, why, sizeof(why));
  json_object_set_new(req, "timeout_s", json_integer(limit));
  for (;;) {
    int hrc, fresh;
    if ((rc = job_op_ready(j, is_load, &fresh)) != 0)
      goto out;
    rc = -1;
    json_decref(rep);
    rep = NULL;
    hrc = harness_call(&j->w->h, req, deadline_backstop(&j->dl, limit), &j->w->stop, &rep, err,
                       sizeof(err));
    if (hrc == 0) {
      /* What the kernel printed goes to the job's own log, never to ours. */
      joblog_append(j, what, json_object_get(rep, "kernel_output"));
      if (!job_reply_killed(rep))
        break;
      rc = job_op_killed(j, what, &kills, "harness_worker",
                         json_string_value(json_object_get(json_object_get(rep, "error"), "message")));
    } else if (hrc == -EINTR || j->w->stop) {
      rc = -EINTR;
    } else if (hrc == -EPIPE && job_killed(j->w->h.last_status)) {
      rc = job_op_killed(j, what, &kills, "harness", err);
    } else if (hrc == -EPIPE && fresh && !WIFSIGNALED(j->w->h.last_status) &&
               start_fails < JOB_START_RETRIES) {
      /* A harness that dies on its first request without a signal usually could not start
       * (e.g. the last sandbox's processes are still exiting and hold its process limit):
       * not the kernel's fault, so wait and start another. */
      unsigned wait_s = 1u << start_fails++;
      log_warn("harness.start_failed", "job=%s step=%s retry_in_s=%u", j->id, what, wait_s);
      for (unsigned t = 0; t < wait_s * 10 && !j->w->stop; t++)
        usleep(100000);
      rc = 1;
    } else {
      job_op_no_answer(j, what, req, hrc, limit, why, err);
    }
    if (rc != 1)
      goto out;
  }
  rc = -1;
  if (!json_is_true(json_object_get(rep, "ok"))) {
    job_op_refused(j, what, req, rep, limit, why);
    goto out;
  }
  *result = json_incref(json_object_get(rep, "result"));
  if (json_is_true(json_object_get(*result, "worker_restarting")))
    harness_kill(&j->w->h);
  deadline_observe(&j->dl, what, req, *result);
  if (is_load)
    j->loaded_gen = j->w->h.started;
  rc = 0;
out:
  json_decref(rep);
  return rc;
}

/* Stores one IR file as an artifacts row (round 0), skipping files over the cap. */
static void job_store_file(struct job_ctx *j, const char *kind, const char *path, int round)
{
  FILE *fp = fopen(path, "rb");
  struct buf b;
  char chunk[65536], size[24], err[256], rnd[16];
  size_t n;
  int too_big = 0;

  if (!fp)
    return;
  buf_init(&b, JOB_ARTIFACT_MAX);
  while ((n = fread(chunk, 1, sizeof(chunk), fp)) > 0)
    if (buf_append(&b, chunk, n)) {
      too_big = 1;
      break;
    }
  fclose(fp);
  if (too_big) {
    log_warn("job.artifact_skipped", "job=%s kind=%s reason=over_%u_bytes", j->id, kind,
             JOB_ARTIFACT_MAX);
  } else if (b.len) {
    size_t esclen;
    char *esc = (char *)PQescapeByteaConn(j->w->db, (unsigned char *)b.data, b.len, &esclen);
    snprintf(size, sizeof(size), "%zu", b.len);
    if (esc) {
      const char *p[5] = { j->id, kind, size, esc, rnd };
      PGresult *r;
      snprintf(rnd, sizeof(rnd), "%d", round);
      r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err),
                  "INSERT INTO artifacts (job_id, round, kind, size, data)"
                  " VALUES ($1::uuid, $5::int, $2, $3::int, $4::bytea)"
                  " ON CONFLICT (job_id, round, kind) DO NOTHING",
                  5, p);
      PQclear(r);
      PQfreemem(esc);
    }
  }
  buf_free(&b);
}

/* The compile result lists IR files per launched kernel: kernels[i].files.{ttir,ptx,...}.
 * Each becomes an artifact "<kernel>.<kind>". */
const char *job_ir_target(const struct job_ctx *j)
{
  const char *t = json_string_value(json_object_get(j->spec, "ir_target"));
  if (strcmp(j->w->backend, "interp") != 0)
    return NULL; /* a device's IR is its own compiler's */
  if (t && !strcmp(t, "ascend"))
    return "ascend"; /* the harness adds the architecture (KOPT_ASCEND_ARCH, Ascend910B3) */
  if (t && !strcmp(t, "cuda"))
    return JOB_IR_CUDA_TARGET;
  return j->w->interp_target;
}

void job_store_artifacts(struct job_ctx *j, json_t *compile, int round)
{
  json_t *kernels = json_object_get(compile, "kernels"), *k;
  size_t i;
  json_array_foreach(kernels, i, k) {
    const char *name = json_string_value(json_object_get(k, "kernel"));
    json_t *files = json_object_get(k, "files"), *f;
    const char *kind;
    json_object_foreach(files, kind, f) {
      char full[160];
      const char *path = json_string_value(json_object_get(f, "path"));
      if (!path || strcmp(kind, "cubin") == 0)
        continue; /* binary; the SASS listing carries what L3 reads */
      snprintf(full, sizeof(full), "%.64s.%.32s", name ? name : "kernel", kind);
      job_store_file(j, full, path, round);
    }
  }
}

/* Sends the job's problem (sources, cases, seed, tolerances) to the harness. Needed before
 * any other op: at the baseline, and again when a job resumes on a fresh harness. */
int job_load_problem(struct job_ctx *j, json_t **result)
{
  char workdir[96];
  json_t *req, *res = NULL;
  int rc;

  snprintf(workdir, sizeof(workdir), "job-%s", j->id);
  req = json_pack("{s:s, s:s, s:o, s:O?, s:O?, s:O?, s:O?, s:O?, s:s}", "op", "load",
                  "kernel_source", j->ksrc, "reference_source",
                  j->rsrc ? json_string(j->rsrc) : json_null(),
                  "cases", json_object_get(j->spec, "cases"),
                  "seed", json_object_get(j->spec, "seed"),
                  "benchmark_cases", json_object_get(j->spec, "benchmark_cases"),
                  "correctness_cases", json_object_get(j->spec, "correctness_cases"),
                  "tolerances", json_object_get(j->spec, "tolerances"),
                  "workdir", workdir);
  if (!req) {
    snprintf(j->fail_msg, sizeof(j->fail_msg), "internal: cannot build the load request");
    return -1;
  }
  rc = job_op(j, "load", req, &res);
  json_decref(req);
  if (result)
    *result = res;
  else
    json_decref(res);
  return rc;
}

struct job_baseline_tx {
  json_t *compile;            /* borrowed: its IR files become artifacts */
  const char *baseline;       /* borrowed: the baseline document */
};

/* The baseline and its IR artifacts, in one transaction fenced by the lease. 1 committed,
 * 0 lease lost, -1 error. */
static int job_baseline_commit(struct job_ctx *j, void *arg)
{
  const struct job_baseline_tx *tx = arg;
  const char *p[1] = { tx->baseline };
  int u;
  if (job_tx_begin(j->w))
    return -1;
  job_store_artifacts(j, tx->compile, 0);
  u = job_update(j, "baseline = $3::jsonb", 1, p);
  if (u != 1) {
    job_tx_end(j->w, 0);
    return u;
  }
  return job_tx_end(j->w, 1) == 0 ? 1 : -1;
}

static int job_baseline(struct job_ctx *j)
{
  json_t *req = NULL, *load = NULL, *val = NULL, *bench = NULL, *comp = NULL, *base = NULL;
  json_t *prof = NULL;
  char *txt = NULL;
  int rc = -1, orc;

  job_progress(j, "load");
  if ((orc = job_load_problem(j, &load)) != 0) {
    rc = orc;
    goto out;
  }
  json_decref(req);

  job_progress(j, "validate");
  req = json_pack("{s:s}", "op", "validate");
  if ((orc = job_op(j, "validate", req, &val)) != 0) {
    rc = orc;
    goto out;
  }
  if (!json_is_true(json_object_get(val, "passed"))) {
    const char *m = json_string_value(json_object_get(json_object_get(val, "failure"), "message"));
    snprintf(j->fail_msg, sizeof(j->fail_msg), "%s", m ? m : "initial kernel is not correct");
    utf8_scrub(j->fail_msg);
    goto out;
  }
  json_decref(req);

  job_progress(j, "bench");
  req = json_pack("{s:s}", "op", "bench");
  if ((orc = job_op(j, "bench", req, &bench)) != 0) {
    rc = orc;
    goto out;
  }
  json_decref(req);

  job_progress(j, "compile");
  req = json_pack("{s:s, s:b}", "op", "compile", "per_pass", 0);
  if (job_ir_target(j))
    json_object_set_new(req, "target", json_string(job_ir_target(j)));
  orc = job_op(j, "compile", req, &comp);
  if (orc == -EINTR) {
    rc = orc;
    goto out;
  }
  if (orc) {
    /* IR is evidence for later rounds, not a correctness gate: record why it is missing. */
    comp = json_pack("{s:s}", "error", j->fail_msg);
    j->fail_msg[0] = '\0';
  }

  job_progress(j, "profile");
  json_decref(req);
  req = json_pack("{s:s}", "op", "profile");
  orc = job_op(j, "profile", req, &prof);
  if (orc == -EINTR) {
    rc = orc;
    goto out;
  }
  if (orc) {
    /* Profiler metrics are evidence (L2), not a gate: a missing profiler is recorded. */
    prof = json_pack("{s:b, s:s}", "available", 0, "reason", j->fail_msg);
    j->fail_msg[0] = '\0';
  }

  base = json_pack("{s:O, s:O, s:O, s:O, s:O, s:s, s:s}", "load", load, "validate", val,
                   "bench", bench, "compile", comp, "profile", prof, "device", j->w->device,
                   "kernel_sha256", j->ksha);
  /* The per-case arrays can be long; keep the summary fields the API shows. */
  txt = base ? json_dumps(base, JSON_COMPACT) : NULL;
  if (!txt) {
    snprintf(j->fail_msg, sizeof(j->fail_msg), "internal: cannot encode the baseline");
    goto out;
  }
  {
    struct job_baseline_tx tx = { comp, txt };
    int u = job_commit(j, job_baseline_commit, &tx);
    if (u != 1) {
      snprintf(j->fail_msg, sizeof(j->fail_msg), "database unavailable");
      rc = u == 0 ? -ESTALE : -EIO;
      goto out;
    }
  }
  j->baseline = json_incref(base);
  log_info("job.baseline_committed", "job=%s device=%s", j->id, j->w->device);
  rc = 0;
out:
  free(txt);
  json_decref(req);
  json_decref(load);
  json_decref(val);
  json_decref(bench);
  json_decref(comp);
  json_decref(prof);
  json_decref(base);
  return rc;
}

double job_baseline_ms(const json_t *baseline)
{
  json_t *b = json_object_get(baseline, "bench");
  json_t *s = json_object_get(json_object_get(b, "summary"), "geomean_median_ms");
  return json_is_number(s) ? json_number_value(s) : -1;
}

/* This attempt ended by a fault of the job (its kernel took the harness down more often than
 * a step tolerates) without a verdict: the attempt is spent. With attempts left, the job is
 * queued again (the next claim counts the next attempt), else it fails. Returns the outcome. */
static const char *job_spend_attempt(struct job_ctx *j)
{
  char msg[sizeof(j->fail_msg) + 64];
  json_t *prog;
  char *txt;
  const char *p[1];
  int u;

  if (j->attempt >= (int)j->w->max_attempts) {
    snprintf(msg, sizeof(msg), "%s (attempt %d of %d)", j->fail_msg, j->attempt,
             j->w->max_attempts);
    log_info("job.failed", "job=%s reason=\"%.300s\"", j->id, msg);
    return job_finish(j, KOPT_STATE_FAILED, msg, NULL) == 1 ? KOPT_OUTCOME_FAILED : KOPT_OUTCOME_LOST;
  }
  prog = json_pack("{s:s, s:i, s:i, s:s, s:i, s:i}", "step", "requeued", "round", j->round,
                   "rounds", j->rounds, "reason", j->fail_msg, "attempt", j->attempt,
                   "max_attempts", (int)j->w->max_attempts);
  txt = prog ? json_dumps(prog, JSON_COMPACT) : NULL;
  json_decref(prog);
  p[0] = txt;
  log_info("job.requeued", "job=%s attempt=%d cause=job reason=\"%.300s\"", j->id, j->attempt,
           j->fail_msg);
  u = txt ? job_update(j,
                       "state = 'queued', last_attempt_end = 'job', lease_owner = NULL,"
                       " lease_expires_at = NULL, progress = $3::jsonb",
                       1, p)
          : -1;
  free(txt);
  /* Not written (database away): the lease lapses, and the next claim counts no attempt. */
  return u == 1 ? KOPT_OUTCOME_REQUEUED : u == 0 ? KOPT_OUTCOME_LOST : KOPT_OUTCOME_ABORTED;
}

/* Fails a job over its allowance of attempts or of infra retries (a koptd that crashes
 * forever must not loop a job forever). 1 when it did (outcome set), else 0. */
static int job_over_budget(struct job_ctx *j, const char **outcome)
{
  char msg[320];
  if (j->infra_retries > (int)j->w->max_infra_retries)
    snprintf(msg, sizeof(msg),
             "gave up after %d requeues for faults outside the job (koptd, its worker or the "
             "database lost mid-run each time; KOPT_MAX_INFRA_RETRIES is %u)",
             j->infra_retries, j->w->max_infra_retries);
  else if (j->attempt > (int)j->w->max_attempts)
    snprintf(msg, sizeof(msg), "gave up after %d attempts (KOPT_MAX_ATTEMPTS is %u)",
             j->attempt - 1, j->w->max_attempts);
  else
    return 0;
  log_info("job.failed", "job=%s reason=\"%s\"", j->id, msg);
  *outcome = job_finish(j, KOPT_STATE_FAILED, msg, NULL) == 1 ? KOPT_OUTCOME_FAILED : KOPT_OUTCOME_LOST;
  return 1;
}

const char *job_run(struct worker *w, const char *job_id, const char *owner, int attempt)
{
  struct job_ctx j;
  const char *outcome = KOPT_OUTCOME_FAILED;
  char best[256];
  int rc;

  memset(&j, 0, sizeof(j));
  j.w = w;
  j.id = job_id;
  j.owner = owner;
  j.attempt = attempt;
  deadline_init(&j.dl, w->eval_floor_s, w->eval_timeout_s, w->load_timeout_s, w->backend);
  rc = job_load(&j);
  if (rc == -ESTALE) {
    outcome = KOPT_OUTCOME_LOST;
    goto out;
  }
  if (rc == -ECANCELED) {
    job_finish(&j, KOPT_STATE_CANCELLED, "cancelled by request", NULL);
    outcome = KOPT_OUTCOME_CANCELLED;
    goto out;
  }
  if (rc) {
    outcome = KOPT_OUTCOME_ABORTED;
    goto out;
  }
  if (job_over_budget(&j, &outcome))
    goto out;
  if (!j.baseline) {
    rc = job_baseline(&j);
    if (rc == -EINTR || rc == -EIO) {
      /* stopping, or the database stayed away: a fault outside the job */
      outcome = KOPT_OUTCOME_ABORTED;
      goto out;
    }
    if (rc == -ESTALE) {
      outcome = KOPT_OUTCOME_LOST;
      goto out;
    }
    if (rc == -EAGAIN) {
      outcome = job_spend_attempt(&j);
      goto out;
    }
    if (rc) {
      log_info("job.failed", "job=%s reason=\"%.300s\"", j.id, j.fail_msg);
      outcome = job_finish(&j, KOPT_STATE_FAILED, j.fail_msg, NULL) == 1 ? KOPT_OUTCOME_FAILED
                                                                         : KOPT_OUTCOME_LOST;
      goto out;
    }
  } else {
    /* The harness is given the problem again on its first op (job_op). */
    deadline_from_baseline(&j.dl, j.baseline);
    log_info("job.resumed", "job=%s from=baseline attempt=%d infra_retries=%d", j.id, j.attempt,
             j.infra_retries);
  }
  if (j.rounds > 0) {
    outcome = rounds_run(&j);
    goto out;
  }
  snprintf(best, sizeof(best),
           "{\"round\":0,\"kernel_sha256\":\"%s\",\"median_ms\":%.6g,\"speedup\":1.0}", j.ksha,
           job_baseline_ms(j.baseline));
  outcome = job_finish(&j, KOPT_STATE_SUCCEEDED, NULL, best) == 1 ? KOPT_OUTCOME_SUCCEEDED
                                                                   : KOPT_OUTCOME_LOST;
out:
  w->step[0] = '\0';
  json_decref(j.spec);
  json_decref(j.baseline);
  free(j.ksrc);
  free(j.rsrc);
  return outcome;
}
