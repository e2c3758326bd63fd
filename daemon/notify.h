/* notify: one libpq connection that LISTENs, driven by the loop (uv_poll on its socket,
 * PQconsumeInput, PQnotifies). It reconnects in the background with backoff; after a
 * reconnect every consumer re-reads, since notifications sent while away are lost. */
#ifndef KOPT_NOTIFY_H
#define KOPT_NOTIFY_H
#include <stdint.h>
#include <sys/queue.h>

#include "ctx.h"

typedef void (*notify_cb)(struct kopt_ctx *ctx, const char *channel, const char *payload);

#define NOTIFY_UP "up"     /* payload with channel "": listening (again) */
#define NOTIFY_DOWN "down" /* payload with channel "": the connection was lost */

/* Starts connecting (asynchronously) and listening on the given NULL-terminated channels
 * (static strings). cb gets every notification, ("", NOTIFY_UP) after each (re)connect and
 * ("", NOTIFY_DOWN) when the connection is lost. */
int notify_start(struct kopt_ctx *ctx, const char *const *channels, notify_cb cb);
void notify_stop(struct notify_listener *n);

/* Barriers: "has every change committed before now been announced to me?" A waiter is
 * passed (ok 1) once a round trip on the LISTEN connection, sent after notify_barrier was
 * called, has come back and every notification before it has gone to cb; or failed (ok 0)
 * when the connection is lost or the listener stops. One round trip serves every waiter
 * that was queued before it was sent. Loop thread only. */
struct notify_waiter;
typedef void (*notify_waiter_cb)(struct notify_waiter *w, int ok);
struct notify_waiter {
  TAILQ_ENTRY(notify_waiter) link;   /* in the listener's queue while queued */
  notify_waiter_cb cb;
  uint64_t need;                     /* the round trip that passes it */
  int queued;
};
/* Queues w (embedded in the caller's record, which must outlive it or cancel it). 0, or
 * -ENOTCONN when not listening (then nothing was queued). */
int notify_barrier(struct notify_listener *n, struct notify_waiter *w, notify_waiter_cb cb);
/* Whether the LISTEN connection is up (then caches are trusted after a barrier). */
int notify_listening(const struct notify_listener *n);
/* Barrier round trips sent so far. */
uint64_t notify_round_trips(const struct notify_listener *n);
/* Takes w out of the queue, if queued; its cb is not called. */
void notify_barrier_cancel(struct notify_listener *n, struct notify_waiter *w);

#endif
