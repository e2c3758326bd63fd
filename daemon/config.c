#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "contract.h"

struct config_parse_state {
  struct config *cfg;
  char *err;
  size_t errlen;
  int failed;
};

int config_parse_size(const char *s, size_t *out)
{
  char *end;
  unsigned long long v;
  unsigned long long mul = 1;

  /* A digit first: strtoull would also take leading blanks, '+' and a negation. */
  if (!s || *s < '0' || *s > '9')
    return -EINVAL;
  errno = 0;
  v = strtoull(s, &end, 10);
  if (errno || end == s)
    return -EINVAL;
  if (*end == 'K' || *end == 'k')
    mul = 1024ULL, end++;
  else if (*end == 'M' || *end == 'm')
    mul = 1024ULL * 1024, end++;
  else if (*end == 'G' || *end == 'g')
    mul = 1024ULL * 1024 * 1024, end++;
  if (mul > 1 && *end == 'i') /* KiB, MiB, GiB */
    end++;
  if (*end == 'B')
    end++;
  if (*end)
    return -EINVAL;
  if (v > (unsigned long long)SIZE_MAX / mul)
    return -EINVAL;
  *out = (size_t)(v * mul);
  return 0;
}

static int config_parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
  char *end;
  unsigned long v;
  if (!s || !*s || *s == '-')
    return -EINVAL;
  errno = 0;
  v = strtoul(s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return -EINVAL;
  *out = (unsigned)v;
  return 0;
}

int config_parse_listen(const char *s, char *host, size_t hostlen, unsigned *port)
{
  const char *colon;
  size_t hl;
  if (!s || !*s)
    return -EINVAL;
  if (*s == '[') {
    const char *rb = strchr(s, ']');
    if (!rb || rb[1] != ':')
      return -EINVAL;
    hl = (size_t)(rb - s - 1);
    if (hl == 0 || hl >= hostlen)
      return -EINVAL;
    memcpy(host, s + 1, hl);
    host[hl] = '\0';
    colon = rb + 1;
  } else {
    colon = strrchr(s, ':');
    if (!colon)
      return -EINVAL;
    hl = (size_t)(colon - s);
    if (hl == 0 || hl >= hostlen)
      return -EINVAL;
    memcpy(host, s, hl);
    host[hl] = '\0';
  }
  return config_parse_uint(colon + 1, 0, 65535, port);
}

static int config_copy(char *dst, size_t cap, const char *v)
{
  size_t n = strlen(v);
  if (n >= cap)
    return -ENAMETOOLONG;
  memcpy(dst, v, n + 1);
  return 0;
}

/* Applies one key; section "" is used for environment overrides with known sections. */
static int config_set(struct config *cfg, const char *section, const char *key,
                      const char *val, char *err, size_t errlen)
{
  int rc = -ENOENT;
#define IS(s, k) (strcmp(section, s) == 0 && strcmp(key, k) == 0)
  if (IS("server", "listen"))
    rc = config_parse_listen(val, cfg->listen_host, sizeof(cfg->listen_host),
                             &cfg->listen_port);
  else if (IS("server", "max_body_bytes")) {
    rc = config_parse_size(val, &cfg->max_body_bytes);
    if (!rc && (cfg->max_body_bytes < KOPT_BODY_BYTES_MIN ||
                cfg->max_body_bytes > KOPT_BODY_BYTES_MAX))
      rc = -ERANGE;
  } else if (IS("server", "max_source_bytes")) {
    rc = config_parse_size(val, &cfg->max_source_bytes);
    if (!rc && (cfg->max_source_bytes < KOPT_SOURCE_BYTES_MIN ||
                cfg->max_source_bytes > KOPT_SOURCE_BYTES_MAX))
      rc = -ERANGE;
  } else if (IS("server", "max_connections"))
    rc = config_parse_uint(val, 4, 100000, &cfg->max_connections);
  else if (IS("server", "max_connections_per_ip"))
    rc = config_parse_uint(val, 1, 100000, &cfg->max_connections_per_ip);
  else if (IS("server", "connection_timeout_s"))
    rc = config_parse_uint(val, 1, 3600, &cfg->connection_timeout_s);
  else if (IS("server", "header_timeout_s"))
    rc = config_parse_uint(val, 1, 3600, &cfg->header_timeout_s);
  else if (IS("server", "body_timeout_s"))
    rc = config_parse_uint(val, 1, 3600, &cfg->body_timeout_s);
  else if (IS("server", "probe_listen")) {
    cfg->probe_listen_host[0] = '\0';
    cfg->probe_listen_port = 0;
    rc = *val == '\0' || strcmp(val, "none") == 0
             ? 0
             : config_parse_listen(val, cfg->probe_listen_host, sizeof(cfg->probe_listen_host),
                                   &cfg->probe_listen_port);
  } else if (IS("server", "max_streams_per_token"))
    rc = config_parse_uint(val, 1, 100000, &cfg->max_streams_per_token);
  else if (IS("server", "cache_max_entries"))
    rc = config_parse_uint(val, 0, 10000000, &cfg->cache_max_entries);
  else if (IS("server", "cache_max_bytes")) {
    rc = config_parse_size(val, &cfg->cache_max_bytes);
    if (!rc && (cfg->cache_max_bytes < (1u << 20) || cfg->cache_max_bytes > (16ull << 30)))
      rc = -ERANGE;
  }
  else if (IS("server", "host_id"))
    rc = config_copy(cfg->host_id, sizeof(cfg->host_id), val);
  else if (IS("database", "url"))
    rc = config_copy(cfg->database_url, sizeof(cfg->database_url), val);
  else if (IS("database", "pool_size"))
    rc = config_parse_uint(val, 1, 64, &cfg->pool_size);
  else if (IS("workers", "devices"))
    rc = config_copy(cfg->devices, sizeof(cfg->devices), val);
  else if (IS("workers", "worker_bin"))
    rc = config_copy(cfg->worker_bin, sizeof(cfg->worker_bin), val);
  else if (IS("workers", "harness_python"))
    rc = config_copy(cfg->harness_python, sizeof(cfg->harness_python), val);
  else if (IS("workers", "harness_dir"))
    rc = config_copy(cfg->harness_dir, sizeof(cfg->harness_dir), val);
  else if (IS("workers", "work_dir"))
    rc = config_copy(cfg->work_dir, sizeof(cfg->work_dir), val);
  else if (IS("workers", "lease_s"))
    rc = config_parse_uint(val, 5, 3600, &cfg->lease_s);
  else if (IS("log", "level"))
    rc = log_level_parse(val, &cfg->log_level);
#undef IS
  if (rc == -ENOENT)
    snprintf(err, errlen, "unknown key [%s] %s", section, key);
  else if (rc == -ERANGE)
    snprintf(err, errlen, "[%s] %s = %s: out of range", section, key, val);
  else if (rc)
    snprintf(err, errlen, "[%s] %s = %s: invalid value", section, key, val);
  return rc ? -EINVAL : 0;
}

static int config_ini_cb(void *user, const char *section, const char *name, const char *value)
{
  struct config_parse_state *st = user;
  char e[512];
  if (st->failed)
    return 0;
  if (config_set(st->cfg, section, name, value, e, sizeof(e))) {
    snprintf(st->err, st->errlen, "%s: %s", st->cfg->path, e);
    st->failed = 1;
    return 0;
  }
  return 1;
}

static void config_defaults(struct config *cfg)
{
  memset(cfg, 0, sizeof(*cfg));
  snprintf(cfg->listen_host, sizeof(cfg->listen_host), "127.0.0.1");
  cfg->listen_port = 8470;
  cfg->max_body_bytes = KOPT_BODY_BYTES_DEFAULT;
  cfg->max_source_bytes = KOPT_SOURCE_BYTES_DEFAULT;
  cfg->max_connections = 1024;
  cfg->max_connections_per_ip = 128;
  cfg->connection_timeout_s = 60;
  cfg->header_timeout_s = 10;
  cfg->body_timeout_s = 30;
  cfg->max_streams_per_token = 16;
  cfg->cache_max_entries = 10000;
  cfg->cache_max_bytes = 64u << 20;
  snprintf(cfg->database_url, sizeof(cfg->database_url), "postgresql:///kopt");
  cfg->pool_size = 4;
  snprintf(cfg->devices, sizeof(cfg->devices), "auto");
  cfg->lease_s = 30;
  cfg->log_level = LOG_LVL_INFO;
  if (gethostname(cfg->host_id, sizeof(cfg->host_id) - 1) != 0)
    snprintf(cfg->host_id, sizeof(cfg->host_id), "localhost");
}

int config_load(struct config *cfg, const char *path, char *err, size_t errlen)
{
  static const struct {
    const char *env, *section, *key;
  } envmap[] = {
    { "KOPT_LISTEN", "server", "listen" },
    { "KOPT_MAX_BODY_BYTES", "server", "max_body_bytes" },
    { "KOPT_MAX_SOURCE_BYTES", "server", "max_source_bytes" },
    { "KOPT_MAX_CONNECTIONS", "server", "max_connections" },
    { "KOPT_MAX_CONNECTIONS_PER_IP", "server", "max_connections_per_ip" },
    { "KOPT_CONNECTION_TIMEOUT_S", "server", "connection_timeout_s" },
    { "KOPT_HEADER_TIMEOUT_S", "server", "header_timeout_s" },
    { "KOPT_BODY_TIMEOUT_S", "server", "body_timeout_s" },
    { "KOPT_PROBE_LISTEN", "server", "probe_listen" },
    { "KOPT_MAX_STREAMS_PER_TOKEN", "server", "max_streams_per_token" },
    { "KOPT_CACHE_MAX_ENTRIES", "server", "cache_max_entries" },
    { "KOPT_CACHE_MAX_BYTES", "server", "cache_max_bytes" },
    { "KOPT_HOST_ID", "server", "host_id" },
    { "KOPT_DATABASE_URL", "database", "url" },
    { "KOPT_POOL_SIZE", "database", "pool_size" },
    { "KOPT_DEVICES", "workers", "devices" },
    { "KOPT_WORKER_BIN", "workers", "worker_bin" },
    { "KOPT_HARNESS_PYTHON", "workers", "harness_python" },
    { "KOPT_HARNESS_DIR", "workers", "harness_dir" },
    { "KOPT_WORK_DIR", "workers", "work_dir" },
    { "KOPT_LEASE_S", "workers", "lease_s" },
    { "KOPT_LOG_LEVEL", "log", "level" },
  };
  struct config_parse_state st = { cfg, err, errlen, 0 };
  int rc = 0;

  config_defaults(cfg);
  if (path && *path) {
    if (config_copy(cfg->path, sizeof(cfg->path), path)) {
      snprintf(err, errlen, "config path too long");
      return -ENAMETOOLONG;
    }
    rc = ini_parse(path, config_ini_cb, &st);
    if (rc == -1) {
      snprintf(err, errlen, "%s: cannot open", path);
      return -ENOENT;
    }
    if (st.failed)
      return -EINVAL;
    if (rc > 0) {
      snprintf(err, errlen, "%s:%d: syntax error", path, rc);
      return -EINVAL;
    }
  }
  for (unsigned i = 0; i < sizeof(envmap) / sizeof(envmap[0]); i++) {
    const char *v = getenv(envmap[i].env);
    char e[512];
    if (!v)
      continue;
    if (config_set(cfg, envmap[i].section, envmap[i].key, v, e, sizeof(e))) {
      snprintf(err, errlen, "environment %s: %s", envmap[i].env, e);
      return -EINVAL;
    }
  }
  return 0;
}
