/* ir_adapter: L3 of the diagnosis ladder on Ascend -- features of a kernel's triton-ascend
 * adapter IR (the `ttadapter` stage: linalg/memref/scf/bufferization with hivm attributes,
 * what triton-adapter-opt makes of the TTIR), attributed to lines of the user's kernel through
 * its locations (TRITON_DISABLE_LINE_INFO=0). Read from real triton-ascend 3.2.0 output
 * (tests/unit/data/ir/ascend_*, made by tests/ir/gen_ascend_fixtures.py); the figures a
 * device would give (pipe ratios, UB actually allocated by bishengir) are not in it.
 *
 * What it recognises, as triton-ascend 3.2.0 prints it:
 *   global memory   the kernel's memref arguments and their reinterpret_cast/subview views
 *   local buffers   memref.alloc (unified buffer / L1), their bytes from the static shape
 *   structured      memref.copy global -> local (a block DMA in), bufferization.
 *                   materialize_in_destination or memref.copy into a global view (a block out)
 *   discrete        ops tagged {DiscreteMemAccess} and scf.for loops tagged
 *                   {ExtractedLoadOrStore}: a gather/scatter lowered to one scalar load
 *                   (memref.load of a 1-element view) or store per element
 *   scalar          memref.load / 1-element stores of global memory outside such loops, and
 *                   scf.for loops doing them (a loop over elements written by hand)
 *   branch on load  scf.if whose condition derives from a scalar loaded from global memory
 *   masked RMW      a store of an arith.select result into a global view that the kernel also
 *                   read: discrete-mask-access-conversion's rewrite of a mask that is not a
 *                   bound (the whole block is read, selected and written back)
 *   mix_mode        the function attribute (aiv: vector cores, aic: cube, mix: both)
 *
 * JSON (new reference from ir_adapter_features, caller decrefs; NULL with err on a missing
 * or oversized input or out of memory):
 * {
 *   "ir": "ttadapter", "source_file": "kernel.py",
 *   "functions": [{"name", "mix_mode", "parallel_mode", "core_type": "AIV"|"AIC"|"MIX"}],
 *   "mix_mode": "aiv", "core_type": "AIV",          of the first function
 *   "memory": {"copies_in", "copies_out", "discrete_loads", "discrete_stores", "scalar_loads",
 *              "scalar_stores", "masked_rmw_stores", "structured", "unstructured"},
 *   "discrete_ops": N,        ops tagged {DiscreteMemAccess}
 *   "loops": [{"line", "discrete", "scalar_loads", "scalar_stores", "copies_in",
 *              "copies_out", "scalar_arith"}],   scf.for, in order of closing, <= IR_LOOPS_MAX
 *   "discrete_loops": N, "scalar_loops": N (loops with scalar global accesses, discrete or not),
 *   "branches_on_load": N,
 *   "local_buffers": {"count", "bytes", "max_bytes", "dynamic", "ub_bytes"},
 *   "linalg": {"linalg.matmul": N, "linalg.reduce": N, ...},
 *   "hivm_annotations": {"hivm.unlikely_condition": N, ...},  attributes and ops named hivm.*
 *   "scalar_arith": N, "loop_scalar_arith": N, "scalar_i64": N,
 *   "by_line": {"28": {"discrete_load": 1, "discrete_loop": 1}, ...},
 *   "hotspot": {"line", "reason": "discrete memory access" | "masked read-modify-write" |
 *               "scalar loop" | "scalar memory access" | "branch on a loaded value" |
 *               "global memory" | "cube"},     the first kind any line has, the line with most
 *   "names_truncated": true   only when more SSA values than IR_ADAPTER_NAMES_MAX were seen
 *   "verified_on_hardware": false
 * } */
#ifndef KOPT_IR_ADAPTER_H
#define KOPT_IR_ADAPTER_H
#include <jansson.h>
#include <stddef.h>

#define IR_ADAPTER_NAMES_MAX 8192       /* SSA values remembered per function (hash slots) */
#define IR_ADAPTER_UB_BYTES (192u << 10) /* unified buffer of an Atlas A2 vector core */

json_t *ir_adapter_features(const char *ttadapter, char *err, size_t errlen);

#endif
