/* The llm proposer: an OpenAI-compatible chat-completions endpoint (workers/llm.c) writes one
 * rewrite under the round contract; it is swept with partners of its launch configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "llm.h"
#include "proposer_model.h"

static int proposer_llm_propose(const struct proposer_input *in, struct proposer_output *out,
                                char *why, size_t whylen)
{
  struct llm_config cfg;
  struct llm_result res;
  struct proposal p;
  char *prompt = NULL, *evtxt = NULL, err[1024] = "";
  int rc;

  proposal_init(&p);
  llm_config_init(&cfg);
  llm_result_init(&res);
  rc = proposer_model_prompt(in, PROMPT_LLM, &prompt, &evtxt, why, whylen);
  if (rc)
    goto out;
  if (llm_config_from_env(&cfg, err, sizeof(err))) {
    snprintf(why, whylen, "llm: %.500s", err);
    rc = -EPROTO;
    goto out;
  }
  cfg.stop = &in->j->w->stop;
  rc = llm_propose(&cfg, prompt_system_message(), prompt, &p, &res, err, sizeof(err));
  p.prompt_tokens = res.prompt_tokens;
  p.completion_tokens = res.completion_tokens;
  p.attempts = res.attempts;
  out->prompt_tokens = res.prompt_tokens;
  out->completion_tokens = res.completion_tokens;
  out->attempts = res.attempts;
  if (in->j->w->stop) {
    rc = -EINTR;
  } else if (rc) {
    snprintf(why, whylen, "%.500s", err);
    rc = -EPROTO;
  } else {
    rc = proposer_model_output(in, &p, out);
  }
out:
  llm_result_free(&res);
  llm_config_free(&cfg);
  proposal_free(&p);
  free(prompt);
  free(evtxt);
  return rc;
}

const struct proposer proposer_llm = { "llm", proposer_llm_propose };
