/* fuzz_ir_ascend: the L3 IR reader of the ascend backend (workers/ir.c,
 * ir_features_ascend) on an HIVM dump of an untrusted kernel, then the ladder's L3 reading. */
#include "fuzz_ladder.h"
#include "ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct ladder_diag d;
  char err[256] = "", *text, *txt;
  json_t *ir;

  if (size < 1)
    return 0;
  /* data[0] picks the L2 class; the rest is kernel.npuir.mlir. */
  text = fuzz_str(data + 1, size - 1);
  if (!text)
    return 0;
  ir = ir_features_ascend(text, err, sizeof(err));
  if (!ir) {
    FUZZ_CHECK(err[0], "no features and no reason");
  } else {
    txt = json_dumps(ir, JSON_COMPACT);
    FUZZ_CHECK(txt != NULL, "features do not serialize");
    free(txt);
    ladder_l3(ir, fuzz_l2_classes[data[0] % FUZZ_L2_CLASSES], NULL, &d);
    fuzz_ladder_record(&d);
  }
  json_decref(ir);
  free(text);
  return 0;
}
