/* auth: bearer tokens. A token is "kopt_" + 43 base64url chars (32 random bytes); only its
 * SHA-256 is stored. Lookups compare hashes in constant time and are cached briefly. */
#ifndef KOPT_AUTH_H
#define KOPT_AUTH_H
#include <libpq-fe.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#define AUTH_TOKEN_LEN 48 /* "kopt_" + 43 */
#define AUTH_CACHE_SLOTS 256
#define AUTH_CACHE_TTL_S 30

enum auth_role { AUTH_NONE = 0, AUTH_VIEWER = 1, AUTH_SUBMITTER = 2, AUTH_ADMIN = 3 };

struct auth_identity {
  enum auth_role role;
  long long token_id;
};

struct auth_cache_entry {
  unsigned char hash[32];
  struct auth_identity id;
  int64_t expires_ms;
  int used;
};

struct auth_cache {
  pthread_mutex_t mu;
  struct auth_cache_entry slots[AUTH_CACHE_SLOTS];
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

void auth_cache_init(struct auth_cache *c);
void auth_cache_destroy(struct auth_cache *c);
/* Resolves a bearer header to an identity: cache, then the database (conn may be NULL to
 * use only the cache). Returns 0 with id->role set (AUTH_NONE for unknown tokens), or
 * -EIO when the database failed. */
int auth_resolve(struct auth_cache *c, PGconn *conn, const char *header,
                 struct auth_identity *id, int64_t now_ms);
/* Inserts a new token row; writes the token into out. 0 or -errno (err filled). */
int auth_token_create(PGconn *conn, enum auth_role role, const char *name, char *out,
                      size_t outlen, char *err, size_t errlen);

#endif
