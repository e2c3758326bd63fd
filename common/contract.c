#include <string.h>

#include "contract.h"

const char *const contract_states[CONTRACT_STATE_COUNT + 1] = {
  KOPT_STATE_QUEUED, KOPT_STATE_RUNNING, KOPT_STATE_SUCCEEDED, KOPT_STATE_FAILED,
  KOPT_STATE_CANCELLED, NULL
};

const char *const contract_outcomes[] = { KOPT_OUTCOME_SUCCEEDED, KOPT_OUTCOME_FAILED,
                                          KOPT_OUTCOME_CANCELLED, KOPT_OUTCOME_ABORTED,
                                          KOPT_OUTCOME_LOST, KOPT_OUTCOME_REQUEUED, NULL };

const char *const contract_backends[] = { KOPT_BACKEND_CUDA, KOPT_BACKEND_ASCEND,
                                          KOPT_BACKEND_INTERP, NULL };

const char *const contract_job_backends[] = { KOPT_BACKEND_CUDA, KOPT_BACKEND_ASCEND,
                                              KOPT_BACKEND_INTERP, KOPT_BACKEND_ANY, NULL };

const char *const contract_policies[CONTRACT_POLICY_COUNT + 1] = {
  "hierarchy", "profile_only", "always_deep", "pattern_only", NULL
};

const char *const contract_proposers[] = { "rules", "llm", "agent", NULL };

size_t contract_harness_line_max(size_t max_body_bytes, size_t max_source_bytes)
{
  /* 1 MiB for the fields around the sources (ids, tolerances, tunables, workdir). */
  size_t body = max_body_bytes + (1u << 20);
  size_t two_sources = 2 * 6 * max_source_bytes + (1u << 20);
  size_t n = body > two_sources ? body : two_sources;
  return n > KOPT_HARNESS_LINE_MIN ? n : KOPT_HARNESS_LINE_MIN;
}

int contract_find(const char *const *table, const char *s)
{
  if (!s)
    return -1;
  for (int i = 0; table[i]; i++)
    if (strcmp(table[i], s) == 0)
      return i;
  return -1;
}

int contract_state_terminal(const char *state)
{
  int i = contract_find(contract_states, state);
  return i == CONTRACT_SUCCEEDED || i == CONTRACT_FAILED || i == CONTRACT_CANCELLED;
}
