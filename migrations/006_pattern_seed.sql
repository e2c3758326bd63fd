-- 006: the seed of the pattern index: what public Triton practice documents for CUDA and
-- Ascend, in our own words, as the first version (origin seed, frozen: the fixed reference
-- the held-out protocol compares against). No statistics: nothing has been observed yet, so
-- no seed pattern settles a round at L1 on its own; each orders the ladder's families and
-- the rules proposer's candidates until synthesis has measured it (docs/PATTERNS.md).
--
-- Conditions use the L1 features the worker records (workers/pindex.c): target (cuda for
-- cuda devices and the interpreter's cuda:90 IR, ascend for Ascend devices and
-- ir_target ascend), class (elementwise, reduction, matmul, other) and symptoms: the
-- source's (small_block, under_4_per_thread, several_kernels, matmul:loop, autotune,
-- atomics), the structural rewrites the harness found to fit (fits:<rewrite>), and evidence
-- already in hand from an earlier round on the same kernel (l2:<class>, ir:<symptom>).

INSERT INTO pattern_index_versions (version, frozen, source, parent, origin, note, summary)
SELECT coalesce(max(version), 0) + 1, false,
       '{"until": null, "batches": [], "rounds": 0, "jobs": 0, "operators": []}', NULL, 'seed',
       'documented public Triton practice for CUDA and Ascend (migration 006)', '{}'
FROM pattern_index_versions;

SELECT set_config('kopt.writing_pattern_version', max(version)::text, true)
FROM pattern_index_versions;

INSERT INTO patterns (version, name, status, origin, symptom, rewrite_family, outcome,
                      provenance, conditions, action, guidance, stats, entered_version)
SELECT v.version, s.name, 'active', 'seed', s.symptom, s.action::jsonb->>'family',
       jsonb_build_object('trials', 0, 'successes', 0, 'direction', s.action::jsonb->'direction'),
       jsonb_build_object('source', 'seed', 'references', s.refs::jsonb, 'operators', '[]'::jsonb,
                          'jobs', 0, 'rounds', 0, 'batches', '[]'::jsonb, 'sample', '[]'::jsonb),
       s.conditions::jsonb, s.action::jsonb, s.guidance, '{}', v.version
FROM (SELECT max(version) AS version FROM pattern_index_versions) v,
(VALUES
  -- ---------------------------------------------------------------- CUDA: elementwise
  ('cuda.elementwise.vectorize', 'under_4_per_thread',
   '{"target": ["cuda"], "class": ["elementwise"], "symptoms_any": ["under_4_per_thread", "ir:narrow_access"]}',
   '{"family": "vectorize_access", "direction": "up", "needs_level": 3, "structural": "elementwise_vector",
     "prefer": {"num_warps": [4, 8], "block": [1024, 2048, 4096]}}',
   'Give every thread several contiguous elements so that loads and stores become 128-bit: '
   'offsets of the form pid * BLOCK + tl.arange(0, BLOCK) with BLOCK at least 4 (fp32) or 8 '
   '(fp16) elements per thread of num_warps * 32 threads; where the compiler cannot prove it, '
   'state the contiguity and alignment with tl.max_contiguous / tl.multiple_of.',
   '["https://triton-lang.org/main/getting-started/tutorials/01-vector-add.html", "https://triton-lang.org/main/python-api/triton.language.html"]'),
  ('cuda.elementwise.block_size', 'small_block',
   '{"target": ["cuda"], "class": ["elementwise"], "symptoms_all": ["small_block"]}',
   '{"family": "block_size", "direction": "up", "needs_level": 2,
     "prefer": {"block": [1024, 2048, 4096], "num_warps": [4, 8]}}',
   'Small blocks launch many short programs whose fixed cost (index math, masks, scheduling) '
   'dominates a memory-bound kernel: the tutorials use blocks of about a thousand elements; '
   'raise BLOCK and the warps with it so each program streams more data.',
   '["https://triton-lang.org/main/getting-started/tutorials/01-vector-add.html"]'),
  -- ---------------------------------------------------------------- CUDA: reductions
  ('cuda.reduction.row_in_registers', 'fits:row_single_block',
   '{"target": ["cuda"], "class": ["reduction"], "symptoms_all": ["fits:row_single_block"]}',
   '{"family": "row_in_registers", "needs_level": 3, "structural": "row_single_block",
     "prefer": {"max_warps": [16], "elems_per_warp": [256]}}',
   'When a row fits in one block, load it once and keep it in registers for every pass (max, '
   'sum, normalize) instead of re-reading it from global memory in a loop per pass: one program '
   'per row, BLOCK = next_power_of_2(n_cols), and more warps for wider rows, as the fused '
   'softmax and layer-norm tutorials do.',
   '["https://triton-lang.org/main/getting-started/tutorials/02-fused-softmax.html", "https://triton-lang.org/main/getting-started/tutorials/05-layer-norm.html"]'),
  ('cuda.reduction.num_warps', 'reduction',
   '{"target": ["cuda"], "class": ["reduction"], "symptoms_none": ["fits:row_single_block"]}',
   '{"family": "num_warps", "direction": "up", "needs_level": 2, "prefer": {"num_warps": [8, 16]}}',
   'A reduction over a long row leaves most threads idle with few warps; the fused softmax '
   'tutorial scales num_warps with the block (8 from 2048 elements, 16 from 4096).',
   '["https://triton-lang.org/main/getting-started/tutorials/02-fused-softmax.html"]'),
  ('cuda.reduction.column_tiles', 'fits:strided_reduction_tiles',
   '{"target": ["cuda"], "class": ["reduction"], "symptoms_all": ["fits:strided_reduction_tiles"]}',
   '{"family": "coalesce_access", "needs_level": 3, "structural": "strided_reduction_tiles",
     "prefer": {"BLOCK_C": [64, 128], "num_warps": [4]}}',
   'One program per column walks memory with a row-sized stride, so neighbouring threads never '
   'read neighbouring addresses; give each program a tile of adjacent columns so each row '
   'segment it loads is contiguous (coalesced), as the layer-norm backward tutorial does for '
   'its column partial sums.',
   '["https://triton-lang.org/main/getting-started/tutorials/05-layer-norm.html"]'),
  -- ---------------------------------------------------------------- CUDA: tl.dot
  ('cuda.matmul.tile_grid', 'fits:tile_grid',
   '{"target": ["cuda"], "class": ["matmul"], "symptoms_all": ["fits:tile_grid"]}',
   '{"family": "tile_grid", "needs_level": 3, "structural": "tile_grid",
     "prefer": {"GROUP_M": [8], "num_stages": [3, 4], "num_warps": [4, 8]}}',
   'Walk output tiles in grouped order (GROUP_M tile rows at a time, column by column) so that '
   'programs running together reuse the same A rows and B columns from L2, and try the tile '
   'configurations the matrix-multiplication tutorial autotunes over (128x256x64 with 8 warps '
   'and 3 stages down to 32x64x32 with 2 warps and 5 stages).',
   '["https://triton-lang.org/main/getting-started/tutorials/03-matrix-multiplication.html"]'),
  ('cuda.matmul.pipeline', 'matmul:loop',
   '{"target": ["cuda"], "class": ["matmul"], "symptoms_all": ["matmul:loop"]}',
   '{"family": "num_stages", "direction": "up", "needs_level": 4, "prefer": {"num_stages": [3, 4, 5]}}',
   'A K loop that loads synchronously stalls the tensor cores on every iteration; software '
   'pipelining (num_stages 3 to 5) lets the compiler issue the next tiles'' asynchronous copies '
   'while the current ones multiply, within the shared memory the stages need.',
   '["https://triton-lang.org/main/getting-started/tutorials/03-matrix-multiplication.html", "https://triton-lang.org/main/python-api/generated/triton.autotune.html"]'),
  ('cuda.matmul.tensor_core_tiles', 'matmul',
   '{"target": ["cuda"], "class": ["matmul"], "symptoms_none": ["fits:tile_grid"]}',
   '{"family": "use_tensor_cores", "direction": "up", "needs_level": 2,
     "prefer": {"block_m": [64, 128], "block_n": [64, 128, 256], "block_k": [32, 64], "num_warps": [4, 8]}}',
   'tl.dot runs on tensor cores for tiles whose sides are multiples of 16; tiles of at least '
   '64x64 with BLOCK_K 32 or 64 give each program enough MMA work per load to approach the '
   'tensor-core roofline.',
   '["https://triton-lang.org/main/getting-started/tutorials/03-matrix-multiplication.html"]'),
  -- ---------------------------------------------------------------- CUDA: whole grid
  ('cuda.persistent_grid', 'fits:persistent_grid',
   '{"target": ["cuda"], "symptoms_all": ["fits:persistent_grid"], "symptoms_any": ["l2:launch", "several_kernels"]}',
   '{"family": "persistent_grid", "needs_level": 2, "structural": "persistent_grid"}',
   'When launches are short, run a persistent kernel: about one program per SM, each looping '
   'over tiles pid, pid + P, ..., so the launch and start-up cost is paid once per SM instead of '
   'once per tile (the persistent matmul tutorial).',
   '["https://triton-lang.org/main/getting-started/tutorials/09-persistent-matmul.html"]'),
  ('cuda.fuse_kernels', 'several_kernels',
   '{"target": ["cuda"], "symptoms_all": ["several_kernels"]}',
   '{"family": "fuse_kernels", "needs_level": 2}',
   'Consecutive kernels that hand an intermediate through global memory can be fused into one '
   'that keeps it in registers: one read of the inputs and one write of the result, which is '
   'the point of the fused softmax and layer-norm tutorials.',
   '["https://triton-lang.org/main/getting-started/tutorials/02-fused-softmax.html"]'),
  ('cuda.spills.smaller_tile', 'ir:spills',
   '{"target": ["cuda"], "symptoms_all": ["ir:spills"]}',
   '{"family": "block_size", "direction": "down", "needs_level": 3}',
   'Local-memory spills mean the tile does not fit the register file: a smaller block (or '
   'fewer pipeline stages) keeps the working set in registers.',
   '["https://triton-lang.org/main/python-api/triton.language.html"]'),
  -- ---------------------------------------------------------------- Ascend
  ('ascend.grid.core_count', 'fits:persistent_grid',
   '{"target": ["ascend"], "symptoms_all": ["fits:persistent_grid"]}',
   '{"family": "persistent_grid", "needs_level": 2, "structural": "persistent_grid"}',
   'On Ascend the grid binds to physical cores: programs beyond the core count run in further '
   'waves, each paying core start-up. Launch as many programs as vector cores (cube cores for '
   'tl.dot work) and loop over the blocks inside each program.',
   '["https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/migration_guide/architecture_difference.md", "https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/programming_guide/index.md"]'),
  ('ascend.elementwise.block_size', 'small_block',
   '{"target": ["ascend"], "class": ["elementwise"], "symptoms_all": ["small_block"]}',
   '{"family": "block_size", "direction": "up", "needs_level": 3, "prefer": {"block": [4096, 8192, 16384]}}',
   'Each core moves a block through its unified buffer per iteration; small blocks spend the '
   'time on per-block setup and synchronisation. Larger blocks (within the unified buffer, '
   'with room for double buffering) keep the vector unit and the copy engines busy.',
   '["https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/programming_guide/index.md"]'),
  ('ascend.gather.structured_access', 'ir:discrete_access',
   '{"target": ["ascend"], "symptoms_any": ["ir:discrete_access"]}',
   '{"family": "structured_access", "needs_level": 3}',
   'An index the compiler cannot prove contiguous turns a block load into one scalar access per '
   'element on the scalar unit. Build offsets from tl.arange on contiguous dimensions (or a '
   'block pointer) and gather only where the data really is indexed.',
   '["https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/programming_guide/index.md"]'),
  ('ascend.scalar.reduce_scalar_work', 'ir:scalar_work',
   '{"target": ["ascend"], "symptoms_any": ["ir:scalar_work"]}',
   '{"family": "reduce_scalar_work", "needs_level": 3}',
   'Branches on loaded values, single-element loads and 64-bit index arithmetic are lowered to '
   'the scalar unit, which serialises the core: compute both sides and select with tl.where, '
   'load blocks, keep indices in 32 bits.',
   '["https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/programming_guide/index.md"]'),
  ('ascend.mask.structured_mask', 'ir:masked_rmw',
   '{"target": ["ascend"], "symptoms_any": ["ir:masked_rmw"]}',
   '{"family": "structured_mask", "needs_level": 3}',
   'A store mask that is not a simple bound makes the compiler read, select and rewrite the '
   'whole block; a bound of the form offs < n keeps it a masked copy.',
   '["https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/programming_guide/index.md"]'),
  ('ascend.ub.smaller_block', 'ir:ub_overflow',
   '{"target": ["ascend"], "symptoms_any": ["ir:ub_overflow"]}',
   '{"family": "block_size", "direction": "down", "needs_level": 3}',
   'The block''s tiles, times the buffers the compiler allocates for overlapping copies, must '
   'fit each core''s unified buffer: split the block into sub-blocks looped inside the program '
   'rather than one block that overflows.',
   '["https://gitcode.com/Ascend/triton-ascend/blob/main/docs/en/programming_guide/index.md"]')
) AS s(name, symptom, conditions, action, guidance, refs);

SELECT set_config('kopt.writing_pattern_version', '', true);

-- The seed is the fixed reference: frozen from the start.
UPDATE pattern_index_versions SET frozen = true, frozen_at = now()
WHERE version = (SELECT max(version) FROM pattern_index_versions);
