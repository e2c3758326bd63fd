/* fuzz_llm: what the worker reads from an OpenAI-compatible server (workers/llm.c): a 2xx
 * body (llm_parse_response) and the answer in it (proposal_parse, as llm_propose does), an
 * error body's message (llm_server_message) with the key redacted (llm_redact), and a
 * Retry-After header (llm_parse_retry_after). Every error text must be storable as a round's
 * reject reason (a JSON string), and never holds the key. */
#include "errmsg.h"
#include "fuzz.h"
#include "llm.h"

enum { F_BODY, F_RETRY_AFTER, F_KEY, F_NPARTS };

static void fuzz_response(const char *body, size_t len)
{
  struct llm_result r;
  struct proposal p;
  char err[1024];
  int rc;

  llm_result_init(&r);
  rc = llm_parse_response(body, len, &r);
  if (rc == 0) {
    FUZZ_CHECK(r.content && r.content[r.content_len] == '\0', "content not NUL-terminated");
    proposal_init(&p);
    if (proposal_parse(r.content, r.content_len, &p, err, sizeof(err)) != 0)
      FUZZ_CHECK(fuzz_json_text(err), "reject reason is not UTF-8: %s", err);
    proposal_free(&p);
  } else {
    FUZZ_CHECK(rc == -EPROTO || rc == -ENOMEM, "rc %d", rc);
    FUZZ_CHECK(r.content == NULL && r.error[0], "failure without a reason");
    FUZZ_CHECK(fuzz_json_text(r.error), "error is not UTF-8: %s", r.error);
  }
  FUZZ_CHECK(fuzz_json_text(r.finish_reason), "finish_reason is not UTF-8");
  llm_result_free(&r);
}

static void fuzz_error_body(const char *body, size_t len, const char *key)
{
  char msg[301], error[1024];
  llm_server_message(body, len, msg, sizeof(msg));
  FUZZ_CHECK(strlen(msg) < sizeof(msg), "message overran");
  for (const char *c = msg; *c; c++)
    FUZZ_CHECK((unsigned char)*c >= 0x20, "control character in the message");
  FUZZ_CHECK(fuzz_json_text(msg), "message is not UTF-8: %s", msg);
  /* llm_chat's text for an HTTP error, then the redaction it always applies. */
  errmsg_set(error, sizeof(error), -EPROTO, "llm: HTTP %ld from %s: %s", 500L,
             "http://127.0.0.1:1/v1/chat/completions", msg[0] ? msg : "(no message)");
  llm_redact(error, sizeof(error), key);
  FUZZ_CHECK(!key[0] || !strstr(error, key) || strstr("[redacted]", key),
             "the key survived redaction");
  FUZZ_CHECK(fuzz_json_text(error), "error is not UTF-8: %s", error);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *part[F_NPARTS];
  size_t len[F_NPARTS];
  char *copy = fuzz_split(data, size, part, len, F_NPARTS);
  long s;

  if (!copy)
    return 0;
  fuzz_response(part[F_BODY], len[F_BODY]);
  /* A key is visible ASCII (llm_config_from_env refuses anything else). */
  for (const char *c = part[F_KEY]; *c; c++)
    if ((unsigned char)*c <= 0x20 || (unsigned char)*c >= 0x7f)
      part[F_KEY] = "";
  fuzz_error_body(part[F_BODY], len[F_BODY], part[F_KEY]);
  s = llm_parse_retry_after(part[F_RETRY_AFTER], len[F_RETRY_AFTER]);
  FUZZ_CHECK(s >= -1, "Retry-After %ld", s);
  free(copy);
  return 0;
}
