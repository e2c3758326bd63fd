/* proposal: what a proposer returns for one round — one rewrite of one family, tied to a
 * hypothesis — and the families the round contract knows. Shared by the rules, llm and
 * agent proposers and the round loop. */
#ifndef KOPT_PROPOSAL_H
#define KOPT_PROPOSAL_H
#include <stddef.h>

/* The rewrite families a round may propose (exactly one per round). */
#define PROPOSAL_FAMILIES                                                                     \
  "block_size", "num_warps", "num_stages", "vectorize_access", "coalesce_access",            \
      "fuse_kernels", "pipeline_loads", "reduce_barriers", "use_tensor_cores", "grid_shape", \
      "reduce_scalar_work", "algorithmic", "row_in_registers", "tile_grid", "persistent_grid", \
      "structured_access", "structured_mask", "rows_per_program", "tma_loads"

#define PROPOSAL_MAX_SOURCE (256u << 10)
#define PROPOSAL_MAX_HYPOTHESIS 2000

struct proposal {
  char *source;           /* owned: the complete candidate module (class ModelNew) */
  char *hypothesis;       /* owned: one or two sentences tied to the evidence */
  char family[32];        /* one of PROPOSAL_FAMILIES */
  char *tunables_json;    /* owned, optional: {"BLOCK_SIZE": 1024} when only tunables change */
  long prompt_tokens, completion_tokens; /* llm only; -1 when unknown */
  int attempts;           /* llm: HTTP attempts made */
};

void proposal_init(struct proposal *p);
void proposal_free(struct proposal *p);
/* 1 if name is a known family. */
int proposal_family_known(const char *name);

/* Parses a model's or agent's answer under the output contract: one JSON object
 *   {"hypothesis": "...", "rewrite_family": "<family>", "kernel": "<whole module source>"}
 * optionally inside one ```json fenced block, nothing else of substance. On success fills p
 * (source, hypothesis, family) and returns 0; otherwise -EINVAL with err saying which rule
 * the text broke (for the round's reject reason). */
int proposal_parse(const char *text, size_t len, struct proposal *p, char *err, size_t errlen);

#endif
