/* notify: one libpq connection that LISTENs, driven by the loop (uv_poll on its socket,
 * PQconsumeInput, PQnotifies). It reconnects in the background with backoff; after a
 * reconnect every consumer re-reads, since notifications sent while away are lost. */
#ifndef KOPT_NOTIFY_H
#define KOPT_NOTIFY_H
#include "ctx.h"

typedef void (*notify_cb)(struct kopt_ctx *ctx, const char *channel, const char *payload);

/* Starts connecting (asynchronously) and listening on the given NULL-terminated channels
 * (static strings). cb gets every notification, and ("", "") after each (re)connect. */
int notify_start(struct kopt_ctx *ctx, const char *const *channels, notify_cb cb);
void notify_stop(struct notify_listener *n);

#endif
