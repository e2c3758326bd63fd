/* fuzz_spec: a POST /v1/jobs body through what api_jobs_create does before the database:
 * jsonlim_parse_object, spec_validate and the problem document of a refusal. A refused spec
 * must render as a problem listing at least one error; an accepted one must be complete and
 * must not have dropped anything it was given (a field it did not know is an error, never
 * silently ignored). */
#include "fuzz.h"
#include "jsonlim.h"
#include "problem.h"
#include "spec.h"

/* Every key of the object given (when it is one) is in the normalized one. */
static void fuzz_kept(const json_t *given, const json_t *norm, const char *where)
{
  const char *key;
  json_t *v;
  if (!json_is_object(given))
    return;
  json_object_foreach((json_t *)given, key, v) {
    FUZZ_CHECK(json_object_get(norm, key) != NULL, "%s: key \"%s\" accepted and dropped", where,
               key);
  }
}

/* A rendered problem: one JSON object with its status, and errors when it has any. */
static void fuzz_rendered(const struct problem *p, int want_errors)
{
  char *txt = problem_render(p);
  json_t *doc;
  FUZZ_CHECK(txt != NULL, "problem_render failed");
  doc = json_loads(txt, 0, NULL);
  FUZZ_CHECK(json_is_object(doc), "problem is not a JSON object: %s", txt);
  FUZZ_CHECK(json_integer_value(json_object_get(doc, "status")) == p->status, "status lost");
  FUZZ_CHECK(!p->detail[0] || json_is_string(json_object_get(doc, "detail")),
             "the detail was dropped from the document: %s", txt);
  if (want_errors)
    FUZZ_CHECK(json_array_size(json_object_get(doc, "errors")) >= 1, "no error listed: %s", txt);
  json_decref(doc);
  free(txt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  struct spec_limits lim = { 256u << 10 };
  struct problem p;
  json_t *doc = NULL, *spec = NULL;
  char msg[256];
  int rc;

  if (jsonlim_parse_object((const char *)data, size, &doc, msg, sizeof(msg)) != JSONLIM_OK) {
    /* api_resp_simple_problem: the message becomes the detail. */
    problem_init(&p, 400, "malformed-json", "Malformed JSON");
    problem_detail(&p, "%s", msg);
    fuzz_rendered(&p, 0);
    problem_free(&p);
    return 0;
  }
  rc = spec_validate(doc, &lim, &spec, &p);
  if (rc == 0) {
    char *canon;
    FUZZ_CHECK(!problem_has_errors(&p), "accepted with errors");
    FUZZ_CHECK(json_is_object(spec), "accepted without a spec");
    fuzz_kept(doc, spec, "spec");
    fuzz_kept(json_object_get(doc, "kernel"), json_object_get(spec, "kernel"), "kernel");
    fuzz_kept(json_object_get(doc, "reference"), json_object_get(spec, "reference"),
              "reference");
    fuzz_kept(json_object_get(doc, "tunables"), json_object_get(spec, "tunables"), "tunables");
    fuzz_kept(json_object_get(doc, "tolerances"), json_object_get(spec, "tolerances"),
              "tolerances");
    FUZZ_CHECK(json_is_object(json_object_get(spec, "kernel")), "accepted without a kernel");
    /* The request hash and the stored spec are dumps of it. */
    canon = json_dumps(spec, JSON_COMPACT | JSON_SORT_KEYS);
    FUZZ_CHECK(canon != NULL, "normalized spec does not serialize");
    free(canon);
  } else {
    FUZZ_CHECK(rc == -EINVAL, "rc %d", rc);
    FUZZ_CHECK(spec == NULL, "refused but a spec came back");
    FUZZ_CHECK(problem_has_errors(&p), "refused without an error");
    fuzz_rendered(&p, 1);
  }
  problem_free(&p);
  json_decref(spec);
  json_decref(doc);
  return 0;
}
