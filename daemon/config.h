/* config: koptd settings from an INI file (libinih), each key overridable by environment. */
#ifndef KOPT_CONFIG_H
#define KOPT_CONFIG_H
#include <stddef.h>

#include "log.h"

#define CONFIG_STR_MAX 1024

struct config {
  char path[CONFIG_STR_MAX];          /* file read, "" when none */
  char listen_host[256];               /* [server] listen = host:port, KOPT_LISTEN */
  unsigned listen_port;
  size_t max_body_bytes;               /* [server] max_body_bytes, KOPT_MAX_BODY_BYTES */
  size_t max_source_bytes;             /* [server] max_source_bytes, KOPT_MAX_SOURCE_BYTES */
  unsigned max_connections;            /* [server] max_connections, KOPT_MAX_CONNECTIONS */
  unsigned max_connections_per_ip;     /* [server] max_connections_per_ip */
  unsigned connection_timeout_s;       /* [server] connection_timeout_s: idle limit */
  unsigned header_timeout_s;           /* [server] header_timeout_s: whole head, absolute */
  unsigned body_timeout_s;             /* [server] body_timeout_s: whole body, absolute */
  char probe_listen_host[256];         /* [server] probe_listen, KOPT_PROBE_LISTEN; "" = off */
  unsigned probe_listen_port;
  unsigned max_streams_per_token;      /* [server] max_streams_per_token */
  unsigned cache_max_entries;          /* [server] cache_max_entries (0: no job cache) */
  size_t cache_max_bytes;              /* [server] cache_max_bytes */
  char database_url[CONFIG_STR_MAX];   /* [database] url, KOPT_DATABASE_URL */
  unsigned pool_size;                  /* [database] pool_size, KOPT_POOL_SIZE */
  char devices[CONFIG_STR_MAX];        /* [workers] devices, KOPT_DEVICES */
  char worker_bin[CONFIG_STR_MAX];     /* [workers] worker_bin, KOPT_WORKER_BIN */
  char harness_python[CONFIG_STR_MAX]; /* [workers] harness_python, KOPT_HARNESS_PYTHON */
  char harness_dir[CONFIG_STR_MAX];    /* [workers] harness_dir, KOPT_HARNESS_DIR */
  char work_dir[CONFIG_STR_MAX];       /* [workers] work_dir, KOPT_WORK_DIR */
  unsigned lease_s;                    /* [workers] lease_s, KOPT_LEASE_S */
  enum log_level log_level;            /* [log] level, KOPT_LOG_LEVEL */
  char host_id[256];                   /* [server] host_id, KOPT_HOST_ID (default hostname) */
};

/* Fills defaults, reads path (NULL or "" = no file), then the environment. On error writes a
 * message naming the key/line into err and returns -EINVAL (or -errno for the file). */
int config_load(struct config *cfg, const char *path, char *err, size_t errlen);

/* Parses "host:port" / "[v6]:port"; 0 or -EINVAL. Exposed for tests. */
int config_parse_listen(const char *s, char *host, size_t hostlen, unsigned *port);
/* Parses a size with optional K/M/G suffix (powers of 1024); 0 or -EINVAL. */
int config_parse_size(const char *s, size_t *out);

#endif
