/* Unit tests for workers/llm.c against tests/llm/openai_stub.py, a local server that speaks
 * the chat-completions wire protocol with scripted replies (loopback only). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "llm.h"
#include "proposal.h"

#define STUB "tests/llm/openai_stub.py"
#define MODEL "kopt-test-model"
#define KEY "sk-test-0123456789abcdef"

struct stub {
  pid_t pid;
  int port;
};

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Starts the stub with a compact script and (optional) required key; reads its port from
 * the first line of its stdout. The key travels in the environment, not argv. */
static void stub_start(struct stub *s, const char *script, const char *key)
{
  int fds[2];
  char line[32];
  size_t n = 0;
  const char *py = access(".venv/bin/python", X_OK) == 0 ? ".venv/bin/python" : "python3";

  assert_int_equal(access(STUB, R_OK), 0); /* tests run from the repository root */
  assert_int_equal(pipe(fds), 0);
  s->pid = fork();
  assert_true(s->pid >= 0);
  if (s->pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    if (key)
      setenv("OPENAI_STUB_API_KEY", key, 1);
    execlp(py, py, STUB, "--script", script, "--model", MODEL, "--max-seconds", "60",
           (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  while (n < sizeof(line) - 1) {
    struct pollfd p = {fds[0], POLLIN, 0};
    ssize_t got;
    assert_true(poll(&p, 1, 15000) == 1);
    got = read(fds[0], line + n, 1);
    assert_true(got == 1);
    if (line[n] == '\n')
      break;
    n++;
  }
  line[n] = '\0';
  close(fds[0]);
  s->port = atoi(line);
  assert_true(s->port > 0);
}

static void stub_stop(struct stub *s)
{
  int st;
  kill(s->pid, SIGTERM);
  waitpid(s->pid, &st, 0);
}

static void config(struct llm_config *c, const struct stub *s, const char *key)
{
  llm_config_init(c);
  snprintf(c->base_url, sizeof(c->base_url), "http://127.0.0.1:%d", s->port);
  snprintf(c->model, sizeof(c->model), "%s", MODEL);
  c->api_key = key ? strdup(key) : NULL;
  c->timeout_s = 10;
  c->connect_timeout_s = 5;
  c->backoff_base_ms = 50; /* keep retry tests quick; Retry-After still rules when sent */
  c->backoff_max_ms = 200;
}

static void clear_env(void)
{
  const char *v[] = {"KOPT_LLM_BASE_URL", "KOPT_LLM_MODEL", "KOPT_LLM_API_KEY",
                     "KOPT_LLM_API_KEY_FILE", "KOPT_LLM_TIMEOUT_S", "KOPT_LLM_MAX_RETRIES",
                     "KOPT_LLM_MAX_TOKENS", "KOPT_LLM_TEMPERATURE"};
  for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
    unsetenv(v[i]);
}

static void test_config_from_env(void **state)
{
  struct llm_config c;
  char err[512], path[] = "/tmp/kopt-llm-keyXXXXXX";
  int fd;
  (void)state;
  clear_env();
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_LLM_BASE_URL"));
  setenv("KOPT_LLM_BASE_URL", "ftp://x", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "http://"));
  setenv("KOPT_LLM_BASE_URL", "http://user:pw@host:1", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "credentials"));
  setenv("KOPT_LLM_BASE_URL", "http://127.0.0.1:9", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_LLM_MODEL"));
  setenv("KOPT_LLM_MODEL", "m1", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), 0);
  assert_int_equal(c.timeout_s, 120);
  assert_int_equal(c.max_retries, 4);
  assert_null(c.api_key);
  llm_config_free(&c);
  setenv("KOPT_LLM_TIMEOUT_S", "abc", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_LLM_TIMEOUT_S"));
  setenv("KOPT_LLM_TIMEOUT_S", "7", 1);
  setenv("KOPT_LLM_MAX_RETRIES", "2", 1);
  setenv("KOPT_LLM_MAX_TOKENS", "1000", 1);
  setenv("KOPT_LLM_TEMPERATURE", "3.5", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_LLM_TEMPERATURE"));
  setenv("KOPT_LLM_TEMPERATURE", "0.5", 1);
  /* Key from a file, trimmed. */
  fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "\n  " KEY "  \n\n", strlen(KEY) + 7), (ssize_t)strlen(KEY) + 7);
  close(fd);
  setenv("KOPT_LLM_API_KEY_FILE", path, 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), 0);
  assert_string_equal(c.api_key, KEY);
  assert_int_equal(c.timeout_s, 7);
  assert_int_equal(c.connect_timeout_s, 7);
  assert_int_equal(c.max_retries, 2);
  assert_int_equal(c.max_tokens, 1000);
  assert_true(c.temperature == 0.5);
  llm_config_free(&c);
  assert_null(c.api_key);
  /* The variable wins over the file; a key that would break the header is refused. */
  setenv("KOPT_LLM_API_KEY", "abc\r\nX-Evil: 1", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_null(strstr(err, "abc"));
  setenv("KOPT_LLM_API_KEY", "sk-env", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), 0);
  assert_string_equal(c.api_key, "sk-env");
  llm_config_free(&c);
  unsetenv("KOPT_LLM_API_KEY");
  setenv("KOPT_LLM_API_KEY_FILE", "/nonexistent/kopt-key", 1);
  assert_int_equal(llm_config_from_env(&c, err, sizeof(err)), -ENOENT);
  assert_non_null(strstr(err, "/nonexistent/kopt-key"));
  unlink(path);
  clear_env();
}

static void test_success_tokens(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  struct proposal p;
  char err[512];
  (void)state;
  stub_start(&s, "good", KEY); /* the stub answers 401 unless "Authorization: Bearer KEY" */
  config(&c, &s, KEY);
  assert_int_equal(llm_chat(&c, "You optimize Triton kernels.", "Make it faster.", &r), 0);
  assert_int_equal(r.attempts, 1);
  assert_int_equal(r.http_status, 200);
  assert_true(r.prompt_tokens > 0);
  assert_true(r.completion_tokens > 0);
  assert_string_equal(r.finish_reason, "stop");
  assert_non_null(strstr(r.content, "class ModelNew"));
  proposal_init(&p);
  assert_int_equal(proposal_parse(r.content, r.content_len, &p, err, sizeof(err)), 0);
  assert_string_equal(p.family, "block_size");
  proposal_free(&p);
  llm_result_free(&r);
  /* A base URL that already ends in /v1 (as many clients expect) is not doubled. */
  snprintf(c.base_url, sizeof(c.base_url), "http://127.0.0.1:%d/v1/", s.port);
  proposal_init(&p);
  assert_int_equal(llm_propose(&c, "sys", "user", &p, NULL, err, sizeof(err)), 0);
  assert_int_equal(p.attempts, 1);
  assert_true(p.prompt_tokens > 0 && p.completion_tokens > 0);
  proposal_free(&p);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_429_then_success(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  (void)state;
  stub_start(&s, "429:1,good", KEY);
  config(&c, &s, KEY);
  c.backoff_max_ms = 0; /* any wait seen below comes from Retry-After */
  assert_int_equal(llm_chat(&c, "s", "u", &r), 0);
  assert_int_equal(r.attempts, 2);
  assert_true(r.elapsed_s >= 1.0);
  assert_true(r.elapsed_s < 5.0);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
  /* Retry-After as an HTTP date, two seconds ahead (one-second resolution). */
  stub_start(&s, "429date:2,good", KEY);
  config(&c, &s, KEY);
  c.backoff_max_ms = 0;
  assert_int_equal(llm_chat(&c, "s", "u", &r), 0);
  assert_int_equal(r.attempts, 2);
  assert_true(r.elapsed_s >= 0.9);
  assert_true(r.elapsed_s < 5.0);
  llm_result_free(&r);
  /* Retry-After is capped: a server asking for an hour gets retry_after_cap_s. */
  llm_config_free(&c);
  stub_stop(&s);
  stub_start(&s, "429:3600,good", KEY);
  config(&c, &s, KEY);
  c.retry_after_cap_s = 1;
  assert_int_equal(llm_chat(&c, "s", "u", &r), 0);
  assert_int_equal(r.attempts, 2);
  assert_true(r.elapsed_s >= 1.0 && r.elapsed_s < 5.0);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_500_then_success(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  (void)state;
  stub_start(&s, "500,503,good", KEY);
  config(&c, &s, KEY);
  assert_int_equal(llm_chat(&c, "s", "u", &r), 0);
  assert_int_equal(r.attempts, 3);
  assert_non_null(r.content);
  llm_result_free(&r);
  /* Retries run out: max_retries 1 against a server that keeps failing. */
  llm_config_free(&c);
  stub_stop(&s);
  stub_start(&s, "500", KEY);
  config(&c, &s, KEY);
  c.max_retries = 1;
  assert_int_equal(llm_chat(&c, "s", "u", &r), -EPROTO);
  assert_int_equal(r.attempts, 2);
  assert_int_equal(r.http_status, 500);
  assert_non_null(strstr(r.error, "HTTP 500"));
  assert_non_null(strstr(r.error, "The server had an error"));
  assert_null(r.content);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_timeout(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  double t0;
  (void)state;
  stub_start(&s, "stall:20", KEY);
  config(&c, &s, KEY);
  c.timeout_s = 1;
  c.max_retries = 1;
  t0 = now_s();
  assert_int_equal(llm_chat(&c, "s", "u", &r), -ETIMEDOUT);
  /* Two attempts of 1 s and one short backoff: bounded well below the stall. */
  assert_true(now_s() - t0 < 4.5);
  assert_int_equal(r.attempts, 2);
  assert_non_null(strstr(r.error, "timeout of 1 s"));
  assert_non_null(strstr(r.error, "KOPT_LLM_TIMEOUT_S"));
  assert_null(r.content);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_garbage_rejected(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  struct proposal p;
  char err[512];
  (void)state;
  stub_start(&s, "garbage", KEY);
  config(&c, &s, KEY);
  /* The transport succeeded: llm_chat returns the text as it came ... */
  assert_int_equal(llm_chat(&c, "s", "u", &r), 0);
  assert_non_null(strstr(r.content, "make the block bigger"));
  /* ... and the output contract rejects it with its reason. */
  proposal_init(&p);
  assert_int_equal(proposal_parse(r.content, r.content_len, &p, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "output contract:"));
  assert_non_null(strstr(err, "found no JSON object"));
  llm_result_free(&r);
  /* llm_propose says the same and still records what the call cost. */
  assert_int_equal(llm_propose(&c, "s", "u", &p, &r, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "found no JSON object"));
  assert_int_equal(p.attempts, 1);
  assert_true(p.completion_tokens > 0);
  assert_null(p.source);
  proposal_free(&p);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_wrong_and_fenced_pass_contract(void **state)
{
  struct stub s;
  struct llm_config c;
  struct proposal p;
  char err[512];
  (void)state;
  /* A kernel that computes the wrong thing is a valid answer here; the harness judges it. */
  stub_start(&s, "wrong,fenced,nousage", KEY);
  config(&c, &s, KEY);
  proposal_init(&p);
  assert_int_equal(llm_propose(&c, "s", "u", &p, NULL, err, sizeof(err)), 0);
  assert_non_null(strstr(p.source, "x - y"));
  proposal_free(&p);
  assert_int_equal(llm_propose(&c, "s", "u", &p, NULL, err, sizeof(err)), 0);
  assert_non_null(strstr(p.source, "x + y"));
  proposal_free(&p);
  /* No usage object: tokens are -1, not 0. */
  assert_int_equal(llm_propose(&c, "s", "u", &p, NULL, err, sizeof(err)), 0);
  assert_int_equal(p.prompt_tokens, -1);
  assert_int_equal(p.completion_tokens, -1);
  proposal_free(&p);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_401_not_retried_key_hidden(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  const char *wrong = "sk-wrong-secret-999";
  (void)state;
  /* The server rejects the key and quotes it back in its message, as some do. */
  stub_start(&s, "good", KEY);
  config(&c, &s, wrong);
  assert_int_equal(llm_chat(&c, "s", "u", &r), -EPROTO);
  assert_int_equal(r.attempts, 1);
  assert_int_equal(r.http_status, 401);
  assert_non_null(strstr(r.error, "HTTP 401"));
  assert_non_null(strstr(r.error, "Incorrect API key provided"));
  assert_non_null(strstr(r.error, "[redacted]"));
  assert_null(strstr(r.error, wrong));
  assert_null(strstr(r.error, "wrong-secret"));
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
  /* A scripted 401 with the right key: still one attempt, key not in the text. */
  stub_start(&s, "401,good", KEY);
  config(&c, &s, KEY);
  assert_int_equal(llm_chat(&c, "s", "u", &r), -EPROTO);
  assert_int_equal(r.attempts, 1);
  assert_null(strstr(r.error, KEY));
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_other_4xx_and_limits(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  (void)state;
  stub_start(&s, "good", NULL);
  config(&c, &s, NULL);
  /* Unknown model: 400 naming it, no retry. */
  snprintf(c.model, sizeof(c.model), "no-such-model");
  assert_int_equal(llm_chat(&c, "s", "u", &r), -EPROTO);
  assert_int_equal(r.attempts, 1);
  assert_non_null(strstr(r.error, "HTTP 400"));
  assert_non_null(strstr(r.error, "no-such-model"));
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
  /* A body over the cap is refused with the limit named, not buffered. */
  stub_start(&s, "big:100000", NULL);
  config(&c, &s, NULL);
  c.max_response = 4096;
  assert_int_equal(llm_chat(&c, "s", "u", &r), -E2BIG);
  assert_int_equal(r.attempts, 1);
  assert_non_null(strstr(r.error, "over the limit of 4096 bytes"));
  assert_null(r.content);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

static void test_connection_refused_retried(void **state)
{
  struct llm_config c;
  struct llm_result r;
  struct stub fake;
  struct sockaddr_in a;
  socklen_t al = sizeof(a);
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  (void)state;
  /* A port that was just free: nothing listens there. */
  memset(&a, 0, sizeof(a));
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
  assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &al), 0);
  fake.port = ntohs(a.sin_port);
  close(fd);
  config(&c, &fake, NULL);
  c.max_retries = 2;
  assert_int_equal(llm_chat(&c, "s", "u", &r), -EIO);
  assert_int_equal(r.attempts, 3);
  assert_non_null(strstr(r.error, "transport error"));
  llm_result_free(&r);
  /* No endpoint at all is a config error, not a crash. */
  c.base_url[0] = '\0';
  assert_int_equal(llm_chat(&c, "s", "u", &r), -EINVAL);
  assert_non_null(strstr(r.error, "KOPT_LLM_BASE_URL"));
  llm_result_free(&r);
  llm_config_free(&c);
}

static void test_stop_flag(void **state)
{
  struct stub s;
  struct llm_config c;
  struct llm_result r;
  volatile sig_atomic_t stop = 1;
  double t0;
  (void)state;
  stub_start(&s, "stall:20", NULL);
  config(&c, &s, NULL);
  c.stop = &stop;
  t0 = now_s();
  assert_int_equal(llm_chat(&c, "s", "u", &r), -ECANCELED);
  assert_true(now_s() - t0 < 3.0);
  llm_result_free(&r);
  llm_config_free(&c);
  stub_stop(&s);
}

/* Found by tests/fuzz/fuzz_llm.c: an error body need not be UTF-8 (a proxy's Latin-1 HTML
 * page) and is cut to 300 bytes, maybe inside a character; the text becomes the round's
 * reject reason, a JSON string. It now comes out valid UTF-8, the key still redacted. */
static void test_error_text_is_utf8(void **state)
{
  char msg[301], text[64], body[400];
  json_t *j;
  static const char latin1[] = "<h1>\xe9" "chec 502</h1>";
  (void)state;
  llm_server_message(latin1, sizeof(latin1) - 1, msg, sizeof(msg));
  assert_string_equal(msg, "<h1>?chec 502</h1>");
  /* 299 ASCII bytes, then a two-byte character across the 300-byte cut. */
  snprintf(body, sizeof(body), "{\"error\": {\"message\": \"%0299d\u00e9\"}}", 0);
  llm_server_message(body, strlen(body), msg, sizeof(msg));
  assert_int_equal(strlen(msg), 300);
  assert_int_equal(msg[299], '?');
  j = json_string(msg);
  assert_non_null(j);
  json_decref(j);
  /* Redaction that cuts the tail to fit never splits a character; bytes that are not UTF-8
   * become '?' before the key is looked for, so none can complete the key afterwards. */
  snprintf(text, sizeof(text), "key sk-1 then \xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac");
  llm_redact(text, 28, "sk-1");
  assert_string_equal(text, "key [redacted] then \xe2\x82\xac\xe2\x82\xac");
  snprintf(text, sizeof(text), "ab\xff[ and ?[");
  llm_redact(text, sizeof(text), "?[");
  assert_string_equal(text, "ab[redacted] and [redacted]");
  /* Found by the fuzzer: the mark's last byte and the one after it spell the key "]]". */
  snprintf(text, sizeof(text), "x ]]] y");
  llm_redact(text, sizeof(text), "]]");
  assert_null(strstr(text, "]]"));
  assert_string_equal(text, "x [redacted");
  /* Found by the fuzzer again: the same, where a later key has no room for its mark and the
   * text is cut there (a 20-byte buffer: "[redacted]] xx" ends where the second key began). */
  snprintf(text, sizeof(text), "]]] xx]]");
  llm_redact(text, 20, "]]");
  assert_null(strstr(text, "]]"));
  assert_string_equal(text, "[redacted");
  /* a key inside the mark is left there (nothing else can be done with it) */
  snprintf(text, sizeof(text), "a red b");
  llm_redact(text, sizeof(text), "red");
  assert_string_equal(text, "a [redacted] b");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_config_from_env),
      cmocka_unit_test(test_success_tokens),
      cmocka_unit_test(test_429_then_success),
      cmocka_unit_test(test_500_then_success),
      cmocka_unit_test(test_timeout),
      cmocka_unit_test(test_garbage_rejected),
      cmocka_unit_test(test_wrong_and_fenced_pass_contract),
      cmocka_unit_test(test_401_not_retried_key_hidden),
      cmocka_unit_test(test_other_4xx_and_limits),
      cmocka_unit_test(test_connection_refused_retried),
      cmocka_unit_test(test_stop_flag),
      cmocka_unit_test(test_error_text_is_utf8),
  };
  signal(SIGPIPE, SIG_IGN);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
