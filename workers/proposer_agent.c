/* The agent proposer: an external coding-agent command (workers/agent.c) run in the round's
 * directory with the contract, kernel and evidence as files; its one rewrite is swept with
 * partners of its launch configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "agent.h"
#include "proposer_model.h"

static int proposer_agent_propose(const struct proposer_input *in, struct proposer_output *out,
                                  char *why, size_t whylen)
{
  struct agent_config ac;
  struct agent_result ar;
  struct agent_input ai;
  struct proposal p;
  char *prompt = NULL, *evtxt = NULL, err[1024] = "", dir[1200], contract[PROMPT_MAX_CONTRACT];
  int rc;

  proposal_init(&p);
  agent_config_init(&ac);
  agent_result_init(&ar);
  rc = proposer_model_prompt(in, PROMPT_AGENT, &prompt, &evtxt, why, whylen);
  if (rc)
    goto out;
  snprintf(dir, sizeof(dir), "%s/agent-%s-r%d", in->j->w->work_dir, in->j->id, in->round);
  prompt_contract(PROMPT_AGENT, contract, sizeof(contract));
  ai.contract = contract;
  ai.kernel = in->source;
  ai.evidence_json = evtxt ? evtxt : "{}";
  ai.prompt = prompt;
  if (agent_config_from_env(&ac, err, sizeof(err))) {
    snprintf(why, whylen, "agent: %s", err);
    rc = -EPROTO;
    goto out;
  }
  ac.stop = &in->j->w->stop;
  rc = agent_run(&ac, dir, &ai, &p, &ar);
  if (in->j->w->stop) {
    rc = -EINTR;
  } else if (rc) {
    snprintf(why, whylen, "%.500s", ar.error);
    rc = -EPROTO;
  } else {
    rc = proposer_model_output(in, &p, out);
  }
out:
  agent_result_free(&ar);
  agent_config_free(&ac);
  proposal_free(&p);
  free(prompt);
  free(evtxt);
  return rc;
}

const struct proposer proposer_agent = { "agent", proposer_agent_propose };
