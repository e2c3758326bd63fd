-- 003: each worker's start-up check (workers/check.c): whether its harness starts as the
-- sandbox user and imports torch and Triton, why not, and what it found. Written by the
-- owning koptd with the worker's row; read by GET /v1/workers.
ALTER TABLE workers
  ADD COLUMN ready       boolean,
  ADD COLUMN check_error text CHECK (octet_length(check_error) <= 2048),
  ADD COLUMN harness     jsonb;
