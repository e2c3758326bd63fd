#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "jobcache.h"

struct jobcache_entry {
  struct jobcache_entry *hnext;                 /* hash chain */
  TAILQ_ENTRY(jobcache_entry) lru;              /* c->lru */
  TAILQ_ENTRY(jobcache_entry) list;             /* list entries only: c->lists */
  uint64_t hash;
  int is_list;
  long long owner;
  char etag[JOBCACHE_ETAG_LEN + 1];
  size_t len;
  char key[JOBCACHE_KEY_MAX];
  char body[];                                  /* len bytes + NUL */
};

/* FNV-1a: keys are ours (job ids, query strings), spreading them is all that is asked. */
static uint64_t jobcache_hash(int is_list, const char *key)
{
  uint64_t h = 1469598103934665603ULL;
  h = (h ^ (unsigned char)(is_list ? 'l' : 'j')) * 1099511628211ULL;
  for (const unsigned char *p = (const unsigned char *)key; *p; p++)
    h = (h ^ *p) * 1099511628211ULL;
  return h;
}

static size_t jobcache_cost(const struct jobcache_entry *e) { return sizeof(*e) + e->len + 1; }

void jobcache_init(struct jobcache *c, size_t max_entries, size_t max_bytes)
{
  memset(c, 0, sizeof(*c));
  pthread_mutex_init(&c->mu, NULL);
  TAILQ_INIT(&c->lru);
  TAILQ_INIT(&c->lists);
  c->max_entries = max_entries;
  c->max_bytes = max_bytes;
}

static void jobcache_unlink(struct jobcache *c, struct jobcache_entry *e)
{
  struct jobcache_entry **pp = &c->buckets[e->hash % JOBCACHE_BUCKETS];
  while (*pp != e)
    pp = &(*pp)->hnext;
  *pp = e->hnext;
  TAILQ_REMOVE(&c->lru, e, lru);
  if (e->is_list)
    TAILQ_REMOVE(&c->lists, e, list);
  assert(c->st.entries > 0 && c->st.bytes >= jobcache_cost(e));
  c->st.entries--;
  c->st.bytes -= jobcache_cost(e);
  free(e);
}

static void jobcache_flush_locked(struct jobcache *c)
{
  while (!TAILQ_EMPTY(&c->lru))
    jobcache_unlink(c, TAILQ_FIRST(&c->lru));
  c->epoch++;
}

void jobcache_destroy(struct jobcache *c)
{
  jobcache_flush_locked(c);
  pthread_mutex_destroy(&c->mu);
}

void jobcache_etag(const char *body, size_t len, char out[JOBCACHE_ETAG_LEN + 1])
{
  char hex[KOPT_SHA256_HEX_SIZE];
  if (hash_sha256_hex(body, len, hex))
    memset(hex, '0', sizeof(hex) - 1); /* never fails in practice; a constant tag is safe */
  snprintf(out, JOBCACHE_ETAG_LEN + 1, "\"%.16s\"", hex);
}

int jobcache_etag_matches(const char *inm, const char *etag)
{
  const char *p = inm;
  size_t n = strlen(etag);
  if (!inm)
    return 0;
  while (*p) {
    const char *start, *end;
    while (*p == ' ' || *p == '\t' || *p == ',')
      p++;
    if (*p == '*')
      return 1;
    if (p[0] == 'W' && p[1] == '/')
      p += 2; /* If-None-Match compares weakly */
    start = p;
    end = strchr(p, ',');
    if (!end)
      end = p + strlen(p);
    p = end;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t'))
      end--;
    if ((size_t)(end - start) == n && memcmp(start, etag, n) == 0)
      return 1;
  }
  return 0;
}

static uint64_t *jobcache_gen_of(struct jobcache *c, int is_list, const char *key)
{
  return is_list ? &c->list_gen : &c->gens[jobcache_hash(0, key) % JOBCACHE_GENS];
}

struct jobcache_ticket jobcache_ticket(struct jobcache *c, int is_list, const char *key)
{
  struct jobcache_ticket t;
  pthread_mutex_lock(&c->mu);
  t.epoch = c->epoch;
  t.gen = *jobcache_gen_of(c, is_list, key);
  t.live = c->live && c->max_entries > 0;
  pthread_mutex_unlock(&c->mu);
  return t;
}

static struct jobcache_entry *jobcache_find(struct jobcache *c, int is_list, const char *key,
                                            uint64_t h)
{
  for (struct jobcache_entry *e = c->buckets[h % JOBCACHE_BUCKETS]; e; e = e->hnext)
    if (e->hash == h && e->is_list == is_list && strcmp(e->key, key) == 0)
      return e;
  return NULL;
}

void jobcache_put(struct jobcache *c, const struct jobcache_ticket *t, int is_list,
                  const char *key, const char *body, size_t len, const char *etag,
                  long long owner)
{
  uint64_t h = jobcache_hash(is_list, key);
  struct jobcache_entry *e, *old;
  if (!t->live || len > JOBCACHE_ENTRY_MAX || strlen(key) >= JOBCACHE_KEY_MAX)
    return;
  e = malloc(sizeof(*e) + len + 1);
  if (!e)
    return; /* a cache that cannot grow just misses */
  memset(e, 0, sizeof(*e));
  e->hash = h;
  e->is_list = is_list;
  e->owner = owner;
  e->len = len;
  snprintf(e->etag, sizeof(e->etag), "%s", etag);
  snprintf(e->key, sizeof(e->key), "%s", key);
  memcpy(e->body, body, len);
  e->body[len] = '\0';
  pthread_mutex_lock(&c->mu);
  /* Anything that moved since the ticket means this read may predate a change. */
  if (!c->live || t->epoch != c->epoch || t->gen != *jobcache_gen_of(c, is_list, key) ||
      jobcache_cost(e) > c->max_bytes) {
    c->st.stale_fills++;
    pthread_mutex_unlock(&c->mu);
    free(e);
    return;
  }
  old = jobcache_find(c, is_list, key, h);
  if (old)
    jobcache_unlink(c, old);
  e->hnext = c->buckets[h % JOBCACHE_BUCKETS];
  c->buckets[h % JOBCACHE_BUCKETS] = e;
  TAILQ_INSERT_HEAD(&c->lru, e, lru);
  if (is_list)
    TAILQ_INSERT_HEAD(&c->lists, e, list);
  c->st.entries++;
  c->st.bytes += jobcache_cost(e);
  c->st.fills++;
  while (c->st.entries > c->max_entries || c->st.bytes > c->max_bytes) {
    c->st.evictions++;
    jobcache_unlink(c, TAILQ_LAST(&c->lru, jobcache_lru));
  }
  pthread_mutex_unlock(&c->mu);
}

int jobcache_get(struct jobcache *c, int is_list, const char *key, const char *if_none_match,
                 struct jobcache_hit *hit)
{
  uint64_t h = jobcache_hash(is_list, key);
  struct jobcache_entry *e;
  int rc = 0;
  pthread_mutex_lock(&c->mu);
  e = c->live ? jobcache_find(c, is_list, key, h) : NULL;
  if (!e) {
    c->st.misses++;
    goto out;
  }
  hit->body = NULL;
  if (!if_none_match || !jobcache_etag_matches(if_none_match, e->etag)) {
    hit->body = malloc(e->len + 1);
    if (!hit->body) {
      rc = -ENOMEM;
      goto out;
    }
    memcpy(hit->body, e->body, e->len + 1);
  }
  hit->len = e->len;
  hit->owner = e->owner;
  memcpy(hit->etag, e->etag, sizeof(hit->etag));
  if (e != TAILQ_FIRST(&c->lru)) { /* most recently used to the front */
    TAILQ_REMOVE(&c->lru, e, lru);
    TAILQ_INSERT_HEAD(&c->lru, e, lru);
  }
  c->st.hits++;
  rc = 1;
out:
  pthread_mutex_unlock(&c->mu);
  return rc;
}

void jobcache_invalidate(struct jobcache *c, const char *job_id)
{
  struct jobcache_entry *e;
  pthread_mutex_lock(&c->mu);
  c->st.invalidations++;
  if (strcmp(job_id, "*") == 0) {
    jobcache_flush_locked(c);
  } else {
    (*jobcache_gen_of(c, 0, job_id))++;
    e = jobcache_find(c, 0, job_id, jobcache_hash(0, job_id));
    if (e)
      jobcache_unlink(c, e);
  }
  /* Any change can move a job into or out of any page. */
  c->list_gen++;
  while (!TAILQ_EMPTY(&c->lists))
    jobcache_unlink(c, TAILQ_FIRST(&c->lists));
  pthread_mutex_unlock(&c->mu);
}

void jobcache_set_live(struct jobcache *c, int live)
{
  pthread_mutex_lock(&c->mu);
  jobcache_flush_locked(c);
  c->live = live;
  pthread_mutex_unlock(&c->mu);
}

void jobcache_stats(struct jobcache *c, struct jobcache_stats *out)
{
  pthread_mutex_lock(&c->mu);
  *out = c->st;
  pthread_mutex_unlock(&c->mu);
}
