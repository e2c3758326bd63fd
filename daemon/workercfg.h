/* workercfg: the settings koptd hands its workers. It resolves where the harness and its
 * interpreter are when the configuration does not say (the harness/ directory of the clone
 * this koptd was built in, and the .venv that scripts/deps.sh links beside it), builds the
 * environment workers start with (koptd's own, plus the effective values as the KOPT_*
 * variables kopt-worker reads: KOPT_DATABASE_URL, KOPT_HARNESS_PYTHON, KOPT_HARNESS_DIR,
 * KOPT_WORK_DIR, KOPT_MAX_SOURCE_BYTES, KOPT_MAX_BODY_BYTES), and tells whether a reload
 * changed any of them (then the workers are restarted: pool_reconfigure).
 *
 * koptd's own environment is left alone: a reload reads the operator's KOPT_* variables
 * again, never values koptd exported itself. */
#ifndef KOPT_WORKERCFG_H
#define KOPT_WORKERCFG_H
#include "config.h"

/* Fills worker_bin, harness_dir and harness_python when cfg leaves them empty. */
void workercfg_resolve(struct config *cfg);
/* A new NULL-terminated environment for workers (caller frees with workercfg_env_free), or
 * NULL when out of memory. */
char **workercfg_env(const struct config *cfg);
void workercfg_env_free(char **env);
/* 1 when a worker started with a would differ from one started with b. */
int workercfg_changed(const struct config *a, const struct config *b);

#endif
