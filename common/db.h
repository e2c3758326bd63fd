/* db: a fixed pool of libpq connections used from libuv's thread pool, so the event loop
 * never waits on PostgreSQL. A pool thread acquires a connection, runs blocking libpq
 * calls, and releases it; the loop thread only ever sees the results. */
#ifndef KOPT_DB_H
#define KOPT_DB_H
#include <libpq-fe.h>
#include <pthread.h>
#include <stddef.h>

struct db_pool {
  char *conninfo;          /* owned */
  PGconn **conns;          /* owned; NULL slots are reconnected lazily */
  int *busy;
  unsigned size;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int closing;
};

/* Connects size connections; fails (-ECONNREFUSED, err filled) if the first cannot. */
int db_pool_init(struct db_pool *p, const char *conninfo, unsigned size, char *err,
                 size_t errlen);
/* Blocks until a connection is free; returns it healthy (reset if it broke) or NULL when
 * the database cannot be reached (err filled). Pair with db_pool_release. */
PGconn *db_pool_acquire(struct db_pool *p, char *err, size_t errlen);
void db_pool_release(struct db_pool *p, PGconn *c);
void db_pool_close(struct db_pool *p);

/* Opens one standalone connection (for subcommands, LISTEN). NULL + err on failure. */
PGconn *db_connect(const char *conninfo, char *err, size_t errlen);

/* PQexecParams with text params; returns the result (caller PQclears) or NULL on failure
 * with err filled (then also nothing to clear). want is PGRES_TUPLES_OK/PGRES_COMMAND_OK. */
PGresult *db_exec(PGconn *c, ExecStatusType want, char *err, size_t errlen, const char *sql,
                  int nparams, const char *const *params);
/* True when the last failure looks like a broken connection rather than a bad query. */
int db_conn_broken(PGconn *c);

#endif
