#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"

void buf_init(struct buf *b, size_t cap)
{
  b->data = NULL;
  b->len = 0;
  b->alloc = 0;
  b->cap = cap;
}

static int buf_reserve(struct buf *b, size_t extra)
{
  size_t need, na;
  char *nd;

  if (extra > b->cap || b->len > b->cap - extra)
    return -E2BIG;
  need = b->len + extra + 1;
  if (need <= b->alloc)
    return 0;
  na = b->alloc ? b->alloc : 256;
  while (na < need)
    na *= 2;
  if (na > b->cap + 1)
    na = b->cap + 1;
  nd = realloc(b->data, na);
  if (!nd)
    return -ENOMEM;
  b->data = nd;
  b->alloc = na;
  return 0;
}

int buf_append(struct buf *b, const void *p, size_t n)
{
  int rc = buf_reserve(b, n);
  if (rc)
    return rc;
  if (n)
    memcpy(b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
  return 0;
}

int buf_appends(struct buf *b, const char *s) { return buf_append(b, s, strlen(s)); }

int buf_vappendf(struct buf *b, const char *fmt, va_list ap)
{
  va_list cp;
  int n, rc;

  va_copy(cp, ap);
  n = vsnprintf(NULL, 0, fmt, cp);
  va_end(cp);
  if (n < 0)
    return -EINVAL;
  rc = buf_reserve(b, (size_t)n);
  if (rc)
    return rc;
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
  return 0;
}

int buf_appendf(struct buf *b, const char *fmt, ...)
{
  va_list ap;
  int rc;
  va_start(ap, fmt);
  rc = buf_vappendf(b, fmt, ap);
  va_end(ap);
  return rc;
}

char *buf_take(struct buf *b, size_t *len)
{
  char *d = b->data;
  if (!d)
    d = calloc(1, 1);
  if (len)
    *len = d ? b->len : 0;
  b->data = NULL;
  b->len = 0;
  b->alloc = 0;
  return d;
}

void buf_reset(struct buf *b)
{
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

void buf_free(struct buf *b)
{
  free(b->data);
  b->data = NULL;
  b->len = 0;
  b->alloc = 0;
}
