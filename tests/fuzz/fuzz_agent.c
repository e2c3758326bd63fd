/* fuzz_agent: the agent's output reader (workers/agent.c) apart from the process: what the
 * agent printed, kept as a tail (agent_tail_add/take) whose last line goes into the error of a
 * failed command (agent_last_line), an answer printed on stdout (agent_answer_stdout), and
 * one left in new_kernel.py + hypothesis.json (agent_answer_files). Any bytes may come out of
 * an agent; every error must be storable as the round's reject reason (a JSON string). */
#include "agent.h"
#include "errmsg.h"
#include "fuzz.h"

enum { F_OUTPUT, F_KERNEL, F_HYPOTHESIS, F_NPARTS };

static void fuzz_reason(const struct agent_result *r, int rc)
{
  FUZZ_CHECK(rc < 0 && r->error[0], "rc %d without a reason", rc);
  FUZZ_CHECK(fuzz_json_text(r->error), "reject reason is not UTF-8: %s", r->error);
}

static void fuzz_output(const char *out, size_t len, const uint8_t *cuts, size_t ncuts)
{
  struct agent_tail t = { malloc(2 * AGENT_TAIL), 0, 0 };
  struct agent_result r;
  struct proposal p;
  char last[256], *tail;
  size_t off = 0, k = 0;
  int rc;

  FUZZ_CHECK(t.data != NULL, "out of memory");
  /* As agent_exec reads it: pieces of the pipe's output, each up to a read's 16 KiB; a
   * repeat count makes the output pass AGENT_TAIL. */
  for (unsigned rep = 0; rep < 1 + (ncuts ? cuts[0] % 8 : 0); rep++)
    for (off = 0; off < len;) {
      size_t m = ncuts ? (size_t)cuts[k++ % ncuts] * 64 + 1 : len;
      m = m < len - off ? m : len - off;
      agent_tail_add(&t, out + off, m);
      off += m;
    }
  tail = agent_tail_take(&t);
  FUZZ_CHECK(tail != NULL, "no tail");
  FUZZ_CHECK(strlen(tail) <= AGENT_TAIL + 128, "tail %zu bytes", strlen(tail));
  agent_last_line(tail, last, sizeof(last));
  agent_result_init(&r);
  /* agent_run's text for a command that failed. */
  rc = -EPROTO;
  errmsg_set(r.error, sizeof(r.error), rc, "agent: command exited with status %d%s; last output: %s",
             1, "", last[0] ? last : "(none)");
  fuzz_reason(&r, rc);
  proposal_init(&p);
  rc = agent_answer_stdout(out, len, 0, &p, &r);
  if (rc && rc != -ENOENT)
    fuzz_reason(&r, rc);
  proposal_free(&p);
  agent_result_free(&r);
  free(tail);
  free(t.data);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *part[F_NPARTS];
  size_t len[F_NPARTS], ncuts;
  struct agent_result r;
  struct proposal p;
  char *copy;
  int rc;

  if (size < 1)
    return 0;
  /* data[0]: how many of the next bytes are piece sizes; then stdout, new_kernel.py and
   * hypothesis.json, split at NUL bytes. */
  ncuts = data[0] & 7;
  if (size < 1 + ncuts)
    return 0;
  copy = fuzz_split(data + 1 + ncuts, size - 1 - ncuts, part, len, F_NPARTS);
  if (!copy)
    return 0;
  fuzz_output(part[F_OUTPUT], len[F_OUTPUT], data + 1, ncuts);
  agent_result_init(&r);
  proposal_init(&p);
  rc = agent_answer_files(part[F_KERNEL], len[F_KERNEL], part[F_HYPOTHESIS], len[F_HYPOTHESIS],
                          &p, &r);
  if (rc == 0)
    FUZZ_CHECK(p.source && proposal_family_known(p.family), "accepted without a proposal");
  else
    fuzz_reason(&r, rc);
  proposal_free(&p);
  agent_result_free(&r);
  free(copy);
  return 0;
}
