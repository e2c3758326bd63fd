#include <stdio.h>

#include "jsonlim.h"

unsigned jsonlim_depth(const char *s, size_t len, unsigned limit)
{
  unsigned depth = 0, max = 0;
  int in_str = 0, esc = 0;
  for (size_t i = 0; i < len; i++) {
    char c = s[i];
    if (in_str) {
      if (esc)
        esc = 0;
      else if (c == '\\')
        esc = 1;
      else if (c == '"')
        in_str = 0;
      continue;
    }
    if (c == '"')
      in_str = 1;
    else if (c == '[' || c == '{') {
      if (++depth > max) {
        max = depth;
        if (max > limit)
          return max;
      }
    } else if ((c == ']' || c == '}') && depth > 0)
      depth--;
  }
  return max;
}

enum jsonlim_result jsonlim_parse_object(const char *s, size_t len, json_t **out, char *msg,
                                         size_t msglen)
{
  json_error_t je;
  json_t *doc;

  *out = NULL;
  if (jsonlim_depth(s, len, JSONLIM_MAX_DEPTH) > JSONLIM_MAX_DEPTH) {
    snprintf(msg, msglen, "JSON nesting deeper than %d levels", JSONLIM_MAX_DEPTH);
    return JSONLIM_TOO_DEEP;
  }
  /* REJECT_DUPLICATES: a key given twice is ambiguous; refuse it rather than pick one.
   * DECODE_ANY: a scalar ("1", "null") is valid JSON, refused below as not an object. */
  doc = json_loadb(s, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
  if (!doc) {
    snprintf(msg, msglen, "invalid JSON at line %d column %d: %s", je.line, je.column, je.text);
    return JSONLIM_MALFORMED;
  }
  if (!json_is_object(doc)) {
    json_decref(doc);
    snprintf(msg, msglen, "the request body must be a JSON object");
    return JSONLIM_NOT_OBJECT;
  }
  *out = doc;
  return JSONLIM_OK;
}
