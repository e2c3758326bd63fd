/* tokens: the `koptd token create|list|revoke` commands over the api_tokens table. A new
 * token is printed once (the last line) and stored as its SHA-256 plus a short prefix that
 * names it in listings; revoking one changes its row, whose trigger tells every koptd to
 * forget it at once (NOTIFY kopt_tokens_changed). */
#ifndef KOPT_TOKENS_H
#define KOPT_TOKENS_H
#include <libpq-fe.h>
#include <stddef.h>

#include "auth.h"

#define TOKENS_EXPIRES_MAX_S (10LL * 366 * 86400) /* --expires-in: at most ten years */
#define TOKENS_NAME_MAX 128
#define TOKENS_MATCH_MIN 8 /* shortest prefix revoke accepts ("kopt_" + 3) */

/* "30d", "12h", "90m", "45s", "2w" or plain seconds -> seconds in 1..TOKENS_EXPIRES_MAX_S.
 * 0 or -EINVAL. */
int tokens_parse_duration(const char *s, long long *secs);
/* Inserts a token (expires_in_s 0 = never); writes it into out (>= AUTH_TOKEN_LEN + 1) and
 * its id into *id. 0 or -errno with err filled. */
int tokens_create(PGconn *conn, enum auth_role role, const char *name, long long expires_in_s,
                  char *out, size_t outlen, long long *id, char *err, size_t errlen);
/* `koptd token ARGS...` (argv[0] is "token"): create, list, revoke. The exit status. */
int tokens_cmd(const char *database_url, int argc, char **argv);

#endif
