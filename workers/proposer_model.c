#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hash.h"
#include "proposer_model.h"

#define PROPOSER_MODEL_HISTORY 64 /* earlier rounds shown to a model */

/* The patterns L1 matched (workers/pindex.h), as the prompt's lines: what each says to do,
 * its guidance, and what was observed on this backend. NULL when none matched (the template
 * then says so). Owned by the caller. */
static char *proposer_model_patterns(const json_t *matches)
{
  const json_t *m;
  struct buf b;
  size_t i;
  if (!json_array_size(matches))
    return NULL;
  buf_init(&b, PROMPT_MAX_PATTERNS * 2);
  json_array_foreach(matches, i, m) {
    const json_t *act = json_object_get(m, "action");
    buf_appendf(&b, "- %s (when %s): %s%s%s. %s", json_string_value(json_object_get(m, "name")) ?: "?",
                json_string_value(json_object_get(m, "when")) ?: "?",
                json_string_value(json_object_get(m, "family")) ?: "?",
                json_string_value(json_object_get(act, "direction")) ? " " : "",
                json_string_value(json_object_get(act, "direction")) ?: "",
                json_string_value(json_object_get(m, "guidance")) ?: "");
    if (json_integer_value(json_object_get(m, "tried")) > 0)
      buf_appendf(&b, " Observed here: accepted %lld of %lld tries, on %lld operators.",
                  (long long)json_integer_value(json_object_get(m, "accepted")),
                  (long long)json_integer_value(json_object_get(m, "tried")),
                  (long long)json_integer_value(json_object_get(m, "support")));
    buf_appends(&b, "\n");
  }
  return buf_take(&b, NULL);
}

int proposer_model_prompt(const struct proposer_input *in, enum prompt_mode mode, char **prompt,
                          char **evidence, char *why, size_t whylen)
{
  struct prompt_round hist[PROPOSER_MODEL_HISTORY];
  struct prompt_input pi;
  const struct evidence *ev = in->ev;
  size_t nh = json_array_size(in->history), first = nh > PROPOSER_MODEL_HISTORY ? nh - PROPOSER_MODEL_HISTORY : 0;
  json_t *evj = json_pack("{s:i, s:s, s:s, s:s, s:O?, s:O?, s:O?, s:O?}", "level", in->level,
                          "family", in->family, "direction", in->direction ? in->direction : "",
                          "diagnosis", in->diagnosis, "profile",
                          in->level >= 2 && ev ? ev->profile : NULL, "ir",
                          in->level >= 3 && ev ? ev->ir : NULL, "passes",
                          in->level >= 4 && ev ? ev->passes : NULL, "knobs", in->knobs);
  char *pattxt = proposer_model_patterns(in->patterns);
  char *tmpl = NULL, origin[256], err[1024] = "";
  size_t plen = 0;
  int rc;

  *prompt = NULL;
  *evidence = evj ? json_dumps(evj, JSON_INDENT(1)) : NULL;
  for (size_t i = first; i < nh; i++) {
    json_t *h = json_array_get(in->history, i);
    struct prompt_round *pr = &hist[i - first];
    pr->round = (int)json_integer_value(json_object_get(h, "round"));
    pr->level = (int)json_integer_value(json_object_get(h, "level"));
    pr->family = json_string_value(json_object_get(h, "family")) ?: "";
    pr->hypothesis = json_string_value(json_object_get(h, "hypothesis")) ?: "";
    pr->outcome = json_string_value(json_object_get(h, "outcome")) ?: "";
  }
  memset(&pi, 0, sizeof(pi));
  pi.mode = mode;
  pi.kernel = in->source;
  pi.evidence_json = *evidence ? *evidence : "{}";
  pi.level = in->level;
  pi.patterns = pattxt;
  pi.history = hist;
  pi.nhistory = nh - first;
  rc = prompt_template_load(&tmpl, origin, sizeof(origin), err, sizeof(err));
  if (!rc)
    rc = prompt_render(tmpl, &pi, prompt, &plen, err, sizeof(err));
  if (rc) {
    snprintf(why, whylen, "prompt: %s", err);
    rc = -EPROTO;
  }
  free(tmpl);
  free(pattxt);
  json_decref(evj);
  return rc;
}

int proposer_model_output(const struct proposer_input *in, struct proposal *p,
                          struct proposer_output *out)
{
  char h[KOPT_SHA256_HEX_SIZE];
  hash_sha256_hex(p->source, strlen(p->source), h);
  snprintf(out->signature, sizeof(out->signature), "src:%.16s", h);
  snprintf(out->family, sizeof(out->family), "%s", p->family);
  out->hypothesis = p->hypothesis;
  p->hypothesis = NULL;
  out->prompt_tokens = p->prompt_tokens;
  out->completion_tokens = p->completion_tokens;
  out->attempts = p->attempts;
  return proposer_add_source_candidates(in, p->source, out);
}
