#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "errtail.h"
#include "secret.h"

void errtail_open(struct errtail *t, int fd)
{
  t->fd = fd;
  t->line_len = 0;
  t->line_cut = 0;
  t->tail[0] = '\0';
  if (fd >= 0)
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void errtail_write_all(const char *p, size_t n)
{
  while (n) {
    ssize_t w = write(STDERR_FILENO, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return;
    p += w;
    n -= (size_t)w;
  }
}

/* Keeps line (NUL-terminated, no newline) as the newest of the tail. */
static void errtail_keep(struct errtail *t, const char *line)
{
  size_t n = strlen(line), have = strlen(t->tail);
  if (n >= sizeof(t->tail) - 1) {
    line += n - (sizeof(t->tail) - 2);
    n = sizeof(t->tail) - 2;
  }
  while (have && have + n + 2 > sizeof(t->tail)) {
    /* Drop the oldest line. */
    char *nl = memchr(t->tail, '\n', have);
    size_t drop = nl ? (size_t)(nl - t->tail) + 1 : have;
    memmove(t->tail, t->tail + drop, have - drop + 1);
    have -= drop;
  }
  if (have)
    t->tail[have++] = '\n';
  memcpy(t->tail + have, line, n);
  t->tail[have + n] = '\0';
}

/* One complete line: forwarded (secrets redacted) and kept. */
static void errtail_line(struct errtail *t)
{
  char *clean;
  t->line[t->line_len] = '\0';
  clean = secret_found(t->line) ? secret_redact(t->line) : NULL;
  errtail_write_all(clean ? clean : t->line, strlen(clean ? clean : t->line));
  errtail_write_all(t->line_cut ? " [line cut]\n" : "\n", t->line_cut ? 12 : 1);
  errtail_keep(t, clean ? clean : t->line);
  free(clean);
  t->line_len = 0;
  t->line_cut = 0;
}

static void errtail_feed(struct errtail *t, const char *p, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    if (p[i] == '\n')
      errtail_line(t);
    else if (t->line_len < ERRTAIL_LINE_MAX)
      t->line[t->line_len++] = p[i];
    else
      t->line_cut = 1;
  }
}

static long long errtail_now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int errtail_drain(struct errtail *t, int wait_ms)
{
  long long deadline = errtail_now_ms() + wait_ms;
  char chunk[8192];
  while (t->fd >= 0) {
    ssize_t r = read(t->fd, chunk, sizeof(chunk));
    if (r > 0) {
      errtail_feed(t, chunk, (size_t)r);
      continue;
    }
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0) {
      /* End of file: the writers are gone. A last line without its newline counts too. */
      if (t->line_len)
        errtail_line(t);
      close(t->fd);
      t->fd = -1;
      return 1;
    }
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      return 0;
    {
      long long left = deadline - errtail_now_ms();
      struct pollfd pfd = { t->fd, POLLIN, 0 };
      if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
        return 0;
    }
  }
  return 1;
}

void errtail_close(struct errtail *t, int wait_ms)
{
  if (t->fd < 0)
    return;
  if (!errtail_drain(t, wait_ms)) {
    /* Something the harness left behind still holds the pipe: stop listening. */
    if (t->line_len)
      errtail_line(t);
    close(t->fd);
    t->fd = -1;
  }
}

void errtail_reason(const struct errtail *t, char *out, size_t outlen)
{
  const char *end = t->tail + strlen(t->tail), *start;
  size_t n;
  if (!outlen)
    return;
  out[0] = '\0';
  /* Skip trailing blank lines, then take the line they follow. */
  while (end > t->tail && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
    end--;
  start = end;
  while (start > t->tail && start[-1] != '\n')
    start--;
  n = (size_t)(end - start);
  if (n >= outlen)
    n = outlen - 1;
  memcpy(out, start, n);
  out[n] = '\0';
}
