/* ir_passes: L4 of the diagnosis ladder -- compiler-grounded analysis. Splits an MLIR
 * per-pass dump (MLIR_ENABLE_DUMP=1 as Triton 3.6 prints it: `// -----// IR Dump Before
 * <PassName> (<pass-arg>) ('<op>' operation[: @fn]) //----- //` then the IR; or `IR Dump
 * After`, as `--mlir-print-ir-after-all` prints it; or both, as triton-adapter-opt prints
 * them with --mlir-print-ir-before-all --mlir-print-ir-after-all, where `Before P` ...
 * `After P` brackets the passes P runs inside itself) into the sequence of passes and the IR
 * around each, counts a symptom in every snapshot, and reports the pass after which the
 * symptom appeared, changed, or failed to disappear, with the pass's one-line account from
 * workers/passes.tsv.
 *
 * JSON of one finding (every "finding" below):
 *   {"index": 31, "pass": "TritonGPUPipeline", "pass_arg": "tritongpu-pipeline",
 *    "before_count": 0, "after_count": 6,
 *    "verdict": "introduced" | "increased" | "reduced" | "removed" | "persisted" | "absent" | "unknown",
 *    "description": "one line from passes.tsv" | null,
 *    "nested": ["canonicalize", ...]}   passes whose dumps printed only part of the module
 *                                       (e.g. a tt.func), so their effect is folded in here */
#ifndef KOPT_IR_PASSES_H
#define KOPT_IR_PASSES_H
#include <jansson.h>
#include <regex.h>
#include <stddef.h>

#define IR_PASSES_MAX 4096        /* dumps kept from one compile */
#define IR_PASS_TABLE_MAX (1u << 20) /* bytes of passes.tsv read */
#define IR_FINDINGS_MAX 64        /* entries in "changes" and "persisted_through" */

struct ir_pass_dump {
  char name[96];      /* TritonGPUPipeline */
  char arg[96];       /* tritongpu-pipeline; "" when the header has none */
  char scope[64];     /* builtin.module, tt.func, ...; "" when the header has none */
  int after;          /* 1: the IR is after the pass ("IR Dump After"); 0: before it */
  int full;           /* 1 when the whole module was printed (module scope or no scope) */
  const char *ir;     /* borrowed from the text given to ir_passes_parse */
  size_t ir_len;      /* up to the next header or pass-internal dump */
};

struct ir_pass_seq {
  struct ir_pass_dump *v; /* owned */
  size_t n;
  int truncated;          /* more than IR_PASSES_MAX dumps: the rest were dropped */
};

/* Splits text (not copied: keep it alive while seq is used). 0, -ENOENT when the text holds
 * no pass header, -ENOMEM. */
int ir_passes_parse(const char *text, size_t len, struct ir_pass_seq *seq, char *err, size_t errlen);
void ir_passes_free(struct ir_pass_seq *seq);

/* A symptom: a predicate over IR text that yields a count. Spec strings:
 *   "op:ttg.convert_layout"   operations with that exact name
 *   "substr:tt.load"          raw occurrences of the text
 *   "re:ld\.global\.b32"      POSIX extended regex matches (per line)
 *   "loop-sync-load"          scf.for loops whose body loads (tt.load) with no async/TMA copy
 *   "loop-scalar"             scf.for loops whose body has no tensor or shared-memory type */
enum ir_symptom_kind { IR_SYM_OP, IR_SYM_SUBSTR, IR_SYM_REGEX, IR_SYM_LOOP_SYNC_LOAD, IR_SYM_LOOP_SCALAR };

struct ir_symptom {
  enum ir_symptom_kind kind;
  char spec[256];     /* the spec it was made from */
  char pattern[256];  /* op name, text or regex source */
  regex_t re;         /* compiled when kind == IR_SYM_REGEX */
  int re_ok;
};

/* 0, -EINVAL (unknown kind, empty or over-long pattern, bad regex; err says which). */
int ir_symptom_init(struct ir_symptom *s, const char *spec, char *err, size_t errlen);
void ir_symptom_free(struct ir_symptom *s);
/* The symptom's count in one IR snapshot (>= 0), or -1 when it cannot be counted. */
long ir_symptom_count(const struct ir_symptom *s, const char *ir, size_t len);

/* The pass table: pass-arg \t pass name \t one-line account, '#' comments. */
struct ir_pass_row {
  const char *arg, *name, *desc; /* point into buf */
};
struct ir_pass_table {
  char *buf;                /* owned copy of the text, fields NUL-terminated in place */
  struct ir_pass_row *rows; /* owned */
  size_t n;
  char source[256];         /* where it came from: "embedded" or a path */
};

/* Parses TSV text (copied). 0, -EINVAL (a line without three fields; err names it), -ENOMEM. */
int ir_pass_table_parse(struct ir_pass_table *t, const char *text, size_t len, char *err, size_t errlen);
/* Loads the table from path; path NULL: $KOPT_PASSES_TSV when set (it must be readable), else
 * the copy embedded at build time when the binary has one, else
 * $KOPT_HARNESS_DIR/../workers/passes.tsv, else workers/passes.tsv (relative to the working
 * directory). 0 or -errno with err. */
int ir_pass_table_load(struct ir_pass_table *t, const char *path, char *err, size_t errlen);
/* The row for a pass-arg (preferred) or pass name; NULL when neither is in the table. */
const struct ir_pass_row *ir_pass_table_find(const struct ir_pass_table *t, const char *arg, const char *name);
void ir_pass_table_free(struct ir_pass_table *t);

/* Traces a symptom through the pass sequence. tab may be NULL (descriptions are null), focus
 * may be NULL or a pass-arg whose every run is reported under "focus". Returns a new
 * reference, or NULL with err (no full snapshot, out of memory):
 * {
 *   "symptom": "op:ttg.async_copy_global_to_local", "dumps": 61, "snapshots": 58,
 *   "initial_count": 0,        in the first full snapshot
 *   "final_count": 6,          in the last one
 *   "present_in_input": false, the symptom was already in the first snapshot
 *   "appeared": finding | null,     first step from 0 to > 0
 *   "removed": finding | null,      last step from > 0 to 0
 *   "changes": [finding, ...],      every step whose count changed (<= IR_FINDINGS_MAX)
 *   "persisted_through": [{"pass_arg", "pass", "runs", "description"}, ...]
 *                              passes that ran while the symptom was present and did not
 *                              reduce it, once per pass-arg in order (<= IR_FINDINGS_MAX),
 *   "unknown_after": "convert-triton-gpu-to-llvm" | absent   a pass whose result the dump lacks
 *   "focus": [finding, ...]    when focus is given: each run of that pass
 * } */
json_t *ir_passes_trace(const struct ir_pass_seq *seq, const struct ir_symptom *sym, const struct ir_pass_table *tab,
                        const char *focus, char *err, size_t errlen);

/* Convenience for the round loop: reads the dump at path (capped at IR_TEXT_MAX), builds
 * the symptom from spec and traces it (tab and focus as above). New reference or NULL with
 * err. */
json_t *ir_passes_trace_file(const char *path, const char *spec, const struct ir_pass_table *tab, const char *focus,
                             char *err, size_t errlen);

#endif
