/* agent: runs an external coding agent as a round's proposer. The command template
 * (KOPT_AGENT_CMD) runs with /bin/sh -c in the round's work directory, which is first filled
 * with contract.md, kernel.py (the incumbent), evidence.json and prompt.md; placeholders
 * {dir} {kernel} {evidence} {prompt} {contract} become shell-quoted absolute paths. The agent
 * answers with new_kernel.py + hypothesis.json ({"hypothesis", "rewrite_family"}), or with one
 * answer in the output contract on stdout. It runs in its own process group, under a
 * timeout that kills the whole group. */
#ifndef KOPT_AGENT_H
#define KOPT_AGENT_H
#include <signal.h>
#include <stddef.h>

#include "proposal.h"

#define AGENT_MAX_CMD (16u << 10)      /* the command after expansion */
#define AGENT_MAX_STDOUT (4u << 20)    /* stdout kept whole, for an answer printed there */
#define AGENT_MAX_HYPOFILE (64u << 10) /* hypothesis.json */
#define AGENT_TAIL (64u << 10)         /* output kept for the round record */

struct agent_config {
  char *cmd;              /* owned: KOPT_AGENT_CMD, the command template */
  unsigned timeout_s;     /* KOPT_AGENT_TIMEOUT_S; default 600 */
  unsigned kill_grace_ms; /* SIGTERM to SIGKILL of the group on timeout; default 2000 */
  const volatile sig_atomic_t *stop; /* borrowed, optional: when set, kill the agent */
};

/* The round's material; all borrowed, NULL reads as "". */
struct agent_input {
  const char *contract;      /* -> contract.md (prompt_contract(PROMPT_AGENT, ...)) */
  const char *kernel;        /* -> kernel.py */
  const char *evidence_json; /* -> evidence.json */
  const char *prompt;        /* -> prompt.md (prompt_render) */
};

struct agent_result {
  int exit_code;         /* the command's exit status, 128+N for signal N, -1 if not run */
  int timed_out;
  double elapsed_s;
  char *output_tail;     /* owned: the last AGENT_TAIL bytes of stdout and stderr as read,
                            preceded by a line saying how much was dropped */
  size_t output_bytes;   /* all that the agent wrote on stdout and stderr */
  char answer_from[8];   /* "files" or "stdout" when an answer was read */
  char error[1024];
};

void agent_config_init(struct agent_config *c);
/* KOPT_AGENT_CMD (required) and KOPT_AGENT_TIMEOUT_S. 0 or -EINVAL with err. */
int agent_config_from_env(struct agent_config *c, char *err, size_t errlen);
void agent_config_free(struct agent_config *c);

void agent_result_init(struct agent_result *r);
void agent_result_free(struct agent_result *r);

/* Expands the placeholders of tmpl for the absolute directory dir. *out owned by the
 * caller. -E2BIG past AGENT_MAX_CMD. */
int agent_expand(const char *tmpl, const char *dir, char **out, char *err, size_t errlen);

/* Runs one round's agent in work_dir (created if missing; made absolute). 0 with p filled
 * (source, hypothesis, family); otherwise a negative errno with r->error: -ETIMEDOUT,
 * -ECANCELED (stop), -EPROTO (the command failed), -EINVAL (missing or invalid answer), or a
 * system error. r->output_tail is set either way. */
int agent_run(const struct agent_config *c, const char *work_dir, const struct agent_input *in,
              struct proposal *p, struct agent_result *r);

/* The output reader, apart from the process (tests/fuzz/fuzz_agent.c). */

/* The last AGENT_TAIL bytes of everything the agent wrote, in a buffer twice that size that
 * is compacted when full. */
struct agent_tail {
  char *data; /* owned by the caller: 2 * AGENT_TAIL bytes */
  size_t len;
  size_t total;
};
void agent_tail_add(struct agent_tail *t, const char *p, size_t n);
/* The round record's copy: the tail, from a character boundary, after a line saying how much
 * was dropped. Owned by the caller. */
char *agent_tail_take(const struct agent_tail *t);
/* The last non-empty line of s (may be NULL), at most 200 bytes, for error texts. */
void agent_last_line(const char *s, char *line, size_t cap);
/* new_kernel.py (k) + hypothesis.json (h) as read -> p, by the output contract. 0 or
 * -EINVAL/-ENOMEM with r->error. */
int agent_answer_files(const char *k, size_t klen, const char *h, size_t hlen,
                       struct proposal *p, struct agent_result *r);
/* An answer printed on stdout (len bytes; overflow: more than AGENT_MAX_STDOUT came) -> p.
 * 0, -ENOENT when stdout holds nothing but blanks, else -EINVAL with r->error. */
int agent_answer_stdout(const char *out, size_t len, int overflow, struct proposal *p,
                        struct agent_result *r);

#endif
