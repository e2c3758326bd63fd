/* round_commit — one round into PostgreSQL; see round_commit.h. */
#include "round_commit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "log.h"
#include "secret.h"

/* One round to commit: its record, its candidate (when there is one) and the job's new best
 * (when accepted). All borrowed. */
struct round_commit_tx {
  int round;
  const char *rec;            /* the record, secrets redacted */
  const char *cand_src, *cand_sha;
  int accepted;
  const char *best_json;
};

/* The transaction of round_commit: 1 committed, 0 lease lost, -1 error. */
static int round_commit_once(struct job_ctx *j, void *arg)
{
  const struct round_commit_tx *tx = arg;
  char err[512], rnd[16];
  PGresult *r;

  if (job_tx_begin(j->w))
    return -1;
  snprintf(rnd, sizeof(rnd), "%d", tx->round);
  if (tx->cand_src) {
    const char *pk[2] = { tx->cand_sha, tx->cand_src };
    r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err),
                "INSERT INTO kernels (sha256, source) VALUES ($1, $2) ON CONFLICT DO NOTHING", 2,
                pk);
    if (!r)
      goto fail;
    PQclear(r);
  }
  {
    /* The record goes in only while we hold the lease (the SELECT guards the INSERT). */
    const char *pr[4] = { j->id, rnd, tx->rec, j->owner };
    r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err),
                "INSERT INTO rounds (job_id, round, level_reached, escalation, evidence, hotspot,"
                " hypothesis, rewrite_family, proposer, kernel_sha256, diff, correctness, timing,"
                " accepted, reject_reason, tokens)"
                " SELECT $1::uuid, $2::int, (x->>'level_reached')::int, x->'escalation',"
                " x->'evidence', x->>'hotspot', x->>'hypothesis', x->>'rewrite_family',"
                " x->>'proposer', x->>'kernel_sha256', x->>'diff', x->'correctness', x->'timing',"
                " (x->>'accepted')::bool, x->>'reject_reason', x->'tokens'"
                " FROM (SELECT $3::jsonb AS x) v"
                " WHERE EXISTS (SELECT 1 FROM jobs WHERE id = $1::uuid AND lease_owner = $4"
                "               AND state = 'running')"
                " ON CONFLICT (job_id, round) DO NOTHING",
                4, pr);
    if (!r)
      goto fail;
    if (atoi(PQcmdTuples(r)) != 1) {
      PQclear(r);
      job_tx_end(j->w, 0);
      return 0;
    }
    PQclear(r);
  }
  if (tx->accepted && tx->best_json) {
    const char *pb[1] = { tx->best_json };
    if (job_update(j, "best = $3::jsonb", 1, pb) != 1) {
      snprintf(err, sizeof(err), "the job's best was not written");
      goto fail;
    }
  }
  return job_tx_end(j->w, 1) == 0 ? 1 : -1;
fail:
  log_error("round.commit_failed", "job=%s round=%d err=\"%.300s\"", j->id, tx->round, err);
  job_tx_end(j->w, 0);
  return -1;
}

int round_commit(struct job_ctx *j, int round, const json_t *rec, const char *cand_src,
                 const char *cand_sha, int accepted, const char *best_json)
{
  char *rectxt = json_dumps(rec, JSON_COMPACT);
  int rc = -1;

  if (rectxt && secret_found(rectxt)) { /* reasons and messages can quote a kernel */
    char *clean = secret_redact(rectxt);
    free(rectxt);
    rectxt = clean;
  }
  if (rectxt) {
    struct round_commit_tx tx = { round, rectxt, cand_src, cand_sha, accepted, best_json };
    rc = job_commit(j, round_commit_once, &tx);
  }
  free(rectxt);
  return rc;
}
