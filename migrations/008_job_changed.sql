-- 008: every change to a job is announced, not only state and progress changes. A change
-- that makes a job event (state, progress, cancel_requested) is announced on
-- kopt_job_events as before; any other (attempts, lease, best, error, ...) and DELETE on
-- kopt_job_changed, with the job's id ("*" on TRUNCATE). koptd's cache of job documents
-- (GET /v1/jobs/{id}, GET /v1/jobs) drops what a change touched when it hears of either,
-- so it never serves a document older than a committed change.

CREATE OR REPLACE FUNCTION kopt_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ev bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('kopt_job_changed', OLD.id::text);
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' OR NEW.state IS DISTINCT FROM OLD.state
     OR NEW.progress IS DISTINCT FROM OLD.progress
     OR NEW.cancel_requested IS DISTINCT FROM OLD.cancel_requested THEN
    INSERT INTO job_events (job_id, kind, data)
      VALUES (NEW.id, CASE WHEN TG_OP = 'UPDATE' AND NEW.state = OLD.state
                           THEN 'progress' ELSE 'state' END, kopt_job_json(NEW))
      RETURNING id INTO ev;
    PERFORM pg_notify('kopt_job_events',
                      json_build_object('job_id', NEW.id, 'event_id', ev,
                                        'state', NEW.state)::text);
  ELSE
    PERFORM pg_notify('kopt_job_changed', NEW.id::text);
  END IF;
  IF NEW.state = 'queued' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'queued') THEN
    PERFORM pg_notify('kopt_jobs_queued', NEW.backend);
  END IF;
  RETURN NULL;
END
$$;
DROP TRIGGER jobs_changed ON jobs;
CREATE TRIGGER jobs_changed AFTER INSERT OR UPDATE OR DELETE ON jobs
  FOR EACH ROW EXECUTE FUNCTION kopt_job_changed();

CREATE FUNCTION kopt_jobs_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('kopt_job_changed', '*');
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_truncated AFTER TRUNCATE ON jobs
  FOR EACH STATEMENT EXECUTE FUNCTION kopt_jobs_truncated();
