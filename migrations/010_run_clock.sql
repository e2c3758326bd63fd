-- 010: a job's device time is the time its runs held a device, not its end minus its start.
--
-- On the H200 the held-out run's layernorm job was claimed at the end of one session, lost its
-- worker when that session's machine went away, and was claimed again three hours later: the
-- batch reported 10957 device-seconds for a job that ran 43 s. A run's clock now lives on the
-- job row, kept by a trigger, so every path that starts or ends a run (claim, re-claim of an
-- expired lease, the worker's finish or requeue, koptd's release, cancel) is counted the same
-- way without each of them having to remember it.
--
-- run_s           seconds of the job's runs that have ended.
-- run_started_at  when the run in progress was claimed; NULL when none is.
-- run_alive_at    the run's last sign of life: the latest update made while its lease was
--                 still valid (lease renewals, progress, koptd's release of a dead worker). A run whose lease lapsed ended there, not when
--                 somebody noticed: koptd may notice hours later, on its next start.
-- rounds.run_s    the job's device time when the round was recorded (seconds to best).
ALTER TABLE jobs
  ADD COLUMN run_s double precision NOT NULL DEFAULT 0 CHECK (run_s >= 0),
  ADD COLUMN run_started_at timestamptz,
  ADD COLUMN run_alive_at timestamptz;
ALTER TABLE rounds ADD COLUMN run_s double precision CHECK (run_s >= 0);

-- Runs that ended before this migration are counted the only way they can be: end minus start.
UPDATE jobs SET run_s = greatest(0, extract(epoch FROM finished_at - started_at))
  WHERE finished_at IS NOT NULL AND started_at IS NOT NULL;
UPDATE jobs SET run_started_at = started_at, run_alive_at = updated_at
  WHERE state = 'running' AND started_at IS NOT NULL;
UPDATE rounds r SET run_s = greatest(0, extract(epoch FROM r.created_at - j.started_at))
  FROM jobs j WHERE j.id = r.job_id AND j.started_at IS NOT NULL;

-- A claim always spends an attempt or an infra retry (daemon/scheduler.c), so a claim of a
-- running job whose lease lapsed is told from a renewal by those counters.
CREATE FUNCTION kopt_job_run_clock() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  began boolean := NEW.state = 'running' AND (OLD.state <> 'running'
                     OR NEW.attempts <> OLD.attempts OR NEW.infra_retries <> OLD.infra_retries);
  ended boolean := OLD.state = 'running' AND (NEW.state <> 'running' OR began);
  stop timestamptz;
BEGIN
  IF ended AND OLD.run_started_at IS NOT NULL THEN
    stop := CASE WHEN OLD.lease_expires_at IS NULL OR OLD.lease_expires_at >= now() THEN now()
                 ELSE coalesce(OLD.run_alive_at, OLD.run_started_at) END;
    NEW.run_s := OLD.run_s + greatest(0, extract(epoch FROM stop - OLD.run_started_at));
  END IF;
  IF began THEN
    NEW.run_started_at := now();
    NEW.run_alive_at := now();
  ELSIF NEW.state <> 'running' THEN
    NEW.run_started_at := NULL;
    NEW.run_alive_at := NULL;
  ELSIF OLD.lease_expires_at >= now() THEN
    NEW.run_alive_at := now();
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER jobs_run_clock BEFORE UPDATE ON jobs
  FOR EACH ROW EXECUTE FUNCTION kopt_job_run_clock();

-- The job's device time so far: its ended runs and the one in progress.
CREATE FUNCTION kopt_job_run_seconds(j jobs) RETURNS float8 LANGUAGE sql STABLE AS $$
  SELECT j.run_s + CASE WHEN j.state = 'running' AND j.run_started_at IS NOT NULL
                        THEN greatest(0, extract(epoch FROM now() - j.run_started_at))
                        ELSE 0 END
$$;

CREATE FUNCTION kopt_round_run_clock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.run_s IS NULL THEN
    SELECT kopt_job_run_seconds(j) INTO NEW.run_s FROM jobs j WHERE j.id = NEW.job_id;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER rounds_run_clock BEFORE INSERT ON rounds
  FOR EACH ROW EXECUTE FUNCTION kopt_round_run_clock();

-- A batch's report (005) with both clocks read from the runs: seconds to best is the job's
-- device time when its best round was recorded, device seconds its device time in all.
CREATE OR REPLACE FUNCTION kopt_batch_json(b batches) RETURNS jsonb LANGUAGE sql STABLE AS $$
  WITH j AS (
    SELECT j.id, j.seq, j.name, j.state, j.error, j.spec->>'operator' AS operator,
      j.rounds AS budget, j.pattern_version, j.best,
      CASE WHEN j.state = 'succeeded' AND jsonb_typeof(j.best->'speedup') = 'number'
           THEN (j.best->>'speedup')::float8 END AS speedup,
      CASE WHEN jsonb_typeof(j.best->'round') = 'number' THEN (j.best->>'round')::int END
        AS best_round,
      (SELECT count(*) FROM rounds r WHERE r.job_id = j.id) AS rounds_run,
      (SELECT count(*) FROM rounds r WHERE r.job_id = j.id AND r.level_reached = 1
         AND r.evidence->'l1'->>'settled_by' IS NOT NULL) AS settled,
      (SELECT r.run_s FROM rounds r
         WHERE r.job_id = j.id AND r.round = (j.best->>'round')::int
           AND (j.best->>'round')::int > 0) AS to_best_s,
      CASE WHEN j.started_at IS NOT NULL THEN kopt_job_run_seconds(j) END AS device_s
    FROM jobs j WHERE j.batch_id = b.id),
  ok AS (SELECT * FROM j WHERE j.state = 'succeeded' AND j.speedup > 0)
  SELECT jsonb_build_object(
    'id', b.id, 'name', b.name, 'created_at', kopt_ts(b.created_at),
    'finished_at', kopt_ts(b.finished_at), 'policy', b.policy,
    'pattern_index', b.pattern_version,
    'pattern_index_frozen', (SELECT v.frozen FROM pattern_index_versions v
                             WHERE v.version = b.pattern_version),
    'synthesize_after', b.synthesize_after, 'synthesized_version', b.synthesized_version,
    'synthesis_error', b.synthesis_error,
    'state', CASE WHEN EXISTS (SELECT 1 FROM j WHERE j.state IN ('queued', 'running'))
                  THEN 'running' ELSE 'done' END,
    'jobs', coalesce((SELECT jsonb_agg(jsonb_build_object(
                 'id', j.id, 'name', j.name, 'operator', j.operator, 'state', j.state,
                 'speedup', round(j.speedup::numeric, 4), 'best_round', j.best_round,
                 'rounds', j.rounds_run, 'budget', j.budget, 'settled_l1', j.settled,
                 'seconds_to_best', round(j.to_best_s::numeric, 3),
                 'device_seconds', round(j.device_s::numeric, 3),
                 'pattern_index', j.pattern_version,
                 'levels', j.best->'levels', 'stop_reason', j.best->'stop_reason',
                 'error', j.error) ORDER BY j.seq) FROM j), '[]'),
    'aggregate', (SELECT jsonb_build_object(
        'jobs', (SELECT count(*) FROM j),
        'queued', (SELECT count(*) FROM j WHERE j.state = 'queued'),
        'running', (SELECT count(*) FROM j WHERE j.state = 'running'),
        'succeeded', (SELECT count(*) FROM j WHERE j.state = 'succeeded'),
        'failed', (SELECT count(*) FROM j WHERE j.state = 'failed'),
        'cancelled', (SELECT count(*) FROM j WHERE j.state = 'cancelled'),
        'geomean_speedup', (SELECT round(exp(avg(ln(ok.speedup)))::numeric, 4) FROM ok),
        'median_speedup', (SELECT round(percentile_cont(0.5) WITHIN GROUP
                                        (ORDER BY ok.speedup)::numeric, 4) FROM ok),
        'geomean_speedup_all', (SELECT round(exp(sum(ln(coalesce(j.speedup, 1.0)))
                                                 / nullif(count(*), 0))::numeric, 4)
                                FROM j WHERE j.state IN ('succeeded', 'failed', 'cancelled')),
        'at_least_2x', (SELECT count(*) FROM ok WHERE ok.speedup >= 2),
        'at_least_5x', (SELECT count(*) FROM ok WHERE ok.speedup >= 5),
        'speedups', coalesce((SELECT jsonb_agg(round(ok.speedup::numeric, 4)
                                               ORDER BY ok.speedup) FROM ok), '[]'),
        'rounds_to_best_median', (SELECT percentile_cont(0.5) WITHIN GROUP
                                         (ORDER BY coalesce(ok.best_round, 0)) FROM ok),
        'seconds_to_best_median', (SELECT round(percentile_cont(0.5) WITHIN GROUP
                                               (ORDER BY ok.to_best_s)::numeric, 3)
                                   FROM ok WHERE ok.to_best_s IS NOT NULL),
        'rounds', (SELECT coalesce(sum(j.rounds_run), 0) FROM j),
        'rounds_settled_l1', (SELECT coalesce(sum(j.settled), 0) FROM j),
        'l1_share', (SELECT round(sum(j.settled)::numeric / nullif(sum(j.rounds_run), 0), 4)
                     FROM j),
        'device_seconds', (SELECT round(coalesce(sum(j.device_s), 0)::numeric, 3) FROM j),
        'failures', coalesce((SELECT jsonb_agg(jsonb_build_object(
                        'id', j.id, 'name', j.name, 'operator', j.operator, 'state', j.state,
                        'reason', coalesce(j.error, 'job ended ' || j.state)) ORDER BY j.seq)
                      FROM j WHERE j.state IN ('failed', 'cancelled')), '[]'))))
$$;
