/* llm: an OpenAI-compatible chat-completions client (POST {base}/v1/chat/completions) on
 * libcurl's easy interface: the worker is its own process and a round may block on it.
 * Configuration comes only from the environment or a key file, never from a job: a job is
 * user input and must not choose where the worker sends its key. */
#ifndef KOPT_LLM_H
#define KOPT_LLM_H
#include <signal.h>
#include <stddef.h>

#include "proposal.h"

#define LLM_MAX_RESPONSE (4u << 20)  /* response body cap */
#define LLM_MAX_KEY 4096             /* API key (and key file) cap */
#define LLM_RETRY_AFTER_CAP_S 60     /* a server's Retry-After is honoured up to this */

struct llm_config {
  char base_url[512];      /* KOPT_LLM_BASE_URL, e.g. http://127.0.0.1:8000 (a trailing /v1 is
                              accepted and not doubled) */
  char model[256];         /* KOPT_LLM_MODEL */
  char *api_key;           /* owned, may be NULL (no Authorization header); never logged */
  unsigned timeout_s;      /* KOPT_LLM_TIMEOUT_S, whole attempt; default 120 */
  unsigned connect_timeout_s; /* min(10, timeout_s) */
  unsigned max_retries;    /* KOPT_LLM_MAX_RETRIES, retries after the first attempt; default 4 */
  long max_tokens;         /* KOPT_LLM_MAX_TOKENS; default 8192; 0 leaves it out */
  double temperature;      /* KOPT_LLM_TEMPERATURE; default 0.2; < 0 leaves it out */
  unsigned backoff_base_ms;   /* first backoff ceiling; doubles per retry; default 1000 */
  unsigned backoff_max_ms;    /* backoff ceiling; default 30000 */
  unsigned retry_after_cap_s; /* default LLM_RETRY_AFTER_CAP_S */
  size_t max_response;     /* default LLM_MAX_RESPONSE */
  const volatile sig_atomic_t *stop; /* borrowed, optional: when set, abort and give up */
};

struct llm_result {
  char *content;           /* owned: choices[0].message.content, NULL on error */
  size_t content_len;
  long prompt_tokens;      /* usage of the successful call; -1 if the server sent none */
  long completion_tokens;
  int attempts;            /* HTTP attempts made (1 + retries) */
  long http_status;        /* of the last attempt; 0 when no response came */
  double elapsed_s;        /* the whole call, backoff waits included */
  char finish_reason[32];  /* "stop", "length", ... or "" */
  char error[1024];        /* why it failed; never holds the API key */
};

/* Defaults, no key, no URL. */
void llm_config_init(struct llm_config *c);
/* Reads the KOPT_LLM_* variables (see above; the key from KOPT_LLM_API_KEY, or from the file
 * named by KOPT_LLM_API_KEY_FILE, trimmed). 0, or -EINVAL/-errno with err saying which
 * variable is wrong. KOPT_LLM_BASE_URL and KOPT_LLM_MODEL are required. */
int llm_config_from_env(struct llm_config *c, char *err, size_t errlen);
/* Wipes and frees the key. */
void llm_config_free(struct llm_config *c);

void llm_result_init(struct llm_result *r);
void llm_result_free(struct llm_result *r);

/* One chat completion with a system and a user message, retried with exponential backoff
 * and full jitter on 429, 5xx and transport errors (honouring Retry-After), not on other
 * 4xx. 0 with r->content set, or a negative errno with r->error: -ETIMEDOUT (the timeout
 * passed on the last attempt), -EPROTO (an HTTP error or a malformed response), -E2BIG (the
 * body passed max_response), -ECANCELED (stop was set), -EINVAL (bad config). */
int llm_chat(const struct llm_config *c, const char *system_msg, const char *user_msg,
             struct llm_result *r);

/* llm_chat, then proposal_parse of the content. Fills p (source, hypothesis, family, tokens,
 * attempts; tokens and attempts also when the answer is rejected). 0, or negative errno with
 * err saying why: the llm error, or the output-contract rule the answer broke (-EINVAL).
 * r (optional) receives the raw call result for the round record; caller frees it. */
int llm_propose(const struct llm_config *c, const char *system_msg, const char *user_msg,
                struct proposal *p, struct llm_result *r, char *err, size_t errlen);

/* The parsers of what the server sends back, apart from the transfer (tests/fuzz/fuzz_llm.c).
 * Retry-After's value (n bytes): delay-seconds or an HTTP-date, as seconds from now; -1
 * when absent or unreadable. */
long llm_parse_retry_after(const char *v, size_t n);
/* A 2xx body: r's content (owned), finish_reason and token usage. 0, or -EPROTO/-ENOMEM
 * with r->error. */
int llm_parse_response(const char *body, size_t len, struct llm_result *r);
/* An error body's message (error.message, error, message, else the body's start) into out,
 * control characters blanked. */
void llm_server_message(const char *body, size_t len, char *out, size_t cap);
/* Replaces each occurrence of key in s (NUL-terminated, cap bytes) with "[redacted]"; s
 * comes out valid UTF-8 (bytes that were not become '?' first). */
void llm_redact(char *s, size_t cap, const char *key);

#endif
