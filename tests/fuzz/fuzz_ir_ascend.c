/* fuzz_ir_ascend: the L3 IR readers of Ascend kernels (workers/ir_adapter.c on triton-ascend
 * adapter IR, workers/ir_hivm.c on HIVM IR) on the dump of an untrusted kernel, then the
 * ladder's L3 reading. */
#include "fuzz_ladder.h"
#include "ir_adapter.h"
#include "ir_hivm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct ladder_diag d;
  char err[256] = "", *text, *txt;
  json_t *ir;

  if (size < 1)
    return 0;
  /* data[0]: bit 7 picks the reader (0 adapter IR, 1 HIVM IR), the rest the L2 class; the
   * rest of the input is the IR text. */
  text = fuzz_str(data + 1, size - 1);
  if (!text)
    return 0;
  ir = data[0] & 0x80 ? ir_hivm_features(text, err, sizeof(err)) : ir_adapter_features(text, err, sizeof(err));
  if (!ir) {
    FUZZ_CHECK(err[0], "no features and no reason");
  } else {
    txt = json_dumps(ir, JSON_COMPACT);
    FUZZ_CHECK(txt != NULL, "features do not serialize");
    free(txt);
    ladder_l3(ir, fuzz_l2_classes[(data[0] & 0x7f) % FUZZ_L2_CLASSES], NULL, &d);
    fuzz_ladder_record(&d);
  }
  json_decref(ir);
  free(text);
  return 0;
}
