#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sdnotify.h"

int sdnotify_send(const char *state)
{
  const char *path = getenv("NOTIFY_SOCKET");
  struct sockaddr_un sa;
  socklen_t salen;
  size_t n;
  int fd, rc = 0;

  if (!path || !*path)
    return 0;
  n = strlen(path);
  if ((path[0] != '/' && path[0] != '@') || n >= sizeof(sa.sun_path))
    return -EINVAL;
  memset(&sa, 0, sizeof(sa));
  sa.sun_family = AF_UNIX;
  memcpy(sa.sun_path, path, n);
  if (path[0] == '@')
    sa.sun_path[0] = '\0'; /* abstract namespace */
  salen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
  fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -errno;
  if (sendto(fd, state, strlen(state), MSG_NOSIGNAL, (struct sockaddr *)&sa, salen) < 0)
    rc = -errno;
  close(fd);
  return rc;
}

uint64_t sdnotify_watchdog_usec(void)
{
  const char *u = getenv("WATCHDOG_USEC"), *p = getenv("WATCHDOG_PID");
  char *end;
  unsigned long long v;
  if (!u)
    return 0;
  if (p && (pid_t)atol(p) != getpid())
    return 0;
  v = strtoull(u, &end, 10);
  if (*end || v == 0)
    return 0;
  return v;
}
