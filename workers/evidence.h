/* evidence: gathers what each ladder level reads, through the harness, and turns compiler
 * output into L3 features and L4 findings (workers/ir.c and ir_adapter.c/ir_hivm.c for
 * Ascend, workers/ir_passes.c). Results are
 * cached per incumbent: a new incumbent clears them. */
#ifndef KOPT_EVIDENCE_H
#define KOPT_EVIDENCE_H
#include <jansson.h>

#include "ir_passes.h"
#include "job.h"

struct evidence {
  json_t *profile;   /* owned: harness profile result */
  json_t *compile;   /* owned: harness compile result (no per-pass) */
  json_t *ir;        /* owned: L3 features of the hottest kernel */
  json_t *passes;    /* owned: L4 findings (array) */
  json_t *compile_pp;/* owned: per-pass compile result */
  json_t *tile_hint; /* owned: {kernel, elems}: the incumbent's largest tensor, from the sweep
                      * compile that made it (rules_tile's estimate when no IR is read) */
};

void evidence_init(struct evidence *e);
void evidence_clear(struct evidence *e);
/* Each returns 0 (result cached, possibly an "unavailable" object), or -EINTR when the
 * worker is stopping. source/tunables describe the incumbent. */
int evidence_profile(struct job_ctx *j, struct evidence *e, const char *source,
                     const json_t *tunables);
/* The job's baseline already profiled and compiled the initial kernel (job.c): while the
 * incumbent is that kernel, its results stand in for the round's own (a profile costs ~9 s
 * on the H200, a compile ~5 s). Seeds what is asked (EVIDENCE_SEED_*) and missing, only
 * from a successful result (a compile only while its IR files exist). */
#define EVIDENCE_SEED_PROFILE 1
#define EVIDENCE_SEED_COMPILE 2
void evidence_seed(struct evidence *e, const json_t *baseline, int which);
int evidence_ir(struct job_ctx *j, struct evidence *e, const char *source,
                const json_t *tunables, int round);
int evidence_passes(struct job_ctx *j, struct evidence *e, const char *source,
                    const json_t *tunables);
/* The largest tensor of a sweep candidate's compiled kernels, {kernel, elems} (new reference),
 * from its compile facts (the harness's sweep: compile.facts.KERNEL.max_tensor_elems), or
 * NULL when none is recorded. */
json_t *evidence_tile_hint(const json_t *candidate);
/* The launch settings the compile saw (kernels[0].kwargs flattened to NAME: value). */
json_t *evidence_launch(const struct evidence *e);

/* L4 findings from a per-pass dump (len bytes, not copied; tab may be NULL): the symptoms L3
 * can raise, each traced to the pass that made or kept it. A new array, or NULL with err when
 * the dump holds no pass header (or memory ran out). Pure: tests/fuzz/fuzz_ir_passes.c. */
json_t *evidence_passes_findings(const char *dump, size_t len, const struct ir_pass_table *tab,
                                 char *err, size_t errlen);
/* The same for triton-ascend's adapter pipeline (triton-adapter-opt printed before and after
 * every pass): discrete_access ({DiscreteMemAccess}: the pass that scalarized a gather or
 * scatter), masked_access (masked tt.load/tt.store, seen through
 * discrete-mask-access-conversion: removed or reduced there means masks it could not keep),
 * local_buffer (memref.alloc: where block copies into local buffers appear). */
json_t *evidence_passes_findings_ascend(const char *dump, size_t len, const struct ir_pass_table *tab,
                                        char *err, size_t errlen);

#endif
