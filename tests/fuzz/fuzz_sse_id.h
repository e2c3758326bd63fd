/* fuzz_sse_id: the Last-Event-ID check both the router target (the header as a request
 * sends it) and the SSE target (ids as a stream carries them) put sse_last_event_id to. */
#ifndef KOPT_FUZZ_SSE_ID_H
#define KOPT_FUZZ_SSE_ID_H
#include "fuzz.h"
#include "sse.h"

/* Accepted: an id from 0 up, or -1 for none, and no error. Refused: -EINVAL with an error
 * that names the header. */
static inline void fuzz_last_event_id(const char *v)
{
  struct problem p;
  long long id;
  int rc;

  problem_init(&p, 400, "validation", "Request failed validation");
  rc = sse_last_event_id(v, 0, &p, &id);
  if (rc == 0) {
    FUZZ_CHECK(id >= -1 && !problem_has_errors(&p), "Last-Event-ID %lld", id);
    FUZZ_CHECK(id >= 0 || !v || !v[0], "\"%s\" read as absent", v);
  } else {
    char *doc = problem_render(&p);
    FUZZ_CHECK(rc == -EINVAL && problem_has_errors(&p), "rc %d", rc);
    FUZZ_CHECK(!doc || strstr(doc, SSE_LAST_EVENT_ID), "the error does not name the header");
    free(doc);
  }
  problem_free(&p);
}

#endif
