#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "migrate.h"

/* "kopt" in ASCII: the advisory lock key every koptd agrees on. */
#define MIGRATE_LOCK_KEY "1802465396"

static int migrate_exec(PGconn *conn, const char *sql, char *err, size_t errlen)
{
  PGresult *r = PQexec(conn, sql);
  int rc = 0;
  ExecStatusType st = PQresultStatus(r);
  if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
    snprintf(err, errlen, "%s", PQresultErrorMessage(r));
    rc = -EIO;
  }
  PQclear(r);
  return rc;
}

int migrate_latest(void)
{
  int v = 0;
  for (unsigned i = 0; i < migrate_embedded_count; i++)
    if (migrate_embedded[i].version > v)
      v = migrate_embedded[i].version;
  return v;
}

int migrate_current(PGconn *conn)
{
  PGresult *r = PQexec(conn, "SELECT coalesce(max(version), 0) FROM kopt_schema_migrations");
  int v;
  if (PQresultStatus(r) != PGRES_TUPLES_OK) {
    PQclear(r);
    return -ENOENT;
  }
  v = atoi(PQgetvalue(r, 0, 0));
  PQclear(r);
  return v;
}

int migrate_apply(PGconn *conn, unsigned *applied, char *err, size_t errlen)
{
  int rc, locked = 0;
  *applied = 0;

  /* Session lock, not xact lock: it must span the table creation and every file. */
  rc = migrate_exec(conn, "SELECT pg_advisory_lock(" MIGRATE_LOCK_KEY ")", err, errlen);
  if (rc)
    goto out;
  locked = 1;
  rc = migrate_exec(conn,
                    "CREATE TABLE IF NOT EXISTS kopt_schema_migrations ("
                    " version integer PRIMARY KEY, name text NOT NULL,"
                    " applied_at timestamptz NOT NULL DEFAULT now())",
                    err, errlen);
  if (rc)
    goto out;
  for (unsigned i = 0; i < migrate_embedded_count; i++) {
    const struct migration *m = &migrate_embedded[i];
    char vbuf[16];
    const char *params[2] = { vbuf, m->name };
    PGresult *r;
    int done;

    snprintf(vbuf, sizeof(vbuf), "%d", m->version);
    r = PQexecParams(conn, "SELECT 1 FROM kopt_schema_migrations WHERE version = $1", 1, NULL,
                     params, NULL, NULL, 0);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
      snprintf(err, errlen, "%s", PQresultErrorMessage(r));
      PQclear(r);
      rc = -EIO;
      goto out;
    }
    done = PQntuples(r) > 0;
    PQclear(r);
    if (done)
      continue;
    rc = migrate_exec(conn, "BEGIN", err, errlen);
    if (rc)
      goto out;
    rc = migrate_exec(conn, m->sql, err, errlen);
    if (!rc) {
      r = PQexecParams(conn, "INSERT INTO kopt_schema_migrations (version, name) VALUES ($1, $2)",
                       2, NULL, params, NULL, NULL, 0);
      if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        snprintf(err, errlen, "%s", PQresultErrorMessage(r));
        rc = -EIO;
      }
      PQclear(r);
    }
    if (rc) {
      char e2[256];
      size_t n = strlen(err);
      snprintf(err + n, errlen > n ? errlen - n : 0, " (in migration %s)", m->name);
      migrate_exec(conn, "ROLLBACK", e2, sizeof(e2));
      goto out;
    }
    rc = migrate_exec(conn, "COMMIT", err, errlen);
    if (rc)
      goto out;
    log_info("migrate.applied", "version=%d name=%s", m->version, m->name);
    (*applied)++;
  }
out:
  if (locked) {
    char e2[256];
    migrate_exec(conn, "SELECT pg_advisory_unlock(" MIGRATE_LOCK_KEY ")", e2, sizeof(e2));
  }
  return rc;
}
