/* jobcache: the answers of GET /v1/jobs/{id} and GET /v1/jobs kept in memory, so that
 * dashboards polling unchanged jobs are answered without a database query.
 *
 * Never stale: every change to a jobs row is announced (NOTIFY kopt_job_changed, from the
 * row's trigger), and the notification removes the job's entry and every list. Two races
 * are closed here and one by the caller:
 *  - A read that began before a change and fills the cache after its notification was
 *    handled would put the old document back. A reader therefore takes a ticket before it
 *    queries (the job's generation, bumped by each change to it, and the epoch, bumped by
 *    each flush) and the fill is dropped if either moved meanwhile.
 *  - While the notification channel is down, changes go unannounced: the cache is then
 *    emptied and off (no hits, no fills) until it listens again, and emptied once more.
 *  - A change committed just before a request arrives may not have been announced yet: the
 *    caller trusts a hit only after a NOTIFY barrier sent after the request arrived
 *    (notify_barrier), which passes once every earlier change has been handled here.
 * Bounded in entries and bytes (least recently used out first). Thread-safe: filled on
 * pool threads, read and invalidated on the loop thread. */
#ifndef KOPT_JOBCACHE_H
#define KOPT_JOBCACHE_H
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#define JOBCACHE_BUCKETS 4096     /* hash chains */
#define JOBCACHE_GENS 4096        /* change generations, by job id hash */
#define JOBCACHE_KEY_MAX 256      /* "j" + job id, or "l" + owner|state|limit|cursor */
#define JOBCACHE_ETAG_LEN 18      /* "\"" + 16 hex + "\"" */
#define JOBCACHE_ENTRY_MAX (1u << 20) /* a larger document is never cached */

struct jobcache_entry;

struct jobcache_stats {
  uint64_t hits, misses, fills, stale_fills, invalidations, evictions;
  size_t entries, bytes;
};

struct jobcache {
  pthread_mutex_t mu;
  struct jobcache_entry *buckets[JOBCACHE_BUCKETS];
  /* Every entry, most recently used first; the cache owns them (freed by unlinking). */
  TAILQ_HEAD(jobcache_lru, jobcache_entry) lru;
  /* The list entries (also on lru), to drop them together; borrowed: lru's owner frees. */
  TAILQ_HEAD(jobcache_lists, jobcache_entry) lists;
  uint64_t gens[JOBCACHE_GENS];
  uint64_t list_gen;                            /* bumped by any job change */
  uint64_t epoch;                               /* bumped by every flush */
  size_t max_entries, max_bytes;                /* 0 entries: the cache is off */
  int live;
  struct jobcache_stats st;
};

/* What a reader saw before querying; the fill is kept only if nothing moved since. */
struct jobcache_ticket {
  uint64_t epoch, gen;
  int live;
};

/* An answer found in the cache: body is the caller's (malloc'd) copy, or NULL when the
 * request's If-None-Match named its ETag (no copy: the answer is a 304). */
struct jobcache_hit {
  char *body;
  size_t len;
  char etag[JOBCACHE_ETAG_LEN + 1];
  long long owner;                              /* jobs: owner_token_id, 0 for none */
};

/* Starts off (not live) until jobcache_set_live(c, 1). max_entries 0 disables it. */
void jobcache_init(struct jobcache *c, size_t max_entries, size_t max_bytes);
void jobcache_destroy(struct jobcache *c);
/* The strong ETag of a document: a quoted 64-bit prefix of its SHA-256 in hex. */
void jobcache_etag(const char *body, size_t len, char out[JOBCACHE_ETAG_LEN + 1]);
/* Whether an If-None-Match value names etag ("*", a list, weak W/ forms). */
int jobcache_etag_matches(const char *if_none_match, const char *etag);

/* Tickets, before the database read. key is the job id, or the list key. */
struct jobcache_ticket jobcache_ticket(struct jobcache *c, int is_list, const char *key);
/* Keeps a copy of body under key if t is still valid. */
void jobcache_put(struct jobcache *c, const struct jobcache_ticket *t, int is_list,
                  const char *key, const char *body, size_t len, const char *etag,
                  long long owner);
/* 1 and *hit filled (caller frees hit->body), 0 when absent or off, -ENOMEM. With an
 * if_none_match that names the entry's ETag, hit->body is NULL. */
int jobcache_get(struct jobcache *c, int is_list, const char *key, const char *if_none_match,
                 struct jobcache_hit *hit);
/* A job changed (its id; "*": every job): its entry and every list go. */
void jobcache_invalidate(struct jobcache *c, const char *job_id);
/* Empties the cache; live 0 turns it off, 1 on. */
void jobcache_set_live(struct jobcache *c, int live);
void jobcache_stats(struct jobcache *c, struct jobcache_stats *out);

#endif
