#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "secret.h"

const char *const secret_env_names[] = {
  "KOPT_DATABASE_URL", "KOPT_LLM_API_KEY", "KOPT_LLM_API_KEY_FILE", "KOPT_TOKEN",
  "PGPASSWORD", "PGPASSFILE", "PGSERVICEFILE", "DATABASE_URL", NULL,
};

/* Registered values; owned. Written at start-up (single-threaded), read afterwards. */
static char *secret_values[SECRET_MAX];
static unsigned secret_count;

void secret_scrub_env(void)
{
  for (unsigned i = 0; secret_env_names[i]; i++)
    unsetenv(secret_env_names[i]);
}

int secret_register(const char *value)
{
  size_t n = value ? strlen(value) : 0;
  if (n < SECRET_MIN_LEN || n > SECRET_MAX_LEN)
    return -EINVAL;
  for (unsigned i = 0; i < secret_count; i++)
    if (strcmp(secret_values[i], value) == 0)
      return 0;
  if (secret_count == SECRET_MAX)
    return -ENOSPC;
  secret_values[secret_count] = strdup(value);
  if (!secret_values[secret_count])
    return -ENOMEM;
  secret_count++;
  return 0;
}

void secret_clear(void)
{
  for (unsigned i = 0; i < secret_count; i++)
    free(secret_values[i]);
  secret_count = 0;
}

/* The password of a libpq connection string: "postgresql://user:PASS@host/db" or
 * "... password=PASS ..." (optionally quoted). Copied into out; "" when none. */
static void secret_db_password(const char *url, char *out, size_t cap)
{
  const char *p;
  size_t n = 0;
  out[0] = '\0';
  if ((p = strstr(url, "://")) != NULL) {
    const char *at = strchr(p + 3, '@'), *colon = strchr(p + 3, ':');
    if (at && colon && colon < at) {
      n = (size_t)(at - colon - 1);
      p = colon + 1;
    }
  } else if ((p = strstr(url, "password=")) != NULL) {
    p += strlen("password=");
    if (*p == '\'') {
      const char *e = strchr(++p, '\'');
      n = e ? (size_t)(e - p) : strlen(p);
    } else {
      n = strcspn(p, " \t");
    }
  }
  if (n && n < cap) {
    memcpy(out, p, n);
    out[n] = '\0';
  }
}

int secret_register_from_env(void)
{
  const char *url = getenv("KOPT_DATABASE_URL"), *key = getenv("KOPT_LLM_API_KEY");
  const char *keyfile = getenv("KOPT_LLM_API_KEY_FILE");
  char pw[SECRET_MAX_LEN + 1], line[SECRET_MAX_LEN + 1];
  int n = 0;

  if (url) {
    n += secret_register(url) == 0;
    secret_db_password(url, pw, sizeof(pw));
    n += secret_register(pw) == 0;
  }
  if (key)
    n += secret_register(key) == 0;
  if (keyfile) {
    FILE *f = fopen(keyfile, "r");
    if (f) {
      if (fgets(line, sizeof(line), f)) {
        line[strcspn(line, "\r\n")] = '\0';
        n += secret_register(line) == 0;
      }
      fclose(f);
    }
  }
  return n;
}

int secret_found(const char *s)
{
  for (unsigned i = 0; s && i < secret_count; i++)
    if (strstr(s, secret_values[i]))
      return 1;
  return 0;
}

char *secret_redact(const char *s)
{
  char *out;
  if (!s)
    return NULL;
  out = strdup(s);
  for (unsigned i = 0; out && i < secret_count; i++) {
    const char *v = secret_values[i];
    size_t vn = strlen(v), mn = strlen(SECRET_MARK);
    size_t from = 0;
    char *hit;
    /* Search on after each mark, so a value inside SECRET_MARK cannot loop. */
    while ((hit = strstr(out + from, v)) != NULL) {
      size_t pre = (size_t)(hit - out), post = strlen(hit + vn);
      char *next = malloc(pre + mn + post + 1);
      if (!next) {
        free(out);
        return NULL;
      }
      memcpy(next, out, pre);
      memcpy(next + pre, SECRET_MARK, mn);
      memcpy(next + pre + mn, hit + vn, post + 1);
      free(out);
      out = next;
      from = pre + mn;
    }
  }
  return out;
}
