/* ir_hivm: L3 features for the ascend backend from the HIVM IR after hivm-inject-sync
 * (kernel.npuir.mlir, which bishengir-compile prints; only where CANN is installed). Written
 * from the AscendNPU-IR documentation and its tests; NOT run on real bishengir output (no
 * CANN where it was written: docs/ASCEND.md). The adapter IR reader (ir_adapter.h) is what
 * runs everywhere.
 *
 * ir_hivm_features() returns a new reference (caller decrefs), or NULL with err filled:
 * {
 *   "hivm": {"set_flag": N, "wait_flag": N, "pipe_barrier": N, "pipe_barrier_all": N,
 *            "sync_block_set": N, "sync_block_wait": N, "load": N, "store": N,
 *            "load_scalar": N, "vector_ops": N, "cube_ops": N},
 *   "sync_pairs": {"PIPE_MTE2->PIPE_V": N, ...},      set_flag (from pipe, to pipe) pairs
 *   "scalar_ops": N,          scalar arith/math ops (non-index scalar result) + scalar memory ops
 *   "scalar_arith": N, "scalar_i64": N, "scalar_mem": N,
 *   "loops": N, "scalar_loops": N,   scf.for whose body has scalar ops and no hivm vector/cube/DMA op
 *   "core_type": "AIV" | "AIC" | "MIX" | "AIC_OR_AIV",  module attribute, else combined over functions
 *   "functions": [{"name": "f", "core_type": "AIV"}],
 *   "by_line": {...},          when the IR carries loc("file":L:C) locations
 *   "verified_on_hardware": false
 * } */
#ifndef KOPT_IR_HIVM_H
#define KOPT_IR_HIVM_H
#include <jansson.h>
#include <stddef.h>

json_t *ir_hivm_features(const char *npuir, char *err, size_t errlen);

#endif
