/* fuzz_problem: api/problem.c with text from anywhere in a request (a URL path, a header, a
 * JSON key cut to a field name): any bytes, not only UTF-8. Whatever goes in, the rendered
 * document is one JSON object that keeps the detail and every error added (up to the cap). */
#include "fuzz.h"
#include "problem.h"

#define FUZZ_PROBLEM_PARTS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  const char *part[FUZZ_PROBLEM_PARTS];
  size_t len[FUZZ_PROBLEM_PARTS], nerr = 0, want;
  struct problem p;
  char *copy, *txt;
  json_t *doc;

  if (size < 2)
    return 0;
  /* data[0]: how many errors to add (0..63, past the cap); data[1]: the width the callers'
   * "%.Ns" conversions cut a quoted value to (0: no cut). Then NUL-separated texts: the
   * detail, then three field/message pairs used round-robin. */
  want = data[0] & 63;
  copy = fuzz_split(data + 2, size - 2, part, len, FUZZ_PROBLEM_PARTS);
  if (!copy)
    return 0;
  problem_init(&p, 400 + (data[0] >> 6), "validation", "Request failed validation");
  if (data[1])
    problem_detail(&p, "no route for %.*s", (int)data[1], part[0]);
  else
    problem_detail(&p, "%s", part[0]);
  for (size_t i = 0; i < want; i++) {
    /* Rules are static names in every caller; fields and messages quote the request. */
    static const char *const rules[] = { "enum", "maxBytes", "unknown-field" };
    size_t t = 1 + 2 * (i % 3);
    problem_add(&p, part[t], rules[i % 3], (long long)i - 1, "%.*s",
                data[1] ? (int)data[1] : 1000, part[t + 1]);
    nerr++;
  }
  FUZZ_CHECK(problem_has_errors(&p) == (nerr > 0), "%zu added, has_errors %d", nerr,
             problem_has_errors(&p));
  txt = problem_render(&p);
  FUZZ_CHECK(txt != NULL, "problem_render failed");
  doc = json_loads(txt, 0, NULL);
  FUZZ_CHECK(json_is_object(doc), "not a JSON object: %s", txt);
  FUZZ_CHECK(!p.detail[0] || json_is_string(json_object_get(doc, "detail")),
             "detail dropped: %s", txt);
  want = nerr < PROBLEM_MAX_ERRORS ? nerr : PROBLEM_MAX_ERRORS;
  FUZZ_CHECK(json_array_size(json_object_get(doc, "errors")) == want,
             "%zu errors rendered, %zu added: %s", json_array_size(json_object_get(doc, "errors")),
             want, txt);
  json_decref(doc);
  free(txt);
  problem_free(&p);
  free(copy);
  return 0;
}
