/* kopt-worker: started by koptd, one per device. Reads JSON lines from koptd on stdin
 * ({"type":"run",...}, {"type":"check"}, {"type":"shutdown"}), writes hello, the start-up
 * check's status, heartbeats and job results on stdout (workers/PROTOCOL.md), logs on
 * stderr. */
#include <assert.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "check.h"
#include "deadline.h"
#include "log.h"
#include "pindex.h"
#include "secret.h"
#include "worker.h"

#define WORKER_HEARTBEAT_S 2
#define WORKER_LINE_MAX 65536
#define WORKER_MAX_ATTEMPTS 3        /* attempts a job may spend on its own faults */
#define WORKER_MAX_INFRA_RETRIES 20  /* requeues for faults outside the job, then it fails */
#define WORKER_SETTING_MAX 86400     /* largest numeric KOPT_* setting read here */

/* The signal handler's only way to the context; set once in main. */
static struct worker *worker_for_signal;

static void worker_on_term(int sig)
{
  (void)sig;
  if (worker_for_signal)
    worker_for_signal->stop = 1;
}

void worker_send(struct worker *w, const char *fmt, ...)
{
  char line[4096];
  va_list ap;
  int n;
  va_start(ap, fmt);
  n = vsnprintf(line, sizeof(line) - 1, fmt, ap);
  va_end(ap);
  if (n < 0)
    return;
  if ((size_t)n > sizeof(line) - 2)
    n = (int)sizeof(line) - 2;
  line[n++] = '\n';
  pthread_mutex_lock(&w->out_mu);
  if (write(STDOUT_FILENO, line, (size_t)n) < 0) {
    /* koptd is gone; PR_SET_PDEATHSIG ends us shortly. */
  }
  pthread_mutex_unlock(&w->out_mu);
}

/* Writes one JSON object as a line to koptd, whatever its length (koptd takes up to 64 KiB). */
static void worker_send_json(struct worker *w, json_t *msg)
{
  char *line = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
  size_t n;
  if (!line)
    return;
  n = strlen(line);
  line[n] = '\n'; /* json_dumps's NUL: the line is written by length */
  pthread_mutex_lock(&w->out_mu);
  if (write(STDOUT_FILENO, line, n + 1) < 0) {
    /* koptd is gone; PR_SET_PDEATHSIG ends us shortly. */
  }
  pthread_mutex_unlock(&w->out_mu);
  free(line);
}

/* Beats while the main thread is busy in a long harness call, so koptd can tell a busy
 * worker from a dead one; the harness call itself is bounded by eval_timeout_s. */
static void *worker_heartbeat(void *arg)
{
  struct worker *w = arg;
  while (!w->stop) {
    char job[KOPT_JOB_ID_SIZE], step[24];
    pthread_mutex_lock(&w->out_mu);
    snprintf(job, sizeof(job), "%s", w->job_id);
    snprintf(step, sizeof(step), "%s", w->step);
    pthread_mutex_unlock(&w->out_mu);
    worker_send(w, "{\"type\":\"heartbeat\",\"job\":\"%s\",\"step\":\"%s\",\"harness_pid\":%d}",
                job, step, (int)w->h.pid);
    sleep(WORKER_HEARTBEAT_S);
  }
  return NULL;
}

static const char *worker_env(const char *name, const char *def)
{
  const char *v = getenv(name);
  return v && *v ? v : def;
}

/* A positive integer setting from the environment (at most WORKER_SETTING_MAX); anything
 * else is logged and the default is used. */
static unsigned worker_env_uint(const char *name, unsigned def)
{
  const char *v = getenv(name);
  char *end;
  unsigned long x;
  if (!v || !*v)
    return def;
  errno = 0;
  x = strtoul(v, &end, 10);
  if (errno || *end || x == 0 || x > WORKER_SETTING_MAX) {
    log_warn("worker.bad_setting", "name=%s value=\"%.40s\" limit=1..%u using=%u", name, v,
             WORKER_SETTING_MAX, def);
    return def;
  }
  return (unsigned)x;
}

static int worker_setup(struct worker *w, const char *device, char *err, size_t errlen)
{
  const char *colon = strchr(device, ':');
  static char launcher[1200], script[1200], hdir[1024], backend_arg[16], root_arg[1200];
  unsigned long long max_source, max_body;
  unsigned a = 0;
  struct stat st;

  if (!colon || colon - device >= (long)sizeof(w->backend)) {
    snprintf(err, errlen, "--device must look like cuda:0");
    return -EINVAL;
  }
  snprintf(w->device, sizeof(w->device), "%s", device);
  memcpy(w->backend, device, (size_t)(colon - device));
  w->backend[colon - device] = '\0';
  w->index = atoi(colon + 1);
  snprintf(w->db_url, sizeof(w->db_url), "%s", worker_env("KOPT_DATABASE_URL", "postgresql:///kopt"));
  snprintf(w->work_dir, sizeof(w->work_dir), "%s/%s", worker_env("KOPT_WORK_DIR", "/tmp/kopt-work"),
           device);
  snprintf(w->interp_target, sizeof(w->interp_target), "%s",
           worker_env("KOPT_INTERP_TARGET", "cuda:90"));
  /* Each harness call's limit is derived from what the job measured (deadline.h), within
   * a floor and this cap; a first load has a default of its own. */
  w->eval_timeout_s = worker_env_uint("KOPT_EVAL_TIMEOUT_S", DEADLINE_CAP_S);
  w->eval_floor_s = worker_env_uint("KOPT_EVAL_TIMEOUT_FLOOR_S", DEADLINE_FLOOR_S);
  w->load_timeout_s = worker_env_uint("KOPT_LOAD_TIMEOUT_S", DEADLINE_LOAD_S);
  w->max_attempts = worker_env_uint("KOPT_MAX_ATTEMPTS", WORKER_MAX_ATTEMPTS);
  w->max_infra_retries = worker_env_uint("KOPT_MAX_INFRA_RETRIES", WORKER_MAX_INFRA_RETRIES);
  w->pattern_min_support = worker_env_uint("KOPT_PATTERN_MIN_SUPPORT", PINDEX_MIN_SUPPORT_DEFAULT);
  snprintf(hdir, sizeof(hdir), "%s", worker_env("KOPT_HARNESS_DIR", "harness"));
  /* koptd exports what it resolved (daemon/workercfg.c); these defaults serve a worker run
   * by hand from the repository root. */
  snprintf(w->python, sizeof(w->python), "%s", worker_env("KOPT_HARNESS_PYTHON", "python3"));
  /* The daemon's limits, so that the harness takes whatever the API accepted. */
  max_source = strtoull(worker_env("KOPT_MAX_SOURCE_BYTES", "0"), NULL, 10);
  max_body = strtoull(worker_env("KOPT_MAX_BODY_BYTES", "0"), NULL, 10);
  if (max_source < KOPT_SOURCE_BYTES_MIN || max_source > KOPT_SOURCE_BYTES_MAX)
    max_source = KOPT_SOURCE_BYTES_DEFAULT;
  if (max_body < KOPT_BODY_BYTES_MIN || max_body > KOPT_BODY_BYTES_MAX)
    max_body = KOPT_BODY_BYTES_DEFAULT;
  snprintf(w->limit_args[0], sizeof(w->limit_args[0]), "%llu", max_source);
  snprintf(w->limit_args[1], sizeof(w->limit_args[1]), "%zu",
           contract_harness_line_max((size_t)max_body, (size_t)max_source));
  snprintf(script, sizeof(script), "%s/kopt_harness.py", hdir);
  snprintf(launcher, sizeof(launcher), "%s",
           worker_env("KOPT_HARNESS_LAUNCHER", ""));
  if (!launcher[0]) {
    char def[1100];
    snprintf(def, sizeof(def), "%s/run-sandboxed", hdir);
    if (stat(def, &st) == 0)
      snprintf(launcher, sizeof(launcher), "%s", def);
  }
  snprintf(backend_arg, sizeof(backend_arg), "%s", w->backend);
  snprintf(w->sandbox_user, sizeof(w->sandbox_user), "kopt-sb-%.8s%d", w->backend, w->index);
  snprintf(root_arg, sizeof(root_arg), "%s", w->work_dir);
  if (strcmp(launcher, "none") != 0 && launcher[0]) {
    /* harness/run-sandboxed: own user, no network, rlimits, private work directory. */
    w->harness_argv[a++] = launcher;
    w->harness_argv[a++] = "--python";
    w->harness_argv[a++] = w->python;
    /* One sandbox user per device: RLIMIT_NPROC counts per user, so a fork bomb in one
     * harness must not starve another device's. */
    w->harness_argv[a++] = "--user";
    w->harness_argv[a++] = w->sandbox_user;
  } else {
    w->sandbox_user[0] = '\0';
    w->harness_argv[a++] = w->python;
    w->harness_argv[a++] = script;
  }
  w->harness_argv[a++] = "--backend";
  w->harness_argv[a++] = backend_arg;
  w->harness_argv[a++] = "--workdir";
  w->harness_argv[a++] = root_arg;
  if (w->sandbox_user[0])
    w->harness_argv[a++] = "--"; /* the rest goes to kopt_harness.py */
  w->harness_argv[a++] = "--max-source-bytes";
  w->harness_argv[a++] = w->limit_args[0];
  w->harness_argv[a++] = "--max-line-bytes";
  w->harness_argv[a++] = w->limit_args[1];
  assert(a < WORKER_MAX_ARGV);
  w->harness_argv[a] = NULL;
  /* Pin the harness to this worker's device. */
  a = 0;
  if (strcmp(w->backend, "interp") == 0) {
    snprintf(w->harness_env[a++], sizeof(w->harness_env[0]), "TRITON_INTERPRET=1");
  } else if (strcmp(w->backend, "cuda") == 0) {
    snprintf(w->harness_env[a++], sizeof(w->harness_env[0]), "CUDA_VISIBLE_DEVICES=%d", w->index);
  } else {
    snprintf(w->harness_env[a++], sizeof(w->harness_env[0]), "ASCEND_RT_VISIBLE_DEVICES=%d",
             w->index);
  }
  snprintf(w->harness_env[a++], sizeof(w->harness_env[0]), "PYTHONUNBUFFERED=1");
  for (unsigned i = 0; i < a; i++)
    w->harness_envp[i] = w->harness_env[i];
  w->harness_envp[a] = NULL;
  {
    /* The parent must be traversable by the sandbox user; the launcher makes (and owns)
     * the device's directory itself. Without a launcher the worker makes it. */
    char parent[1024];
    snprintf(parent, sizeof(parent), "%s", worker_env("KOPT_WORK_DIR", "/tmp/kopt-work"));
    if (mkdir(parent, 0755) == 0 || errno == EEXIST) {
      /* An older koptd may have made it 0750: the sandbox user must traverse it. */
      if (chmod(parent, 0755) != 0)
        log_warn("worker.workdir_mode", "path=%s err=\"%s\"", parent, strerror(errno));
    } else {
      int e = errno;
      snprintf(err, errlen, "cannot create the work directory %.300s: %s", parent, strerror(e));
      return -e;
    }
    if ((strcmp(launcher, "none") == 0 || !launcher[0]) && mkdir(w->work_dir, 0750) != 0 &&
        errno != EEXIST) {
      int e = errno;
      snprintf(err, errlen, "cannot create the work directory (%s): %s", device, strerror(e));
      return -e;
    }
  }
  return 0;
}

/* Runs the start-up check (check.h) and sends its verdict to koptd as a status message. */
static void worker_check(struct worker *w)
{
  char reason[CHECK_REASON_MAX];
  json_t *facts = NULL, *msg;
  int rc;

  snprintf(w->step, sizeof(w->step), "check");
  rc = check_harness(w, reason, sizeof(reason), &facts);
  w->step[0] = '\0';
  if (rc == -EINTR)
    return; /* stopping: koptd is not waiting for a verdict */
  if (rc == 0) {
    msg = json_pack("{s:s, s:b, s:o}", "type", "status", "ready", 1, "harness", facts);
    log_info("worker.check_passed", "device=%s python=%s torch=%s triton=%s", w->device,
             w->python, json_string_value(json_object_get(facts, "torch")),
             json_string_value(json_object_get(facts, "triton")));
  } else {
    char q[CHECK_REASON_MAX + 64];
    msg = json_pack("{s:s, s:b, s:s}", "type", "status", "ready", 0, "reason", reason);
    log_error("worker.check_failed", "device=%s reason=%s", w->device,
              log_quote(q, sizeof(q), reason));
  }
  worker_send_json(w, msg);
  json_decref(msg);
}

static void worker_handle(struct worker *w, const char *line)
{
  json_error_t je;
  json_t *m = json_loads(line, 0, &je);
  const char *type = json_string_value(json_object_get(m, "type"));
  if (!type) {
    log_warn("worker.bad_message", "len=%zu", strlen(line));
  } else if (strcmp(type, "run") == 0) {
    const char *id = json_string_value(json_object_get(m, "job_id"));
    const char *owner = json_string_value(json_object_get(m, "lease_owner"));
    int attempt = (int)json_integer_value(json_object_get(m, "attempt"));
    const char *outcome;
    if (id && owner && strlen(id) < sizeof(w->job_id)) {
      pthread_mutex_lock(&w->out_mu);
      snprintf(w->job_id, sizeof(w->job_id), "%s", id);
      pthread_mutex_unlock(&w->out_mu);
      log_info("job.start", "job=%s device=%s attempt=%d", id, w->device, attempt);
      outcome = job_run(w, id, owner, attempt);
      log_info("job.end", "job=%s outcome=%s", id, outcome);
      pthread_mutex_lock(&w->out_mu);
      w->job_id[0] = '\0';
      pthread_mutex_unlock(&w->out_mu);
      /* A job that left no harness (a kernel killed it, or it could not start) is followed
       * by a fresh, checked one: the next job finds it warm, and a harness that can no
       * longer start makes this worker unready instead of failing every job that follows. */
      if (!w->h.pid && !w->stop)
        worker_check(w);
      worker_send(w, "{\"type\":\"job_done\",\"job_id\":\"%s\",\"outcome\":\"%s\"}", id, outcome);
    }
  } else if (strcmp(type, "check") == 0) {
    worker_check(w);
  } else if (strcmp(type, "shutdown") == 0) {
    w->stop = 1;
  }
  json_decref(m);
}

int main(int argc, char **argv)
{
  static const struct option opts[] = { { "device", required_argument, NULL, 'd' },
                                        { NULL, 0, NULL, 0 } };
  static struct worker w;
  struct sigaction sa;
  pthread_t hb;
  char err[512], line[WORKER_LINE_MAX];
  const char *device = NULL;
  int o;

  log_set_component("kopt-worker");
  while ((o = getopt_long(argc, argv, "d:", opts, NULL)) != -1) {
    if (o == 'd')
      device = optarg;
    else
      return 2;
  }
  if (!device) {
    fprintf(stderr, "usage: kopt-worker --device cuda:0|ascend:0|interp:0\n"
                    "(normally started by koptd; settings come from KOPT_* variables)\n");
    return 2;
  }
  {
    enum log_level lvl;
    if (log_level_parse(worker_env("KOPT_LOG_LEVEL", "info"), &lvl) == 0)
      log_set_level(lvl);
  }
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* a worker never outlives its koptd */
  /* Text from kernels passes through this process on its way to the database and the log:
   * the secrets it holds are redacted from all of it (secret.h). */
  secret_register_from_env();
  pthread_mutex_init(&w.out_mu, NULL);
  harness_init(&w.h);
  if (worker_setup(&w, device, err, sizeof(err))) {
    log_error("worker.setup_failed", "err=\"%s\"", err);
    return 1;
  }
  worker_for_signal = &w;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = worker_on_term; /* no SA_RESTART: a blocked read returns EINTR */
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  worker_send(&w, "{\"type\":\"hello\",\"device\":\"%s\",\"pid\":%d}", w.device, (int)getpid());
  pthread_create(&hb, NULL, worker_heartbeat, &w);
  log_info("worker.started", "device=%s harness=%s python=%s", w.device, w.harness_argv[0],
           w.python);
  worker_check(&w);
  while (!w.stop) {
    if (!fgets(line, sizeof(line), stdin)) {
      if (ferror(stdin) && errno == EINTR) {
        clearerr(stdin);
        continue;
      }
      break; /* koptd closed the pipe */
    }
    worker_handle(&w, line);
  }
  w.stop = 1;
  harness_stop(&w.h);
  pthread_join(hb, NULL);
  if (w.db)
    PQfinish(w.db);
  harness_free(&w.h);
  log_info("worker.exit", "device=%s", w.device);
  return 0;
}
