/* fuzz_ir_cuda: the L3 IR readers of the cuda backend (workers/ir.c) on compiler output of
 * an untrusted kernel: TTGIR, PTX and SASS as the harness wrote them, then the ladder's L3
 * reading of the features, as evidence_ir and rounds.c use them. */
#include "fuzz_ladder.h"
#include "ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *part[3];
  size_t len[3];
  struct ladder_diag d;
  char err[256] = "", *copy, *txt;
  json_t *ir;

  if (size < 1)
    return 0;
  /* data[0]: bits 0-2 say which of TTGIR, PTX, SASS exist (a missing file is NULL, not
   * empty); bits 4-7 pick the L2 class L3 is read with. The rest: the three texts, split at
   * NUL bytes. */
  copy = fuzz_split(data + 1, size - 1, part, len, 3);
  if (!copy)
    return 0;
  ir = ir_features_cuda(data[0] & 1 ? part[0] : NULL, data[0] & 2 ? part[1] : NULL,
                        data[0] & 4 ? part[2] : NULL, err, sizeof(err));
  if (!ir) {
    FUZZ_CHECK(err[0], "no features and no reason");
  } else {
    txt = json_dumps(ir, JSON_COMPACT);
    FUZZ_CHECK(txt != NULL, "features do not serialize");
    free(txt);
    ladder_l3(ir, fuzz_l2_classes[(data[0] >> 4) % FUZZ_L2_CLASSES], NULL, &d);
    fuzz_ladder_record(&d);
  }
  FUZZ_CHECK(ir_mlir_count_loops(part[0], len[0], IR_LOOP_SYNC_LOAD) >= 0, "loop count");
  FUZZ_CHECK(ir_mlir_count_loops(part[0], len[0], IR_LOOP_SCALAR) >= 0, "loop count");
  json_decref(ir);
  free(copy);
  return 0;
}
