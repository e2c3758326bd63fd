-- 001: the core tables: tokens, kernels, jobs, job events, rounds, artifacts, workers,
-- batches, patterns. Applied once, in a transaction, by `koptd migrate`.

CREATE TABLE api_tokens (
  id            bigserial PRIMARY KEY,
  token_sha256  bytea NOT NULL UNIQUE CHECK (octet_length(token_sha256) = 32),
  role          text NOT NULL CHECK (role IN ('viewer', 'submitter', 'admin')),
  name          text NOT NULL DEFAULT '' CHECK (length(name) <= 128),
  created_at    timestamptz NOT NULL DEFAULT now(),
  revoked_at    timestamptz
);

-- Sources, content-addressed: a job's spec names them by sha256.
CREATE TABLE kernels (
  sha256      text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  source      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE batches (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL DEFAULT '',
  spec        jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE jobs (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq               bigserial NOT NULL UNIQUE,          -- list order and cursor
  name              text,
  state             text NOT NULL DEFAULT 'queued'
                    CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  backend           text NOT NULL CHECK (backend IN ('cuda', 'ascend', 'interp', 'any')),
  priority          integer NOT NULL DEFAULT 0 CHECK (priority BETWEEN -100 AND 100),
  rounds            integer NOT NULL CHECK (rounds BETWEEN 0 AND 100),
  policy            text NOT NULL,
  proposer          text NOT NULL,
  spec              jsonb NOT NULL,
  kernel_sha256     text NOT NULL REFERENCES kernels (sha256),
  reference_sha256  text REFERENCES kernels (sha256),
  batch_id          uuid REFERENCES batches (id),
  owner_token_id    bigint REFERENCES api_tokens (id),
  idempotency_key   text CHECK (length(idempotency_key) BETWEEN 1 AND 255),
  request_sha256    text,
  cancel_requested  boolean NOT NULL DEFAULT false,
  attempts          integer NOT NULL DEFAULT 0,
  lease_owner       text,
  lease_expires_at  timestamptz,
  worker            text,
  error             text,
  baseline          jsonb,
  best              jsonb,
  progress          jsonb,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  started_at        timestamptz,
  finished_at       timestamptz
);
CREATE UNIQUE INDEX jobs_idempotency ON jobs (owner_token_id, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX jobs_claim ON jobs (priority DESC, seq) WHERE state = 'queued';
CREATE INDEX jobs_state_seq ON jobs (state, seq DESC);
CREATE INDEX jobs_lease ON jobs (lease_expires_at) WHERE state = 'running';

-- Every state change, persisted: server-sent events replay from here (Last-Event-ID);
-- NOTIFY only says "look".
CREATE TABLE job_events (
  id          bigserial PRIMARY KEY,
  job_id      uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  kind        text NOT NULL,
  data        jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_events_job ON job_events (job_id, id);

CREATE TABLE rounds (
  job_id          uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  round           integer NOT NULL CHECK (round >= 0),
  level_reached   integer CHECK (level_reached BETWEEN 1 AND 4),
  escalation      jsonb,
  evidence        jsonb,
  hotspot         text,
  hypothesis      text,
  rewrite_family  text,
  proposer        text,
  kernel_sha256   text REFERENCES kernels (sha256),
  diff            text,
  correctness     jsonb,
  timing          jsonb,
  accepted        boolean NOT NULL DEFAULT false,
  reject_reason   text,
  tokens          jsonb,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, round)
);

CREATE TABLE artifacts (
  id           bigserial PRIMARY KEY,
  job_id       uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  round        integer NOT NULL,
  kind         text NOT NULL,
  compression  text NOT NULL DEFAULT 'none' CHECK (compression IN ('none', 'gzip')),
  size         integer NOT NULL,
  data         bytea NOT NULL CHECK (octet_length(data) <= 16777216),
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (job_id, round, kind)
);

CREATE TABLE workers (
  id            text PRIMARY KEY,          -- host/device
  host          text NOT NULL,
  device        text NOT NULL,
  state         text NOT NULL,
  pid           integer,
  current_job   uuid,
  heartbeat_at  timestamptz,
  started_at    timestamptz NOT NULL DEFAULT now(),
  restarts      integer NOT NULL DEFAULT 0
);

CREATE TABLE pattern_index_versions (
  version     integer PRIMARY KEY,
  frozen      boolean NOT NULL DEFAULT false,
  source      jsonb NOT NULL DEFAULT '{}',
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE patterns (
  id              bigserial PRIMARY KEY,
  version         integer NOT NULL REFERENCES pattern_index_versions (version),
  symptom         text NOT NULL,
  rewrite_family  text NOT NULL,
  outcome         jsonb NOT NULL,
  provenance      jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- The API's view of a job, rendered by the database so every reader (HTTP, events)
-- shows the same shape.
CREATE FUNCTION kopt_ts(t timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

CREATE FUNCTION kopt_job_json(j jobs) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'name', j.name, 'state', j.state, 'backend', j.backend,
    'priority', j.priority, 'rounds', j.rounds, 'policy', j.policy, 'proposer', j.proposer,
    'attempts', j.attempts, 'error', j.error, 'cancel_requested', j.cancel_requested,
    'created_at', kopt_ts(j.created_at), 'updated_at', kopt_ts(j.updated_at),
    'started_at', kopt_ts(j.started_at), 'finished_at', kopt_ts(j.finished_at),
    'baseline', j.baseline, 'best', j.best, 'progress', j.progress, 'worker', j.worker,
    'batch_id', j.batch_id)
$$;

CREATE FUNCTION kopt_job_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;
CREATE TRIGGER jobs_touch BEFORE UPDATE ON jobs
  FOR EACH ROW EXECUTE FUNCTION kopt_job_touch();

-- AFTER, so the event row's foreign key finds the job.
CREATE FUNCTION kopt_job_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ev bigint;
BEGIN
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
  END IF;
  IF NEW.state = 'queued' AND (TG_OP = 'INSERT' OR OLD.state IS DISTINCT FROM 'queued') THEN
    PERFORM pg_notify('kopt_jobs_queued', NEW.backend);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER jobs_changed AFTER INSERT OR UPDATE ON jobs
  FOR EACH ROW EXECUTE FUNCTION kopt_job_changed();
