#include <errno.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
}

void auth_cache_destroy(struct auth_cache *c) { pthread_mutex_destroy(&c->mu); }

static unsigned auth_slot(const unsigned char hash[32])
{
  return ((unsigned)hash[0] | ((unsigned)hash[1] << 8)) % AUTH_CACHE_SLOTS;
}

int auth_resolve(struct auth_cache *c, PGconn *conn, const char *header,
                 struct auth_identity *id, int64_t now_ms)
{
  unsigned char h[32];
  char hex[KOPT_SHA256_HEX_SIZE];
  const char *tok;
  size_t len = 0;
  unsigned slot;
  struct auth_cache_entry *e;
  PGresult *r = NULL;
  char err[256];
  int rc = 0;

  id->role = AUTH_NONE;
  id->token_id = 0;
  tok = auth_bearer(header, &len);
  if (!tok)
    goto out;
  if (auth_token_hash(tok, len, h)) {
    rc = -EIO;
    goto out;
  }
  slot = auth_slot(h);
  pthread_mutex_lock(&c->mu);
  e = &c->slots[slot];
  if (e->used && e->expires_ms > now_ms && CRYPTO_memcmp(e->hash, h, 32) == 0) {
    *id = e->id;
    pthread_mutex_unlock(&c->mu);
    goto out;
  }
  pthread_mutex_unlock(&c->mu);
  if (!conn)
    goto out;
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", h[i]);
  {
    const char *params[1] = { hex };
    r = db_exec(conn, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT id, role, token_sha256 FROM api_tokens"
                " WHERE token_sha256 = decode($1, 'hex') AND revoked_at IS NULL",
                1, params);
  }
  if (!r) {
    rc = -EIO;
    goto out;
  }
  if (PQntuples(r) == 1) {
    size_t blen = 0;
    unsigned char *stored = PQunescapeBytea((const unsigned char *)PQgetvalue(r, 0, 2), &blen);
    /* The index lookup found the row; the final word is a constant-time comparison. */
    if (stored && blen == 32 && CRYPTO_memcmp(stored, h, 32) == 0) {
      id->role = auth_role_parse(PQgetvalue(r, 0, 1));
      id->token_id = atoll(PQgetvalue(r, 0, 0));
      pthread_mutex_lock(&c->mu);
      e = &c->slots[slot];
      memcpy(e->hash, h, 32);
      e->id = *id;
      e->expires_ms = now_ms + AUTH_CACHE_TTL_S * 1000;
      e->used = 1;
      pthread_mutex_unlock(&c->mu);
    }
    PQfreemem(stored);
  }
out:
  PQclear(r);
  OPENSSL_cleanse(h, sizeof(h));
  return rc;
}

int auth_token_create(PGconn *conn, enum auth_role role, const char *name, char *out,
                      size_t outlen, char *err, size_t errlen)
{
  unsigned char h[32];
  char hex[KOPT_SHA256_HEX_SIZE];
  const char *params[3];
  PGresult *r;
  int rc;

  if (role == AUTH_NONE) {
    snprintf(err, errlen, "role must be viewer, submitter or admin");
    return -EINVAL;
  }
  if (name && strlen(name) > 128) {
    snprintf(err, errlen, "name: at most 128 characters");
    return -EINVAL;
  }
  rc = auth_token_generate(out, outlen);
  if (rc) {
    snprintf(err, errlen, "cannot generate random token");
    return rc;
  }
  if (auth_token_hash(out, strlen(out), h)) {
    snprintf(err, errlen, "cannot hash token");
    return -EIO;
  }
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", h[i]);
  params[0] = hex;
  params[1] = auth_role_name(role);
  params[2] = name ? name : "";
  r = db_exec(conn, PGRES_COMMAND_OK, err, errlen,
              "INSERT INTO api_tokens (token_sha256, role, name)"
              " VALUES (decode($1, 'hex'), $2, $3)",
              3, params);
  if (!r)
    return -EIO;
  PQclear(r);
  return 0;
}
