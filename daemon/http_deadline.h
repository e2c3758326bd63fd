/* http_deadline: absolute time limits for receiving a request.
 *
 * libmicrohttpd's connection timeout is an idle limit that every byte resets, so a client
 * that sends one byte every few seconds keeps its connection, and its slot in the
 * connection table, for as long as it likes. Here every connection carries a clock that
 * starts when it opens or when its previous response ends: the whole request head must
 * arrive within header_timeout_s of that, and the whole body within body_timeout_s of the
 * head. An idle keep-alive connection therefore also ends header_timeout_s after its last
 * response. While a request is being answered (database work, an event stream) no limit
 * applies. A periodic sweep shuts down the socket of a connection past its deadline;
 * libmicrohttpd then reads the end of the stream and closes the connection itself
 * (shutdown, not close: the descriptor stays libmicrohttpd's and cannot be reused under
 * it). Loop thread only. */
#ifndef KOPT_HTTP_DEADLINE_H
#define KOPT_HTTP_DEADLINE_H
#include <stdint.h>
#include <sys/queue.h>

enum http_phase {
  HTTP_PHASE_HEAD = 0, /* waiting for (the rest of) a request head */
  HTTP_PHASE_BODY = 1, /* head in, receiving the body */
  HTTP_PHASE_BUSY = 2, /* request complete: being answered */
};

struct http_conn {
  TAILQ_ENTRY(http_conn) link;   /* in the table's list */
  int fd;                        /* borrowed from libmicrohttpd */
  enum http_phase phase;
  uint64_t since_ms;             /* when the current phase began (CLOCK_MONOTONIC) */
  int shut;                      /* shut down by a sweep; closing */
};

struct http_conn_table {
  TAILQ_HEAD(http_conn_list, http_conn) list; /* every open connection, newest first; owned */
  unsigned count;
  uint64_t closed[2];            /* connections shut down, by late phase (HEAD, BODY) */
};

/* An empty table (a zeroed one is not: the list needs its head set up). */
void http_conn_table_init(struct http_conn_table *t);
/* A new connection (phase HEAD from now); NULL when out of memory. Owned by t until
 * http_conn_close. */
struct http_conn *http_conn_open(struct http_conn_table *t, int fd, uint64_t now_ms);
/* Unlinks and frees c (NULL is a no-op). */
void http_conn_close(struct http_conn_table *t, struct http_conn *c);
/* Moves c to phase p; the phase's clock starts at now_ms. */
void http_conn_phase(struct http_conn *c, enum http_phase p, uint64_t now_ms);
/* Shuts down every connection whose head or body is late; returns how many it shut now. */
unsigned http_conn_sweep(struct http_conn_table *t, uint64_t now_ms, uint64_t head_ms,
                         uint64_t body_ms);

#endif
