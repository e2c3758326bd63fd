/* fuzz_jsonlim: api/jsonlim.c on any bytes, as a POST body arrives. The depth scanner must
 * agree with the parser: whatever jsonlim_parse_object accepts nests exactly as deep as
 * jsonlim_depth said, and never deeper than JSONLIM_MAX_DEPTH. */
#include "fuzz.h"
#include "jsonlim.h"

/* Nesting depth of a parsed document: 0 for a scalar, 1 for [] or {}. */
static unsigned fuzz_doc_depth(const json_t *j)
{
  unsigned max = 0, d;
  const char *key;
  json_t *v;
  size_t i;
  if (json_is_object(j)) {
    json_object_foreach((json_t *)j, key, v) {
      d = fuzz_doc_depth(v);
      max = d > max ? d : max;
    }
    return max + 1;
  }
  if (json_is_array(j)) {
    json_array_foreach(j, i, v) {
      d = fuzz_doc_depth(v);
      max = d > max ? d : max;
    }
    return max + 1;
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *s = (const char *)data;
  unsigned depth = jsonlim_depth(s, size, JSONLIM_MAX_DEPTH);
  json_t *doc = NULL;
  char msg[256];
  enum jsonlim_result r;

  FUZZ_CHECK(depth <= JSONLIM_MAX_DEPTH + 1, "depth %u counted past the limit", depth);
  r = jsonlim_parse_object(s, size, &doc, msg, sizeof(msg));
  if (r == JSONLIM_OK) {
    FUZZ_CHECK(json_is_object(doc), "OK without an object");
    FUZZ_CHECK(fuzz_doc_depth(doc) == depth, "scanner said %u, document nests %u", depth,
               fuzz_doc_depth(doc));
  } else {
    FUZZ_CHECK(doc == NULL, "a refused body left a document");
    FUZZ_CHECK(msg[0] != '\0', "a refused body without a message");
    FUZZ_CHECK(r != JSONLIM_TOO_DEEP || depth > JSONLIM_MAX_DEPTH, "too deep at depth %u",
               depth);
  }
  json_decref(doc);
  return 0;
}
