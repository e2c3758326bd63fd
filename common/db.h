/* db: a fixed pool of libpq connections used from libuv's thread pool, so the event loop
 * never waits on PostgreSQL. A pool thread acquires a connection, runs blocking libpq
 * calls, and releases it; the loop thread only ever sees the results. */
#ifndef KOPT_DB_H
#define KOPT_DB_H
#include <libpq-fe.h>
#include <pthread.h>
#include <stddef.h>

#define DB_PREPARED_MAX 16         /* statements one pool connection keeps prepared */

/* A statement sent by name: prepared (PQprepare) on a pool connection the first time that
 * connection runs it, then executed with PQexecPrepared, so PostgreSQL parses and plans it
 * once per session rather than on every call. Descriptors are static and named uniquely
 * in the process ("kopt_" prefix); the pool remembers them by address. */
struct db_stmt {
  const char *name;
  const char *sql;
  int nparams;
};

/* One connection of the pool. prepared lists what this session has prepared: it is
 * touched only by the thread holding the slot, and emptied whenever the connection is
 * reset or replaced (a new session has no prepared statements). */
struct db_slot {
  PGconn *conn;            /* owned; NULL: reconnected on the next acquire */
  int busy;
  unsigned nprepared;
  const struct db_stmt *prepared[DB_PREPARED_MAX]; /* borrowed (static descriptors) */
};

struct db_pool {
  char *conninfo;          /* owned */
  struct db_slot *slots;   /* owned, size of them */
  unsigned size;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int closing;
  unsigned long long prepares;   /* PQprepare calls that succeeded (under mu) */
  unsigned long long lost;       /* statements a session had lost (SQLSTATE 26000; under mu) */
};

/* Connects size connections; fails (-ECONNREFUSED, err filled) if the first cannot. */
int db_pool_init(struct db_pool *p, const char *conninfo, unsigned size, char *err,
                 size_t errlen);
/* Blocks until a connection is free; returns it healthy (reset if it broke) or NULL when
 * the database cannot be reached (err filled). Pair with db_pool_release. */
PGconn *db_pool_acquire(struct db_pool *p, char *err, size_t errlen);
void db_pool_release(struct db_pool *p, PGconn *c);
void db_pool_close(struct db_pool *p);
/* Runs the prepared statement s on c, a connection acquired from p (text params, text
 * results), preparing it first on this connection's first use. A statement the session
 * lost (SQLSTATE 26000: DISCARD ALL, a reconnect behind the pool's back) is prepared again
 * and run once more. Returns 0 with *out the result (caller PQclears), -EIO with err filled,
 * or -ESTALE: the statement was missing inside a transaction, which that error aborted;
 * roll back and run the transaction again (its statements are prepared afresh). */
int db_pool_exec(struct db_pool *p, PGconn *c, const struct db_stmt *s, ExecStatusType want,
                 const char *const *params, PGresult **out, char *err, size_t errlen);
/* Statements prepared so far, and statements found lost by their session. */
void db_pool_prepare_counts(struct db_pool *p, unsigned long long *prepares,
                            unsigned long long *lost);

/* Opens one standalone connection (for subcommands, LISTEN). NULL + err on failure. */
PGconn *db_connect(const char *conninfo, char *err, size_t errlen);

/* PQexecParams with text params; returns the result (caller PQclears) or NULL on failure
 * with err filled (then also nothing to clear). want is PGRES_TUPLES_OK/PGRES_COMMAND_OK. */
PGresult *db_exec(PGconn *c, ExecStatusType want, char *err, size_t errlen, const char *sql,
                  int nparams, const char *const *params);
/* True when the last failure looks like a broken connection rather than a bad query. */
int db_conn_broken(PGconn *c);

#endif
