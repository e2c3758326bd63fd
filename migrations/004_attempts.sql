-- 004: attempts count the job's own faults only (issue 8, item 11).
--
-- attempts       runs charged to the job: the first claim, and each claim after a run that
--                ended by the job's own fault without finishing it (last_attempt_end = 'job').
-- infra_retries  claims after a run that ended by a fault outside the job: koptd or its
--                worker killed, the database lost mid-step, a drain. Such a run records
--                nothing (a crashed process cannot), so a run whose end is not recorded as
--                the job's counts here. Capped by the worker (KOPT_MAX_INFRA_RETRIES), so a
--                koptd that crashes forever cannot loop a job forever.
-- last_attempt_end  how the latest run ended, written by whoever knew: 'job' by the worker
--                (it requeued the job for a fault of its kernel), 'infra' by koptd (it expired
--                the lease of a worker that died or stopped); NULL while a run is in progress.
--                The claim reads it and clears it.
ALTER TABLE jobs
  ADD COLUMN infra_retries integer NOT NULL DEFAULT 0 CHECK (infra_retries >= 0),
  ADD COLUMN last_attempt_end text CHECK (last_attempt_end IN ('job', 'infra'));

CREATE OR REPLACE FUNCTION kopt_job_json(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'name', j.name, 'state', j.state, 'backend', j.backend,
    'priority', j.priority, 'rounds', j.rounds, 'policy', j.policy, 'proposer', j.proposer,
    'attempts', j.attempts, 'infra_retries', j.infra_retries,
    'error', j.error, 'cancel_requested', j.cancel_requested,
    'created_at', kopt_ts(j.created_at), 'updated_at', kopt_ts(j.updated_at),
    'started_at', kopt_ts(j.started_at), 'finished_at', kopt_ts(j.finished_at),
    'baseline', j.baseline, 'best', j.best, 'progress', j.progress, 'worker', j.worker,
    'batch_id', j.batch_id)
$$;
