/* prompt: renders the prompt the llm and agent proposers get, from a template file a user can
 * read and change. Placeholders: {{contract}} {{kernel}} {{evidence}} {{level}} {{patterns}}
 * {{history}} {{families}}; {{! ... }} is a comment and is dropped. Every substituted piece
 * is bounded (the kernel, evidence, patterns and history caps below) and marked where it was
 * cut, and the whole prompt is at most PROMPT_MAX bytes. */
#ifndef KOPT_PROMPT_H
#define KOPT_PROMPT_H
#include <stddef.h>

#define PROMPT_MAX (160u << 10)
#define PROMPT_MAX_TEMPLATE (24u << 10)
#define PROMPT_MAX_CONTRACT (8u << 10)
#define PROMPT_MAX_KERNEL (64u << 10)
#define PROMPT_MAX_EVIDENCE (32u << 10)
#define PROMPT_MAX_PATTERNS (16u << 10)
#define PROMPT_MAX_HISTORY (16u << 10)
#define PROMPT_MAX_HISTORY_HYPOTHESIS 600 /* bytes of one earlier round's hypothesis */
#define PROMPT_MAX_HISTORY_OUTCOME 300

/* Where the template is looked for when KOPT_PROMPT_TEMPLATE is not set; relative paths are
 * taken from the worker's working directory. Override at build time with
 * -DKOPT_PROMPT_TEMPLATE_DEFAULT='"/usr/share/kopt/prompt_template.md"'. */
#ifndef KOPT_PROMPT_TEMPLATE_DEFAULT
#define KOPT_PROMPT_TEMPLATE_DEFAULT "workers/prompt_template.md"
#endif

/* How the proposer answers: the llm in its reply, the agent in files (or on stdout). */
enum prompt_mode { PROMPT_LLM = 0, PROMPT_AGENT = 1 };

/* One earlier round, for {{history}}. All strings borrowed; NULL reads as "". */
struct prompt_round {
  int round;
  int level;              /* 1..4 reached */
  const char *family;     /* rewrite family proposed, or "" */
  const char *hypothesis;
  const char *outcome;    /* e.g. "accepted, 1.31x" or "rejected: incorrect on case 2" */
};

struct prompt_input {
  enum prompt_mode mode;
  const char *kernel;         /* incumbent module source */
  const char *evidence_json;  /* the evidence at the level reached */
  int level;                  /* 1..4 */
  const char *patterns;       /* matching pattern guidance (text), may be NULL */
  const struct prompt_round *history; /* borrowed; oldest first */
  size_t nhistory;
};

/* Writes the round contract for mode into out (cap bytes, PROMPT_MAX_CONTRACT is enough):
 * one rewrite of one family, the whole module, ModelNew's interface kept, the correctness
 * rules, and the answer's form. Returns its length (snprintf-like). */
size_t prompt_contract(enum prompt_mode mode, char *out, size_t cap);

/* A short system message for the llm proposer (static string). */
const char *prompt_system_message(void);

/* Reads a template file (at most PROMPT_MAX_TEMPLATE bytes). *text is owned by the caller.
 * 0, or negative errno with err naming the path and the problem. */
int prompt_template_read(const char *path, char **text, char *err, size_t errlen);

/* The template in force: the file named by $KOPT_PROMPT_TEMPLATE if set (it must exist);
 * else KOPT_PROMPT_TEMPLATE_DEFAULT if that file exists; else the copy embedded at build time
 * (symbol prompt_template_md, when linked in). origin (optional) receives the path or
 * "(embedded)". *text is owned by the caller. */
int prompt_template_load(char **text, char *origin, size_t originlen, char *err, size_t errlen);

/* Renders tmpl with in. *out (owned by the caller, NUL-terminated) and *outlen on success;
 * -EINVAL for an unknown placeholder, -E2BIG when the prompt would pass PROMPT_MAX, with err
 * saying which. */
int prompt_render(const char *tmpl, const struct prompt_input *in, char **out, size_t *outlen,
                  char *err, size_t errlen);

#endif
