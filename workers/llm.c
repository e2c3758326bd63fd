/* llm: OpenAI-compatible chat completions over libcurl (easy interface), with timeouts,
 * retries (exponential backoff, full jitter, Retry-After) and a capped response body. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <jansson.h>

#include "errmsg.h"
#include "buf.h"
#include "llm.h"
#include "log.h"
#include "utf8.h"
#include "version.h"

#define LLM_MAX_ERRMSG 300 /* bytes of a server's error message quoted in ours */

void llm_config_init(struct llm_config *c)
{
  memset(c, 0, sizeof(*c));
  c->timeout_s = 120;
  c->connect_timeout_s = 10;
  c->max_retries = 4;
  c->max_tokens = 8192;
  c->temperature = 0.2;
  c->backoff_base_ms = 1000;
  c->backoff_max_ms = 30000;
  c->retry_after_cap_s = LLM_RETRY_AFTER_CAP_S;
  c->max_response = LLM_MAX_RESPONSE;
}

void llm_config_free(struct llm_config *c)
{
  if (!c)
    return;
  if (c->api_key) {
    explicit_bzero(c->api_key, strlen(c->api_key));
    free(c->api_key);
    c->api_key = NULL;
  }
}

void llm_result_init(struct llm_result *r)
{
  memset(r, 0, sizeof(*r));
  r->prompt_tokens = -1;
  r->completion_tokens = -1;
}

void llm_result_free(struct llm_result *r)
{
  if (!r)
    return;
  free(r->content);
  llm_result_init(r);
}

/* Parses an unsigned variable within [lo, hi]; unset or empty keeps *out. */
static int llm_env_ulong(const char *name, unsigned long lo, unsigned long hi,
                         unsigned long *out, char *err, size_t errlen)
{
  const char *v = getenv(name);
  char *end;
  unsigned long x;
  if (!v || !*v)
    return 0;
  errno = 0;
  x = strtoul(v, &end, 10);
  if (errno || end == v || *end || v[0] == '-' || x < lo || x > hi)
    return errmsg_set(err, errlen, -EINVAL, "%s must be an integer in %lu..%lu, got \"%.40s\"",
                      name, lo, hi, v);
  *out = x;
  return 0;
}

/* A key goes into an HTTP header: anything but visible ASCII would let it break the
 * header (CR/LF) or would be a pasting mistake. */
static int llm_key_ok(const char *k)
{
  if (!*k)
    return 0;
  for (; *k; k++)
    if ((unsigned char)*k <= 0x20 || (unsigned char)*k >= 0x7f)
      return 0;
  return 1;
}

/* Reads the key file (at most LLM_MAX_KEY bytes), trimmed. *key is owned by the caller. */
static int llm_read_key_file(const char *path, char **key, char *err, size_t errlen)
{
  char tmp[LLM_MAX_KEY + 2];
  size_t n = 0, s = 0;
  ssize_t got;
  int fd = -1, rc;

  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    rc = -errno;
    errmsg_set(err, errlen, rc, "KOPT_LLM_API_KEY_FILE %s: %s", path, strerror(-rc));
    goto out;
  }
  while (n < sizeof(tmp) - 1 && (got = read(fd, tmp + n, sizeof(tmp) - 1 - n)) != 0) {
    if (got < 0) {
      if (errno == EINTR)
        continue;
      rc = -errno;
      errmsg_set(err, errlen, rc, "KOPT_LLM_API_KEY_FILE %s: %s", path, strerror(-rc));
      goto out;
    }
    n += (size_t)got;
  }
  if (n > LLM_MAX_KEY) {
    rc = errmsg_set(err, errlen, -EFBIG, "KOPT_LLM_API_KEY_FILE %s is over %d bytes", path,
                    LLM_MAX_KEY);
    goto out;
  }
  tmp[n] = '\0';
  while (n && isspace((unsigned char)tmp[n - 1]))
    tmp[--n] = '\0';
  while (s < n && isspace((unsigned char)tmp[s]))
    s++;
  if (!llm_key_ok(tmp + s)) {
    rc = errmsg_set(err, errlen, -EINVAL,
                    "KOPT_LLM_API_KEY_FILE %s must hold one key of visible ASCII characters",
                    path);
    goto out;
  }
  *key = strdup(tmp + s);
  rc = *key ? 0 : -ENOMEM;
out:
  explicit_bzero(tmp, sizeof(tmp));
  if (fd >= 0)
    close(fd);
  return rc;
}

int llm_config_from_env(struct llm_config *c, char *err, size_t errlen)
{
  const char *v;
  unsigned long x;
  int rc;

  llm_config_init(c);
  v = getenv("KOPT_LLM_BASE_URL");
  if (!v || !*v) {
    rc = errmsg_set(err, errlen, -EINVAL, "KOPT_LLM_BASE_URL is not set (e.g. http://host:8000)");
    goto out;
  }
  if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8)) {
    rc = errmsg_set(err, errlen, -EINVAL, "KOPT_LLM_BASE_URL must start with http:// or https://");
    goto out;
  }
  {
    /* Credentials in the URL would end up in error texts and logs; keys go in the key
     * variables only. */
    const char *auth = strstr(v, "://") + 3;
    size_t alen = strcspn(auth, "/?#");
    if (memchr(auth, '@', alen)) {
      rc = errmsg_set(err, errlen, -EINVAL,
                      "KOPT_LLM_BASE_URL must not carry credentials; use KOPT_LLM_API_KEY(_FILE)");
      goto out;
    }
  }
  if (strlen(v) >= sizeof(c->base_url)) {
    rc = errmsg_set(err, errlen, -EINVAL, "KOPT_LLM_BASE_URL is over %zu bytes",
                    sizeof(c->base_url) - 1);
    goto out;
  }
  snprintf(c->base_url, sizeof(c->base_url), "%s", v);
  v = getenv("KOPT_LLM_MODEL");
  if (!v || !*v || strlen(v) >= sizeof(c->model)) {
    rc = errmsg_set(err, errlen, -EINVAL, "KOPT_LLM_MODEL must be set (1..%zu bytes)",
                    sizeof(c->model) - 1);
    goto out;
  }
  snprintf(c->model, sizeof(c->model), "%s", v);

  x = c->timeout_s;
  if ((rc = llm_env_ulong("KOPT_LLM_TIMEOUT_S", 1, 3600, &x, err, errlen)))
    goto out;
  c->timeout_s = (unsigned)x;
  c->connect_timeout_s = c->timeout_s < 10 ? c->timeout_s : 10;
  x = c->max_retries;
  if ((rc = llm_env_ulong("KOPT_LLM_MAX_RETRIES", 0, 20, &x, err, errlen)))
    goto out;
  c->max_retries = (unsigned)x;
  x = (unsigned long)c->max_tokens;
  if ((rc = llm_env_ulong("KOPT_LLM_MAX_TOKENS", 0, 1000000, &x, err, errlen)))
    goto out;
  c->max_tokens = (long)x;
  v = getenv("KOPT_LLM_TEMPERATURE");
  if (v && *v) {
    char *end;
    double t;
    errno = 0;
    t = strtod(v, &end);
    if (errno || end == v || *end || !(t >= 0.0 && t <= 2.0)) {
      rc = errmsg_set(err, errlen, -EINVAL,
                      "KOPT_LLM_TEMPERATURE must be a number in 0..2, got \"%.40s\"", v);
      goto out;
    }
    c->temperature = t;
  }

  v = getenv("KOPT_LLM_API_KEY");
  if (v && *v) {
    if (strlen(v) > LLM_MAX_KEY || !llm_key_ok(v)) {
      rc = errmsg_set(err, errlen, -EINVAL,
                      "KOPT_LLM_API_KEY must be one key of visible ASCII (at most %d bytes)",
                      LLM_MAX_KEY);
      goto out;
    }
    c->api_key = strdup(v);
    if (!c->api_key) {
      rc = -ENOMEM;
      goto out;
    }
  } else if ((v = getenv("KOPT_LLM_API_KEY_FILE")) && *v) {
    if ((rc = llm_read_key_file(v, &c->api_key, err, errlen)))
      goto out;
  }
  rc = 0;
out:
  if (rc)
    llm_config_free(c);
  return rc;
}

/* ------------------------------------------------------------------------ transfer */

struct llm_xfer {
  struct buf body;        /* owned; capped at max_response */
  int overflow;           /* the body passed the cap */
  long retry_after_s;     /* from the last response's Retry-After; -1 when absent */
  const volatile sig_atomic_t *stop;
};

static size_t llm_on_body(char *p, size_t size, size_t n, void *ud)
{
  struct llm_xfer *x = ud;
  if (buf_append(&x->body, p, size * n)) {
    x->overflow = 1;
    return 0; /* makes curl fail with CURLE_WRITE_ERROR */
  }
  return size * n;
}

/* Retry-After: delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
long llm_parse_retry_after(const char *v, size_t n)
{
  char tmp[128];
  size_t i = 0;
  while (n && (*v == ' ' || *v == '\t')) {
    v++;
    n--;
  }
  while (n && isspace((unsigned char)v[n - 1]))
    n--;
  if (!n || n >= sizeof(tmp))
    return -1;
  memcpy(tmp, v, n);
  tmp[n] = '\0';
  while (i < n && isdigit((unsigned char)tmp[i]))
    i++;
  if (i == n) {
    long s = n > 9 ? 999999999L : strtol(tmp, NULL, 10);
    return s;
  }
  {
    time_t when = curl_getdate(tmp, NULL);
    time_t now = time(NULL);
    if (when == (time_t)-1)
      return -1;
    return when > now ? (long)(when - now) : 0;
  }
}

static size_t llm_on_header(char *p, size_t size, size_t n, void *ud)
{
  struct llm_xfer *x = ud;
  size_t len = size * n;
  static const char name[] = "retry-after:";
  if (len > sizeof(name) - 1 && strncasecmp(p, name, sizeof(name) - 1) == 0)
    x->retry_after_s = llm_parse_retry_after(p + sizeof(name) - 1, len - (sizeof(name) - 1));
  else if (len >= 5 && strncmp(p, "HTTP/", 5) == 0)
    x->retry_after_s = -1; /* a new response (after 100 Continue, say) starts clean */
  return len;
}

static int llm_on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
  struct llm_xfer *x = ud;
  return x->stop && *x->stop ? 1 : 0;
}

static double llm_now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static uint64_t llm_random(void)
{
  uint64_t v;
  if (getrandom(&v, sizeof(v), GRND_NONBLOCK) != (ssize_t)sizeof(v))
    v = (uint64_t)time(NULL) * 6364136223846793005ULL ^ (uint64_t)getpid();
  return v;
}

/* Sleeps ms milliseconds in slices, so that stop ends the wait. 0 or -ECANCELED. */
static int llm_sleep_ms(uint64_t ms, const volatile sig_atomic_t *stop)
{
  while (ms > 0) {
    uint64_t slice = ms > 100 ? 100 : ms;
    struct timespec ts = {(time_t)(slice / 1000), (long)(slice % 1000) * 1000000L};
    if (stop && *stop)
      return -ECANCELED;
    nanosleep(&ts, NULL);
    ms -= slice;
  }
  return stop && *stop ? -ECANCELED : 0;
}

/* Replaces every occurrence of the key in s with "[redacted]", in place: a server may quote
 * the key it was sent in its error message. s comes out valid UTF-8. */
void llm_redact(char *s, size_t cap, const char *key)
{
  static const char mark[] = "[redacted]";
  const size_t ml = sizeof(mark) - 1;
  size_t kl;
  char *from = s, *hit;
  if (!cap)
    return;
  /* First, so that no byte turned into '?' later can complete the key. */
  utf8_scrub(s);
  if (!key || !*key)
    return;
  kl = strlen(key);
  while ((hit = strstr(from, key)) != NULL) {
    size_t off = (size_t)(hit - s), tail = strlen(hit + kl);
    if (off + ml >= cap) { /* no room for the mark: cut the text at the key, then the check below */
      *hit = '\0';
      break;
    }
    if (off + ml + tail >= cap) {
      tail = cap - 1 - off - ml;
      while (tail && ((unsigned char)hit[kl + tail] & 0xC0) == 0x80)
        tail--; /* cut between characters, not inside one */
    }
    memmove(hit + ml, hit + kl, tail);
    memcpy(hit, mark, ml);
    hit[ml + tail] = '\0';
    from = hit + ml; /* the mark itself may contain the key */
  }
  /* A mark and what borders it can spell the key again: "]]" in "[redacted]]" (found by
   * tests/fuzz/fuzz_llm.c, twice: the second time through the cut above, which returned
   * before this check). Unless the key is part of the mark, the text ends before it. */
  if (!strstr(mark, key) && (hit = strstr(s, key)) != NULL)
    *hit = '\0';
}

/* The server's error text: error.message, error (a string) or message of a JSON body, else
 * the start of the body with control characters replaced. */
void llm_server_message(const char *body, size_t len, char *out, size_t cap)
{
  json_t *root = NULL; /* owned */
  const char *m = NULL;
  size_t i, n;
  out[0] = '\0';
  if (!body || !len)
    return;
  root = json_loadb(body, len, 0, NULL);
  if (json_is_object(root)) {
    json_t *e = json_object_get(root, "error");
    if (json_is_object(e) && json_is_string(json_object_get(e, "message")))
      m = json_string_value(json_object_get(e, "message"));
    else if (json_is_string(e))
      m = json_string_value(e);
    else if (json_is_string(json_object_get(root, "message")))
      m = json_string_value(json_object_get(root, "message"));
  }
  if (!m)
    m = body;
  n = m == body ? len : strlen(m);
  if (n > LLM_MAX_ERRMSG)
    n = LLM_MAX_ERRMSG;
  if (n >= cap)
    n = cap - 1;
  for (i = 0; i < n; i++)
    out[i] = (unsigned char)m[i] < 0x20 ? ' ' : m[i];
  out[i] = '\0';
  utf8_scrub(out); /* a body need not be UTF-8, and the cut may split a character */
  json_decref(root);
}

/* Reads content, finish_reason and usage out of a 2xx body into r. */
int llm_parse_response(const char *body, size_t len, struct llm_result *r)
{
  json_t *root = NULL; /* owned */
  json_t *ch, *msg, *content, *usage, *v; /* borrowed from root */
  json_error_t jerr;
  int rc;

  root = json_loadb(body, len, 0, &jerr);
  if (!root) {
    rc = errmsg_set(r->error, sizeof(r->error), -EPROTO, "response is not JSON: %s", jerr.text);
    goto out;
  }
  usage = json_object_get(root, "usage");
  if (json_is_object(usage)) {
    if (json_is_integer(v = json_object_get(usage, "prompt_tokens")))
      r->prompt_tokens = (long)json_integer_value(v);
    if (json_is_integer(v = json_object_get(usage, "completion_tokens")))
      r->completion_tokens = (long)json_integer_value(v);
  }
  ch = json_object_get(root, "choices");
  if (!json_is_array(ch) || json_array_size(ch) == 0 ||
      !json_is_object(msg = json_object_get(json_array_get(ch, 0), "message"))) {
    rc = errmsg_set(r->error, sizeof(r->error), -EPROTO,
                    "response has no choices[0].message");
    goto out;
  }
  v = json_object_get(json_array_get(ch, 0), "finish_reason");
  if (json_is_string(v)) {
    snprintf(r->finish_reason, sizeof(r->finish_reason), "%s", json_string_value(v));
    utf8_scrub(r->finish_reason);
  }
  content = json_object_get(msg, "content");
  if (!json_is_string(content)) {
    rc = errmsg_set(r->error, sizeof(r->error), -EPROTO,
                    "response has no choices[0].message.content (finish_reason \"%s\")",
                    r->finish_reason);
    goto out;
  }
  r->content_len = json_string_length(content);
  r->content = malloc(r->content_len + 1);
  if (!r->content) {
    rc = -ENOMEM;
    goto out;
  }
  memcpy(r->content, json_string_value(content), r->content_len + 1);
  rc = 0;
out:
  json_decref(root);
  return rc;
}

static pthread_once_t llm_once = PTHREAD_ONCE_INIT;
static void llm_global_init(void)
{
  curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* Builds the request body; caller frees. */
static char *llm_request_body(const struct llm_config *c, const char *system_msg,
                              const char *user_msg)
{
  json_t *req = NULL; /* owned */
  char *s = NULL;
  req = json_pack("{s:s, s:[{s:s, s:s}, {s:s, s:s}]}", "model", c->model, "messages", "role",
                  "system", "content", system_msg ? system_msg : "", "role", "user", "content",
                  user_msg ? user_msg : "");
  if (!req)
    goto out;
  if (c->temperature >= 0 && json_object_set_new(req, "temperature", json_real(c->temperature)))
    goto out;
  if (c->max_tokens > 0 && json_object_set_new(req, "max_tokens", json_integer(c->max_tokens)))
    goto out;
  s = json_dumps(req, JSON_COMPACT);
out:
  json_decref(req);
  return s;
}

int llm_chat(const struct llm_config *c, const char *system_msg, const char *user_msg,
             struct llm_result *r)
{
  CURL *h = NULL;                 /* owned */
  struct curl_slist *hdrs = NULL; /* owned; one entry holds the key */
  char *req = NULL;               /* owned */
  char url[600], auth[LLM_MAX_KEY + 32], cerr[CURL_ERROR_SIZE], ua[KOPT_USER_AGENT_MAX];
  struct llm_xfer x;
  double t0 = llm_now_s();
  size_t blen;
  int rc = -EIO;

  buf_init(&x.body, c && c->max_response ? c->max_response : LLM_MAX_RESPONSE);
  x.overflow = 0;
  x.retry_after_s = -1;
  x.stop = c ? c->stop : NULL;
  auth[0] = '\0';
  llm_result_init(r);
  if (!c || !c->base_url[0] || !c->model[0]) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                    "llm: no endpoint configured (KOPT_LLM_BASE_URL, KOPT_LLM_MODEL)");
    goto out;
  }
  /* {base}/v1/chat/completions; a base that already ends in /v1 is not doubled. */
  blen = strlen(c->base_url);
  while (blen && c->base_url[blen - 1] == '/')
    blen--;
  if (blen >= 3 && strncmp(c->base_url + blen - 3, "/v1", 3) == 0)
    blen -= 3;
  snprintf(url, sizeof(url), "%.*s/v1/chat/completions", (int)blen, c->base_url);

  req = llm_request_body(c, system_msg, user_msg);
  if (!req) {
    rc = errmsg_set(r->error, sizeof(r->error), -ENOMEM, "llm: cannot build the request");
    goto out;
  }
  pthread_once(&llm_once, llm_global_init);
  h = curl_easy_init();
  if (!h) {
    rc = errmsg_set(r->error, sizeof(r->error), -ENOMEM, "llm: curl_easy_init failed");
    goto out;
  }
  hdrs = curl_slist_append(hdrs, "Content-Type: application/json");
  hdrs = hdrs ? curl_slist_append(hdrs, "Accept: application/json") : NULL;
  hdrs = hdrs ? curl_slist_append(hdrs, "Expect:") : NULL; /* no 100-continue round trip */
  if (hdrs && c->api_key && *c->api_key) {
    struct curl_slist *t;
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", c->api_key);
    t = curl_slist_append(hdrs, auth);
    if (!t) {
      curl_slist_free_all(hdrs);
      hdrs = NULL;
    } else {
      hdrs = t;
    }
  }
  if (!hdrs) {
    rc = errmsg_set(r->error, sizeof(r->error), -ENOMEM, "llm: out of memory");
    goto out;
  }
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L); /* the key goes to the configured host only */
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);       /* threads in the worker; no SIGALRM */
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, req);
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)strlen(req));
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
  snprintf(ua, sizeof(ua), "kopt-worker/%s", kopt_version); /* libcurl copies it */
  curl_easy_setopt(h, CURLOPT_USERAGENT, ua);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, llm_on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &x);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, llm_on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &x);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, llm_on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &x);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, cerr);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)c->timeout_s * 1000L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS,
                   (long)(c->connect_timeout_s ? c->connect_timeout_s : c->timeout_s) * 1000L);

  for (unsigned attempt = 0;; attempt++) {
    CURLcode res;
    long status = 0;
    int retryable = 0;
    double ta = llm_now_s();

    buf_reset(&x.body);
    x.overflow = 0;
    x.retry_after_s = -1;
    cerr[0] = '\0';
    llm_result_free(r); /* keeps nothing from a failed attempt but the count */
    r->attempts = (int)attempt + 1;
    res = curl_easy_perform(h);
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
    r->http_status = status;
    if (res == CURLE_ABORTED_BY_CALLBACK) {
      rc = errmsg_set(r->error, sizeof(r->error), -ECANCELED, "llm: stopped");
      goto out;
    } else if (res == CURLE_WRITE_ERROR && x.overflow) {
      rc = errmsg_set(r->error, sizeof(r->error), -E2BIG,
                      "llm: response body over the limit of %zu bytes (LLM_MAX_RESPONSE)",
                      x.body.cap);
      goto out;
    } else if (res == CURLE_OPERATION_TIMEDOUT) {
      rc = errmsg_set(r->error, sizeof(r->error), -ETIMEDOUT,
                      "llm: no complete response within the timeout of %u s "
                      "(KOPT_LLM_TIMEOUT_S; attempt %d gave up after %.1f s)",
                      c->timeout_s, r->attempts, llm_now_s() - ta);
      retryable = 1;
    } else if (res != CURLE_OK) {
      rc = errmsg_set(r->error, sizeof(r->error), -EIO, "llm: transport error from %s: %s",
                      url, cerr[0] ? cerr : curl_easy_strerror(res));
      retryable = 1;
    } else if (status >= 200 && status < 300) {
      rc = llm_parse_response(x.body.data ? x.body.data : "", x.body.len, r);
      if (rc == 0) {
        log_info("llm_call", "status=%ld attempts=%d prompt_tokens=%ld completion_tokens=%ld "
                 "elapsed_s=%.2f",
                 status, r->attempts, r->prompt_tokens, r->completion_tokens, llm_now_s() - t0);
        goto out;
      }
      goto out; /* a malformed 2xx is the server's answer, not a passing fault */
    } else {
      char msg[LLM_MAX_ERRMSG + 1];
      llm_server_message(x.body.data, x.body.len, msg, sizeof(msg));
      rc = errmsg_set(r->error, sizeof(r->error), -EPROTO, "llm: HTTP %ld from %s: %s", status,
                      url, msg[0] ? msg : "(no message)");
      retryable = status == 429 || status >= 500;
    }
    llm_redact(r->error, sizeof(r->error), c->api_key);
    log_warn("llm_attempt_failed", "attempt=%d status=%ld retryable=%d retry_after_s=%ld",
             r->attempts, status, retryable, x.retry_after_s);
    if (!retryable || attempt >= c->max_retries)
      goto out;
    {
      uint64_t wait_ms;
      if (x.retry_after_s >= 0) {
        long s = x.retry_after_s;
        if (s > (long)c->retry_after_cap_s)
          s = (long)c->retry_after_cap_s;
        wait_ms = (uint64_t)s * 1000;
      } else {
        /* Full jitter: uniform in [0, min(max, base * 2^attempt)]. */
        uint64_t ceil_ms = (uint64_t)c->backoff_base_ms << (attempt < 20 ? attempt : 20);
        if (ceil_ms > c->backoff_max_ms)
          ceil_ms = c->backoff_max_ms;
        wait_ms = ceil_ms ? llm_random() % (ceil_ms + 1) : 0;
      }
      if (llm_sleep_ms(wait_ms, c->stop)) {
        rc = errmsg_set(r->error, sizeof(r->error), -ECANCELED, "llm: stopped");
        goto out;
      }
    }
  }
out:
  if (rc && c)
    llm_redact(r->error, sizeof(r->error), c->api_key);
  r->elapsed_s = llm_now_s() - t0;
  explicit_bzero(auth, sizeof(auth));
  curl_slist_free_all(hdrs);
  if (h)
    curl_easy_cleanup(h);
  free(req);
  buf_free(&x.body);
  return rc;
}

int llm_propose(const struct llm_config *c, const char *system_msg, const char *user_msg,
                struct proposal *p, struct llm_result *r, char *err, size_t errlen)
{
  struct llm_result own; /* used when the caller wants no result */
  struct llm_result *res = r ? r : &own;
  int rc;

  rc = llm_chat(c, system_msg, user_msg, res);
  p->attempts = res->attempts;
  p->prompt_tokens = res->prompt_tokens;
  p->completion_tokens = res->completion_tokens;
  if (rc) {
    errmsg_set(err, errlen, rc, "%s", res->error);
    goto out;
  }
  rc = proposal_parse(res->content, res->content_len, p, err, errlen);
  if (rc && res->finish_reason[0] && strcmp(res->finish_reason, "stop")) {
    /* A truncated answer explains most contract failures; say so. */
    size_t n = strlen(err);
    if (n < errlen) {
      snprintf(err + n, errlen - n, " (finish_reason \"%s\")", res->finish_reason);
      utf8_scrub(err);
    }
  }
out:
  if (!r)
    llm_result_free(&own);
  return rc;
}
