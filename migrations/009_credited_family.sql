-- 009: synthesis credits a round to the family that produced its winner. A structural round
-- shares its candidate budget with the kernel as written, swept over its launch parameters
-- (docs/LADDER.md); when one of those won, the worker records
-- evidence.credited_family = 'block_size' beside the ladder's rewrite_family (on the H200,
-- log_softmax's row_in_registers round was won by a wider block of the original loop, and
-- the rewrite's own points were slower). Synthesis now reads that family where it is set:
-- its statistics, mining and retirement follow what worked, not what was proposed.

CREATE OR REPLACE FUNCTION kopt_synthesis_rounds(until timestamptz, batch_ids uuid[])
RETURNS TABLE (job_id uuid, round integer, batch_id uuid, backend text, operator text,
               f jsonb, family text, direction text, accepted boolean, speedup float8,
               level integer, settled_by text, diagnose_s float8)
LANGUAGE sql STABLE AS $$
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
