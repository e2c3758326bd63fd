/* ir: L3 of the diagnosis ladder -- IR attribution. Reads the text of the lowered IR
 * (cuda: TTGIR, PTX, SASS as Triton 3.6 and cuobjdump print them; the Ascend readers are
 * ir_adapter.h and ir_hivm.h) and returns features as a jansson object: global load/store widths,
 * barriers, shared and local memory, spills, layout conversions, MMA, async copies/TMA,
 * scalar loops, each notable op attributed to a line of the user's kernel source through
 * the IR's locations (TTGIR `loc(#locN)` aliases, PTX `.loc`/`.file`).
 *
 * Pure text parsing: no compiler, no device. Every input is capped at IR_TEXT_MAX bytes.
 * JSON shape: see ir_features_cuda() below. */
#ifndef KOPT_IR_H
#define KOPT_IR_H
#include <jansson.h>
#include <stddef.h>

#define IR_TEXT_MAX (64u << 20)  /* larger IR texts are refused (-EFBIG) */
#define IR_BY_LINE_MAX 4096      /* distinct source lines kept in "by_line" */
#define IR_LOOPS_MAX 64          /* loop records kept per IR */

/* Reads the whole file at path into *out (malloc'd, NUL-terminated, caller frees) and its
 * length into *len (may be NULL). 0, -ENOENT and other -errno from open/read, -EFBIG when
 * the file is larger than cap. */
int ir_read_file(const char *path, size_t cap, char **out, size_t *len);

/* L3 features for the cuda backend. Each text may be NULL (file missing): the features
 * derived from it are then absent, not zero. Returns a new reference (caller decrefs), or
 * NULL with err filled (every input NULL, an input over IR_TEXT_MAX, out of memory).
 *
 * {
 *   "source_file": "/path/kernel.py",        user file the lines refer to (TTGIR #loc, else PTX .file)
 *   "ttgir": {                               present when ttgir != NULL
 *     "ops": {"tt.load": 2, "tt.store": 1, "ttg.convert_layout": 0, "ttg.local_alloc": 0,
 *             "ttg.async_copy_global_to_local": 0, "ttng.async_tma_copy_global_to_local": 0,
 *             "tt.dot": 0, "ttng.warp_group_dot": 0, "scf.for": 0, ...every tracked op, zeros too},
 *     "num_warps": 4, "target": "cuda:90",   when the module attributes say so
 *     "layout_conversions": N, "local_alloc_bytes": N (sum of ttg.local_alloc memdesc sizes),
 *     "async_copies": N, "tma_copies": N, "dots": N,
 *     "loops": [{"line": L|null, "loads": N, "async_copies": N, "dots": N,
 *                "tensor_ops": bool, "scalar": bool}],   scf.for, outermost first, <= IR_LOOPS_MAX
 *     "scalar_loops": N, "scalar_loop_loads": N          loops whose body has no tensor/memdesc type
 *   },
 *   "ptx": {                                 present when ptx != NULL
 *     "ld.global.32": N, "ld.global.128": N, "st.global.128": N, ...  by access width in bits
 *     "global_loads": N, "global_stores": N, "global_128bit": N, "all_global_128bit": bool,
 *     "ld.shared": N, "st.shared": N, "ld.local": N, "st.local": N, "bar.sync": N,
 *     "mma.sync": N, "wgmma": N, "ldmatrix": N, "cp.async": N, "cp.async.bulk.tensor": N,
 *     "mbarrier": N, "atom.global": N,
 *     "shared_static_bytes": N, "shared_dynamic": bool,
 *     "loops": N, "loops_with_scalar_global_loads": N     backward branches to a label
 *   },
 *   "sass": {                                present when sass != NULL
 *     "instructions": N, "LDG.32": N, "LDG.128": N, "STG.128": N, ..., "LDS": N, "STS": N,
 *     "LDSM": N, "LDL": N, "STL": N, "LDGSTS": N, "UTMALDG": N, "BAR": N, "HGMMA": N,
 *     "HMMA": N, "global_loads": N, "global_stores": N, "all_global_128bit": bool
 *   },
 *   "spills": {"ld.local": N, "st.local": N, "local_depot_bytes": N (ptx), "LDL": N, "STL": N (sass),
 *              "spill_store_bytes": N, "spill_load_bytes": N, "local_bytes": N (ptxas -v /
 *              cuobjdump -res-usage lines, when the sass text carries them)},
 *   "all_global_128bit": bool,               from PTX, else SASS
 *   "by_line": {"14": {"tt.load": 1, "ld.global.32": 8}, ...},   TTGIR ops and PTX instructions
 *   "hotspot": {"line": 14, "reason": "mma" | "global memory", "ops": {...}}   when any line has ops
 * }
 * by_line keys are source line numbers of the user's kernel file; PTX instructions inlined
 * from Triton's library (e.g. tl.sum) count at the user line that called it. */
json_t *ir_features_cuda(const char *ttgir, const char *ptx, const char *sass, char *err, size_t errlen);

/* ir_features_cuda() on files (the harness's compile output: <kernel>.ttgir, .ptx, .sass). A
 * path may be NULL, and a file that does not exist counts as missing (its features absent);
 * any other read error fails. New reference or NULL with err. */
json_t *ir_features_cuda_paths(const char *ttgir_path, const char *ptx_path, const char *sass_path, char *err,
                               size_t errlen);

/* Small helpers, also used by ir_passes.c. */

/* The op name of one MLIR line (`%x = tt.load ...`, `tt.store ...`, `%s = "tt.reduce"(...`),
 * copied into out (NUL-terminated); returns its length, 0 when the line holds no op. */
size_t ir_mlir_op_name(const char *line, size_t len, char *out, size_t outlen);

/* Occurrences of operation `op` (exact op name) in MLIR text. */
long ir_mlir_count_op(const char *text, size_t len, const char *op);

/* scf.for loops in MLIR text that match flags (counting each loop, nested ones too). */
#define IR_LOOP_SYNC_LOAD 1u  /* body has tt.load/tt.descriptor_load and no async copy or TMA copy */
#define IR_LOOP_SCALAR 2u     /* body has ops but no tensor<> or !ttg.memdesc type */
long ir_mlir_count_loops(const char *text, size_t len, unsigned flags);

#endif
