/* fuzz_sse: the event-stream parsers. koptctl's text/event-stream parser (cli/ctl_sse.c)
 * reads what a server (or anything posing as one) sends, in pieces of any size: the events
 * it yields must not depend on where the pieces were cut, an event's data never passes the
 * cap, and the id it reports is what koptd reads back as Last-Event-ID on a reconnect
 * (daemon/sse.c's sse_last_event_id). The same bytes also go to koptd's reader of the
 * kopt_job_events NOTIFY payload (sse_on_notify), on a hub with no streams. */
#include "ctl_sse.h"
#include "ctx.h"
#include "fuzz.h"
#include "fuzz_sse_id.h"

static struct kopt_ctx fuzz_ctx;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  /* The hub's keepalive timer is armed but never runs: the loop is never run. */
  fuzz_ctx.loop = uv_default_loop();
  if (sse_hub_init(&fuzz_ctx))
    abort();
  return 0;
}

/* Everything the callback saw, as one byte string: type \0 id \0 data \0 per event. */
struct fuzz_seen {
  char *buf;
  size_t len, cap;
  size_t limit; /* the parser's cap */
  unsigned events;
};

static void fuzz_seen_add(struct fuzz_seen *s, const char *p, size_t n)
{
  if (s->len + n + 1 > s->cap) {
    size_t nc = (s->len + n + 1) * 2;
    char *nb = realloc(s->buf, nc);
    FUZZ_CHECK(nb != NULL, "out of memory");
    s->buf = nb;
    s->cap = nc;
  }
  memcpy(s->buf + s->len, p, n);
  s->len += n;
  s->buf[s->len++] = '\0';
}

static int fuzz_on_event(void *arg, const struct ctl_sse_event *ev)
{
  struct fuzz_seen *s = arg;
  FUZZ_CHECK(ev->type && ev->data && ev->id, "NULL member");
  FUZZ_CHECK(ev->data[ev->data_len] == '\0', "data not NUL-terminated");
  FUZZ_CHECK(ev->data_len <= s->limit, "data %zu past the cap %zu", ev->data_len, s->limit);
  FUZZ_CHECK(strlen(ev->type) < CTL_SSE_MAX_NAME && strlen(ev->id) < CTL_SSE_MAX_NAME,
             "type or id past CTL_SSE_MAX_NAME");
  fuzz_last_event_id(ev->id);
  fuzz_seen_add(s, ev->type, strlen(ev->type));
  fuzz_seen_add(s, ev->id, strlen(ev->id));
  fuzz_seen_add(s, ev->data, ev->data_len);
  s->events++;
  return 0;
}

/* Feeds body in pieces whose sizes come from cuts[] (cycled; 0 stands for 1). */
static int fuzz_feed(const char *body, size_t n, size_t cap, const uint8_t *cuts, size_t ncuts,
                     struct fuzz_seen *s)
{
  struct ctl_sse p;
  size_t off = 0, k = 0;
  int rc = 0;

  s->limit = cap;
  ctl_sse_init(&p, cap, fuzz_on_event, s);
  while (off < n && rc == 0) {
    size_t m = ncuts ? cuts[k++ % ncuts] : n;
    m = m ? m : 1;
    m = m < n - off ? m : n - off;
    rc = ctl_sse_feed(&p, body + off, m);
    off += m;
  }
  ctl_sse_free(&p);
  return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct fuzz_seen whole = { 0 }, pieces = { 0 };
  size_t cap, ncuts;
  int rc1, rc2;

  if (size < 2)
    return 0;
  /* data[0]: the cap (small ones reach -EMSGSIZE); data[1]: how many of the next bytes are
   * piece sizes; the rest is the stream. */
  cap = data[0] < 128 ? 16 + (size_t)data[0] * 4 : 1u << 16;
  ncuts = data[1] & 15;
  if (size < 2 + ncuts)
    return 0;
  rc1 = fuzz_feed((const char *)data + 2 + ncuts, size - 2 - ncuts, cap, NULL, 0, &whole);
  rc2 = fuzz_feed((const char *)data + 2 + ncuts, size - 2 - ncuts, cap, data + 2, ncuts,
                  &pieces);
  FUZZ_CHECK(rc1 == 0 || rc1 == -EMSGSIZE, "rc %d", rc1);
  FUZZ_CHECK(rc1 == rc2, "whole %d, in pieces %d", rc1, rc2);
  FUZZ_CHECK(whole.events == pieces.events && whole.len == pieces.len &&
                 (whole.len == 0 || memcmp(whole.buf, pieces.buf, whole.len) == 0),
             "%u events whole, %u in pieces: the cut points changed what was parsed",
             whole.events, pieces.events);
  free(whole.buf);
  free(pieces.buf);
  {
    char *payload = fuzz_str(data + 2, size - 2);
    if (payload)
      sse_on_notify(fuzz_ctx.sse, payload);
    free(payload);
  }
  return 0;
}
