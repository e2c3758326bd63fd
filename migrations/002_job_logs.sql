-- 002: the job's own log: what submitted code printed (stdout/stderr of the kernel and
-- reference modules during each harness step), kept apart from koptd's log, capped per
-- entry here and per job by the worker (workers/joblog.c), served by GET /v1/jobs/{id}/log.
CREATE TABLE job_logs (
  job_id      uuid NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  seq         bigserial,
  round       integer NOT NULL DEFAULT 0,
  step        text NOT NULL CHECK (length(step) <= 64),
  source      text NOT NULL DEFAULT 'kernel' CHECK (source IN ('kernel')),
  bytes       bigint NOT NULL CHECK (bytes >= 0),        -- bytes written in that step
  text        text NOT NULL CHECK (octet_length(text) <= 65536),
  truncated   boolean NOT NULL DEFAULT false,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, seq)
);
