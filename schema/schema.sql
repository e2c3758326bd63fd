-- The schema that migrations/ produce, for reading (regenerate: scripts/dump_schema.sh).
-- Do not edit: change migrations/ instead.

\restrict wYnawGuQLIYHhBQHUzhyMQWN4LPG4MuNIIuCaI5IGMenb2K8iWMod4NzKPyZIue

CREATE FUNCTION public.kopt_batch_job_done() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
DECLARE
  bt batches;
  v integer;
BEGIN
  SELECT * INTO bt FROM batches WHERE id = NEW.batch_id FOR UPDATE;
  IF bt.finished_at IS NOT NULL OR EXISTS (
       SELECT 1 FROM jobs WHERE batch_id = NEW.batch_id AND state IN ('queued', 'running')) THEN
    RETURN NULL;
  END IF;
  UPDATE batches SET finished_at = clock_timestamp() WHERE id = bt.id;
  IF bt.synthesize_after THEN
    BEGIN
      v := kopt_patterns_synthesize(jsonb_build_object(
             'batch_ids', jsonb_build_array(bt.id),
             'note', format('after batch %s (%s)', bt.id, left(bt.name, 200))));
      UPDATE batches SET synthesized_version = v WHERE id = bt.id;
    EXCEPTION WHEN OTHERS THEN
      UPDATE batches SET synthesis_error = left(SQLERRM, 1024) WHERE id = bt.id;
    END;
  END IF;
  RETURN NULL;
END
$$;

CREATE TABLE public.batches (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    name text DEFAULT ''::text NOT NULL,
    spec jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    owner_token_id bigint,
    policy text DEFAULT 'hierarchy'::text NOT NULL,
    pattern_version integer,
    synthesize_after boolean DEFAULT false NOT NULL,
    synthesized_version integer,
    synthesis_error text,
    finished_at timestamp with time zone,
    idempotency_key text,
    request_sha256 text,
    seq bigint NOT NULL,
    CONSTRAINT batches_idempotency_key_check CHECK (((length(idempotency_key) >= 1) AND (length(idempotency_key) <= 255))),
    CONSTRAINT batches_synthesis_error_check CHECK ((length(synthesis_error) <= 1024))
);

CREATE FUNCTION public.kopt_batch_json(b public.batches) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
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
    infra_retries integer DEFAULT 0 NOT NULL,
    last_attempt_end text,
    pattern_version integer,
    owner_token_name text,
    run_s double precision DEFAULT 0 NOT NULL,
    run_started_at timestamp with time zone,
    run_alive_at timestamp with time zone,
    CONSTRAINT jobs_backend_check CHECK ((backend = ANY (ARRAY['cuda'::text, 'ascend'::text, 'interp'::text, 'any'::text]))),
    CONSTRAINT jobs_idempotency_key_check CHECK (((length(idempotency_key) >= 1) AND (length(idempotency_key) <= 255))),
    CONSTRAINT jobs_infra_retries_check CHECK ((infra_retries >= 0)),
    CONSTRAINT jobs_last_attempt_end_check CHECK ((last_attempt_end = ANY (ARRAY['job'::text, 'infra'::text]))),
    CONSTRAINT jobs_priority_check CHECK (((priority >= '-100'::integer) AND (priority <= 100))),
    CONSTRAINT jobs_rounds_check CHECK (((rounds >= 0) AND (rounds <= 100))),
    CONSTRAINT jobs_run_s_check CHECK ((run_s >= (0)::double precision)),
    CONSTRAINT jobs_state_check CHECK ((state = ANY (ARRAY['queued'::text, 'running'::text, 'succeeded'::text, 'failed'::text, 'cancelled'::text])))
);

CREATE FUNCTION public.kopt_job_json(j public.jobs) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
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

CREATE FUNCTION public.kopt_job_run_clock() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
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

CREATE FUNCTION public.kopt_job_run_seconds(j public.jobs) RETURNS double precision
    LANGUAGE sql STABLE
    AS $$
  SELECT j.run_s + CASE WHEN j.state = 'running' AND j.run_started_at IS NOT NULL
                        THEN greatest(0, extract(epoch FROM now() - j.run_started_at))
                        ELSE 0 END
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

CREATE FUNCTION public.kopt_pattern_conditions_text(c jsonb) RETURNS text
    LANGUAGE sql IMMUTABLE
    AS $$
  SELECT coalesce(nullif(concat_ws('; ',
    CASE WHEN c ? 'target' THEN 'target ' || (SELECT string_agg(x, '|') FROM jsonb_array_elements_text(c->'target') x) END,
    CASE WHEN c ? 'backend' THEN 'backend ' || (SELECT string_agg(x, '|') FROM jsonb_array_elements_text(c->'backend') x) END,
    CASE WHEN c ? 'class' THEN 'class ' || (SELECT string_agg(x, '|') FROM jsonb_array_elements_text(c->'class') x) END,
    CASE WHEN c ? 'symptoms_all' THEN 'all of ' || (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(c->'symptoms_all') x) END,
    CASE WHEN c ? 'symptoms_any' THEN 'any of ' || (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(c->'symptoms_any') x) END,
    CASE WHEN c ? 'symptoms_none' THEN 'none of ' || (SELECT string_agg(x, ', ') FROM jsonb_array_elements_text(c->'symptoms_none') x) END),
    ''), 'always')
$$;

CREATE TABLE public.patterns (
    id bigint NOT NULL,
    version integer NOT NULL,
    symptom text NOT NULL,
    rewrite_family text NOT NULL,
    outcome jsonb NOT NULL,
    provenance jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    name text NOT NULL,
    status text DEFAULT 'active'::text NOT NULL,
    origin text DEFAULT 'seed'::text NOT NULL,
    conditions jsonb DEFAULT '{}'::jsonb NOT NULL,
    action jsonb DEFAULT '{}'::jsonb NOT NULL,
    guidance text DEFAULT ''::text NOT NULL,
    stats jsonb DEFAULT '{}'::jsonb NOT NULL,
    entered_version integer NOT NULL,
    retired_reason text,
    CONSTRAINT patterns_action_family CHECK (((jsonb_typeof(action) = 'object'::text) AND (jsonb_typeof((action -> 'family'::text)) = 'string'::text) AND ((action ->> 'family'::text) = rewrite_family))),
    CONSTRAINT patterns_conditions_keys CHECK (((jsonb_typeof(conditions) = 'object'::text) AND ((conditions - ARRAY['target'::text, 'backend'::text, 'class'::text, 'symptoms_all'::text, 'symptoms_any'::text, 'symptoms_none'::text]) = '{}'::jsonb))),
    CONSTRAINT patterns_guidance_check CHECK ((length(guidance) <= 2048)),
    CONSTRAINT patterns_name_format CHECK ((name ~ '^[a-z0-9_.:-]{1,128}$'::text)),
    CONSTRAINT patterns_origin_check CHECK ((origin = ANY (ARRAY['seed'::text, 'mined'::text]))),
    CONSTRAINT patterns_retired_reason_check CHECK ((length(retired_reason) <= 512)),
    CONSTRAINT patterns_status_check CHECK ((status = ANY (ARRAY['active'::text, 'retired'::text])))
);

CREATE FUNCTION public.kopt_pattern_json(p public.patterns) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
  SELECT jsonb_build_object('name', p.name, 'version', p.version, 'status', p.status,
                            'origin', p.origin, 'entered_version', p.entered_version,
                            'conditions', p.conditions,
                            'when', kopt_pattern_conditions_text(p.conditions),
                            'symptom', p.symptom, 'rewrite_family', p.rewrite_family,
                            'action', p.action, 'guidance', p.guidance, 'stats', p.stats,
                            'provenance', p.provenance, 'retired_reason', p.retired_reason)
$$;

CREATE FUNCTION public.kopt_pattern_matches(c jsonb, f jsonb) RETURNS boolean
    LANGUAGE sql IMMUTABLE
    AS $$
  SELECT (NOT (c ? 'target') OR (c->'target') ? coalesce(f->>'target', ''))
     AND (NOT (c ? 'backend') OR (c->'backend') ? coalesce(f->>'backend', ''))
     AND (NOT (c ? 'class') OR (c->'class') ? coalesce(f->>'class', ''))
     AND (NOT (c ? 'symptoms_all') OR coalesce(f->'symptoms', '[]') @> (c->'symptoms_all'))
     AND (NOT (c ? 'symptoms_any') OR EXISTS (
            SELECT 1 FROM jsonb_array_elements_text(c->'symptoms_any') s(x)
            WHERE coalesce(f->'symptoms', '[]') ? s.x))
     AND (NOT (c ? 'symptoms_none') OR NOT EXISTS (
            SELECT 1 FROM jsonb_array_elements_text(c->'symptoms_none') s(x)
            WHERE coalesce(f->'symptoms', '[]') ? s.x))
$$;

CREATE TABLE public.pattern_index_versions (
    version integer NOT NULL,
    frozen boolean DEFAULT false NOT NULL,
    source jsonb DEFAULT '{}'::jsonb NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    parent integer,
    origin text DEFAULT 'synthesis'::text NOT NULL,
    note text DEFAULT ''::text NOT NULL,
    frozen_at timestamp with time zone,
    summary jsonb DEFAULT '{}'::jsonb NOT NULL,
    CONSTRAINT pattern_index_versions_note_check CHECK ((length(note) <= 512)),
    CONSTRAINT pattern_index_versions_origin_check CHECK ((origin = ANY (ARRAY['seed'::text, 'synthesis'::text])))
);

CREATE FUNCTION public.kopt_pattern_version_json(v public.pattern_index_versions) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
  SELECT jsonb_build_object('version', v.version, 'parent', v.parent, 'origin', v.origin,
                            'frozen', v.frozen, 'frozen_at', kopt_ts(v.frozen_at),
                            'created_at', kopt_ts(v.created_at), 'note', v.note,
                            'source', v.source, 'summary', v.summary)
$$;

CREATE FUNCTION public.kopt_pattern_versions_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'pattern index version % is never deleted', OLD.version;
  END IF;
  IF OLD.frozen AND NOT NEW.frozen THEN
    RAISE EXCEPTION 'pattern index version % is frozen for good', OLD.version;
  END IF;
  IF (NEW.version, NEW.parent, NEW.origin, NEW.note, NEW.source, NEW.summary, NEW.created_at)
     IS DISTINCT FROM
     (OLD.version, OLD.parent, OLD.origin, OLD.note, OLD.source, OLD.summary, OLD.created_at) THEN
    RAISE EXCEPTION 'pattern index version % is never rewritten (it can only be frozen)',
      OLD.version;
  END IF;
  RETURN NEW;
END
$$;

CREATE FUNCTION public.kopt_patterns_diff(a integer, b integer) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
  WITH d AS (
    SELECT coalesce(x.name, y.name) AS name, x.name IS NULL AS added, y.name IS NULL AS removed,
           x.status AS s0, y.status AS s1, coalesce(x.stats, '{}') AS st0,
           coalesce(y.stats, '{}') AS st1,
           (x.conditions, x.action, x.guidance) IS DISTINCT FROM (y.conditions, y.action, y.guidance)
             AS rules_changed,
           coalesce(y.rewrite_family, x.rewrite_family) AS family,
           coalesce(y.origin, x.origin) AS origin, coalesce(y.conditions, x.conditions) AS cond,
           y.retired_reason
    FROM (SELECT * FROM patterns WHERE version = a) x
    FULL JOIN (SELECT * FROM patterns WHERE version = b) y ON x.name = y.name),
  st AS (
    SELECT d.name,
      jsonb_object_agg(k.k, jsonb_build_object(
        'tried', jsonb_build_array(coalesce((d.st0->k.k->>'tried')::int, 0),
                                   coalesce((d.st1->k.k->>'tried')::int, 0)),
        'accepted', jsonb_build_array(coalesce((d.st0->k.k->>'accepted')::int, 0),
                                      coalesce((d.st1->k.k->>'accepted')::int, 0)),
        'settled', jsonb_build_array(coalesce((d.st0->k.k->>'settled')::int, 0),
                                     coalesce((d.st1->k.k->>'settled')::int, 0)))) AS ch,
      string_agg(format('%s tried %s -> %s, accepted %s -> %s, settled %s -> %s', k.k,
                        coalesce((d.st0->k.k->>'tried')::int, 0), coalesce((d.st1->k.k->>'tried')::int, 0),
                        coalesce((d.st0->k.k->>'accepted')::int, 0), coalesce((d.st1->k.k->>'accepted')::int, 0),
                        coalesce((d.st0->k.k->>'settled')::int, 0), coalesce((d.st1->k.k->>'settled')::int, 0)),
                 '; ' ORDER BY k.k) AS txt
    FROM d, LATERAL (SELECT jsonb_object_keys(d.st0) UNION SELECT jsonb_object_keys(d.st1)) k(k)
    WHERE NOT d.added AND NOT d.removed
      AND (d.st0->k.k->'tried', d.st0->k.k->'accepted', d.st0->k.k->'settled')
          IS DISTINCT FROM (d.st1->k.k->'tried', d.st1->k.k->'accepted', d.st1->k.k->'settled')
    GROUP BY d.name),
  lines AS (
    SELECT d.name, CASE
        WHEN d.added THEN format('+ %s: when %s, try %s (%s)', d.name,
                                 kopt_pattern_conditions_text(d.cond), d.family, d.origin)
        WHEN d.removed THEN format('- %s', d.name) END AS line, 0 AS ord
    FROM d WHERE d.added OR d.removed
    UNION ALL
    SELECT d.name, format('! %s: %s -> %s%s', d.name, d.s0, d.s1,
                          CASE WHEN d.s1 = 'retired' THEN ' (' || coalesce(d.retired_reason, '') || ')'
                               ELSE '' END), 1
    FROM d WHERE NOT d.added AND NOT d.removed AND d.s0 <> d.s1
    UNION ALL
    SELECT st.name, format('~ %s: %s', st.name, st.txt), 2 FROM st
    UNION ALL
    SELECT d.name, format('~ %s: conditions, action or guidance changed', d.name), 3
    FROM d WHERE NOT d.added AND NOT d.removed AND d.rules_changed)
  SELECT jsonb_build_object(
    'from', a, 'to', b,
    'added', coalesce((SELECT jsonb_agg(jsonb_build_object('name', d.name, 'family', d.family,
                         'origin', d.origin, 'conditions', d.cond,
                         'when', kopt_pattern_conditions_text(d.cond)) ORDER BY d.name)
                       FROM d WHERE d.added), '[]'),
    'removed', coalesce((SELECT jsonb_agg(d.name ORDER BY d.name) FROM d WHERE d.removed), '[]'),
    'retired', coalesce((SELECT jsonb_agg(jsonb_build_object('name', d.name,
                           'reason', d.retired_reason) ORDER BY d.name)
                         FROM d WHERE d.s0 = 'active' AND d.s1 = 'retired'), '[]'),
    'reactivated', coalesce((SELECT jsonb_agg(d.name ORDER BY d.name)
                             FROM d WHERE d.s0 = 'retired' AND d.s1 = 'active'), '[]'),
    'changed', coalesce((SELECT jsonb_agg(jsonb_build_object('name', d.name,
                           'stats', coalesce(st.ch, '{}'), 'rules_changed', d.rules_changed)
                           ORDER BY d.name)
                         FROM d LEFT JOIN st ON st.name = d.name
                         WHERE NOT d.added AND NOT d.removed
                           AND (st.name IS NOT NULL OR d.rules_changed)), '[]'),
    'unchanged', (SELECT count(*) FROM d LEFT JOIN st ON st.name = d.name
                  WHERE NOT d.added AND NOT d.removed AND st.name IS NULL
                    AND NOT d.rules_changed AND d.s0 = d.s1),
    'text', coalesce((SELECT jsonb_agg(l.line ORDER BY l.ord, l.name) FROM lines l), '[]'))
$$;

CREATE FUNCTION public.kopt_patterns_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    RAISE EXCEPTION 'pattern % of version % is never rewritten: synthesis writes a new version',
      OLD.name, OLD.version;
  END IF;
  -- Only the transaction writing the version says so (a transaction-local setting, made
  -- by kopt_patterns_synthesize and the seed): an earlier version is never added to.
  IF coalesce(current_setting('kopt.writing_pattern_version', true), '') <> NEW.version::text
     OR EXISTS (SELECT 1 FROM pattern_index_versions v WHERE v.version = NEW.version AND v.frozen)
  THEN
    RAISE EXCEPTION 'pattern index version % is not being written by this transaction (or is '
      'frozen): a version''s patterns are written with it, never added later', NEW.version;
  END IF;
  RETURN NEW;
END
$$;

CREATE FUNCTION public.kopt_patterns_synthesize(opts jsonb) RETURNS integer
    LANGUAGE plpgsql
    AS $_$
DECLARE
  v_base integer;
  v_new integer;
  v_src jsonb;
  v_until timestamptz;
  v_batches uuid[];
  v_min_ops integer := coalesce((opts->>'min_operators')::integer, 2);
  v_ret_trials integer := coalesce((opts->>'retire_min_trials')::integer, 4);
  v_ret_rate float8 := coalesce((opts->>'retire_max_rate')::float8, 0.25);
  v_source jsonb;
  v_summary jsonb;
BEGIN
  -- one synthesis at a time: each writes max(version) + 1
  PERFORM pg_advisory_xact_lock(1802465397);
  SELECT max(version) INTO v_new FROM pattern_index_versions;
  IF v_new IS NULL THEN
    RAISE EXCEPTION 'the pattern index has no version to start from (migration 006 seeds one)';
  END IF;
  v_new := v_new + 1;
  v_base := coalesce((opts->>'base')::integer, v_new - 1);
  IF NOT EXISTS (SELECT 1 FROM pattern_index_versions WHERE version = v_base) THEN
    RAISE EXCEPTION 'base: pattern index version % does not exist', v_base;
  END IF;
  SELECT source INTO v_src FROM pattern_index_versions WHERE version = v_base;
  v_batches := ARRAY(SELECT DISTINCT x::uuid FROM (
      SELECT jsonb_array_elements_text(coalesce(v_src->'batches', '[]')) AS x
      UNION SELECT jsonb_array_elements_text(coalesce(opts->'batch_ids', '[]'))) t);
  IF opts ? 'batch_ids' THEN
    v_until := (v_src->>'until')::timestamptz;
  ELSE
    v_until := clock_timestamp();
  END IF;

  -- (a second synthesis in one transaction: the first one's tables are still there)
  IF to_regclass('pg_temp.kopt_synth_r') IS NOT NULL THEN
    DROP TABLE kopt_synth_r, kopt_synth_p, kopt_synth_s;
  END IF;
  CREATE TEMP TABLE kopt_synth_r ON COMMIT DROP AS
    SELECT * FROM kopt_synthesis_rounds(v_until, v_batches);
  CREATE TEMP TABLE kopt_synth_p ON COMMIT DROP AS
    SELECT p.name, p.status, p.origin, p.symptom, p.rewrite_family, p.conditions, p.action,
           p.guidance, p.provenance, p.entered_version, p.retired_reason
    FROM patterns p WHERE p.version = v_base;
  INSERT INTO kopt_synth_p
  SELECT 'mined.' || c.target || '.' || c.sym || '.' || c.family, 'active', 'mined', c.sym,
         c.family,
         jsonb_build_object('target', jsonb_build_array(c.target),
                            'symptoms_all', jsonb_build_array(c.sym)),
         jsonb_strip_nulls(jsonb_build_object('family', c.family,
                                              'direction', nullif(c.direction, ''))),
         format('Mined from validated rounds: on %s, kernels whose source shows %s were made '
                'faster by the %s family%s on %s distinct operators (%s), accepted in %s of '
                '%s tries, median speedup %sx.', c.target, c.sym, c.family,
                CASE WHEN c.direction <> '' THEN ' (' || c.direction || ')' ELSE '' END,
                c.ops, array_to_string(c.oplist, ', '), c.acc, c.tried,
                round(c.med::numeric, 2)),
         jsonb_build_object('source', 'mined',
                            'mined_from', jsonb_build_object('operators', to_jsonb(c.oplist),
                                                             'accepted', c.acc,
                                                             'tried', c.tried)),
         v_new, NULL::text
  FROM (SELECT r.f->>'target' AS target, s.sym, r.family, count(*) AS tried,
               count(*) FILTER (WHERE r.accepted) AS acc,
               count(DISTINCT r.operator) FILTER (WHERE r.accepted) AS ops,
               array_agg(DISTINCT r.operator ORDER BY r.operator)
                 FILTER (WHERE r.accepted) AS oplist,
               mode() WITHIN GROUP (ORDER BY r.direction) FILTER (WHERE r.accepted) AS direction,
               percentile_cont(0.5) WITHIN GROUP (ORDER BY r.speedup) AS med
        FROM kopt_synth_r r, jsonb_array_elements_text(coalesce(r.f->'symptoms', '[]')) s(sym)
        WHERE r.f->>'target' ~ '^[a-z0-9_]{1,16}$' AND s.sym ~ '^[a-z0-9_:]{1,48}$'
          AND r.family ~ '^[a-z0-9_]{1,31}$'
          -- only rounds no active pattern of their family explains already
          AND NOT EXISTS (SELECT 1 FROM kopt_synth_p p
                          WHERE p.status = 'active' AND p.rewrite_family = r.family
                            AND kopt_pattern_matches(p.conditions, r.f))
        GROUP BY 1, 2, 3) c
  WHERE c.ops >= v_min_ops AND 2 * c.acc >= c.tried
    AND NOT EXISTS (SELECT 1 FROM kopt_synth_p p
                    WHERE p.name = 'mined.' || c.target || '.' || c.sym || '.' || c.family);

  -- statistics and provenance of every candidate (docs/PATTERNS.md, "Statistics")
  CREATE TEMP TABLE kopt_synth_s ON COMMIT DROP AS
  WITH m AS (
    SELECT p.name AS pname, r.* FROM kopt_synth_p p JOIN kopt_synth_r r
      ON r.family = p.rewrite_family AND kopt_pattern_matches(p.conditions, r.f)),
  climb AS (
    SELECT r.backend, percentile_cont(0.5) WITHIN GROUP (ORDER BY r.diagnose_s) AS med_s,
           percentile_cont(0.5) WITHIN GROUP (ORDER BY r.level) AS med_level
    FROM kopt_synth_r r WHERE r.level > 1 GROUP BY r.backend),
  per AS (
    SELECT m.pname, m.backend, count(*) AS tried, count(*) FILTER (WHERE m.accepted) AS acc,
      count(DISTINCT m.operator) FILTER (WHERE m.accepted) AS ops,
      count(DISTINCT m.operator) AS ops_tried,
      exp(avg(ln(m.speedup))) AS geomean,
      percentile_cont(0.5) WITHIN GROUP (ORDER BY m.speedup) AS median,
      min(m.speedup) AS smin, max(m.speedup) AS smax,
      (array_agg(round(m.speedup::numeric, 4) ORDER BY m.speedup)
         FILTER (WHERE m.speedup IS NOT NULL))[1:200] AS vals,
      count(*) FILTER (WHERE m.settled_by = m.pname) AS settled,
      count(*) FILTER (WHERE m.settled_by = m.pname AND m.accepted) AS settled_acc,
      coalesce(sum(greatest(0, c.med_level - m.level))
                 FILTER (WHERE m.settled_by = m.pname), 0) AS levels_saved,
      coalesce(sum(greatest(0, c.med_s - coalesce(m.diagnose_s, 0)))
                 FILTER (WHERE m.settled_by = m.pname), 0) AS seconds_saved
    FROM m LEFT JOIN climb c ON c.backend = m.backend
    GROUP BY m.pname, m.backend)
  SELECT p.name,
    coalesce((SELECT jsonb_object_agg(per.backend, jsonb_build_object(
               'tried', per.tried, 'accepted', per.acc,
               'rate', round(per.acc::numeric / per.tried, 4),
               'operators', per.ops, 'operators_tried', per.ops_tried,
               'speedup', jsonb_strip_nulls(jsonb_build_object(
                  'geomean', round(per.geomean::numeric, 4),
                  'median', round(per.median::numeric, 4),
                  'min', round(per.smin::numeric, 4), 'max', round(per.smax::numeric, 4),
                  'values', coalesce(to_jsonb(per.vals), '[]'))),
               'settled', per.settled, 'settled_accepted', per.settled_acc,
               'levels_saved', per.levels_saved,
               'seconds_saved', round(per.seconds_saved::numeric, 3)))
              FROM per WHERE per.pname = p.name), '{}') AS stats,
    jsonb_strip_nulls(jsonb_build_object(
      'source', p.provenance->'source', 'references', p.provenance->'references',
      'mined_from', p.provenance->'mined_from'))
    || (SELECT jsonb_build_object(
          'operators', coalesce(to_jsonb(array_agg(DISTINCT m.operator ORDER BY m.operator)), '[]'),
          'jobs', count(DISTINCT m.job_id), 'rounds', count(*),
          'batches', coalesce(to_jsonb(array_agg(DISTINCT m.batch_id)
                              FILTER (WHERE m.batch_id IS NOT NULL)), '[]'))
        FROM m WHERE m.pname = p.name)
    || jsonb_build_object('sample', coalesce((
         SELECT jsonb_agg(jsonb_build_object('job', x.job_id, 'round', x.round,
                                             'operator', x.operator, 'accepted', x.accepted)
                          ORDER BY x.job_id, x.round)
         FROM (SELECT * FROM m WHERE m.pname = p.name ORDER BY m.job_id, m.round LIMIT 100) x),
         '[]')) AS provenance,
    coalesce((SELECT sum(per.tried) FROM per WHERE per.pname = p.name), 0) AS tried,
    coalesce((SELECT sum(per.acc) FROM per WHERE per.pname = p.name), 0) AS acc
  FROM kopt_synth_p p;

  SELECT jsonb_build_object(
      'until', v_until, 'batches', to_jsonb(v_batches),
      'rounds', (SELECT count(*) FROM kopt_synth_r),
      'jobs', (SELECT count(DISTINCT job_id) FROM kopt_synth_r),
      'operators', coalesce((SELECT to_jsonb(array_agg(DISTINCT operator ORDER BY operator))
                             FROM kopt_synth_r), '[]'),
      'params', jsonb_build_object('min_operators', v_min_ops,
                                   'retire_min_trials', v_ret_trials,
                                   'retire_max_rate', v_ret_rate))
    INTO v_source;
  SELECT jsonb_build_object(
      'patterns', count(*),
      'active', count(*) FILTER (WHERE NOT (p.status = 'retired' OR
                  (p.status = 'active' AND s.tried >= v_ret_trials AND s.acc < v_ret_rate * s.tried))),
      'added', count(*) FILTER (WHERE p.origin = 'mined' AND p.entered_version = v_new),
      'retired_now', count(*) FILTER (WHERE p.status = 'active' AND s.tried >= v_ret_trials
                                      AND s.acc < v_ret_rate * s.tried),
      'rounds_read', (SELECT count(*) FROM kopt_synth_r))
    INTO v_summary
    FROM kopt_synth_p p JOIN kopt_synth_s s ON s.name = p.name;

  INSERT INTO pattern_index_versions (version, frozen, source, parent, origin, note, summary)
  VALUES (v_new, false, v_source, v_base, 'synthesis', left(coalesce(opts->>'note', ''), 512),
          v_summary);
  PERFORM set_config('kopt.writing_pattern_version', v_new::text, true);
  INSERT INTO patterns (version, name, status, origin, symptom, rewrite_family, outcome,
                        provenance, conditions, action, guidance, stats, entered_version,
                        retired_reason)
  SELECT v_new, p.name,
         CASE WHEN p.status = 'active' AND s.tried >= v_ret_trials
                   AND s.acc < v_ret_rate * s.tried THEN 'retired' ELSE p.status END,
         p.origin, p.symptom, p.rewrite_family,
         jsonb_build_object('trials', s.tried, 'successes', s.acc,
                            'direction', p.action->'direction'),
         s.provenance, p.conditions, p.action, p.guidance, s.stats, p.entered_version,
         CASE WHEN p.status = 'active' AND s.tried >= v_ret_trials
                   AND s.acc < v_ret_rate * s.tried
              THEN format('accepted in %s of %s tries (under %s%%) when version %s was written',
                          s.acc, s.tried, round((v_ret_rate * 100)::numeric, 1), v_new)
              ELSE p.retired_reason END
  FROM kopt_synth_p p JOIN kopt_synth_s s ON s.name = p.name;
  PERFORM set_config('kopt.writing_pattern_version', '', true);
  RETURN v_new;
END
$_$;

CREATE FUNCTION public.kopt_round_run_clock() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
BEGIN
  IF NEW.run_s IS NULL THEN
    SELECT kopt_job_run_seconds(j) INTO NEW.run_s FROM jobs j WHERE j.id = NEW.job_id;
  END IF;
  RETURN NEW;
END
$$;

CREATE FUNCTION public.kopt_synthesis_rounds(until timestamp with time zone, batch_ids uuid[]) RETURNS TABLE(job_id uuid, round integer, batch_id uuid, backend text, operator text, f jsonb, family text, direction text, accepted boolean, speedup double precision, level integer, settled_by text, diagnose_s double precision)
    LANGUAGE sql STABLE
    AS $$
  SELECT rd.job_id, rd.round, j.batch_id, coalesce(rd.evidence->'l1'->>'backend', j.backend),
         coalesce(nullif(j.spec->>'operator', ''), 'kernel:' || left(j.kernel_sha256, 12)),
         rd.evidence->'l1',
         coalesce(nullif(rd.evidence->>'credited_family', ''), rd.rewrite_family),
         coalesce(rd.evidence->'l1'->>'direction', ''),
         rd.accepted,
         CASE WHEN rd.accepted AND jsonb_typeof(rd.timing->'speedup') = 'number'
                   AND (rd.timing->>'speedup')::float8 > 0
              THEN (rd.timing->>'speedup')::float8 END,
         rd.level_reached,
         CASE WHEN rd.level_reached = 1 THEN rd.evidence->'l1'->>'settled_by' END,
         CASE WHEN jsonb_typeof(rd.evidence->'seconds'->'diagnose') = 'number'
              THEN (rd.evidence->'seconds'->>'diagnose')::float8 END
  FROM rounds rd JOIN jobs j ON j.id = rd.job_id
  WHERE j.state = 'succeeded'
    AND jsonb_typeof(rd.evidence->'l1') = 'object'
    AND jsonb_typeof(rd.evidence->'sweep') = 'object'
    AND rd.rewrite_family IS NOT NULL
    AND ((until IS NOT NULL AND j.finished_at <= until) OR j.batch_id = ANY (batch_ids))
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

CREATE SEQUENCE public.batches_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.batches_seq_seq OWNED BY public.batches.seq;

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

CREATE TABLE public.job_logs (
    job_id uuid NOT NULL,
    seq bigint NOT NULL,
    round integer DEFAULT 0 NOT NULL,
    step text NOT NULL,
    source text DEFAULT 'kernel'::text NOT NULL,
    bytes bigint NOT NULL,
    text text NOT NULL,
    truncated boolean DEFAULT false NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT job_logs_bytes_check CHECK ((bytes >= 0)),
    CONSTRAINT job_logs_source_check CHECK ((source = 'kernel'::text)),
    CONSTRAINT job_logs_step_check CHECK ((length(step) <= 64)),
    CONSTRAINT job_logs_text_check CHECK ((octet_length(text) <= 65536))
);

CREATE SEQUENCE public.job_logs_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.job_logs_seq_seq OWNED BY public.job_logs.seq;

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
    run_s double precision,
    CONSTRAINT rounds_level_reached_check CHECK (((level_reached >= 1) AND (level_reached <= 4))),
    CONSTRAINT rounds_round_check CHECK ((round >= 0)),
    CONSTRAINT rounds_run_s_check CHECK ((run_s >= (0)::double precision))
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
    restarts integer DEFAULT 0 NOT NULL,
    ready boolean,
    check_error text,
    harness jsonb,
    CONSTRAINT workers_check_error_check CHECK ((octet_length(check_error) <= 2048))
);

ALTER TABLE ONLY public.api_tokens ALTER COLUMN id SET DEFAULT nextval('public.api_tokens_id_seq'::regclass);

ALTER TABLE ONLY public.artifacts ALTER COLUMN id SET DEFAULT nextval('public.artifacts_id_seq'::regclass);

ALTER TABLE ONLY public.batches ALTER COLUMN seq SET DEFAULT nextval('public.batches_seq_seq'::regclass);

ALTER TABLE ONLY public.job_events ALTER COLUMN id SET DEFAULT nextval('public.job_events_id_seq'::regclass);

ALTER TABLE ONLY public.job_logs ALTER COLUMN seq SET DEFAULT nextval('public.job_logs_seq_seq'::regclass);

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

ALTER TABLE ONLY public.job_logs
    ADD CONSTRAINT job_logs_pkey PRIMARY KEY (job_id, seq);

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

ALTER TABLE ONLY public.patterns
    ADD CONSTRAINT patterns_version_name UNIQUE (version, name);

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_pkey PRIMARY KEY (job_id, round);

ALTER TABLE ONLY public.workers
    ADD CONSTRAINT workers_pkey PRIMARY KEY (id);

CREATE UNIQUE INDEX batches_idempotency ON public.batches USING btree (owner_token_id, idempotency_key) WHERE (idempotency_key IS NOT NULL);

CREATE INDEX batches_seq ON public.batches USING btree (seq DESC);

CREATE INDEX job_events_job ON public.job_events USING btree (job_id, id);

CREATE INDEX jobs_batch ON public.jobs USING btree (batch_id, seq) WHERE (batch_id IS NOT NULL);

CREATE INDEX jobs_claim ON public.jobs USING btree (priority DESC, seq) WHERE (state = 'queued'::text);

CREATE UNIQUE INDEX jobs_idempotency ON public.jobs USING btree (owner_token_id, idempotency_key) WHERE (idempotency_key IS NOT NULL);

CREATE INDEX jobs_lease ON public.jobs USING btree (lease_expires_at) WHERE (state = 'running'::text);

CREATE INDEX jobs_owner_seq ON public.jobs USING btree (owner_token_id, seq DESC);

CREATE INDEX jobs_state_seq ON public.jobs USING btree (state, seq DESC);

CREATE TRIGGER api_tokens_changed AFTER DELETE OR UPDATE ON public.api_tokens FOR EACH ROW EXECUTE FUNCTION public.kopt_tokens_changed();

CREATE TRIGGER jobs_batch_done AFTER UPDATE OF state ON public.jobs FOR EACH ROW WHEN (((new.batch_id IS NOT NULL) AND (old.state IS DISTINCT FROM new.state) AND (new.state = ANY (ARRAY['succeeded'::text, 'failed'::text, 'cancelled'::text])))) EXECUTE FUNCTION public.kopt_batch_job_done();

CREATE TRIGGER jobs_changed AFTER INSERT OR DELETE OR UPDATE ON public.jobs FOR EACH ROW EXECUTE FUNCTION public.kopt_job_changed();

CREATE TRIGGER jobs_run_clock BEFORE UPDATE ON public.jobs FOR EACH ROW EXECUTE FUNCTION public.kopt_job_run_clock();

CREATE TRIGGER jobs_touch BEFORE UPDATE ON public.jobs FOR EACH ROW EXECUTE FUNCTION public.kopt_job_touch();

CREATE TRIGGER jobs_truncated AFTER TRUNCATE ON public.jobs FOR EACH STATEMENT EXECUTE FUNCTION public.kopt_jobs_truncated();

CREATE TRIGGER pattern_versions_guard BEFORE DELETE OR UPDATE ON public.pattern_index_versions FOR EACH ROW EXECUTE FUNCTION public.kopt_pattern_versions_guard();

CREATE TRIGGER patterns_guard BEFORE INSERT OR DELETE OR UPDATE ON public.patterns FOR EACH ROW EXECUTE FUNCTION public.kopt_patterns_guard();

CREATE TRIGGER rounds_run_clock BEFORE INSERT ON public.rounds FOR EACH ROW EXECUTE FUNCTION public.kopt_round_run_clock();

ALTER TABLE ONLY public.artifacts
    ADD CONSTRAINT artifacts_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_owner_token_id_fkey FOREIGN KEY (owner_token_id) REFERENCES public.api_tokens(id);

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_pattern_version_fkey FOREIGN KEY (pattern_version) REFERENCES public.pattern_index_versions(version);

ALTER TABLE ONLY public.batches
    ADD CONSTRAINT batches_synthesized_version_fkey FOREIGN KEY (synthesized_version) REFERENCES public.pattern_index_versions(version);

ALTER TABLE ONLY public.job_events
    ADD CONSTRAINT job_events_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.job_logs
    ADD CONSTRAINT job_logs_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES public.batches(id);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_kernel_sha256_fkey FOREIGN KEY (kernel_sha256) REFERENCES public.kernels(sha256);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_owner_token_id_fkey FOREIGN KEY (owner_token_id) REFERENCES public.api_tokens(id);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_pattern_version_fkey FOREIGN KEY (pattern_version) REFERENCES public.pattern_index_versions(version);

ALTER TABLE ONLY public.jobs
    ADD CONSTRAINT jobs_reference_sha256_fkey FOREIGN KEY (reference_sha256) REFERENCES public.kernels(sha256);

ALTER TABLE ONLY public.pattern_index_versions
    ADD CONSTRAINT pattern_index_versions_parent_fkey FOREIGN KEY (parent) REFERENCES public.pattern_index_versions(version);

ALTER TABLE ONLY public.patterns
    ADD CONSTRAINT patterns_version_fkey FOREIGN KEY (version) REFERENCES public.pattern_index_versions(version);

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_job_id_fkey FOREIGN KEY (job_id) REFERENCES public.jobs(id) ON DELETE CASCADE;

ALTER TABLE ONLY public.rounds
    ADD CONSTRAINT rounds_kernel_sha256_fkey FOREIGN KEY (kernel_sha256) REFERENCES public.kernels(sha256);

\unrestrict wYnawGuQLIYHhBQHUzhyMQWN4LPG4MuNIIuCaI5IGMenb2K8iWMod4NzKPyZIue

