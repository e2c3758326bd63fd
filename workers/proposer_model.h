/* proposer_model: what the llm and agent proposers share — the prompt a model reads (the
 * contract, the incumbent, the evidence at the level reached, pattern guidance and the
 * earlier rounds), and turning its one rewrite into sweep candidates. */
#ifndef KOPT_PROPOSER_MODEL_H
#define KOPT_PROPOSER_MODEL_H
#include "prompt.h"
#include "proposal.h"
#include "proposer.h"

/* Renders the prompt for mode. *prompt and *evidence (the evidence JSON text) are owned by
 * the caller. 0, or -EPROTO with why set. */
int proposer_model_prompt(const struct proposer_input *in, enum prompt_mode mode, char **prompt,
                          char **evidence, char *why, size_t whylen);
/* Fills out from a parsed proposal (family, hypothesis, the module and its partners). */
int proposer_model_output(const struct proposer_input *in, struct proposal *p,
                          struct proposer_output *out);

#endif
