/* proposal: the round's proposal and the strict parser of the output contract. A model's or
 * agent's answer is untrusted text: anything that is not exactly one rewrite in the
 * contract's form becomes a rejected round with the broken rule as its reason. */
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "proposal.h"
#include "utf8.h"

/* A JSON-escaped kernel of PROPOSAL_MAX_SOURCE bytes may grow (\n, \", \uXXXX), so the
 * answer itself may be larger than the source cap; past this it is rejected unread. */
#define PROPOSAL_MAX_TEXT (4u << 20)

static const char *const proposal_families[] = {PROPOSAL_FAMILIES};
#define PROPOSAL_NFAMILIES (sizeof(proposal_families) / sizeof(proposal_families[0]))

void proposal_init(struct proposal *p)
{
  memset(p, 0, sizeof(*p));
  p->prompt_tokens = -1;
  p->completion_tokens = -1;
}

void proposal_free(struct proposal *p)
{
  if (!p)
    return;
  free(p->source);
  free(p->hypothesis);
  free(p->tunables_json);
  proposal_init(p);
}

int proposal_family_known(const char *name)
{
  if (!name)
    return 0;
  for (size_t i = 0; i < PROPOSAL_NFAMILIES; i++)
    if (strcmp(name, proposal_families[i]) == 0)
      return 1;
  return 0;
}

/* Writes "block_size, num_warps, ..." into out (cap bytes). */
static void proposal_family_list(char *out, size_t cap)
{
  size_t n = 0;
  out[0] = '\0';
  for (size_t i = 0; i < PROPOSAL_NFAMILIES && n < cap; i++) {
    int w = snprintf(out + n, cap - n, "%s%s", i ? ", " : "", proposal_families[i]);
    if (w < 0)
      break;
    n += (size_t)w;
  }
}

static int proposal_err(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int proposal_err(char *err, size_t errlen, const char *fmt, ...)
{
  va_list ap;
  int n;
  if (!err || !errlen)
    return -EINVAL;
  n = snprintf(err, errlen, "output contract: ");
  if (n < 0 || (size_t)n >= errlen)
    return -EINVAL;
  va_start(ap, fmt);
  vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
  utf8_scrub(err); /* it quotes the answer, and becomes the round's reject reason (JSON) */
  return -EINVAL;
}

static int proposal_ws(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Number of UTF-8 code points in s (jansson has already validated the encoding). */
static size_t proposal_utf8_chars(const char *s, size_t n)
{
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      c++;
  return c;
}

static int proposal_only_ws(const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!proposal_ws(s[i]))
      return 0;
  return 1;
}

/* Finds the one JSON object in [t, t+n) (already trimmed): either the whole text, or the
 * body of one ```json fence that spans the whole text. Sets *body and *blen. */
static int proposal_unwrap(const char *t, size_t n, const char **body, size_t *blen, int *fenced,
                           char *err, size_t errlen)
{
  *fenced = 0;
  if (n >= 3 && memcmp(t, "```", 3) == 0) {
    const char *nl = memchr(t, '\n', n);
    size_t tag0 = 3, tagn;
    if (!nl)
      return proposal_err(err, errlen, "a ```json fence must be followed by a new line");
    tagn = (size_t)(nl - t);
    while (tagn > tag0 && proposal_ws(t[tagn - 1]))
      tagn--;
    while (tag0 < tagn && proposal_ws(t[tag0]))
      tag0++;
    if (tagn - tag0 != 4 || strncasecmp(t + tag0, "json", 4) != 0)
      return proposal_err(err, errlen,
                          "the fenced block must be tagged json (```json), found \"%.*s\"",
                          (int)(tagn - tag0 > 20 ? 20 : tagn - tag0), t + tag0);
    /* The closing fence is the last thing in the text, on its own line. A JSON string
     * cannot hold a raw new line, so "\n```" cannot occur inside the object itself. */
    if (n < 3 || memcmp(t + n - 3, "```", 3) != 0 || (size_t)(nl - t) + 1 > n - 3)
      return proposal_err(err, errlen,
                          "the ```json block must be closed by ``` and nothing may follow it");
    {
      size_t end = n - 3;
      while (end > (size_t)(nl - t) + 1 && (t[end - 1] == ' ' || t[end - 1] == '\t'))
        end--;
      if (t[end - 1] != '\n')
        return proposal_err(err, errlen, "the closing ``` must stand on its own line");
      *body = nl + 1;
      *blen = end - (size_t)(nl + 1 - t);
    }
    *fenced = 1;
    return 0;
  }
  if (t[0] != '{') {
    const char *fence = memmem(t, n, "```", 3);
    const char *brace = memchr(t, '{', n);
    if (fence || brace)
      return proposal_err(err, errlen,
                          "the answer must be exactly one JSON object (bare, or in one ```json "
                          "block) with nothing around it; found text before the %s",
                          fence && (!brace || fence < brace) ? "fenced block" : "JSON object");
    return proposal_err(err, errlen,
                        "the answer must be exactly one JSON object {\"hypothesis\", "
                        "\"rewrite_family\", \"kernel\"}; found no JSON object");
  }
  *body = t;
  *blen = n;
  return 0;
}

/* Kernel rules the round needs before the harness sees the module at all. */
static int proposal_check_kernel(const char *k, size_t n, char *err, size_t errlen)
{
  if (n == 0 || proposal_only_ws(k, n))
    return proposal_err(err, errlen, "\"kernel\" must be the whole module source, not empty");
  if (n > PROPOSAL_MAX_SOURCE)
    return proposal_err(err, errlen, "\"kernel\" is %zu bytes, over the limit of %u bytes", n,
                        PROPOSAL_MAX_SOURCE);
  if (!memmem(k, n, "class ModelNew", 14))
    return proposal_err(err, errlen,
                        "\"kernel\" must be the whole module and define class ModelNew");
  if (!memmem(k, n, "@triton.jit", 11))
    return proposal_err(err, errlen,
                        "\"kernel\" must contain a Triton kernel (@triton.jit)");
  return 0;
}

int proposal_parse(const char *text, size_t len, struct proposal *p, char *err, size_t errlen)
{
  json_t *root = NULL; /* owned */
  json_error_t jerr;
  const char *t = text, *body = NULL;
  size_t n = len, blen = 0;
  int fenced = 0, rc;
  const char *key;
  json_t *val;                 /* borrowed from root */
  const char *hyp = NULL, *fam = NULL, *ker = NULL;
  size_t hypn = 0, famn = 0, kern = 0;
  char *src = NULL, *hy = NULL; /* owned until handed to p */

  if (err && errlen)
    err[0] = '\0';
  if (!text || !p)
    return proposal_err(err, errlen, "no answer");
  if (len > PROPOSAL_MAX_TEXT) {
    rc = proposal_err(err, errlen, "the answer is %zu bytes, over the limit of %u bytes", len,
                      PROPOSAL_MAX_TEXT);
    goto out;
  }
  while (n && proposal_ws(*t)) {
    t++;
    n--;
  }
  while (n && proposal_ws(t[n - 1]))
    n--;
  if (n == 0) {
    rc = proposal_err(err, errlen, "the answer is empty; expected one JSON object");
    goto out;
  }
  rc = proposal_unwrap(t, n, &body, &blen, &fenced, err, errlen);
  if (rc)
    goto out;
  while (blen && proposal_ws(*body)) {
    body++;
    blen--;
  }
  if (blen == 0 || body[0] != '{') {
    rc = proposal_err(err, errlen, "the %s must hold exactly one JSON object and nothing else",
                      fenced ? "```json block" : "answer");
    goto out;
  }
  /* EOF check off so that "two objects" and "prose after" get their own messages. */
  root = json_loadb(body, blen, JSON_REJECT_DUPLICATES | JSON_DISABLE_EOF_CHECK, &jerr);
  if (!root) {
    rc = proposal_err(err, errlen, "not valid JSON: %s (line %d, column %d)", jerr.text,
                      jerr.line, jerr.column);
    goto out;
  }
  if (!json_is_object(root)) {
    rc = proposal_err(err, errlen, "the answer must be a JSON object");
    goto out;
  }
  {
    size_t used = (size_t)jerr.position;
    if (used > blen)
      used = blen;
    if (!proposal_only_ws(body + used, blen - used)) {
      const char *rest = body + used;
      size_t rn = blen - used;
      while (rn && proposal_ws(*rest)) {
        rest++;
        rn--;
      }
      if (rest[0] == '{')
        rc = proposal_err(err, errlen, "more than one JSON object; exactly one rewrite per round");
      else if (fenced && rn >= 3 && memmem(rest, rn, "```", 3))
        rc = proposal_err(err, errlen, "more than one fenced block; exactly one ```json block");
      else
        rc = proposal_err(err, errlen, "text after the JSON object%s; nothing may follow it",
                          fenced ? " inside the ```json block" : "");
      goto out;
    }
  }
  json_object_foreach(root, key, val) {
    if (strcmp(key, "hypothesis") && strcmp(key, "rewrite_family") && strcmp(key, "kernel")) {
      rc = proposal_err(err, errlen,
                        "unknown key \"%.64s\"; the object has exactly the keys \"hypothesis\", "
                        "\"rewrite_family\" and \"kernel\"",
                        key);
      goto out;
    }
    if (!json_is_string(val)) {
      rc = proposal_err(err, errlen, "\"%s\" must be a string", key);
      goto out;
    }
    if (!strcmp(key, "hypothesis")) {
      hyp = json_string_value(val);
      hypn = json_string_length(val);
    } else if (!strcmp(key, "rewrite_family")) {
      fam = json_string_value(val);
      famn = json_string_length(val);
    } else {
      ker = json_string_value(val);
      kern = json_string_length(val);
    }
  }
  if (!hyp || !fam || !ker) {
    rc = proposal_err(err, errlen, "missing key \"%s\"; the object has exactly the keys "
                      "\"hypothesis\", \"rewrite_family\" and \"kernel\"",
                      !hyp ? "hypothesis" : !fam ? "rewrite_family" : "kernel");
    goto out;
  }
  if (famn >= sizeof(p->family) || strlen(fam) != famn || !proposal_family_known(fam)) {
    char list[512];
    proposal_family_list(list, sizeof(list));
    rc = proposal_err(err, errlen, "\"rewrite_family\" must be one of %s; got \"%.40s\"", list,
                      fam);
    goto out;
  }
  while (hypn && proposal_ws(*hyp)) {
    hyp++;
    hypn--;
  }
  while (hypn && proposal_ws(hyp[hypn - 1]))
    hypn--;
  if (hypn == 0) {
    rc = proposal_err(err, errlen, "\"hypothesis\" must not be empty");
    goto out;
  }
  if (proposal_utf8_chars(hyp, hypn) > PROPOSAL_MAX_HYPOTHESIS) {
    rc = proposal_err(err, errlen, "\"hypothesis\" is %zu characters, over the limit of %d",
                      proposal_utf8_chars(hyp, hypn), PROPOSAL_MAX_HYPOTHESIS);
    goto out;
  }
  rc = proposal_check_kernel(ker, kern, err, errlen);
  if (rc)
    goto out;
  src = strndup(ker, kern);
  hy = strndup(hyp, hypn);
  if (!src || !hy) {
    rc = -ENOMEM;
    snprintf(err, errlen, "out of memory");
    goto out;
  }
  /* Only now is p touched: a rejected answer leaves it as it was. */
  free(p->source);
  free(p->hypothesis);
  p->source = src;
  p->hypothesis = hy;
  src = hy = NULL;
  snprintf(p->family, sizeof(p->family), "%s", fam);
  rc = 0;
out:
  free(src);
  free(hy);
  json_decref(root);
  return rc;
}
