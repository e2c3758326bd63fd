#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "log.h"
#include "secret.h"

/* How long a dead harness's stderr is read for its last words. */
#define HARNESS_ERR_LINGER_MS 300

void harness_init(struct harness *h)
{
  memset(h, 0, sizeof(*h));
  h->to_fd = h->from_fd = -1;
  buf_init(&h->rbuf, HARNESS_LINE_MAX);
  errtail_open(&h->err, -1);
}

void harness_free(struct harness *h)
{
  assert(h->pid == 0);
  buf_free(&h->rbuf);
}

void harness_describe_status(int status, char *out, size_t outlen)
{
  if (WIFEXITED(status))
    snprintf(out, outlen, "exited with status %d", WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    snprintf(out, outlen, "killed by signal %d (SIG%s)", WTERMSIG(status),
             sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
  else
    snprintf(out, outlen, "stopped (status %d)", status);
}

int harness_start(struct harness *h, const struct harness_opts *o, char *err, size_t errlen)
{
  int in[2] = { -1, -1 }, out[2] = { -1, -1 }, errp[2] = { -1, -1 };
  pid_t parent = getpid(), pid;

  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC)) {
    snprintf(err, errlen, "pipe: %s", strerror(errno));
    goto fail;
  }
  pid = fork();
  if (pid < 0) {
    snprintf(err, errlen, "fork: %s", strerror(errno));
    goto fail;
  }
  if (pid == 0) {
    /* Child: own process group, dies with the worker, stdin/stdout are the pipes. */
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(errp[1], 2);
    /* The harness runs submitted code: none of the worker's secrets go with it, whatever
     * launcher (or none) is configured. */
    secret_scrub_env();
    for (int i = 0; o->env_add && o->env_add[i]; i++)
      putenv((char *)o->env_add[i]);
    execvp(o->argv[0], (char *const *)o->argv);
    fprintf(stderr, "kopt-worker: cannot run %s: %s\n", o->argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid); /* both sides, so the group exists whoever runs first */
  close(in[0]);
  close(out[1]);
  close(errp[1]);
  errtail_close(&h->err, 0); /* a previous harness's, if still open */
  errtail_open(&h->err, errp[0]);
  h->pid = pid;
  h->to_fd = in[1];
  h->from_fd = out[0];
  buf_reset(&h->rbuf);
  h->started++;
  return 0;
fail:
  for (int i = 0; i < 2; i++) {
    if (in[i] >= 0)
      close(in[i]);
    if (out[i] >= 0)
      close(out[i]);
    if (errp[i] >= 0)
      close(errp[i]);
  }
  return -EIO;
}

static void harness_reap(struct harness *h, int block)
{
  int st = 0;
  if (!h->pid)
    return;
  if (waitpid(h->pid, &st, block ? 0 : WNOHANG) == h->pid)
    h->last_status = st;
  /* Anything left of the group (grandchildren) goes too. */
  kill(-h->pid, SIGKILL);
  errtail_close(&h->err, HARNESS_ERR_LINGER_MS);
  close(h->to_fd);
  close(h->from_fd);
  h->to_fd = h->from_fd = -1;
  h->pid = 0;
}

void harness_kill(struct harness *h)
{
  if (!h->pid)
    return;
  kill(-h->pid, SIGKILL);
  kill(h->pid, SIGKILL);
  harness_reap(h, 1);
}

static int64_t harness_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int harness_write_all(int fd, const char *p, size_t n)
{
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -EPIPE;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int harness_call(struct harness *h, json_t *req, unsigned timeout_s,
                 volatile sig_atomic_t *abort, json_t **reply, char *err, size_t errlen)
{
  char *line = NULL;
  int64_t deadline = harness_now_ms() + (int64_t)timeout_s * 1000;
  long long id = ++h->next_id;
  int rc = 0;

  *reply = NULL;
  if (!h->pid) {
    snprintf(err, errlen, "harness not running");
    return -EPIPE;
  }
  json_object_set_new(req, "id", json_integer(id));
  line = json_dumps(req, JSON_COMPACT);
  /* Empty its stderr pipe first: a harness blocked writing a log line would not read. */
  errtail_drain(&h->err, 0);
  if (!line || harness_write_all(h->to_fd, line, strlen(line)) ||
      harness_write_all(h->to_fd, "\n", 1)) {
    harness_kill(h);
    snprintf(err, errlen, "harness died before the request was sent");
    rc = -EPIPE;
    goto out;
  }
  for (;;) {
    char *nl = h->rbuf.data ? memchr(h->rbuf.data, '\n', h->rbuf.len) : NULL;
    if (nl) {
      size_t n = (size_t)(nl - h->rbuf.data);
      json_error_t je;
      json_t *doc = json_loadb(h->rbuf.data, n, 0, &je);
      memmove(h->rbuf.data, nl + 1, h->rbuf.len - n - 1);
      h->rbuf.len -= n + 1;
      h->rbuf.data[h->rbuf.len] = '\0';
      if (!doc || !json_is_object(doc)) {
        json_decref(doc);
        harness_kill(h);
        snprintf(err, errlen, "harness wrote a line that is not a JSON object");
        rc = -EPROTO;
        goto out;
      }
      if (json_integer_value(json_object_get(doc, "id")) != id) {
        json_decref(doc); /* a stale reply to an earlier, abandoned request */
        continue;
      }
      *reply = doc;
      goto out;
    }
    {
      struct pollfd pfd[2] = { { h->from_fd, POLLIN, 0 }, { h->err.fd, POLLIN, 0 } };
      int64_t left = deadline - harness_now_ms();
      char chunk[65536];
      ssize_t r;
      if (abort && *abort) {
        harness_kill(h);
        snprintf(err, errlen, "aborted: the worker is stopping");
        rc = -EINTR;
        goto out;
      }
      if (left <= 0) {
        harness_kill(h);
        snprintf(err, errlen, "timed out after %u s", timeout_s);
        rc = -ETIMEDOUT;
        goto out;
      }
      if (poll(pfd, h->err.fd >= 0 ? 2 : 1, left > 200 ? 200 : (int)left) <= 0)
        continue;
      if (h->err.fd >= 0 && pfd[1].revents)
        errtail_drain(&h->err, 0);
      if (!pfd[0].revents)
        continue;
      r = read(h->from_fd, chunk, sizeof(chunk));
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0) {
        char how[96], last[512];
        harness_reap(h, 1);
        harness_describe_status(h->last_status, how, sizeof(how));
        errtail_reason(&h->err, last, sizeof(last));
        snprintf(err, errlen, "the harness %s%s%s", how, last[0] ? ": " : "", last);
        rc = -EPIPE;
        goto out;
      }
      if (buf_append(&h->rbuf, chunk, (size_t)r)) {
        harness_kill(h);
        snprintf(err, errlen, "harness reply over %u bytes", HARNESS_LINE_MAX);
        rc = -EPROTO;
        goto out;
      }
    }
  }
out:
  free(line);
  return rc;
}

void harness_stop(struct harness *h)
{
  json_t *req, *rep = NULL;
  char err[128];
  if (!h->pid)
    return;
  req = json_pack("{s:s}", "op", "shutdown");
  if (req && harness_call(h, req, 3, NULL, &rep, err, sizeof(err)) == 0) {
    json_decref(rep);
    for (int i = 0; i < 20; i++) {
      int st;
      if (waitpid(h->pid, &st, WNOHANG) == h->pid) {
        h->last_status = st;
        errtail_close(&h->err, HARNESS_ERR_LINGER_MS);
        close(h->to_fd);
        close(h->from_fd);
        h->to_fd = h->from_fd = -1;
        kill(-h->pid, SIGKILL);
        h->pid = 0;
        break;
      }
      usleep(50000);
    }
  }
  json_decref(req);
  harness_kill(h);
}
