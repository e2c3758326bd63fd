-- wrk script for POST /v1/jobs: one small valid spec, no Idempotency-Key, so every request
-- creates a job. The token comes from the command line (-H "Authorization: Bearer ...").
--   wrk -t2 -c8 -d10s --latency -H "Authorization: Bearer $TOKEN" \
--       -s bench/post_job.lua http://127.0.0.1:PORT/v1/jobs
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"name": "bench", "backend": "interp", "rounds": 0, "kernel": {"source": ' ..
  '"import torch\\nclass ModelNew(torch.nn.Module):\\n' ..
  '    def forward(self, x):\\n        return x + 1\\n"}}'
