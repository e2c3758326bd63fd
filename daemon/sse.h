/* sse: server-sent event streams for GET /v1/jobs/{id}/events. The job_events table is the
 * truth; a NOTIFY (or the keepalive tick, in case one was missed) makes each stream read
 * the rows after its last id on a pool thread and write them out. */
#ifndef KOPT_SSE_H
#define KOPT_SSE_H
#include <stddef.h>

#include "buf.h"
#include "ctx.h"
#include "problem.h"

#define SSE_MAX_STREAMS 256
#define SSE_KEEPALIVE_MS 15000
#define SSE_OUT_CAP (1u << 20)

struct MHD_Connection;
struct MHD_Response;

#define SSE_LAST_EVENT_ID "Last-Event-ID"

/* The event id a reconnecting client sent (Last-Event-ID: v, NULL or "" when absent;
 * too_long when the header did not fit the request's copy). 0 with *id set (-1 when
 * absent: the stream starts from the job's state), or -EINVAL with an error naming the
 * header added to p (not a decimal integer from 0 to INT64_MAX: a 400). Pure, so it is
 * fuzzed (tests/fuzz/fuzz_router.c, fuzz_sse.c). */
int sse_last_event_id(const char *v, int too_long, struct problem *p, long long *id);

/* Appends the job's events after id `after` (at most limit) to out as SSE frames; *last
 * gets the last id written, *terminal is set when one is a terminal state or when the job
 * is final and no event after `after` was left unread. Blocking (pool thread). 0 or -EIO
 * with err. Shared by the stream and the route's Last-Event-ID replay. */
int sse_read_events(PGconn *c, const char *job_id, long long after, int limit, struct buf *out,
                    long long *last, int *terminal, char *err, size_t errlen);

int sse_hub_init(struct kopt_ctx *ctx);
/* *out = a response that streams events for job_id, starting with initial (copied), held
 * by token_id. 0; -EBUSY when the hub holds SSE_MAX_STREAMS; -EDQUOT when token_id holds
 * per_token_max already; -ENOMEM. */
int sse_open(struct sse_hub *h, struct MHD_Connection *conn, const char *job_id,
             long long token_id, unsigned per_token_max, long long last_id, const char *initial,
             size_t initial_len, int terminal, struct MHD_Response **out);
/* A job has new events (NOTIFY kopt_job_events): its streams read them. */
void sse_on_notify(struct sse_hub *h, const char *job_id);
/* Ends every stream (drain); they finish with an event "shutdown". */
void sse_close_all(struct sse_hub *h);
unsigned sse_count(struct sse_hub *h);
/* Closes the hub's timer; the hub is freed when it has closed. Streams must be gone. */
void sse_hub_stop(struct sse_hub *h);

#endif
