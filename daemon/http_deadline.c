#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "http_deadline.h"

void http_conn_table_init(struct http_conn_table *t)
{
  memset(t, 0, sizeof(*t));
  TAILQ_INIT(&t->list);
}

struct http_conn *http_conn_open(struct http_conn_table *t, int fd, uint64_t now_ms)
{
  struct http_conn *c = calloc(1, sizeof(*c));
  if (!c)
    return NULL;
  c->fd = fd;
  c->phase = HTTP_PHASE_HEAD;
  c->since_ms = now_ms;
  TAILQ_INSERT_HEAD(&t->list, c, link);
  t->count++;
  return c;
}

void http_conn_close(struct http_conn_table *t, struct http_conn *c)
{
  if (!c)
    return;
  assert(t->count > 0);
  TAILQ_REMOVE(&t->list, c, link);
  t->count--;
  free(c);
}

void http_conn_phase(struct http_conn *c, enum http_phase p, uint64_t now_ms)
{
  c->phase = p;
  c->since_ms = now_ms;
}

unsigned http_conn_sweep(struct http_conn_table *t, uint64_t now_ms, uint64_t head_ms,
                         uint64_t body_ms)
{
  unsigned n = 0;
  struct http_conn *c;
  TAILQ_FOREACH(c, &t->list, link) {
    uint64_t limit;
    if (c->shut || c->phase == HTTP_PHASE_BUSY)
      continue;
    limit = c->phase == HTTP_PHASE_HEAD ? head_ms : body_ms;
    if (now_ms < c->since_ms || now_ms - c->since_ms < limit)
      continue;
    /* Both directions: the client sees the end too and stops sending. */
    shutdown(c->fd, SHUT_RDWR);
    c->shut = 1;
    t->closed[c->phase]++;
    n++;
  }
  return n;
}
