/* errmsg: the one helper that fills a caller's (err, errlen) message buffer. */
#ifndef KOPT_ERRMSG_H
#define KOPT_ERRMSG_H
#include <stddef.h>

/* Formats into err (when non-NULL and errlen > 0) and returns rc, so an error path reads
 * `return errmsg_set(err, errlen, -EINVAL, "...", ...);`. The message is valid UTF-8 (see
 * utf8_scrub) whatever the arguments held or where errlen cut it. */
int errmsg_set(char *err, size_t errlen, int rc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
