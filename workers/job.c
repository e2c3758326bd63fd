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

int job_db(struct worker *w)
{
  char err[256];
  if (w->db && PQstatus(w->db) == CONNECTION_OK)
    return 0;
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

int job_finish(struct job_ctx *j, const char *state, const char *error, const char *best)
{
  const char *p[3] = { state, error, best };
  return job_update(j,
                    "state = $3, error = $4, best = coalesce($5::jsonb, best),"
                    " finished_at = now(), lease_owner = NULL, lease_expires_at = NULL",
                    3, p);
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
              " j.rounds, j.kernel_sha256"
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

/* One harness operation on user code, with a fresh harness when one dies of SIGKILL (an
 * operator's kill -9, the OOM killer): the step is retried, not blamed on the kernel.
 * Returns 0 with *result (new ref) or -1 with j->fail_msg set, or -EINTR when stopping. */
/* Killed by SIGKILL, directly or as bubblewrap reports a child's death (128 + 9). */
static int job_killed(int status)
{
  return (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
         (WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGKILL);
}

int job_op(struct job_ctx *j, const char *what, json_t *req, json_t **result)
{
  char err[512];
  json_t *rep = NULL;
  int rc = -1, start_fails = 0, kills = 0;
  int is_load = strcmp(what, "load") == 0;

  *result = NULL;
  /* The harness's own per-request timeout goes first (it kills only its worker process and
   * keeps the problem loaded); ours, a little longer, is the backstop. */
  if (!json_object_get(req, "timeout_s") && j->w->eval_timeout_s > 30)
    json_object_set_new(req, "timeout_s", json_integer(j->w->eval_timeout_s - 20));
  for (;;) {
    int hrc, fresh = 0;
    if (!j->w->h.pid) {
      fresh = 1;
      if (job_harness_up(j, err, sizeof(err))) {
        snprintf(j->fail_msg, sizeof(j->fail_msg), "cannot start the device harness: %s", err);
        goto out;
      }
    }
    /* A harness started since the job's problem was loaded has never seen it. */
    if (!is_load && j->w->h.started != j->loaded_gen) {
      int lrc = job_load_problem(j, NULL);
      if (lrc) {
        rc = lrc;
        goto out;
      }
    }
    hrc = harness_call(&j->w->h, req, j->w->eval_timeout_s, &j->w->stop, &rep, err, sizeof(err));
    if (hrc == 0) {
      /* What the kernel printed goes to the job's own log, never to ours. */
      joblog_append(j, what, json_object_get(rep, "kernel_output"));
      break;
    }
    if (hrc == -EINTR || j->w->stop) {
      rc = -EINTR;
      goto out;
    }
    if (hrc == -EPIPE && job_killed(j->w->h.last_status) && kills++ < JOB_HARNESS_RETRIES) {
      log_warn("harness.killed", "job=%s step=%s action=retry_with_fresh_harness", j->id, what);
      continue;
    }
    /* A harness that dies on its first request without a signal usually could not start
     * (e.g. the last sandbox's processes are still exiting and hold its process limit):
     * not the kernel's fault, so wait and start another. */
    if (hrc == -EPIPE && fresh && !WIFSIGNALED(j->w->h.last_status) &&
        !job_killed(j->w->h.last_status) && start_fails < JOB_START_RETRIES) {
      unsigned wait_s = 1u << start_fails++;
      log_warn("harness.start_failed", "job=%s step=%s retry_in_s=%u", j->id, what, wait_s);
      for (unsigned t = 0; t < wait_s * 10 && !j->w->stop; t++)
        usleep(100000);
      continue;
    }
    if (hrc == -EPIPE && (WIFSIGNALED(j->w->h.last_status) || job_killed(j->w->h.last_status)))
      snprintf(j->fail_msg, sizeof(j->fail_msg), "initial kernel crashed the harness during %s: %s",
               what, err);
    else if (hrc == -ETIMEDOUT)
      snprintf(j->fail_msg, sizeof(j->fail_msg), "initial kernel %s %s", what, err);
    else
      snprintf(j->fail_msg, sizeof(j->fail_msg),
               "the device harness failed during %s: %s (the worker's log on the koptd host says why)",
               what, err);
    goto out;
  }
  if (!json_is_true(json_object_get(rep, "ok"))) {
    json_t *e = json_object_get(rep, "error");
    const char *msg = json_string_value(json_object_get(e, "message"));
    const char *kind = json_string_value(json_object_get(e, "kind"));
    snprintf(j->fail_msg, sizeof(j->fail_msg), "%s", msg ? msg : "harness error");
    utf8_scrub(j->fail_msg); /* a kernel's text, cut to fit: it goes into JSON and the database */
    log_info("job.step_failed", "job=%s step=%s kind=%s", j->id, what, kind ? kind : "?");
    /* A harness that flagged itself poisoned (user code left it unusable) is replaced. */
    if (json_is_true(json_object_get(e, "worker_restarting")))
      harness_kill(&j->w->h);
    goto out;
  }
  *result = json_incref(json_object_get(rep, "result"));
  if (json_is_true(json_object_get(*result, "worker_restarting")))
    harness_kill(&j->w->h);
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
    const char *p[1] = { txt };
    int u;
    if (job_db(j->w)) {
      snprintf(j->fail_msg, sizeof(j->fail_msg), "database unavailable");
      rc = -EIO;
      goto out;
    }
    PQclear(PQexec(j->w->db, "BEGIN"));
    job_store_artifacts(j, comp, 0);
    u = job_update(j, "baseline = $3::jsonb", 1, p);
    if (u != 1) {
      PQclear(PQexec(j->w->db, "ROLLBACK"));
      rc = u == 0 ? -ESTALE : -EIO;
      goto out;
    }
    PQclear(PQexec(j->w->db, "COMMIT"));
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

const char *job_run(struct worker *w, const char *job_id, const char *owner, int attempt)
{
  struct job_ctx j;
  const char *outcome = "failed";
  char best[256];
  int rc;

  memset(&j, 0, sizeof(j));
  j.w = w;
  j.id = job_id;
  j.owner = owner;
  rc = job_load(&j);
  if (rc == -ESTALE) {
    outcome = "lost";
    goto out;
  }
  if (rc == -ECANCELED) {
    job_finish(&j, "cancelled", "cancelled by request", NULL);
    outcome = "cancelled";
    goto out;
  }
  if (rc) {
    outcome = "aborted";
    goto out;
  }
  if (attempt > (int)w->max_attempts) {
    char msg[256];
    snprintf(msg, sizeof(msg),
             "gave up after %d attempts: the worker running it was lost each time", attempt - 1);
    job_finish(&j, "failed", msg, NULL);
    goto out;
  }
  if (!j.baseline) {
    rc = job_baseline(&j);
    if (rc == -EINTR) {
      outcome = "aborted";
      goto out;
    }
    if (rc == -ESTALE) {
      outcome = "lost";
      goto out;
    }
    if (rc) {
      log_info("job.failed", "job=%s reason=\"%.300s\"", j.id, j.fail_msg);
      outcome = job_finish(&j, "failed", j.fail_msg, NULL) == 1 ? "failed" : "lost";
      goto out;
    }
  } else {
    /* The harness is given the problem again on its first op (job_op). */
    log_info("job.resumed", "job=%s from=baseline attempt=%d", j.id, attempt);
  }
  if (j.rounds > 0) {
    outcome = rounds_run(&j);
    goto out;
  }
  snprintf(best, sizeof(best),
           "{\"round\":0,\"kernel_sha256\":\"%s\",\"median_ms\":%.6g,\"speedup\":1.0}", j.ksha,
           job_baseline_ms(j.baseline));
  outcome = job_finish(&j, "succeeded", NULL, best) == 1 ? "succeeded" : "lost";
out:
  w->step[0] = '\0';
  json_decref(j.spec);
  json_decref(j.baseline);
  free(j.ksrc);
  free(j.rsrc);
  return outcome;
}
