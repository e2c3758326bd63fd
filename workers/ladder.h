/* ladder: the diagnosis ladder. Each level turns its evidence into a diagnosis (a hotspot,
 * the rewrite families the evidence justifies, and whether that evidence suffices), and the
 * paper's three escalation tests decide whether to stop or climb:
 *   (a) a dominant hotspot is identified, (b) exactly one rewrite family is justified,
 *   (c) the evidence at this level suffices for that family.
 * Pure functions over JSON evidence, so every rule is unit-tested without a device. */
#ifndef KOPT_LADDER_H
#define KOPT_LADDER_H
#include <jansson.h>

#define LADDER_LEVELS 4         /* L1 patterns, L2 profile, L3 IR, L4 passes */
#define LADDER_MAX_FAMILIES 8
#define LADDER_MAX_SYMPTOMS 8   /* source symptoms L1 names */
#define LADDER_SYMPTOM_LEN 48

enum ladder_policy {
  LADDER_HIERARCHY = 0, /* climb while a test fails (default) */
  LADDER_PROFILE_ONLY,  /* never beyond L2 */
  LADDER_ALWAYS_DEEP,   /* always to L4 */
  LADDER_PATTERN_ONLY,  /* L1 only */
};

struct ladder_diag {
  int level;                                   /* 1..4 */
  char hotspot[160];                           /* "" when no dominant hotspot */
  char family[LADDER_MAX_FAMILIES][32];        /* justified families, strongest first */
  int needs_level[LADDER_MAX_FAMILIES];        /* evidence level each family needs */
  char direction[LADDER_MAX_FAMILIES][8];      /* "up" / "down" / "" for tunable families */
  unsigned nfamilies;
  int available;                               /* 0 when the level's evidence is missing */
  char why[600];                               /* what the evidence said, in words */
  double waves;                                /* L2: the hot kernel's waves per SM, -1 unknown */
};

struct ladder_tests {
  int hotspot, one_family, sufficient;
};

int ladder_policy_parse(const char *s, enum ladder_policy *out);
const char *ladder_policy_name(enum ladder_policy p);
/* Highest level a policy may reach. */
int ladder_max_level(enum ladder_policy p);

/* L1: pattern triage from the kernel source, its launch settings and the pattern index.
 * launch: {"NAME": value} of the current tunables/launch options (may be NULL); knobs: the
 * harness's knobs result ({"knobs": [{"name", "kind", ...}]}, may be NULL), whose kind
 * "block" marks the block sizes among the launch values; patterns: array of {"symptom",
 * "rewrite_family", "successes", "trials"} (may be NULL). */
void ladder_l1(const char *source, const json_t *launch, const json_t *knobs,
               const json_t *patterns, struct ladder_diag *d);
/* Adds the kernels' dots, loops and reductions as the harness's syntax tree counted them
 * (knobs.kernels: every tl reduction and scan, tl.argmax or x.sum(axis=...) alike) to *dots,
 * *loops, *reds; 0 when the knobs list no kernels (unknown), else 1. */
int ladder_knob_counts(const json_t *knobs, unsigned *dots, unsigned *loops, unsigned *reds);
/* The source symptoms L1 and the pattern index share: the class ("matmul:loop", "matmul",
 * "reduction" or "elementwise"), then "small_block", "under_4_per_thread",
 * "several_kernels" where they hold. launch and knobs as for ladder_l1. */
void ladder_source_symptoms(const char *src, const json_t *launch, const json_t *knobs,
                            char out[LADDER_MAX_SYMPTOMS][LADDER_SYMPTOM_LEN], unsigned *n);
/* L2: bottleneck class from profiler metrics (the harness's profile result). On Ascend the
 * class comes from the vector/scalar/MTE/cube pipe ratios. */
void ladder_l2(const json_t *profile, struct ladder_diag *d);
/* The L2 class alone, for records: "memory", "compute", "latency", "launch", "balanced",
 * or on Ascend "vector", "scalar", "mte", "cube"; NULL when unavailable. */
const char *ladder_l2_class(const json_t *profile, char *why, size_t whylen);
/* L3: IR features (ir_features_cuda, ir_adapter_features -- with the HIVM reader's under
 * "hivm_ir" where CANN ran -- or ir_hivm_features output), with the L2 class if known. */
void ladder_l3(const json_t *ir, const char *l2_class, const json_t *launch,
               struct ladder_diag *d);
/* L4: per-pass findings (array of ir_passes findings). */
void ladder_l4(const json_t *findings, const json_t *ir, struct ladder_diag *d);

/* Applies the three tests. skip: families already exhausted this job (NULL-terminated). */
void ladder_tests(const struct ladder_diag *d, const char *const *skip, struct ladder_tests *t);
/* 1 when family is in skip (NULL-terminated; NULL: empty). */
int ladder_skipped(const char *family, const char *const *skip);
/* The last resort when every family d justifies is spent: adds the launch-parameter families
 * (block_size, num_warps, num_stages) not in skip, needing d's own level, and says so in
 * d->why. The number added. */
unsigned ladder_fallback(struct ladder_diag *d, const char *const *skip);
/* First justified family not in skip, or NULL. */
const char *ladder_pick(const struct ladder_diag *d, const char *const *skip, int *index);
/* The diagnosis as JSON (new reference). */
json_t *ladder_diag_json(const struct ladder_diag *d, const struct ladder_tests *t);

/* Moves a family already in d to the front: what the evidence most specifically asks for. */
void ladder_first(struct ladder_diag *d, const char *family);

/* Adds a justified family (deduplicated). Exposed for tests. */
void ladder_add(struct ladder_diag *d, const char *family, int needs_level, const char *dir);

/* Shared by the ladder's modules (ladder_structural.c). Appends a sentence to d->why (cut to
 * its buffer, kept UTF-8: it quotes evidence and goes into the round record as JSON). */
void ladder_why(struct ladder_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An integer member of an IR summary (keys may contain dots, e.g. "ld.global.32"); 0 when
 * absent. */
long ladder_ir_int(const json_t *o, const char *key);
/* Global accesses of op ("ld" or "st") narrower than 128 bits in a PTX summary: 8-, 16-, 32-
 * and 64-bit ones. */
long ladder_narrow(const json_t *ptx, const char *op);

#endif
