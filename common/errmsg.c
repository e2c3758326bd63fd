#include <stdarg.h>
#include <stdio.h>

#include "errmsg.h"
#include "utf8.h"

int errmsg_set(char *err, size_t errlen, int rc, const char *fmt, ...)
{
  va_list ap;
  if (err && errlen) {
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    /* Messages quote untrusted text and are cut to errlen; they end up in JSON. */
    utf8_scrub(err);
  }
  return rc;
}
