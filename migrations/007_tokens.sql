-- 007: tokens that can expire, be listed and revoked by a short prefix; revocation that
-- reaches every koptd at once (NOTIFY kopt_tokens_changed empties their token caches);
-- submitters' job lists by owner; the job document names the token that submitted it
-- (jobs.owner_token_name).

ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;
-- The token's first characters ("kopt_" + 7), shown by `koptd token list` and accepted by
-- `koptd token revoke`: 42 of the 256 random bits, too few to guess the rest from.
-- NULL for tokens made before this migration (revoke those by id).
ALTER TABLE api_tokens ADD COLUMN prefix text CHECK (prefix IS NULL OR length(prefix) <= 16);

CREATE FUNCTION kopt_tokens_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kopt_tokens_changed', OLD.id::text);
  RETURN NULL;
END
$$;
CREATE TRIGGER api_tokens_changed AFTER UPDATE OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION kopt_tokens_changed();

-- A submitter lists only its own jobs, newest first.
CREATE INDEX jobs_owner_seq ON jobs (owner_token_id, seq DESC);

-- The job document names its submitter. The name is kept on the job (tokens are never
-- renamed) rather than looked up in kopt_job_json: a sub-select there would stop
-- PostgreSQL from inlining the function, which every insert, event and read calls.
ALTER TABLE jobs ADD COLUMN owner_token_name text;
ALTER TABLE jobs DISABLE TRIGGER USER; -- a backfill is not a change to announce or stamp
UPDATE jobs j SET owner_token_name = t.name FROM api_tokens t WHERE t.id = j.owner_token_id;
ALTER TABLE jobs ENABLE TRIGGER USER;

-- 004's document (infra_retries included) plus the submitter.
CREATE OR REPLACE FUNCTION kopt_job_json(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'name', j.name, 'state', j.state, 'backend', j.backend,
    'priority', j.priority, 'rounds', j.rounds, 'policy', j.policy, 'proposer', j.proposer,
    'attempts', j.attempts, 'infra_retries', j.infra_retries,
    'error', j.error, 'cancel_requested', j.cancel_requested,
    'created_at', kopt_ts(j.created_at), 'updated_at', kopt_ts(j.updated_at),
    'started_at', kopt_ts(j.started_at), 'finished_at', kopt_ts(j.finished_at),
    'baseline', j.baseline, 'best', j.best, 'progress', j.progress, 'worker', j.worker,
    'batch_id', j.batch_id,
    'submitted_by', CASE WHEN j.owner_token_id IS NULL THEN NULL
                    ELSE jsonb_build_object('token_id', j.owner_token_id,
                                            'token_name', coalesce(j.owner_token_name, ''))
                    END)
$$;
