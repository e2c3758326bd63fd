/* errtail: the harness's stderr as the worker sees it. Each line is forwarded to the worker's
 * own stderr (koptd's log), with registered secrets redacted, and the last few lines are
 * kept, so that a harness that could not start fails with its own words ("kopt-launch:
 * interpreter ... cannot be executed by user ...") instead of only an exit status.
 *
 * Not a thread: the owner drains it whenever it waits on the harness (harness_call polls it
 * with the reply pipe) and when the harness exits. What user code prints never comes here:
 * the harness captures that itself (kharness/kout.py). */
#ifndef KOPT_ERRTAIL_H
#define KOPT_ERRTAIL_H
#include <stddef.h>

#define ERRTAIL_LINE_MAX 2048  /* one line; the rest of a longer one is dropped */
#define ERRTAIL_KEEP 2048      /* bytes of the last lines kept */

struct errtail {
  int fd;                          /* owned, non-blocking; -1 when closed */
  char line[ERRTAIL_LINE_MAX + 1]; /* the line being read */
  size_t line_len;
  int line_cut;                    /* the line being read was longer than ERRTAIL_LINE_MAX */
  char tail[ERRTAIL_KEEP];         /* the last lines, '\n'-separated, NUL-terminated */
};

/* Starts reading fd (owned from now on; made non-blocking) and forgets earlier lines. */
void errtail_open(struct errtail *t, int fd);
/* Reads what is there; with wait_ms > 0, waits up to that long for end of file (the writer
 * exited). Returns 1 at end of file (fd closed), else 0. */
int errtail_drain(struct errtail *t, int wait_ms);
/* Drains for up to wait_ms, then closes fd (a partial last line is kept). */
void errtail_close(struct errtail *t, int wait_ms);
/* The last non-empty line (a launcher's "kopt-launch: ..." refusal, the last line of a
 * Python traceback, bwrap's complaint): what best says why a harness exited. "" if none.
 * Written to out (always NUL-terminated). */
void errtail_reason(const struct errtail *t, char *out, size_t outlen);

#endif
