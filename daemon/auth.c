#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "auth.h"
#include "contract.h"
#include "db.h"

static const char auth_b64url[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int auth_token_generate(char *out, size_t outlen)
{
  unsigned char raw[32];
  size_t o = 0;
  uint32_t acc = 0;
  int bits = 0;

  if (outlen < AUTH_TOKEN_LEN + 1)
    return -EINVAL;
  if (RAND_bytes(raw, sizeof(raw)) != 1)
    return -EIO;
  memcpy(out, "kopt_", 5);
  o = 5;
  for (size_t i = 0; i < sizeof(raw); i++) {
    acc = (acc << 8) | raw[i];
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out[o++] = auth_b64url[(acc >> bits) & 63];
    }
  }
  if (bits > 0)
    out[o++] = auth_b64url[(acc << (6 - bits)) & 63];
  out[o] = '\0';
  OPENSSL_cleanse(raw, sizeof(raw));
  return 0;
}

int auth_token_hash(const char *token, size_t len, unsigned char out[32])
{
  unsigned int n = 0;
  if (EVP_Digest(token, len, out, &n, EVP_sha256(), NULL) != 1 || n != 32)
    return -EIO;
  return 0;
}

enum auth_role auth_role_parse(const char *s)
{
  if (!s)
    return AUTH_NONE;
  if (strcmp(s, "viewer") == 0)
    return AUTH_VIEWER;
  if (strcmp(s, "submitter") == 0)
    return AUTH_SUBMITTER;
  if (strcmp(s, "admin") == 0)
    return AUTH_ADMIN;
  return AUTH_NONE;
}

const char *auth_role_name(enum auth_role r)
{
  switch (r) {
  case AUTH_VIEWER: return "viewer";
  case AUTH_SUBMITTER: return "submitter";
  case AUTH_ADMIN: return "admin";
  default: return "none";
  }
}

const char *auth_bearer(const char *header, size_t *len)
{
  const char *t;
  size_t n;
  if (!header || strncasecmp(header, "Bearer ", 7) != 0)
    return NULL;
  t = header + 7;
  while (*t == ' ')
    t++;
  n = strlen(t);
  while (n && t[n - 1] == ' ')
    n--;
  /* A well-formed token has a fixed length; anything else is refused before hashing. */
  if (n != AUTH_TOKEN_LEN || strncmp(t, "kopt_", 5) != 0)
    return NULL;
  for (size_t i = 5; i < n; i++)
    if (!strchr(auth_b64url, t[i]))
      return NULL;
  *len = n;
  return t;
}

void auth_cache_init(struct auth_cache *c)
{
  memset(c, 0, sizeof(*c));
  pthread_mutex_init(&c->mu, NULL);
  c->live = 1;
}

void auth_cache_destroy(struct auth_cache *c) { pthread_mutex_destroy(&c->mu); }

static void auth_cache_flush_locked(struct auth_cache *c)
{
  for (unsigned i = 0; i < AUTH_CACHE_SLOTS; i++)
    OPENSSL_cleanse(&c->slots[i], sizeof(c->slots[i]));
  c->gen++;
}

void auth_cache_flush(struct auth_cache *c)
{
  pthread_mutex_lock(&c->mu);
  auth_cache_flush_locked(c);
  pthread_mutex_unlock(&c->mu);
}

void auth_cache_set_live(struct auth_cache *c, int live)
{
  pthread_mutex_lock(&c->mu);
  auth_cache_flush_locked(c);
  c->live = live;
  pthread_mutex_unlock(&c->mu);
}

static unsigned auth_slot(const unsigned char hash[32])
{
  return ((unsigned)hash[0] | ((unsigned)hash[1] << 8)) % AUTH_CACHE_SLOTS;
}

/* A cached identity still holds if its token has not expired since it was cached. */
static void auth_check_expiry(struct auth_identity *id, int64_t now_ms)
{
  if (id->role != AUTH_NONE && id->expires_ms && now_ms >= id->expires_ms) {
    id->role = AUTH_NONE;
    id->why = AUTH_EXPIRED;
  }
}

/* The row for hash h: fills id (role, or why not). 0 or -EIO. */
static int auth_lookup(PGconn *conn, const unsigned char h[32], struct auth_identity *id)
{
  char hex[KOPT_SHA256_HEX_SIZE], err[256];
  const char *params[1] = { hex };
  PGresult *r;
  size_t blen = 0;
  unsigned char *stored;

  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", h[i]);
  r = db_exec(conn, PGRES_TUPLES_OK, err, sizeof(err),
              "SELECT id, role, token_sha256, revoked_at IS NOT NULL,"
              " coalesce((extract(epoch FROM expires_at) * 1000)::bigint, 0),"
              " coalesce(expires_at <= now(), false)"
              " FROM api_tokens WHERE token_sha256 = decode($1, 'hex')",
              1, params);
  if (!r)
    return -EIO;
  id->why = AUTH_UNKNOWN;
  if (PQntuples(r) == 1) {
    stored = PQunescapeBytea((const unsigned char *)PQgetvalue(r, 0, 2), &blen);
    /* The index lookup found the row; the final word is a constant-time comparison. */
    if (stored && blen == 32 && CRYPTO_memcmp(stored, h, 32) == 0) {
      id->token_id = atoll(PQgetvalue(r, 0, 0));
      id->expires_ms = atoll(PQgetvalue(r, 0, 4));
      if (strcmp(PQgetvalue(r, 0, 3), "t") == 0) {
        id->why = AUTH_REVOKED;
      } else if (strcmp(PQgetvalue(r, 0, 5), "t") == 0) {
        id->why = AUTH_EXPIRED;
      } else {
        id->role = auth_role_parse(PQgetvalue(r, 0, 1));
        id->why = id->role == AUTH_NONE ? AUTH_UNKNOWN : AUTH_OK;
      }
    }
    PQfreemem(stored);
  }
  PQclear(r);
  return 0;
}

int auth_resolve(struct auth_cache *c, int use_cache, PGconn *conn, const char *header,
                 struct auth_identity *id, int64_t now_ms)
{
  unsigned char h[32];
  const char *tok;
  size_t len = 0;
  unsigned slot;
  struct auth_cache_entry *e;
  uint64_t gen;
  int rc = 0;

  memset(id, 0, sizeof(*id));
  id->why = AUTH_MISSING;
  tok = auth_bearer(header, &len);
  if (!tok)
    goto out;
  id->why = AUTH_UNKNOWN;
  if (auth_token_hash(tok, len, h)) {
    rc = -EIO;
    goto out;
  }
  slot = auth_slot(h);
  pthread_mutex_lock(&c->mu);
  e = &c->slots[slot];
  if (use_cache && c->live && e->used && e->expires_ms > now_ms &&
      CRYPTO_memcmp(e->hash, h, 32) == 0) {
    *id = e->id;
    pthread_mutex_unlock(&c->mu);
    auth_check_expiry(id, now_ms);
    goto out;
  }
  gen = c->gen;
  pthread_mutex_unlock(&c->mu);
  if (!conn)
    goto out;
  if (auth_lookup(conn, h, id)) {
    rc = -EIO;
    goto out;
  }
  if (id->role == AUTH_NONE)
    goto out; /* refusals are not cached: each one asks the database again */
  pthread_mutex_lock(&c->mu);
  /* A flush (a token changed) since this lookup began means its answer may be stale. */
  if (c->live && c->gen == gen) {
    e = &c->slots[slot];
    memcpy(e->hash, h, 32);
    e->id = *id;
    e->expires_ms = now_ms + AUTH_CACHE_TTL_S * 1000;
    e->used = 1;
  }
  pthread_mutex_unlock(&c->mu);
out:
  OPENSSL_cleanse(h, sizeof(h));
  return rc;
}

void auth_refusal_text(const struct auth_identity *id, char *out, size_t outlen)
{
  char when[32] = "";
  time_t t;
  struct tm tm;
  switch (id->why) {
  case AUTH_MISSING:
    snprintf(out, outlen, "an Authorization: Bearer <token> header is required");
    break;
  case AUTH_REVOKED:
    snprintf(out, outlen, "the bearer token was revoked");
    break;
  case AUTH_EXPIRED:
    t = (time_t)(id->expires_ms / 1000);
    if (gmtime_r(&t, &tm))
      strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
    snprintf(out, outlen, "the bearer token expired at %s", when);
    break;
  default:
    snprintf(out, outlen, "the bearer token is not valid");
  }
}
