/* auth: bearer tokens. A token is "kopt_" + 43 base64url chars (32 random bytes); only its
 * SHA-256 is stored. Lookups compare hashes in constant time and are cached for up to
 * AUTH_CACHE_TTL_S; every change to a token row (revocation) empties the cache at once
 * through NOTIFY kopt_tokens_changed, and while that notification channel is down the
 * cache is not used at all. */
#ifndef KOPT_AUTH_H
#define KOPT_AUTH_H
#include <libpq-fe.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define AUTH_TOKEN_LEN 48 /* "kopt_" + 43 */
#define AUTH_PREFIX_LEN 12 /* "kopt_" + 7: shown by token list, accepted by token revoke */
#define AUTH_CACHE_SLOTS 256
#define AUTH_CACHE_TTL_S 30

enum auth_role { AUTH_NONE = 0, AUTH_VIEWER = 1, AUTH_SUBMITTER = 2, AUTH_ADMIN = 3 };

/* Why a request has no role: what the 401 says. */
enum auth_refusal {
  AUTH_OK = 0,
  AUTH_MISSING,   /* no (well-formed) Authorization header */
  AUTH_UNKNOWN,   /* no such token */
  AUTH_REVOKED,
  AUTH_EXPIRED,   /* expires_ms says when */
};

struct auth_identity {
  enum auth_role role;
  long long token_id;
  enum auth_refusal why;  /* AUTH_OK when role != AUTH_NONE */
  int64_t expires_ms;     /* the token's expiry (wall clock ms), 0 = never */
};

struct auth_cache_entry {
  unsigned char hash[32];
  struct auth_identity id;
  int64_t expires_ms;     /* end of this entry's cache life (not the token's expiry) */
  int used;
};

struct auth_cache {
  pthread_mutex_t mu;
  struct auth_cache_entry slots[AUTH_CACHE_SLOTS];
  uint64_t gen;           /* bumped by every flush; a lookup fills only if unchanged */
  int live;               /* 0: invalidation is not guaranteed, neither hit nor fill */
};

/* Writes a fresh NUL-terminated token into out (>= AUTH_TOKEN_LEN + 1). 0 or -EIO. */
int auth_token_generate(char *out, size_t outlen);
/* SHA-256 of the token bytes. 0 or -EIO. */
int auth_token_hash(const char *token, size_t len, unsigned char out[32]);
/* "viewer"/"submitter"/"admin" -> role; AUTH_NONE when unknown. */
enum auth_role auth_role_parse(const char *s);
const char *auth_role_name(enum auth_role r);
/* Extracts the token from an Authorization header value ("Bearer X"); NULL if malformed. */
const char *auth_bearer(const char *header, size_t *len);

/* A live cache (hits and fills): callers that rely on NOTIFY set it down until listening. */
void auth_cache_init(struct auth_cache *c);
void auth_cache_destroy(struct auth_cache *c);
/* Empties the cache (a token changed). Any thread. */
void auth_cache_flush(struct auth_cache *c);
/* live 0: the invalidation channel is down, so the cache is emptied and bypassed; live 1:
 * it is listening again (emptied again: changes made meanwhile went unannounced). */
void auth_cache_set_live(struct auth_cache *c, int live);
/* Resolves a bearer header to an identity: the cache (only when use_cache: the caller knows
 * every change committed before its request has reached the cache), then the database
 * (conn may be NULL to use only the cache). Returns 0 with id->role set (AUTH_NONE, with
 * id->why, for missing, unknown, revoked and expired tokens), or -EIO when the database
 * failed. now_ms is the wall clock. */
int auth_resolve(struct auth_cache *c, int use_cache, PGconn *conn, const char *header,
                 struct auth_identity *id, int64_t now_ms);
/* The 401 detail for a refusal (expiry written as UTC). */
void auth_refusal_text(const struct auth_identity *id, char *out, size_t outlen);

#endif
