#include <errno.h>
#include <getopt.h>
#include <openssl/crypto.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contract.h"
#include "db.h"
#include "migrate.h"
#include "tokens.h"

#define TOKENS_USAGE                                                                       \
  "usage: koptd token create --role viewer|submitter|admin [--name NAME] [--expires-in D]\n" \
  "       koptd token list\n"                                                              \
  "       koptd token revoke ID|PREFIX|TOKEN\n"                                            \
  "D is a duration such as 30d, 12h, 90m, 3600s or 2w.\n"

int tokens_parse_duration(const char *s, long long *secs)
{
  static const struct {
    char unit;
    long long mul;
  } units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 }, { 'w', 7 * 86400 } };
  char *end;
  long long v, mul = 1;
  if (!s || *s < '0' || *s > '9' || strlen(s) > 12)
    return -EINVAL;
  errno = 0;
  v = strtoll(s, &end, 10);
  if (errno)
    return -EINVAL;
  if (*end) {
    int found = 0;
    for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++)
      if (*end == units[i].unit) {
        mul = units[i].mul;
        found = 1;
      }
    if (!found || end[1])
      return -EINVAL;
  }
  if (v < 1 || v > TOKENS_EXPIRES_MAX_S / mul)
    return -EINVAL;
  *secs = v * mul;
  return 0;
}

static void tokens_hex(const unsigned char h[32], char hex[KOPT_SHA256_HEX_SIZE])
{
  for (int i = 0; i < 32; i++)
    snprintf(hex + 2 * i, 3, "%02x", h[i]);
}

int tokens_create(PGconn *conn, enum auth_role role, const char *name, long long expires_in_s,
                  char *out, size_t outlen, long long *id, char *err, size_t errlen)
{
  unsigned char h[32];
  char hex[KOPT_SHA256_HEX_SIZE], prefix[AUTH_PREFIX_LEN + 1], exp[24];
  const char *params[5];
  PGresult *r;
  int rc;

  if (role == AUTH_NONE) {
    snprintf(err, errlen, "role must be viewer, submitter or admin");
    return -EINVAL;
  }
  if (name && strlen(name) > TOKENS_NAME_MAX) {
    snprintf(err, errlen, "name: at most %d characters", TOKENS_NAME_MAX);
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
  tokens_hex(h, hex);
  OPENSSL_cleanse(h, sizeof(h));
  snprintf(prefix, sizeof(prefix), "%.*s", AUTH_PREFIX_LEN, out);
  snprintf(exp, sizeof(exp), "%lld", expires_in_s);
  params[0] = hex;
  params[1] = auth_role_name(role);
  params[2] = name ? name : "";
  params[3] = prefix;
  params[4] = expires_in_s > 0 ? exp : NULL;
  r = db_exec(conn, PGRES_TUPLES_OK, err, errlen,
              "INSERT INTO api_tokens (token_sha256, role, name, prefix, expires_at)"
              " VALUES (decode($1, 'hex'), $2, $3, $4,"
              "  now() + make_interval(secs => $5::bigint)) RETURNING id",
              5, params);
  if (!r)
    return -EIO;
  *id = atoll(PQgetvalue(r, 0, 0));
  PQclear(r);
  return 0;
}

static int tokens_cmd_create(PGconn *c, int argc, char **argv)
{
  static const struct option opts[] = { { "role", required_argument, NULL, 'r' },
                                        { "name", required_argument, NULL, 'n' },
                                        { "expires-in", required_argument, NULL, 'e' },
                                        { NULL, 0, NULL, 0 } };
  const char *role = NULL, *name = "", *expires = NULL;
  char err[512], tok[AUTH_TOKEN_LEN + 1];
  long long secs = 0, id = 0;
  int o;

  optind = 1;
  while ((o = getopt_long(argc, argv, "", opts, NULL)) != -1) {
    if (o == 'r')
      role = optarg;
    else if (o == 'n')
      name = optarg;
    else if (o == 'e')
      expires = optarg;
    else
      return 2;
  }
  if (auth_role_parse(role) == AUTH_NONE) {
    fprintf(stderr, "koptd: --role must be viewer, submitter or admin\n");
    return 2;
  }
  if (expires && tokens_parse_duration(expires, &secs)) {
    fprintf(stderr, "koptd: --expires-in %s: give a duration such as 30d, 12h, 90m, 3600s or"
                    " 2w, at most ten years\n", expires);
    return 2;
  }
  if (tokens_create(c, auth_role_parse(role), name, secs, tok, sizeof(tok), &id, err,
                    sizeof(err))) {
    fprintf(stderr, "koptd: cannot create token: %s\n", err);
    return 1;
  }
  printf("created %s token %lld%s%s%s%s; it is shown once, store it now:\n%s\n", role, id,
         *name ? " named " : "", name, expires ? ", expires in " : "", expires ? expires : "",
         tok);
  OPENSSL_cleanse(tok, sizeof(tok));
  return 0;
}

static int tokens_cmd_list(PGconn *c)
{
  char err[512];
  PGresult *r = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                        "SELECT id, coalesce(prefix, '-'), role,"
                        " CASE WHEN revoked_at IS NOT NULL THEN 'revoked'"
                        "      WHEN expires_at <= now() THEN 'expired' ELSE 'active' END,"
                        " kopt_ts(created_at), coalesce(kopt_ts(expires_at), 'never'),"
                        " coalesce(kopt_ts(revoked_at), '-'), name"
                        " FROM api_tokens ORDER BY id",
                        0, NULL);
  if (!r) {
    fprintf(stderr, "koptd: cannot list tokens: %s\n", err);
    return 1;
  }
  printf("%-6s %-12s %-9s %-7s %-27s %-27s %-27s %s\n", "ID", "PREFIX", "ROLE", "STATE",
         "CREATED", "EXPIRES", "REVOKED", "NAME");
  for (int i = 0; i < PQntuples(r); i++)
    printf("%-6s %-12s %-9s %-7s %-27s %-27s %-27s %s\n", PQgetvalue(r, i, 0),
           PQgetvalue(r, i, 1), PQgetvalue(r, i, 2), PQgetvalue(r, i, 3), PQgetvalue(r, i, 4),
           PQgetvalue(r, i, 5), PQgetvalue(r, i, 6), PQgetvalue(r, i, 7));
  PQclear(r);
  return 0;
}

/* The one token `which` names: an id, the whole token, or a prefix of it (from `token
 * list`). *id set, or an error printed and 1 returned. */
static int tokens_find(PGconn *c, const char *which, long long *id)
{
  char err[512], hex[KOPT_SHA256_HEX_SIZE], pre[AUTH_PREFIX_LEN + 1];
  const char *params[1];
  unsigned char h[32];
  size_t len = strlen(which);
  PGresult *r;
  int n;

  if (len > 0 && len <= 19 && strspn(which, "0123456789") == len) {
    params[0] = which;
    r = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT id FROM api_tokens WHERE id = $1::bigint", 1, params);
  } else if (len == AUTH_TOKEN_LEN && strncmp(which, "kopt_", 5) == 0) {
    if (auth_token_hash(which, len, h))
      return 1;
    tokens_hex(h, hex);
    params[0] = hex;
    r = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT id FROM api_tokens WHERE token_sha256 = decode($1, 'hex')", 1, params);
  } else if (len >= TOKENS_MATCH_MIN && len < AUTH_TOKEN_LEN && strncmp(which, "kopt_", 5) == 0) {
    /* Only the first AUTH_PREFIX_LEN characters are stored. */
    snprintf(pre, sizeof(pre), "%.*s", AUTH_PREFIX_LEN, which);
    params[0] = pre;
    r = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT id FROM api_tokens WHERE starts_with(prefix, $1) AND revoked_at IS NULL",
                1, params);
  } else {
    fprintf(stderr, "koptd: '%s' is not a token id, a token, or a prefix of at least %d"
                    " characters from `koptd token list`\n", which, TOKENS_MATCH_MIN);
    return 1;
  }
  if (!r) {
    fprintf(stderr, "koptd: cannot look the token up: %s\n", err);
    return 1;
  }
  n = PQntuples(r);
  if (n == 1)
    *id = atoll(PQgetvalue(r, 0, 0));
  else if (n == 0)
    fprintf(stderr, "koptd: no token matches '%s' (see `koptd token list`)\n", which);
  else
    fprintf(stderr, "koptd: %d active tokens start with '%s': give the id instead\n", n, which);
  PQclear(r);
  return n == 1 ? 0 : 1;
}

static int tokens_cmd_revoke(PGconn *c, const char *which)
{
  char err[512], idbuf[24];
  const char *params[1] = { idbuf };
  long long id;
  PGresult *r;

  if (tokens_find(c, which, &id))
    return 1;
  snprintf(idbuf, sizeof(idbuf), "%lld", id);
  /* The row's trigger announces the change: every koptd forgets the token at once. */
  r = db_exec(c, PGRES_TUPLES_OK, err, sizeof(err),
              "WITH old AS (SELECT id, revoked_at FROM api_tokens WHERE id = $1::bigint)"
              " UPDATE api_tokens t SET revoked_at = coalesce(old.revoked_at, now())"
              " FROM old WHERE t.id = old.id"
              " RETURNING old.revoked_at IS NOT NULL, t.role, coalesce(t.prefix, '-'), t.name",
              1, params);
  if (!r) {
    fprintf(stderr, "koptd: cannot revoke token %lld: %s\n", id, err);
    return 1;
  }
  if (PQntuples(r) == 1)
    printf("%s %s token %lld (%s%s%s)\n",
           strcmp(PQgetvalue(r, 0, 0), "t") == 0 ? "already revoked:" : "revoked",
           PQgetvalue(r, 0, 1), id, PQgetvalue(r, 0, 2), *PQgetvalue(r, 0, 3) ? ", " : "",
           PQgetvalue(r, 0, 3));
  PQclear(r);
  return 0;
}

int tokens_cmd(const char *database_url, int argc, char **argv)
{
  char err[512];
  unsigned applied;
  PGconn *c = NULL;
  int rc = 1;
  const char *sub = argc >= 2 ? argv[1] : "";

  if (strcmp(sub, "create") && strcmp(sub, "list") && strcmp(sub, "revoke")) {
    fprintf(stderr, "koptd: %s", TOKENS_USAGE);
    return 2;
  }
  if ((!strcmp(sub, "list") && argc != 2) || (!strcmp(sub, "revoke") && argc != 3)) {
    fprintf(stderr, "koptd: %s", TOKENS_USAGE);
    return 2;
  }
  c = db_connect(database_url, err, sizeof(err));
  if (!c) {
    fprintf(stderr, "koptd: cannot connect to the database: %s\n", err);
    goto out;
  }
  if (migrate_apply(c, &applied, err, sizeof(err)) != 0) {
    fprintf(stderr, "koptd: migration failed: %s\n", err);
    goto out;
  }
  if (!strcmp(sub, "create"))
    rc = tokens_cmd_create(c, argc - 1, argv + 1);
  else if (!strcmp(sub, "list"))
    rc = tokens_cmd_list(c);
  else
    rc = tokens_cmd_revoke(c, argv[2]);
out:
  if (c)
    PQfinish(c);
  return rc;
}
