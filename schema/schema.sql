-- The schema that migrations/ produce, for reading (regenerate: scripts/dump_schema.sh).
-- Do not edit: change migrations/ instead.

\restrict vG27kphUkmknPdCs0MaBtN71oc5Kui63A41h8YNMrSSpd9e8tcoETelLH1EaMrd

CREATE FUNCTION public.kopt_job_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE TABLE public.jobs (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    seq bigint NOT NULL,
    name text,
    state text DEFAULT 'queued'::text NOT NULL,
    backend text NOT NULL,
    priority integer DEFAULT 0 NOT NULL,
    rounds integer NOT NULL,
    policy text NOT NULL,
    proposer text NOT NULL,
    spec jsonb NOT NULL,
    kernel_sha256 text NOT NULL,
    reference_sha256 text,
    batch_id uuid,
    owner_token_id bigint,
    idempotency_key text,
    request_sha256 text,
    cancel_requested boolean DEFAULT false NOT NULL,
    attempts integer DEFAULT 0 NOT NULL,
    lease_owner text,
    lease_expires_at timestamp with time zone,
    worker text,
    error text,
    baseline jsonb,
    best jsonb,
    progress jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    started_at timestamp with time zone,
    finished_at timestamp with time zone,
    owner_token_name text,
    CONSTRAINT jobs_backend_check CHECK ((backend = ANY (ARRAY['cuda'::text, 'ascend'::text, 'interp'::text, 'any'::text]))),
    CONSTRAINT jobs_idempotency_key_check CHECK (((length(idempotency_key) >= 1) AND (length(idempotency_key) <= 255))),
    CONSTRAINT jobs_priority_check CHECK (((priority >= '-100'::integer) AND (priority <= 100))),
    CONSTRAINT jobs_rounds_check CHECK (((rounds >= 0) AND (rounds <= 100))),
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text])))
);

CREATE FUNCTION public.kopt_job_json(j public.jobs) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
  SELECT jsonb_build_object(
    'id', j.id, 'name', j.name, 'state', j.state, 'backend', j.backend,
    'priority', j.priority, 'rounds', j.rounds, 'policy', j.policy, 'proposer', j.proposer,
    'attempts', j.attempts, 'error', j.error, 'cancel_requested', j.cancel_requested,
    'created_at', kopt_ts(j.created_at), 'updated_at', kopt_ts(j.updated_at),
    'started_at', kopt_ts(j.started_at), 'finished_at', kopt_ts(j.finished_at),
    'baseline', j.baseline, 'best', j.best, 'progress', j.progress, 'worker', j.worker,
    'batch_id', j.batch_id,
    'submitted_by', CASE WHEN j.owner_token_id IS NULL THEN NULL
                    ELSE jsonb_build_object('token_id', j.owner_token_id,
                                            'token_name', coalesce(j.owner_token_name, ''))
                    END)
$$;

CREATE FUNCTION public.kopt_job_touch() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END
$$;

CREATE FUNCTION public.kopt_jobs_truncated() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('kopt_job_changed', '*');
  RETURN NULL;
END
$$;

CREATE FUNCTION public.kopt_tokens_changed() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  PERFORM pg_notify('kopt_tokens_changed', OLD.id::text);
  RETURN NULL;
END
$$;

CREATE FUNCTION public.kopt_ts(t timestamp with time zone) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
  SELECT to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;

CREATE TABLE public.api_tokens (
    id bigint NOT NULL,
    token_sha256 bytea NOT NULL,
    role text NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone,
    expires_at timestamp with time zone,
    prefix text,
    CONSTRAINT api_tokens_name_check CHECK ((length(name) <= 128)),
    CONSTRAINT api_tokens_prefix_check CHECK (((prefix IS NULL) OR (length(prefix) <= 16))),
    CONSTRAINT api_tokens_role_check CHECK ((role = ANY (ARRAY['viewer'::text, 'submitter'::text, 'admin'::text]))),
    CONSTRAINT api_tokens_token_sha256_check CHECK ((octet_length(token_sha256) = 32))
);

CREATE SEQUENCE public.api_tokens_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.api_tokens_id_seq OWNED BY public.api_tokens.id;

CREATE TABLE public.artifacts (
    id bigint NOT NULL,
    job_id uuid NOT NULL,
    round integer NOT NULL,
    kind text NOT NULL,
    compression text DEFAULT 'none'::text NOT NULL,
    size integer NOT NULL,
    data bytea NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT artifacts_compression_check CHECK ((compression = ANY (ARRAY['none'::text, 'gzip'::text]))),
    CONSTRAINT artifacts_data_check CHECK ((octet_length(data) <= 16777216))
);

CREATE SEQUENCE public.artifacts_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.artifacts_id_seq OWNED BY public.artifacts.id;

CREATE TABLE public.batches (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    spec jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.job_events (
    id bigint NOT NULL,
    job_id uuid NOT NULL,
    kind text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE public.job_events_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.job_events_id_seq OWNED BY public.job_events.id;

CREATE SEQUENCE public.jobs_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.jobs_seq_seq OWNED BY public.jobs.seq;

CREATE TABLE public.kernels (
    sha256 text NOT NULL,
    source text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT kernels_sha256_check CHECK ((sha256 ~ '^[0-9a-f]{64}$'::text))
);

CREATE TABLE public.kopt_schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.pattern_index_versions (
    version integer NOT NULL,
    frozen boolean DEFAULT false NOT NULL,
    source jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE public.patterns (
    id bigint NOT NULL,
    version integer NOT NULL,
    symptom text NOT NULL,
    rewrite_family text NOT NULL,
    outcome jsonb NOT NULL,
    provenance jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE SEQUENCE public.patterns_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.patterns_id_seq OWNED BY public.patterns.id;

CREATE TABLE public.rounds (
    job_id uuid NOT NULL,
    round integer NOT NULL,
    level_reached integer,
    escalation jsonb,
    evidence jsonb,
    hotspot text,
    hypothesis text,
    rewrite_family text,
    proposer text,
    kernel_sha256 text,
    diff text,
    correctness jsonb,
    timing jsonb,
    accepted boolean DEFAULT false NOT NULL,
    reject_reason text,
    tokens jsonb,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT rounds_level_reached_check CHECK (((level_reached >= 1) AND (level_reached <= 4))),
    CONSTRAINT rounds_round_check CHECK ((round >= 0))
);

CREATE TABLE public.workers (
    id text NOT NULL,
    host text NOT NULL,
    device text NOT NULL,
    state text NOT NULL,
    pid integer,
    current_job uuid,
    heartbeat_at timestamp with time zone,
    started_at timestamp with time zone DEFAULT now() NOT NULL,
    restarts integer DEFAULT 0 NOT NULL
);

ALTER TABLE ONLY public.api_tokens ALTER COLUMN id SET DEFAULT nextval('public.api_tokens_id_seq'::regclass);

ALTER TABLE ONLY public.artifacts ALTER COLUMN id SET DEFAULT nextval('public.artifacts_id_seq'::regclass);

ALTER TABLE ONLY public.job_events ALTER COLUMN id SET DEFAULT nextval('public.job_events_id_seq'::regclass);

ALTER TABLE ONLY public.jobs ALTER COLUMN seq SET DEFAULT nextval('public.jobs_seq_seq'::regclass);

ALTER TABLE ONLY public.patterns ALTER COLUMN id SET DEFAULT nextval('public.patterns_id_seq'::regclass);

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.api_tokens
    ADD CONSTRAINT api_tokens_token_sha256_key UNIQUE (token_sha256);

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_job_id_round_kind_key UNIQUE (job_id, round, kind);

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.job_events
    ADD CONSTRAINT job_events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_seq_key UNIQUE (seq);

ALTER TABLE ONLY public.kernels
    ADD CONSTRAINT kernels_pkey PRIMARY KEY (sha256);

ALTER TABLE ONLY public.kopt_schema_migrations
    ADD CONSTRAINT kopt_schema_migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY public.pattern_index_versions
    ADD CONSTRAINT pattern_index_versions_pkey PRIMARY KEY (version);

ALTER TABLE ONLY public.patterns
    ADD CONSTRAINT patterns_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_pkey PRIMARY KEY (job_id, round);

ALTER TABLE ONLY public.workers
    ADD CONSTRAINT workers_pkey PRIMARY KEY (id);

CREATE INDEX job_events_job ON public.job_events USING btree (job_id, id);

CREATE INDEX jobs_claim ON public.jobs USING btree (priority DESC, seq) WHERE (state = 'queued'::text);

CREATE UNIQUE INDEX jobs_idempotency ON public.jobs USING btree (owner_token_id, idempotency_key) WHERE (idempotency_key IS NOT NULL);

CREATE INDEX jobs_lease ON public.jobs USING btree (lease_expires_at) WHERE (state = 'running'::text);

CREATE INDEX jobs_owner_seq ON public.jobs USING btree (owner_token_id, seq DESC);

CREATE INDEX jobs_state_seq ON public.jobs USING btree (state, seq DESC);

CREATE TRIGGER api_tokens_changed AFTER DELETE OR UPDATE ON public.api_tokens FOR EACH ROW EXECUTE FUNCTION public.kopt_tokens_changed();

CREATE TRIGGER jobs_changed AFTER INSERT OR DELETE OR UPDATE ON public.jobs FOR EACH ROW EXECUTE FUNCTION public.kopt_job_changed();

CREATE TRIGGER jobs_touch BEFORE UPDATE ON public.jobs FOR EACH ROW EXECUTE FUNCTION public.kopt_job_touch();

CREATE TRIGGER jobs_truncated AFTER TRUNCATE ON public.jobs FOR EACH STATEMENT EXECUTE FUNCTION public.kopt_jobs_truncated();

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.job_events
    ADD CONSTRAINT job_events_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(id);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_kernel_sha256_fkey FOREIGN KEY (kernel_sha256) REFERENCES public.kernels(sha256);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_owner_token_id_fkey FOREIGN KEY (owner_token_id) REFERENCES public.api_tokens(id);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_reference_sha256_fkey FOREIGN KEY (reference_sha256) REFERENCES public.kernels(sha256);

ALTER TABLE ONLY public.patterns
    ADD CONSTRAINT patterns_version_fkey FOREIGN KEY (version) REFERENCES public.pattern_index_versions(version);

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_kernel_sha256_fkey FOREIGN KEY (kernel_sha256) REFERENCES public.kernels(sha256);

\unrestrict vG27kphUkmknPdCs0MaBtN71oc5Kui63A41h8YNMrSSpd9e8tcoETelLH1EaMrd

