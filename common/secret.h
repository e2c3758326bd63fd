/* secret: the values that must never reach submitted code or anything a viewer reads.
 *
 * Two defences. (1) Environment: the variables that carry secrets are named here once and
 * removed from every process that runs user code (secret_scrub_env, in the harness child
 * before exec; the launcher also passes only an allowlist). (2) Redaction: the worker
 * registers the secret values it holds (database URL and its password, the LLM key) and
 * secret_redact() replaces them in any text it is about to store or log — so even a
 * kernel that found a secret some other way cannot carry it into a job document, a round
 * record, an event or koptd's log. */
#ifndef KOPT_SECRET_H
#define KOPT_SECRET_H
#include <stddef.h>

/* Environment variables that hold secrets (NULL-terminated). */
extern const char *const secret_env_names[];

#define SECRET_MAX 8            /* registered values */
#define SECRET_MIN_LEN 6        /* shorter values are not redacted (too many false hits) */
#define SECRET_MAX_LEN 4096
#define SECRET_MARK "[redacted]"

/* Removes every secret_env_names variable from this process's environment. */
void secret_scrub_env(void);
/* Registers value (copied). 0, -EINVAL (too short/long: ignored), -ENOSPC, -ENOMEM. */
int secret_register(const char *value);
/* Registers the secrets found in this process's environment: KOPT_DATABASE_URL (whole, and
 * its password in URL or key=value form), KOPT_LLM_API_KEY, the first line of
 * KOPT_LLM_API_KEY_FILE. Returns how many were registered. */
int secret_register_from_env(void);
/* Forgets every registered value. */
void secret_clear(void);
/* 1 when s contains a registered secret. */
int secret_found(const char *s);
/* A new string (caller frees) with every registered secret replaced by SECRET_MARK; NULL
 * only when out of memory (or s is NULL). */
char *secret_redact(const char *s);

#endif
