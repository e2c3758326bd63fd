/* agent: an external coding agent as a proposer, run under /bin/sh -c in the round's work
 * directory, in its own process group, under a timeout, with its output capped. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "errmsg.h"
#include "agent.h"
#include "buf.h"
#include "log.h"

void agent_config_init(struct agent_config *c)
{
  memset(c, 0, sizeof(*c));
  c->timeout_s = 600;
  c->kill_grace_ms = 2000;
}

void agent_config_free(struct agent_config *c)
{
  if (!c)
    return;
  free(c->cmd);
  c->cmd = NULL;
}

void agent_result_init(struct agent_result *r)
{
  memset(r, 0, sizeof(*r));
  r->exit_code = -1;
}

void agent_result_free(struct agent_result *r)
{
  if (!r)
    return;
  free(r->output_tail);
  agent_result_init(r);
}

int agent_config_from_env(struct agent_config *c, char *err, size_t errlen)
{
  const char *v;
  int rc;

  agent_config_init(c);
  v = getenv("KOPT_AGENT_CMD");
  if (!v || !*v) {
    rc = errmsg_set(err, errlen, -EINVAL,
                      "KOPT_AGENT_CMD is not set (e.g. \"my-agent --dir {dir} --prompt {prompt}\")");
    goto out;
  }
  if (strlen(v) > AGENT_MAX_CMD) {
    rc = errmsg_set(err, errlen, -EINVAL, "KOPT_AGENT_CMD is over %u bytes", AGENT_MAX_CMD);
    goto out;
  }
  c->cmd = strdup(v);
  if (!c->cmd) {
    rc = -ENOMEM;
    goto out;
  }
  v = getenv("KOPT_AGENT_TIMEOUT_S");
  if (v && *v) {
    char *end;
    unsigned long x;
    errno = 0;
    x = strtoul(v, &end, 10);
    if (errno || end == v || *end || v[0] == '-' || x < 1 || x > 86400) {
      rc = errmsg_set(err, errlen, -EINVAL,
                        "KOPT_AGENT_TIMEOUT_S must be an integer in 1..86400, got \"%.40s\"", v);
      goto out;
    }
    c->timeout_s = (unsigned)x;
  }
  rc = 0;
out:
  if (rc)
    agent_config_free(c);
  return rc;
}

/* Appends s single-quoted for /bin/sh: ' becomes '\''. */
static int agent_quote(struct buf *b, const char *s)
{
  int rc = buf_append(b, "'", 1);
  for (; !rc && *s; s++)
    rc = *s == '\'' ? buf_append(b, "'\\''", 4) : buf_append(b, s, 1);
  return rc ? rc : buf_append(b, "'", 1);
}

int agent_expand(const char *tmpl, const char *dir, char **out, char *err, size_t errlen)
{
  static const struct {
    const char *ph, *file; /* placeholder, file under dir (NULL: dir itself) */
  } tab[] = {{"{dir}", NULL},
             {"{kernel}", "kernel.py"},
             {"{evidence}", "evidence.json"},
             {"{prompt}", "prompt.md"},
             {"{contract}", "contract.md"}};
  struct buf b;
  const char *p = tmpl;
  int rc = 0;

  buf_init(&b, AGENT_MAX_CMD);
  *out = NULL;
  while (*p && !rc) {
    size_t i, n = sizeof(tab) / sizeof(tab[0]);
    for (i = 0; i < n; i++)
      if (strncmp(p, tab[i].ph, strlen(tab[i].ph)) == 0)
        break;
    if (i == n) {
      rc = buf_append(&b, p++, 1); /* other braces are the shell's ({a,b}, ${x}) */
      continue;
    }
    if (tab[i].file) {
      char path[PATH_MAX + 32];
      snprintf(path, sizeof(path), "%s/%s", dir, tab[i].file);
      rc = agent_quote(&b, path);
    } else {
      rc = agent_quote(&b, dir);
    }
    p += strlen(tab[i].ph);
  }
  if (rc) {
    rc = errmsg_set(err, errlen, rc, "agent: the expanded KOPT_AGENT_CMD is over %u bytes",
                      AGENT_MAX_CMD);
    goto out;
  }
  *out = buf_take(&b, NULL);
  rc = *out ? 0 : -ENOMEM;
out:
  buf_free(&b);
  return rc;
}

static int agent_write_file(const char *dir, const char *name, const char *text, char *err,
                            size_t errlen)
{
  char path[PATH_MAX + 32];
  size_t n = text ? strlen(text) : 0, off = 0;
  int fd, rc = 0;

  snprintf(path, sizeof(path), "%s/%s", dir, name);
  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0)
    return errmsg_set(err, errlen, -errno, "agent: cannot write %s: %s", path, strerror(errno));
  while (off < n) {
    ssize_t w = write(fd, text + off, n - off);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      rc = errmsg_set(err, errlen, -errno, "agent: cannot write %s: %s", path,
                        strerror(errno));
      break;
    }
    off += (size_t)w;
  }
  close(fd);
  return rc;
}

/* Reads dir/name whole, if at most cap bytes. *data owned by the caller. -ENOENT when the
 * file is missing, -EFBIG when it passes cap. */
static int agent_read_file(const char *dir, const char *name, size_t cap, char **data,
                           size_t *len)
{
  char path[PATH_MAX + 32], chunk[16384];
  struct buf b;
  ssize_t got;
  int fd, rc = 0;

  *data = NULL;
  *len = 0;
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -errno;
  buf_init(&b, cap);
  while ((got = read(fd, chunk, sizeof(chunk))) != 0) {
    if (got < 0) {
      if (errno == EINTR)
        continue;
      rc = -errno;
      goto out;
    }
    if ((rc = buf_append(&b, chunk, (size_t)got))) {
      rc = rc == -E2BIG ? -EFBIG : rc;
      goto out;
    }
  }
  *len = b.len;
  *data = buf_take(&b, NULL);
  rc = *data ? 0 : -ENOMEM;
out:
  close(fd);
  buf_free(&b);
  return rc;
}

/* ------------------------------------------------------------------ the child process */

void agent_tail_add(struct agent_tail *t, const char *p, size_t n)
{
  t->total += n;
  while (n > 0) { /* pieces of at most half the tail, so compaction always keeps some */
    size_t m = n > AGENT_TAIL / 2 ? AGENT_TAIL / 2 : n;
    if (t->len + m > 2 * AGENT_TAIL) {
      size_t keep = AGENT_TAIL - m;
      memmove(t->data, t->data + t->len - keep, keep);
      t->len = keep;
    }
    memcpy(t->data + t->len, p, m);
    t->len += m;
    p += m;
    n -= m;
  }
}

char *agent_tail_take(const struct agent_tail *t)
{
  struct buf b;
  size_t keep = t->len < AGENT_TAIL ? t->len : AGENT_TAIL;
  const char *s = t->data + t->len - keep;
  buf_init(&b, AGENT_TAIL + 128);
  if (t->total > keep) {
    while (keep && ((unsigned char)*s & 0xC0) == 0x80) {
      s++;
      keep--;
    }
    buf_appendf(&b, "[... %zu earlier bytes of agent output dropped (AGENT_TAIL) ...]\n",
                t->total - keep);
  }
  buf_append(&b, s, keep);
  return buf_take(&b, NULL);
}

static double agent_now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* In the child, between fork and exec: async-signal-safe calls only (the worker has
 * threads). Never returns. */
static void agent_child(const char *dir, const char *cmd, int out_w, int err_w)
{
  static const char msg[] = "kopt agent: cannot enter the work directory or start /bin/sh\n";
  sigset_t none;
  struct sigaction dfl;
  int devnull;

  setpgid(0, 0); /* its own group, so a timeout can kill every process it started */
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  memset(&dfl, 0, sizeof(dfl));
  dfl.sa_handler = SIG_DFL;
  sigaction(SIGPIPE, &dfl, NULL);
  sigaction(SIGTERM, &dfl, NULL);
  sigaction(SIGINT, &dfl, NULL);
  devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0 && devnull != 0) {
    dup2(devnull, 0);
    close(devnull);
  }
  if (dup2(out_w, 1) < 0 || dup2(err_w, 2) < 0)
    _exit(126);
  /* Nothing of the worker's (database socket, pipes to koptd) leaks into the agent. */
  if (close_range(3, ~0U, 0) != 0)
    for (int fd = 3; fd < 1024; fd++)
      close(fd);
  if (chdir(dir) != 0) {
    ssize_t w = write(2, msg, sizeof(msg) - 1);
    (void)w;
    _exit(126);
  }
  execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
  {
    ssize_t w = write(2, msg, sizeof(msg) - 1);
    (void)w;
  }
  _exit(127);
}

/* Starts cmd and collects its output until it exits (and its pipes close), or the timeout
 * or stop ends it. Fills r->exit_code, r->timed_out, r->output_*; *out gets all of stdout
 * up to AGENT_MAX_STDOUT (*out_overflow when more came). */
static int agent_exec(const struct agent_config *c, const char *dir, const char *cmd,
                      struct agent_result *r, struct buf *out, int *out_overflow, int *stopped)
{
  int po[2] = {-1, -1}, pe[2] = {-1, -1}, rc = 0, status = 0;
  struct agent_tail tail = {NULL, 0, 0};
  struct pollfd fds[2];
  char chunk[16384];
  double t0 = agent_now_s(), deadline, term_at = 0, drain_until = 0;
  pid_t pid = -1;
  int exited = 0, killed = 0, nfds;

  *out_overflow = 0;
  *stopped = 0;
  tail.data = malloc(2 * AGENT_TAIL);
  if (!tail.data)
    return -ENOMEM;
  if (pipe2(po, O_CLOEXEC) || pipe2(pe, O_CLOEXEC)) {
    rc = errmsg_set(r->error, sizeof(r->error), -errno, "agent: pipe: %s", strerror(errno));
    goto out;
  }
  pid = fork();
  if (pid < 0) {
    rc = errmsg_set(r->error, sizeof(r->error), -errno, "agent: fork: %s", strerror(errno));
    goto out;
  }
  if (pid == 0)
    agent_child(dir, cmd, po[1], pe[1]);
  setpgid(pid, pid); /* also here, so the group exists before any kill below (EACCES after
                        the child's exec is fine: it did it itself) */
  close(po[1]);
  close(pe[1]);
  po[1] = pe[1] = -1;
  deadline = t0 + (double)c->timeout_s;

  for (;;) {
    double now;
    nfds = 0;
    if (po[0] >= 0)
      fds[nfds++] = (struct pollfd){po[0], POLLIN, 0};
    if (pe[0] >= 0)
      fds[nfds++] = (struct pollfd){pe[0], POLLIN, 0};
    if (exited && nfds == 0)
      break;
    if (poll(fds, (nfds_t)nfds, 100) < 0 && errno != EINTR) {
      rc = errmsg_set(r->error, sizeof(r->error), -errno, "agent: poll: %s", strerror(errno));
      break;
    }
    for (int i = 0; i < nfds; i++) {
      int *fdp = fds[i].fd == po[0] ? &po[0] : &pe[0];
      ssize_t got;
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      got = read(*fdp, chunk, sizeof(chunk));
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0) {
        close(*fdp);
        *fdp = -1;
        continue;
      }
      agent_tail_add(&tail, chunk, (size_t)got);
      if (fdp == &po[0] && !*out_overflow && buf_append(out, chunk, (size_t)got))
        *out_overflow = 1;
    }
    now = agent_now_s();
    if (!exited) {
      pid_t w = waitpid(pid, &status, WNOHANG);
      if (w == pid) {
        exited = 1;
        /* The command is done; whatever it left running in its group is a stray. */
        kill(-pid, SIGKILL);
        drain_until = now + 2.0;
      }
    }
    if (exited && now > drain_until)
      break; /* a process that left the group still holds a pipe: stop reading */
    if (!exited && !term_at && (now >= deadline || (c->stop && *c->stop))) {
      if (now >= deadline)
        r->timed_out = 1;
      else
        *stopped = 1;
      kill(-pid, SIGTERM);
      term_at = now;
    }
    if (!exited && term_at && !killed && now >= term_at + c->kill_grace_ms / 1000.0) {
      kill(-pid, SIGKILL);
      killed = 1;
    }
  }
  if (!exited) { /* left the loop on an error: do not leave the agent behind */
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    exited = 1;
  }
  r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status)
                 : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
out:
  r->elapsed_s = agent_now_s() - t0;
  r->output_bytes = tail.total;
  if (tail.data)
    r->output_tail = agent_tail_take(&tail);
  free(tail.data);
  for (int i = 0; i < 2; i++) {
    if (po[i] >= 0)
      close(po[i]);
    if (pe[i] >= 0)
      close(pe[i]);
  }
  return rc;
}

void agent_last_line(const char *s, char *line, size_t cap)
{
  size_t n = s ? strlen(s) : 0, e, b;
  line[0] = '\0';
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
    n--;
  e = n;
  while (n && s[n - 1] != '\n')
    n--;
  b = n;
  if (e - b > 200)
    b = e - 200;
  snprintf(line, cap, "%.*s", (int)(e - b), s + b);
}

/* new_kernel.py + hypothesis.json -> the output contract's object, parsed by the same rules
 * as an llm's answer. */
static int agent_read_files(const char *dir, struct proposal *p, struct agent_result *r)
{
  char *k = NULL, *h = NULL; /* owned */
  size_t klen, hlen;
  int rc;

  rc = agent_read_file(dir, "new_kernel.py", PROPOSAL_MAX_SOURCE, &k, &klen);
  if (rc == -EFBIG) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: new_kernel.py is over the limit of %u bytes", PROPOSAL_MAX_SOURCE);
    goto out;
  } else if (rc) {
    rc = errmsg_set(r->error, sizeof(r->error), rc, "agent: cannot read new_kernel.py: %s",
                      strerror(-rc));
    goto out;
  }
  rc = agent_read_file(dir, "hypothesis.json", AGENT_MAX_HYPOFILE, &h, &hlen);
  if (rc == -ENOENT) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: wrote new_kernel.py but no hypothesis.json (expected "
                      "{\"hypothesis\": \"...\", \"rewrite_family\": \"...\"})");
    goto out;
  } else if (rc == -EFBIG) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: hypothesis.json is over the limit of %u bytes", AGENT_MAX_HYPOFILE);
    goto out;
  } else if (rc) {
    rc = errmsg_set(r->error, sizeof(r->error), rc, "agent: cannot read hypothesis.json: %s",
                      strerror(-rc));
    goto out;
  }
  rc = agent_answer_files(k, klen, h, hlen, p, r);
out:
  free(k);
  free(h);
  return rc;
}

int agent_answer_files(const char *k, size_t klen, const char *h, size_t hlen,
                       struct proposal *p, struct agent_result *r)
{
  char *joined = NULL;             /* owned */
  json_t *hyp = NULL, *obj = NULL; /* owned */
  json_t *v;                       /* borrowed */
  json_error_t jerr;
  const char *key;
  char perr[768];
  int rc;

  hyp = json_loadb(h, hlen, JSON_REJECT_DUPLICATES, &jerr);
  if (!json_is_object(hyp)) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: hypothesis.json must be one JSON object {\"hypothesis\": \"...\", "
                      "\"rewrite_family\": \"...\"}%s%s",
                      hyp ? "" : ": ", hyp ? "" : jerr.text);
    goto out;
  }
  json_object_foreach(hyp, key, v) {
    if (strcmp(key, "hypothesis") && strcmp(key, "rewrite_family")) {
      rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                        "agent: hypothesis.json has unknown key \"%.64s\"; it has exactly "
                        "\"hypothesis\" and \"rewrite_family\"",
                        key);
      goto out;
    }
  }
  if (!json_object_get(hyp, "hypothesis") || !json_object_get(hyp, "rewrite_family")) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: hypothesis.json is missing \"%s\"",
                      json_object_get(hyp, "hypothesis") ? "rewrite_family" : "hypothesis");
    goto out;
  }
  obj = json_deep_copy(hyp);
  v = json_stringn(k, klen);
  if (!v) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: new_kernel.py is not UTF-8 text");
    goto out;
  }
  if (!obj || json_object_set_new(obj, "kernel", v)) {
    rc = -ENOMEM;
    goto out;
  }
  joined = json_dumps(obj, JSON_COMPACT);
  if (!joined) {
    rc = -ENOMEM;
    goto out;
  }
  rc = proposal_parse(joined, strlen(joined), p, perr, sizeof(perr));
  if (rc) {
    errmsg_set(r->error, sizeof(r->error), rc,
                 "agent: new_kernel.py + hypothesis.json (\"kernel\" is new_kernel.py): %s", perr);
    goto out;
  }
  snprintf(r->answer_from, sizeof(r->answer_from), "files");
out:
  json_decref(hyp);
  json_decref(obj);
  free(joined);
  return rc;
}

int agent_answer_stdout(const char *out, size_t len, int overflow, struct proposal *p,
                        struct agent_result *r)
{
  char perr[768];
  int rc;

  if (!len || !out || out[strspn(out, " \t\r\n")] == '\0')
    return -ENOENT;
  if (overflow)
    return errmsg_set(r->error, sizeof(r->error), -EINVAL,
                      "agent: wrote no new_kernel.py, and its stdout is over the limit of %u "
                      "bytes (AGENT_MAX_STDOUT)",
                      AGENT_MAX_STDOUT);
  rc = proposal_parse(out, len, p, perr, sizeof(perr));
  if (rc)
    return errmsg_set(r->error, sizeof(r->error), rc,
                      "agent: wrote no new_kernel.py, and its stdout is no answer: %s", perr);
  snprintf(r->answer_from, sizeof(r->answer_from), "stdout");
  return 0;
}

int agent_run(const struct agent_config *c, const char *work_dir, const struct agent_input *in,
              struct proposal *p, struct agent_result *r)
{
  static const char *const outputs[] = {"new_kernel.py", "hypothesis.json"};
  char dir[PATH_MAX], path[PATH_MAX + 32], last[256];
  char *cmd = NULL; /* owned */
  struct buf out;   /* owned: the agent's stdout */
  struct stat st;
  int rc, overflow = 0, stopped = 0;

  agent_result_init(r);
  buf_init(&out, AGENT_MAX_STDOUT);
  if (!c || !c->cmd || !*c->cmd) {
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL, "agent: KOPT_AGENT_CMD is not set");
    goto out;
  }
  if (mkdir(work_dir, 0755) != 0 && errno != EEXIST) {
    rc = errmsg_set(r->error, sizeof(r->error), -errno, "agent: cannot create %s: %s",
                      work_dir, strerror(errno));
    goto out;
  }
  if (!realpath(work_dir, dir)) {
    rc = errmsg_set(r->error, sizeof(r->error), -errno, "agent: %s: %s", work_dir,
                      strerror(errno));
    goto out;
  }
  if ((rc = agent_write_file(dir, "contract.md", in->contract, r->error, sizeof(r->error))) ||
      (rc = agent_write_file(dir, "kernel.py", in->kernel, r->error, sizeof(r->error))) ||
      (rc = agent_write_file(dir, "evidence.json", in->evidence_json, r->error,
                             sizeof(r->error))) ||
      (rc = agent_write_file(dir, "prompt.md", in->prompt, r->error, sizeof(r->error))))
    goto out;
  /* An answer left by an earlier run in the same directory must not pass for this one. */
  for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++) {
    snprintf(path, sizeof(path), "%s/%s", dir, outputs[i]);
    if (unlink(path) != 0 && errno != ENOENT) {
      rc = errmsg_set(r->error, sizeof(r->error), -errno, "agent: cannot remove %s: %s", path,
                        strerror(errno));
      goto out;
    }
  }
  if ((rc = agent_expand(c->cmd, dir, &cmd, r->error, sizeof(r->error))))
    goto out;
  log_info("agent_start", "timeout_s=%u", c->timeout_s);
  rc = agent_exec(c, dir, cmd, r, &out, &overflow, &stopped);
  log_info("agent_end", "exit=%d timed_out=%d elapsed_s=%.1f output_bytes=%zu", r->exit_code,
           r->timed_out, r->elapsed_s, r->output_bytes);
  if (rc)
    goto out;
  agent_last_line(r->output_tail, last, sizeof(last));
  if (r->timed_out) {
    rc = errmsg_set(r->error, sizeof(r->error), -ETIMEDOUT,
                      "agent: timed out after %u s (KOPT_AGENT_TIMEOUT_S); its process group "
                      "was killed",
                      c->timeout_s);
    goto out;
  }
  if (stopped) {
    rc = errmsg_set(r->error, sizeof(r->error), -ECANCELED, "agent: stopped");
    goto out;
  }
  if (r->exit_code != 0) {
    rc = errmsg_set(r->error, sizeof(r->error), -EPROTO,
                      "agent: command exited with status %d%s; last output: %s", r->exit_code,
                      r->exit_code == 127 ? " (command not found?)" : "",
                      last[0] ? last : "(none)");
    goto out;
  }
  snprintf(path, sizeof(path), "%s/new_kernel.py", dir);
  if (lstat(path, &st) == 0) {
    rc = agent_read_files(dir, p, r);
    goto out;
  }
  rc = agent_answer_stdout(out.data, out.len, overflow, p, r);
  if (rc == -ENOENT)
    rc = errmsg_set(r->error, sizeof(r->error), -EINVAL,
                    "agent: wrote no new_kernel.py (with hypothesis.json) in %s and printed no "
                    "answer on stdout",
                    dir);
out:
  free(cmd);
  buf_free(&out);
  return rc;
}
