/* harness: the worker's handle on its Python device harness, a persistent child speaking
 * JSON Lines (harness/PROTOCOL.md). The child runs in its own process group (so a kill
 * takes its whole tree) and dies with the worker (PR_SET_PDEATHSIG). */
#ifndef KOPT_HARNESS_H
#define KOPT_HARNESS_H
#include <jansson.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#include "buf.h"
#include "errtail.h"

#define HARNESS_LINE_MAX (64u << 20) /* a reply line may carry IR summaries */

struct harness_opts {
  const char *const *argv;     /* borrowed; argv[0] is the program */
  const char *const *env_add;  /* borrowed; "K=V" strings added to the environment */
};

struct harness {
  pid_t pid;                   /* 0 when not running */
  int to_fd, from_fd;
  struct buf rbuf;             /* bytes read but not yet consumed as lines */
  long long next_id;
  int last_status;             /* waitpid status of the last death */
  int started;                 /* how many times it was started */
  struct errtail err;          /* its stderr: forwarded to ours, last lines kept */
};

void harness_init(struct harness *h);
/* Frees the buffers (the child must be stopped). */
void harness_free(struct harness *h);
/* Starts the child. 0 or -errno with err filled. */
int harness_start(struct harness *h, const struct harness_opts *o, char *err, size_t errlen);
/* Sends req (borrowed; "id" is set here) and waits up to timeout_s for its reply.
 * Returns 0 with *reply (new reference, caller decrefs), or: -ETIMEDOUT (the child was
 * killed), -EPIPE (the child died; last_status says how, and err ends with the last line
 * it wrote on stderr), -EINTR (*abort became nonzero; the child was killed), -EPROTO (an
 * unparseable reply; the child was killed). err says which. */
int harness_call(struct harness *h, json_t *req, unsigned timeout_s,
                 volatile sig_atomic_t *abort, json_t **reply, char *err, size_t errlen);
/* Asks the child to exit, then kills its process group if it lingers; reaps it. */
void harness_stop(struct harness *h);
/* Kills the process group at once and reaps. */
void harness_kill(struct harness *h);
/* Words for a wait status: "exited with status 1", "killed by signal 11 (SIGSEGV)". */
void harness_describe_status(int status, char *out, size_t outlen);

#endif
