#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proposer.h"
#include "rules.h"

/* The proposers a job may name (spec.proposer). */
static const struct proposer *const proposer_all[] = { &proposer_rules, &proposer_llm,
                                                       &proposer_agent };

const struct proposer *proposer_find(const char *name)
{
  for (size_t i = 0; name && i < sizeof(proposer_all) / sizeof(proposer_all[0]); i++)
    if (strcmp(proposer_all[i]->name, name) == 0)
      return proposer_all[i];
  return NULL;
}

void proposer_output_init(struct proposer_output *o)
{
  memset(o, 0, sizeof(*o));
  o->prompt_tokens = o->completion_tokens = -1;
}

void proposer_output_free(struct proposer_output *o)
{
  json_decref(o->candidates);
  free(o->hypothesis);
  proposer_output_init(o);
}

/* Partners of a model-written module: a neighbourhood of its block sizes and warps, so
 * that a good rewrite is not lost to a poor launch configuration. */
#define PROPOSER_PARTNERS 8

int proposer_ascend_ir(const struct proposer_input *in)
{
  const char *t;
  if (!in->j)
    return 0;
  if (!strcmp(in->j->w->backend, "ascend"))
    return 1;
  t = job_ir_target(in->j);
  return t && (!strncmp(t, "ascend", 6) || !strncmp(t, "npu", 3));
}

int proposer_add_source_candidates(const struct proposer_input *in, const char *source,
                                   struct proposer_output *out)
{
  json_t *req, *knobs = NULL, *tun = in->tunables ? json_deep_copy(in->tunables) : json_object();
  char id[32];
  int rc = 0;

  if (!out->candidates)
    out->candidates = json_array();
  snprintf(id, sizeof(id), "r%dm0", in->round);
  if (json_array_append_new(out->candidates,
                            json_pack("{s:s, s:s, s:O, s:s}", "id", id, "source", source,
                                      "tunables", tun, "origin", "model")))
    rc = -ENOMEM;
  req = json_pack("{s:s, s:s, s:O}", "op", "knobs", "source", source, "tunables", tun);
  if (!rc && req && job_op(in->j, "knobs", req, &knobs) == 0) {
    struct rules_plan_in pi = { knobs, "block_size", "", NULL, "model", NULL,
                                in->max_candidates > PROPOSER_PARTNERS ? PROPOSER_PARTNERS
                                                                       : in->max_candidates - 1,
                                in->round, proposer_ascend_ir(in), NULL, NULL, NULL };
    struct rules_plan_out po;
    char why[256];
    json_t *c;
    size_t i;
    if (pi.max_candidates > 0 && rules_plan(&pi, &po, why, sizeof(why)) == 0) {
      json_array_foreach(po.candidates, i, c) {
        snprintf(id, sizeof(id), "r%dm%zu", in->round, i + 1);
        json_object_set_new(c, "id", json_string(id));
        json_object_set_new(c, "source", json_string(source));
        json_object_set(c, "tunables", tun);
        json_object_set_new(c, "origin", json_string("model"));
        json_array_append(out->candidates, c);
      }
      json_decref(po.candidates);
    }
  }
  in->j->fail_msg[0] = '\0'; /* a module whose knobs cannot be read is still swept alone */
  json_decref(req);
  json_decref(knobs);
  json_decref(tun);
  return rc;
}
