/* fuzz_ladder: the diagnosis ladder's reading of parsed evidence, shared by the targets whose
 * parser output the worker hands to it (IR features, pass findings, profiles). Whatever the
 * evidence says, the diagnosis must become the JSON of the round record. */
#ifndef KOPT_FUZZ_LADDER_H
#define KOPT_FUZZ_LADDER_H
#include "fuzz.h"
#include "ladder.h"

static const char *const fuzz_l2_classes[] = { NULL,     "memory", "compute", "latency",
                                               "launch", "balanced", "vector", "scalar",
                                               "mte",    "cube" };
#define FUZZ_L2_CLASSES (sizeof(fuzz_l2_classes) / sizeof(fuzz_l2_classes[0]))

/* Applies the tests and renders d as rounds.c records it (the escalation entry and the
 * round's hotspot). */
static inline void fuzz_ladder_record(const struct ladder_diag *d)
{
  static const char *const skip[] = { "block_size", NULL };
  struct ladder_tests t;
  json_t *j;
  char *txt;
  int idx;

  FUZZ_CHECK(d->nfamilies <= LADDER_MAX_FAMILIES, "%u families", d->nfamilies);
  ladder_tests(d, skip, &t);
  (void)ladder_pick(d, skip, &idx);
  j = ladder_diag_json(d, &t);
  FUZZ_CHECK(j != NULL, "the diagnosis does not render as JSON (hotspot \"%s\", why \"%s\")",
             d->hotspot, d->why);
  txt = json_dumps(j, JSON_COMPACT);
  FUZZ_CHECK(txt != NULL, "diagnosis does not serialize");
  free(txt);
  json_decref(j);
  FUZZ_CHECK(!d->hotspot[0] || fuzz_json_text(d->hotspot), "hotspot is not a JSON string");
}

#endif
