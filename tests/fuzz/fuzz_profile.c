/* fuzz_profile: the worker's reading of profiler metrics. The harness turns ncu's or msprof's
 * CSV into the profile result (harness/kharness/parsers.py); the worker parses that JSON line
 * (jansson, as harness_call does) and the ladder reads it (ladder_l2, ladder_l2_class). The
 * same bytes also stand for a compile result, whose launch settings evidence_launch reads. */
#include "evidence.h"
#include "fuzz_ladder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct ladder_diag d;
  struct evidence e;
  char why[256];
  const char *cls;
  json_t *doc, *launch;
  char *txt;

  doc = json_loadb((const char *)data, size, 0, NULL);
  if (!doc)
    return 0;
  cls = ladder_l2_class(doc, why, sizeof(why));
  ladder_l2(doc, &d);
  fuzz_ladder_record(&d);
  FUZZ_CHECK(!cls || fuzz_json_text(why), "class reason is not a JSON string");
  /* L3 with this class, on no IR: what a round reads when compile evidence is missing. */
  ladder_l3(NULL, cls, NULL, &d);
  fuzz_ladder_record(&d);

  evidence_init(&e);
  e.compile = doc; /* borrowed for the call */
  launch = evidence_launch(&e);
  FUZZ_CHECK(json_is_object(launch), "launch is not an object");
  txt = json_dumps(launch, JSON_COMPACT);
  FUZZ_CHECK(txt != NULL, "launch does not serialize");
  free(txt);
  json_decref(launch);
  json_decref(doc);
  return 0;
}
