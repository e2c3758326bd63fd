/* buf: a growable byte buffer with a hard cap (after curl's dynbuf). */
#ifndef KOPT_BUF_H
#define KOPT_BUF_H
#include <stdarg.h>
#include <stddef.h>

struct buf {
  char *data;   /* owned; always NUL-terminated when non-NULL */
  size_t len;
  size_t alloc;
  size_t cap;   /* appends that would pass cap fail with -E2BIG and change nothing */
};

void buf_init(struct buf *b, size_t cap);
/* 0, -E2BIG over the cap, -ENOMEM. */
int buf_append(struct buf *b, const void *p, size_t n);
int buf_appends(struct buf *b, const char *s);
int buf_appendf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_vappendf(struct buf *b, const char *fmt, va_list ap);
/* Hands the data to the caller (who frees it) and resets b; returns "" copy when empty. */
char *buf_take(struct buf *b, size_t *len);
void buf_reset(struct buf *b);
void buf_free(struct buf *b);

#endif
