/* Evidence the ladder's unit tests share (test_ladder.c, test_ladder_structural.c): a vector
 * add's source and an ncu profile of given throughputs. Header-only: each test binary
 * includes it once. */
#ifndef KOPT_TESTS_LADDER_EVIDENCE_H
#define KOPT_TESTS_LADDER_EVIDENCE_H

#include <jansson.h>

static const char *const vec_add =
    "import triton\nimport triton.language as tl\n@triton.jit\n"
    "def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):\n"
    "    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)\n"
    "    a = tl.load(a_ptr + offs, mask=offs < n)\n"
    "    b = tl.load(b_ptr + offs, mask=offs < n)\n"
    "    tl.store(out_ptr + offs, a + b, mask=offs < n)\n"
    "class ModelNew:\n    pass\n";

static inline json_t *ncu(double mem, double sm, double dur, double occ)
{
  return json_pack("{s:b, s:s, s:[{s:s, s:{s:f, s:f, s:f, s:f, s:f}}]}", "available", 1, "tool",
                   "ncu", "kernels", "kernel", "add_kernel", "summary", "memory_throughput_pct",
                   mem, "dram_throughput_pct", mem, "sm_throughput_pct", sm, "duration_us", dur,
                   "achieved_occupancy_pct", occ);
}

#endif
