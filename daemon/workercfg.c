#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "workercfg.h"

/* The directory this koptd binary is in ("" when unknown). */
static void workercfg_exe_dir(char *out, size_t len)
{
  char exe[CONFIG_STR_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  char *slash;
  out[0] = '\0';
  if (n <= 0)
    return;
  exe[n] = '\0';
  slash = strrchr(exe, '/');
  if (slash) {
    *slash = '\0';
    snprintf(out, len, "%s", exe);
  }
}

static int workercfg_exists(const char *path, int mode) { return access(path, mode) == 0; }

/* The clone's harness/: beside bin/ (bin/koptd) or two levels up (bin/asan/koptd). */
static void workercfg_find_harness(const char *exe_dir, char *out, size_t len)
{
  static const char *const ups[] = { "/..", "/../.." };
  for (unsigned i = 0; exe_dir[0] && i < sizeof(ups) / sizeof(ups[0]); i++) {
    char cand[CONFIG_STR_MAX], probe[CONFIG_STR_MAX + 32], *real;
    snprintf(cand, sizeof(cand), "%.900s%s/harness", exe_dir, ups[i]);
    snprintf(probe, sizeof(probe), "%s/kopt_harness.py", cand);
    if (!workercfg_exists(probe, R_OK))
      continue;
    real = realpath(cand, NULL);
    snprintf(out, len, "%s", real ? real : cand);
    free(real);
    return;
  }
  snprintf(out, len, "harness"); /* relative to the working directory, as before */
}

void workercfg_resolve(struct config *cfg)
{
  char exe_dir[CONFIG_STR_MAX];
  const char *py_source = "config";

  workercfg_exe_dir(exe_dir, sizeof(exe_dir));
  if (!cfg->worker_bin[0] && exe_dir[0])
    snprintf(cfg->worker_bin, sizeof(cfg->worker_bin), "%.1000s/kopt-worker", exe_dir);
  if (!cfg->harness_dir[0])
    workercfg_find_harness(exe_dir, cfg->harness_dir, sizeof(cfg->harness_dir));
  if (!cfg->harness_python[0]) {
    /* scripts/deps.sh links the virtualenv it built as .venv beside harness/. */
    char venv_py[CONFIG_STR_MAX + 32];
    snprintf(venv_py, sizeof(venv_py), "%.1000s/../.venv/bin/python", cfg->harness_dir);
    if (workercfg_exists(venv_py, X_OK)) {
      /* Absolute, so that the path in logs and /v1/workers names one interpreter. */
      char *real = realpath(cfg->harness_dir, NULL), *slash = real ? strrchr(real, '/') : NULL;
      if (slash && slash != real)
        *slash = '\0';
      snprintf(cfg->harness_python, sizeof(cfg->harness_python), "%.1000s/.venv/bin/python",
               slash && slash != real ? real : "..");
      free(real);
      py_source = "the .venv beside the harness (scripts/deps.sh)";
    } else {
      snprintf(cfg->harness_python, sizeof(cfg->harness_python), "python3");
      py_source = "python3 on PATH (no .venv beside the harness; set [workers] harness_python)";
    }
  }
  log_info("koptd.workers", "harness_dir=%s harness_python=%s python_from=\"%s\" worker_bin=%s",
           cfg->harness_dir, cfg->harness_python, py_source, cfg->worker_bin);
}

/* The variables workercfg_env sets; koptd's own values of them are not passed on. */
static const char *const workercfg_vars[] = { "KOPT_DATABASE_URL", "KOPT_HARNESS_PYTHON",
                                              "KOPT_HARNESS_DIR", "KOPT_WORK_DIR",
                                              "KOPT_MAX_SOURCE_BYTES", "KOPT_MAX_BODY_BYTES",
                                              NULL };

static int workercfg_ours(const char *entry)
{
  for (int i = 0; workercfg_vars[i]; i++) {
    size_t n = strlen(workercfg_vars[i]);
    if (strncmp(entry, workercfg_vars[i], n) == 0 && entry[n] == '=')
      return 1;
  }
  return 0;
}

char **workercfg_env(const struct config *cfg)
{
  extern char **environ;
  const char *vals[6];
  size_t n = 0, o = 0;
  char src[32], body[32], **env;

  snprintf(src, sizeof(src), "%zu", cfg->max_source_bytes);
  snprintf(body, sizeof(body), "%zu", cfg->max_body_bytes);
  vals[0] = cfg->database_url;
  vals[1] = cfg->harness_python;
  vals[2] = cfg->harness_dir;
  vals[3] = cfg->work_dir; /* "" = the worker's default */
  vals[4] = src;
  vals[5] = body;
  while (environ[n])
    n++;
  env = calloc(n + sizeof(vals) / sizeof(vals[0]) + 1, sizeof(*env));
  if (!env)
    return NULL;
  for (size_t i = 0; i < n; i++)
    if (!workercfg_ours(environ[i]) && !(env[o++] = strdup(environ[i])))
      goto fail;
  for (unsigned i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
    if (vals[i][0] && asprintf(&env[o++], "%s=%s", workercfg_vars[i], vals[i]) < 0) {
      env[o - 1] = NULL;
      goto fail;
    }
  return env;
fail:
  workercfg_env_free(env);
  return NULL;
}

void workercfg_env_free(char **env)
{
  for (size_t i = 0; env && env[i]; i++)
    free(env[i]);
  free(env);
}

int workercfg_changed(const struct config *a, const struct config *b)
{
  return strcmp(a->harness_python, b->harness_python) || strcmp(a->harness_dir, b->harness_dir) ||
         strcmp(a->work_dir, b->work_dir) || strcmp(a->worker_bin, b->worker_bin) ||
         a->max_source_bytes != b->max_source_bytes || a->max_body_bytes != b->max_body_bytes;
}
