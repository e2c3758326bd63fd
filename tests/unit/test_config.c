/* Unit tests for daemon/config.c: defaults, the INI file, environment overrides, errors that
 * name the key or line, and the listen/size parsers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"

static const char *const all_env[] = {
  "KOPT_LISTEN", "KOPT_MAX_BODY_BYTES", "KOPT_MAX_SOURCE_BYTES", "KOPT_MAX_CONNECTIONS",
  "KOPT_HOST_ID", "KOPT_DATABASE_URL", "KOPT_POOL_SIZE", "KOPT_DEVICES", "KOPT_WORKER_BIN",
  "KOPT_HARNESS_PYTHON", "KOPT_HARNESS_DIR", "KOPT_WORK_DIR", "KOPT_LEASE_S", "KOPT_LOG_LEVEL",
  "KOPT_MAX_CONNECTIONS_PER_IP", "KOPT_CONNECTION_TIMEOUT_S", "KOPT_HEADER_TIMEOUT_S",
  "KOPT_BODY_TIMEOUT_S", "KOPT_PROBE_LISTEN", "KOPT_MAX_STREAMS_PER_TOKEN",
  NULL
};

/* Each test starts (and ends) with no KOPT_* variable set. */
static int clean_env(void **state)
{
  (void)state;
  for (int i = 0; all_env[i]; i++)
    unsetenv(all_env[i]);
  return 0;
}

/* Writes text into a new temporary file; path gets its name (caller unlinks). */
static void write_tmp(char path[64], const char *text)
{
  int fd;
  size_t n = strlen(text);
  snprintf(path, 64, "/tmp/kopt-test-config-XXXXXX");
  fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, n), (ssize_t)n);
  close(fd);
}

/* Loads text as a config file; returns config_load's result. */
static int load_text(struct config *cfg, const char *text, char *err, size_t errlen,
                     char path[64])
{
  int rc;
  write_tmp(path, text);
  err[0] = '\0';
  rc = config_load(cfg, path, err, errlen);
  unlink(path);
  return rc;
}

static void test_defaults(void **state)
{
  struct config cfg;
  char err[512] = "";
  (void)state;
  memset(&cfg, 0x5a, sizeof(cfg)); /* config_load must fill everything */
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), 0);
  assert_string_equal(cfg.path, "");
  assert_string_equal(cfg.listen_host, "127.0.0.1");
  assert_int_equal(cfg.listen_port, 8470);
  assert_int_equal(cfg.max_body_bytes, 4u << 20);
  assert_int_equal(cfg.max_source_bytes, 256u << 10);
  assert_int_equal(cfg.max_connections, 1024);
  assert_int_equal(cfg.connection_timeout_s, 60);
  assert_int_equal(cfg.max_connections_per_ip, 128);
  assert_int_equal(cfg.header_timeout_s, 10);
  assert_int_equal(cfg.body_timeout_s, 30);
  assert_string_equal(cfg.probe_listen_host, "");
  assert_int_equal(cfg.probe_listen_port, 0);
  assert_int_equal(cfg.max_streams_per_token, 16);
  assert_string_equal(cfg.database_url, "postgresql:///kopt");
  assert_int_equal(cfg.pool_size, 4);
  assert_string_equal(cfg.devices, "auto");
  assert_string_equal(cfg.worker_bin, "");
  assert_string_equal(cfg.work_dir, "");
  assert_int_equal(cfg.lease_s, 30);
  assert_int_equal(cfg.log_level, LOG_LVL_INFO);
  assert_true(cfg.host_id[0] != '\0');
  assert_non_null(memchr(cfg.host_id, '\0', sizeof(cfg.host_id)));
  /* "" is no file too. */
  assert_int_equal(config_load(&cfg, "", err, sizeof(err)), 0);
  assert_string_equal(cfg.path, "");
}

static void test_ini_file(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg,
                             "; koptd settings\n"
                             "# another comment style\n"
                             "[server]\n"
                             "listen = 0.0.0.0:9001\n"
                             "max_body_bytes = 2M\n"
                             "max_source_bytes = 128K\n"
                             "max_connections = 50\n"
                             "connection_timeout_s = 5\n"
                             "host_id = node-7\n"
                             "\n"
                             "[database]\n"
                             "url = postgresql://u@db.example/kopt?sslmode=require\n"
                             "pool_size = 16\n"
                             "[workers]\n"
                             "devices = cuda:0,cuda:1\n"
                             "worker_bin = /usr/libexec/kopt-worker\n"
                             "harness_python = /opt/venv/bin/python\n"
                             "harness_dir = /opt/kopt/harness\n"
                             "work_dir = /var/lib/kopt/work\n"
                             "lease_s = 120\n"
                             "[log]\n"
                             "level = debug\n",
                             err, sizeof(err), path),
                   0);
  assert_string_equal(cfg.path, path);
  assert_string_equal(cfg.listen_host, "0.0.0.0");
  assert_int_equal(cfg.listen_port, 9001);
  assert_int_equal(cfg.max_body_bytes, 2u << 20);
  assert_int_equal(cfg.max_source_bytes, 128u << 10);
  assert_int_equal(cfg.max_connections, 50);
  assert_int_equal(cfg.connection_timeout_s, 5);
  assert_string_equal(cfg.host_id, "node-7");
  assert_string_equal(cfg.database_url, "postgresql://u@db.example/kopt?sslmode=require");
  assert_int_equal(cfg.pool_size, 16);
  assert_string_equal(cfg.devices, "cuda:0,cuda:1");
  assert_string_equal(cfg.worker_bin, "/usr/libexec/kopt-worker");
  assert_string_equal(cfg.harness_python, "/opt/venv/bin/python");
  assert_string_equal(cfg.harness_dir, "/opt/kopt/harness");
  assert_string_equal(cfg.work_dir, "/var/lib/kopt/work");
  assert_int_equal(cfg.lease_s, 120);
  assert_int_equal(cfg.log_level, LOG_LVL_DEBUG);
}

static void test_ini_partial_keeps_defaults(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg, "[database]\npool_size=2\n", err, sizeof(err), path), 0);
  assert_int_equal(cfg.pool_size, 2);
  assert_string_equal(cfg.listen_host, "127.0.0.1");
  assert_int_equal(cfg.listen_port, 8470);
  assert_string_equal(cfg.database_url, "postgresql:///kopt");
  /* An empty file is fine. */
  assert_int_equal(load_text(&cfg, "", err, sizeof(err), path), 0);
  assert_int_equal(cfg.pool_size, 4);
}

static void test_env_overrides(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  setenv("KOPT_LISTEN", "127.0.0.2:1234", 1);
  setenv("KOPT_DATABASE_URL", "postgresql:///other?host=/tmp/s", 1);
  setenv("KOPT_DEVICES", "none", 1);
  setenv("KOPT_MAX_BODY_BYTES", "64K", 1);
  setenv("KOPT_LOG_LEVEL", "WARN", 1);
  setenv("KOPT_POOL_SIZE", "9", 1);
  /* The environment wins over the file, key by key. */
  assert_int_equal(load_text(&cfg,
                             "[server]\nlisten = 0.0.0.0:9000\nmax_body_bytes = 1M\n"
                             "max_connections = 77\n"
                             "[database]\nurl = postgresql:///fromfile\n"
                             "[workers]\ndevices = cuda:0\n",
                             err, sizeof(err), path),
                   0);
  assert_string_equal(cfg.listen_host, "127.0.0.2");
  assert_int_equal(cfg.listen_port, 1234);
  assert_string_equal(cfg.database_url, "postgresql:///other?host=/tmp/s");
  assert_string_equal(cfg.devices, "none");
  assert_int_equal(cfg.max_body_bytes, 65536);
  assert_int_equal(cfg.log_level, LOG_LVL_WARN);
  assert_int_equal(cfg.pool_size, 9);
  assert_int_equal(cfg.max_connections, 77); /* not overridden */
  /* And without a file. */
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), 0);
  assert_int_equal(cfg.listen_port, 1234);
  assert_int_equal(cfg.max_body_bytes, 65536);
  clean_env(NULL);
}

static void test_env_errors_name_variable(void **state)
{
  struct config cfg;
  char err[512] = "";
  (void)state;
  setenv("KOPT_LISTEN", "nowhere", 1);
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_LISTEN"));
  assert_non_null(strstr(err, "listen"));
  unsetenv("KOPT_LISTEN");
  setenv("KOPT_MAX_BODY_BYTES", "100", 1); /* under the 1 KiB minimum */
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_MAX_BODY_BYTES"));
  assert_non_null(strstr(err, "out of range"));
  unsetenv("KOPT_MAX_BODY_BYTES");
  setenv("KOPT_LOG_LEVEL", "loud", 1);
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_LOG_LEVEL"));
  clean_env(NULL);
}

static void test_error_unknown_key(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg, "[server]\nlisten = 127.0.0.1:1\nlisten_port = 80\n", err,
                             sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, path));
  assert_non_null(strstr(err, "unknown key"));
  assert_non_null(strstr(err, "listen_port"));
  assert_non_null(strstr(err, "[server]"));
  /* A known key in the wrong section is unknown there. */
  assert_int_equal(load_text(&cfg, "[database]\nlisten = 127.0.0.1:1\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "[database] listen"));
  /* A key before any section. */
  assert_int_equal(load_text(&cfg, "pool_size = 3\n", err, sizeof(err), path), -EINVAL);
  assert_non_null(strstr(err, "pool_size"));
}

static void test_error_bad_port(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg, "[server]\nlisten = 127.0.0.1:70000\n", err, sizeof(err),
                             path),
                   -EINVAL);
  assert_non_null(strstr(err, "listen"));
  assert_non_null(strstr(err, "70000"));
  assert_non_null(strstr(err, "invalid value"));
  assert_int_equal(load_text(&cfg, "[server]\nlisten = 127.0.0.1\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "listen"));
}

static void test_error_bad_size(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg, "[server]\nmax_body_bytes = 12Q\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "max_body_bytes"));
  assert_non_null(strstr(err, "12Q"));
  assert_non_null(strstr(err, "invalid value"));
}

static void test_error_out_of_range(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg, "[server]\nmax_body_bytes = 65M\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "max_body_bytes"));
  assert_non_null(strstr(err, "out of range"));
  assert_int_equal(load_text(&cfg, "[server]\nmax_source_bytes = 63\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "max_source_bytes"));
  assert_non_null(strstr(err, "out of range"));
  /* The edges themselves are accepted. */
  assert_int_equal(load_text(&cfg, "[server]\nmax_body_bytes = 1K\nmax_source_bytes = 64\n"
                                   "[database]\npool_size = 64\n[workers]\nlease_s = 5\n",
                             err, sizeof(err), path),
                   0);
  assert_int_equal(cfg.max_body_bytes, 1024);
  assert_int_equal(cfg.max_source_bytes, 64);
  assert_int_equal(cfg.pool_size, 64);
  assert_int_equal(cfg.lease_s, 5);
  assert_int_equal(load_text(&cfg, "[database]\npool_size = 0\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "pool_size"));
  assert_int_equal(load_text(&cfg, "[database]\npool_size = 65\n", err, sizeof(err), path),
                   -EINVAL);
  assert_int_equal(load_text(&cfg, "[workers]\nlease_s = 4\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "lease_s"));
  assert_int_equal(load_text(&cfg, "[server]\nmax_connections = -5\n", err, sizeof(err), path),
                   -EINVAL);
  assert_non_null(strstr(err, "max_connections"));
  assert_int_equal(load_text(&cfg, "[server]\nconnection_timeout_s = 3601\n", err, sizeof(err),
                             path),
                   -EINVAL);
  assert_non_null(strstr(err, "connection_timeout_s"));
}

static void test_error_syntax_names_line(void **state)
{
  struct config cfg;
  char err[512], path[64], expect[96];
  (void)state;
  assert_int_equal(load_text(&cfg, "[server]\nlisten = 127.0.0.1:1\n\nthis line is junk\n", err,
                             sizeof(err), path),
                   -EINVAL);
  snprintf(expect, sizeof(expect), "%s:4:", path);
  assert_non_null(strstr(err, expect));
  assert_non_null(strstr(err, "syntax"));
}

static void test_error_first_one_reported(void **state)
{
  struct config cfg;
  char err[512], path[64];
  (void)state;
  assert_int_equal(load_text(&cfg, "[server]\nbogus_one = 1\nbogus_two = 2\n", err, sizeof(err),
                             path),
                   -EINVAL);
  assert_non_null(strstr(err, "bogus_one"));
  assert_null(strstr(err, "bogus_two"));
}

static void test_error_missing_file(void **state)
{
  struct config cfg;
  char err[512] = "";
  (void)state;
  assert_int_equal(config_load(&cfg, "/nonexistent/kopt/koptd.conf", err, sizeof(err)), -ENOENT);
  assert_non_null(strstr(err, "/nonexistent/kopt/koptd.conf"));
}

static void test_too_long_string(void **state)
{
  struct config cfg;
  char err[512] = "";
  char *v = malloc(CONFIG_STR_MAX + 10);
  (void)state;
  memset(v, 'd', CONFIG_STR_MAX + 9);
  v[CONFIG_STR_MAX + 9] = '\0';
  setenv("KOPT_DEVICES", v, 1);
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_DEVICES"));
  /* One short of the buffer fits. */
  v[CONFIG_STR_MAX - 1] = '\0';
  setenv("KOPT_DEVICES", v, 1);
  assert_int_equal(config_load(&cfg, NULL, err, sizeof(err)), 0);
  assert_int_equal(strlen(cfg.devices), CONFIG_STR_MAX - 1);
  free(v);
  clean_env(NULL);
}

/* The client-starvation settings: file, environment, "none" and bounds. */
static void test_connection_guards(void **state)
{
  struct config cfg;
  char err[512] = "", path[64];
  (void)state;
  write_tmp(path, "[server]\nprobe_listen = 127.0.0.1:9100\nheader_timeout_s = 5\n"
                  "body_timeout_s = 20\nmax_connections_per_ip = 16\n"
                  "max_streams_per_token = 4\n");
  assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
  assert_string_equal(cfg.probe_listen_host, "127.0.0.1");
  assert_int_equal(cfg.probe_listen_port, 9100);
  assert_int_equal(cfg.header_timeout_s, 5);
  assert_int_equal(cfg.body_timeout_s, 20);
  assert_int_equal(cfg.max_connections_per_ip, 16);
  assert_int_equal(cfg.max_streams_per_token, 4);
  setenv("KOPT_PROBE_LISTEN", "none", 1);
  setenv("KOPT_HEADER_TIMEOUT_S", "2", 1);
  assert_int_equal(config_load(&cfg, path, err, sizeof(err)), 0);
  assert_string_equal(cfg.probe_listen_host, "");
  assert_int_equal(cfg.probe_listen_port, 0);
  assert_int_equal(cfg.header_timeout_s, 2);
  setenv("KOPT_HEADER_TIMEOUT_S", "0", 1);
  assert_int_equal(config_load(&cfg, path, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_HEADER_TIMEOUT_S"));
  unsetenv("KOPT_HEADER_TIMEOUT_S");
  setenv("KOPT_PROBE_LISTEN", "nohostport", 1);
  assert_int_equal(config_load(&cfg, path, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "probe_listen"));
  unsetenv("KOPT_PROBE_LISTEN");
  setenv("KOPT_MAX_STREAMS_PER_TOKEN", "0", 1);
  assert_int_equal(config_load(&cfg, path, err, sizeof(err)), -EINVAL);
  unlink(path);
}

static void test_parse_listen(void **state)
{
  char host[64];
  unsigned port = 0;
  (void)state;
  assert_int_equal(config_parse_listen("[::1]:80", host, sizeof(host), &port), 0);
  assert_string_equal(host, "::1");
  assert_int_equal(port, 80);
  assert_int_equal(config_parse_listen("[fe80::1:2]:65535", host, sizeof(host), &port), 0);
  assert_string_equal(host, "fe80::1:2");
  assert_int_equal(port, 65535);
  assert_int_equal(config_parse_listen("localhost:0", host, sizeof(host), &port), 0);
  assert_string_equal(host, "localhost");
  assert_int_equal(port, 0);
  assert_int_equal(config_parse_listen("10.1.2.3:8470", host, sizeof(host), &port), 0);
  assert_string_equal(host, "10.1.2.3");
  assert_int_equal(port, 8470);

  port = 4242;
  assert_int_equal(config_parse_listen("", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen(NULL, host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("localhost", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen(":80", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("h:", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("h:65536", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("h:-1", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("h:80x", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("[::1]80", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("[::1]", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("[]:80", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(config_parse_listen("[::1:80", host, sizeof(host), &port), -EINVAL);
  assert_int_equal(port, 4242); /* untouched by failures */
  /* A host that does not fit the buffer is refused, never truncated. */
  assert_int_equal(config_parse_listen("abcdefgh:80", host, 8, &port), -EINVAL);
  assert_int_equal(config_parse_listen("abcdefg:80", host, 8, &port), 0);
  assert_string_equal(host, "abcdefg");
  assert_int_equal(config_parse_listen("[abcdefgh]:80", host, 8, &port), -EINVAL);
}

static void test_parse_size(void **state)
{
  size_t v = 0;
  (void)state;
  assert_int_equal(config_parse_size("0", &v), 0);
  assert_int_equal(v, 0);
  assert_int_equal(config_parse_size("123", &v), 0);
  assert_int_equal(v, 123);
  assert_int_equal(config_parse_size("64K", &v), 0);
  assert_int_equal(v, 65536);
  assert_int_equal(config_parse_size("64k", &v), 0);
  assert_int_equal(v, 65536);
  assert_int_equal(config_parse_size("4M", &v), 0);
  assert_int_equal(v, 4u << 20);
  assert_int_equal(config_parse_size("3m", &v), 0);
  assert_int_equal(v, 3u << 20);
  assert_int_equal(config_parse_size("2G", &v), 0);
  assert_int_equal(v, 2ULL << 30);
  assert_int_equal(config_parse_size("1g", &v), 0);
  assert_int_equal(v, 1ULL << 30);
  assert_int_equal(config_parse_size("2KiB", &v), 0);
  assert_int_equal(v, 2048);
  assert_int_equal(config_parse_size("2KB", &v), 0);
  assert_int_equal(v, 2048);
  assert_int_equal(config_parse_size("5MiB", &v), 0);
  assert_int_equal(v, 5u << 20);
  assert_int_equal(config_parse_size("10B", &v), 0);
  assert_int_equal(v, 10);

  v = 777;
  assert_int_equal(config_parse_size(NULL, &v), -EINVAL);
  assert_int_equal(config_parse_size("", &v), -EINVAL);
  assert_int_equal(config_parse_size("-1", &v), -EINVAL);
  assert_int_equal(config_parse_size(" -1", &v), -EINVAL);
  assert_int_equal(config_parse_size("+1", &v), -EINVAL);
  assert_int_equal(config_parse_size("K", &v), -EINVAL);
  assert_int_equal(config_parse_size("12Q", &v), -EINVAL);
  assert_int_equal(config_parse_size("1T", &v), -EINVAL);
  assert_int_equal(config_parse_size("1KK", &v), -EINVAL);
  assert_int_equal(config_parse_size("1 K", &v), -EINVAL);
  assert_int_equal(config_parse_size("1BB", &v), -EINVAL);
  assert_int_equal(config_parse_size("1iB", &v), -EINVAL);
  assert_int_equal(config_parse_size("1KiBx", &v), -EINVAL);
  assert_int_equal(config_parse_size("18446744073709551616", &v), -EINVAL); /* 2^64 */
  assert_int_equal(config_parse_size("17179869184G", &v), -EINVAL);         /* 2^64 bytes */
  assert_int_equal(v, 777); /* untouched by failures */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_defaults, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_ini_file, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_ini_partial_keeps_defaults, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_env_overrides, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_env_errors_name_variable, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_unknown_key, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_bad_port, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_bad_size, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_out_of_range, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_syntax_names_line, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_first_one_reported, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_error_missing_file, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_too_long_string, clean_env, clean_env),
    cmocka_unit_test_setup_teardown(test_connection_guards, clean_env, clean_env),
    cmocka_unit_test(test_parse_listen),
    cmocka_unit_test(test_parse_size),
  };
  return cmocka_run_group_tests_name("config", tests, NULL, NULL);
}
