#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "proposer_model.h"

#define PROPOSER_MODEL_HISTORY 64 /* earlier rounds shown to a model */

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
  char *pattxt = json_dumps(in->patterns ? in->patterns : json_null(), JSON_INDENT(1));
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
