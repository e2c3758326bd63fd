/* fuzz_ir_passes: the L4 per-pass MLIR reader (workers/ir_passes.c) on an MLIR_ENABLE_DUMP
 * dump of an untrusted kernel's compile: the findings evidence_passes records (through
 * evidence_passes_findings and, for triton-ascend's adapter pipeline, through
 * evidence_passes_findings_ascend, with the embedded passes.tsv), the symptom kinds it does not use
 * by default, and the ladder's L4 reading. */
#include "evidence.h"
#include "fuzz_ladder.h"
#include "ir_passes.h"

static struct ir_pass_table fuzz_tab;
static int fuzz_have_tab;
static struct ir_symptom fuzz_sym[2];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  char err[256];
  (void)argc;
  (void)argv;
  fuzz_have_tab = ir_pass_table_load(&fuzz_tab, NULL, err, sizeof(err)) == 0;
  if (ir_symptom_init(&fuzz_sym[0], "loop-scalar", err, sizeof(err)) ||
      ir_symptom_init(&fuzz_sym[1], "substr:tt.load", err, sizeof(err))) {
    fprintf(stderr, "fuzz_ir_passes: %s\n", err);
    abort();
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct ir_pass_seq seq;
  struct ladder_diag d;
  char err[256] = "", *text, *txt;
  json_t *findings, *t;

  /* As ir_read_file hands it over: NUL-terminated. */
  text = fuzz_str(data, size);
  if (!text)
    return 0;
  findings = evidence_passes_findings(text, size, fuzz_have_tab ? &fuzz_tab : NULL, err,
                                      sizeof(err));
  for (int ascend = 0; ascend < 2; ascend++) {
    if (ascend)
      findings = evidence_passes_findings_ascend(text, size, fuzz_have_tab ? &fuzz_tab : NULL, err,
                                                 sizeof(err));
    if (findings) {
      txt = json_dumps(findings, JSON_COMPACT);
      FUZZ_CHECK(txt != NULL, "findings do not serialize");
      free(txt);
      ladder_l4(findings, NULL, &d);
      fuzz_ladder_record(&d);
      json_decref(findings);
    } else {
      FUZZ_CHECK(err[0], "no findings and no reason");
    }
  }
  if (ir_passes_parse(text, size, &seq, err, sizeof(err)) == 0) {
    FUZZ_CHECK(seq.n <= IR_PASSES_MAX, "%zu dumps", seq.n);
    for (size_t i = 0; i < seq.n; i++)
      FUZZ_CHECK(seq.v[i].ir >= text && seq.v[i].ir + seq.v[i].ir_len <= text + size,
                 "dump %zu outside the text", i);
    for (size_t i = 0; i < 2; i++) {
      t = ir_passes_trace(&seq, &fuzz_sym[i], NULL, i ? "tritongpu-pipeline" : NULL, err,
                          sizeof(err));
      if (t) {
        txt = json_dumps(t, JSON_COMPACT);
        FUZZ_CHECK(txt != NULL, "trace does not serialize");
        free(txt);
      }
      json_decref(t);
    }
    ir_passes_free(&seq);
  }
  free(text);
  return 0;
}
