/* migrate: numbered SQL migrations (embedded at build time from migrations/), each applied
 * once, in its own transaction, while holding a session advisory lock, so that several koptd
 * starting together against one database all succeed and apply each file exactly once. */
#ifndef KOPT_MIGRATE_H
#define KOPT_MIGRATE_H
#include <libpq-fe.h>
#include <stddef.h>

struct migration {
  int version;
  const char *name;
  const char *sql;
};

extern const struct migration migrate_embedded[];
extern const unsigned migrate_embedded_count;

/* Applies pending migrations; *applied gets how many were new. Blocking: call before the
 * loop starts or from a pool thread. 0 or negative errno; err says what failed. */
int migrate_apply(PGconn *conn, unsigned *applied, char *err, size_t errlen);
/* Highest applied version (0 when none, -errno on failure). */
int migrate_current(PGconn *conn);
/* Highest version this binary knows. */
int migrate_latest(void);

#endif
