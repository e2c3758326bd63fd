#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "contract.h"
#include "spec.h"

static const char *const spec_ir_targets[] = { "auto", KOPT_BACKEND_CUDA, KOPT_BACKEND_ASCEND, NULL };
static const char *const spec_fields[] = {
  "name", "kernel", "reference", "cases", "backend", "rounds", "policy", "proposer",
  "priority", "benchmark_cases", "correctness_cases", "seed", "tunables", "tolerances",
  "pattern_index", "exclude_same_operator", "operator", "max_candidates", "ir_target", NULL
};

int spec_default_tolerance(const char *dtype, double *rtol, double *atol)
{
  if (strcmp(dtype, "float32") == 0) {
    *rtol = 1.0 / 8192; /* 2^-13 */
    *atol = 1e-5;
  } else if (strcmp(dtype, "float16") == 0) {
    *rtol = 1.0 / 1024; /* 2^-10 */
    *atol = 1e-3;
  } else if (strcmp(dtype, "bfloat16") == 0) {
    *rtol = 1.0 / 128; /* 2^-7 */
    *atol = 1e-2;
  } else {
    return -ENOENT;
  }
  return 0;
}

static int spec_identifier(const char *s)
{
  if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
    return 0;
  for (; *s; s++)
    if (!(isalnum((unsigned char)*s) || *s == '_'))
      return 0;
  return 1;
}

/* Copies an enum-valued string field (one of set, common/contract.h) into out, or its
 * default. */
static void spec_enum(const json_t *doc, json_t *out, const char *field,
                      const char *const *set, const char *def, struct problem *p)
{
  json_t *v = json_object_get(doc, field);
  if (!v || json_is_null(v)) {
    json_object_set_new(out, field, json_string(def));
    return;
  }
  if (!json_is_string(v) || contract_find(set, json_string_value(v)) < 0) {
    char choices[256];
    size_t o = 0;
    choices[0] = '\0';
    for (int i = 0; set[i] && o < sizeof(choices); i++)
      o += (size_t)snprintf(choices + o, sizeof(choices) - o, "%s%s", i ? ", " : "", set[i]);
    problem_add(p, field, "enum", -1, "must be one of %s", choices);
    return;
  }
  json_object_set_new(out, field, json_string(json_string_value(v)));
}

static void spec_int(const json_t *doc, json_t *out, const char *field, long long lo,
                     long long hi, long long def, struct problem *p)
{
  json_t *v = json_object_get(doc, field);
  long long x;
  if (!v || json_is_null(v)) {
    json_object_set_new(out, field, json_integer(def));
    return;
  }
  if (!json_is_integer(v)) {
    problem_add(p, field, "type", -1, "must be an integer");
    return;
  }
  x = json_integer_value(v);
  if (x < lo) {
    problem_add(p, field, "minimum", lo, "must be at least %lld", lo);
    return;
  }
  if (x > hi) {
    problem_add(p, field, "maximum", hi, "must be at most %lld", hi);
    return;
  }
  json_object_set_new(out, field, json_integer(x));
}

/* Characters (code points) of a UTF-8 string, which jansson has already validated. */
static size_t spec_utf8_chars(const char *s, size_t bytes)
{
  size_t n = 0;
  for (size_t i = 0; i < bytes; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      n++;
  return n;
}

static void spec_text(const json_t *doc, json_t *out, const char *field, size_t maxlen,
                      struct problem *p)
{
  json_t *v = json_object_get(doc, field);
  size_t n, chars;
  if (!v || json_is_null(v)) {
    json_object_set_new(out, field, json_null());
    return;
  }
  if (!json_is_string(v)) {
    problem_add(p, field, "type", -1, "must be a string");
    return;
  }
  n = json_string_length(v);
  chars = spec_utf8_chars(json_string_value(v), n);
  if (chars == 0 || chars > maxlen) {
    problem_add(p, field, "length", (long long)maxlen, "must be 1 to %zu characters", maxlen);
    return;
  }
  if (memchr(json_string_value(v), '\0', n)) {
    problem_add(p, field, "format", -1, "must not contain NUL characters");
    return;
  }
  json_object_set_new(out, field, json_stringn(json_string_value(v), n));
}

/* {source, filename?}: required=1 for kernel. */
static void spec_source(const json_t *doc, json_t *out, const char *field, int required,
                        const char *must_define, const struct spec_limits *lim,
                        struct problem *p)
{
  json_t *v = json_object_get(doc, field), *src, *fn, *o;
  char fname[64];
  const char *key;
  json_t *val;
  size_t n;

  if (!v || json_is_null(v)) {
    if (required)
      problem_add(p, field, "required", -1, "is required: an object {\"source\": \"...\"}");
    else
      json_object_set_new(out, field, json_null());
    return;
  }
  if (!json_is_object(v)) {
    problem_add(p, field, "type", -1, "must be an object {\"source\": \"...\"}");
    return;
  }
  json_object_foreach((json_t *)v, key, val) {
    if (strcmp(key, "source") != 0 && strcmp(key, "filename") != 0) {
      snprintf(fname, sizeof(fname), "%s.%.40s", field, key);
      problem_add(p, fname, "unknown-field", -1, "is not a known field");
    }
  }
  snprintf(fname, sizeof(fname), "%s.source", field);
  src = json_object_get(v, "source");
  if (!json_is_string(src)) {
    problem_add(p, fname, src ? "type" : "required", -1, "must be a string of Python source");
    return;
  }
  n = json_string_length(src);
  if (n == 0) {
    problem_add(p, fname, "minLength", 1, "must not be empty");
    return;
  }
  if (n > lim->max_source_bytes) {
    problem_add(p, fname, "maxBytes", (long long)lim->max_source_bytes,
                "is %zu bytes, over the limit of %zu bytes", n, lim->max_source_bytes);
    return;
  }
  if (memchr(json_string_value(src), '\0', n)) {
    problem_add(p, fname, "format", -1, "must not contain NUL characters");
    return;
  }
  if (must_define && !strstr(json_string_value(src), must_define)) {
    problem_add(p, fname, "contract", -1, "must define %s", must_define);
    return;
  }
  o = json_object();
  json_object_set(o, "source", src);
  fn = json_object_get(v, "filename");
  snprintf(fname, sizeof(fname), "%s.filename", field);
  if (fn && !json_is_null(fn)) {
    const char *s = json_is_string(fn) ? json_string_value(fn) : NULL;
    if (!s || !*s || strlen(s) > SPEC_MAX_FILENAME || strchr(s, '/') || s[0] == '.') {
      problem_add(p, fname, "format", SPEC_MAX_FILENAME,
                  "must be a plain file name (no '/', not starting with '.', at most %d chars)",
                  SPEC_MAX_FILENAME);
      json_decref(o);
      return;
    }
    json_object_set(o, "filename", fn);
  } else {
    json_object_set_new(o, "filename", json_string(required ? "kernel.py" : "reference.py"));
  }
  json_object_set_new(out, field, o);
}

static void spec_cases(const json_t *doc, json_t *out, struct problem *p)
{
  json_t *v = json_object_get(doc, "cases"), *c;
  size_t i;
  char f[64];
  if (!v || json_is_null(v)) {
    json_object_set_new(out, "cases", json_null());
    return;
  }
  if (!json_is_array(v)) {
    problem_add(p, "cases", "type", -1, "must be an array of case objects");
    return;
  }
  if (json_array_size(v) == 0) {
    problem_add(p, "cases", "minItems", 1, "must hold at least one case when given");
    return;
  }
  if (json_array_size(v) > SPEC_MAX_CASES) {
    problem_add(p, "cases", "maxItems", SPEC_MAX_CASES, "must hold at most %d cases",
                SPEC_MAX_CASES);
    return;
  }
  json_array_foreach(v, i, c) {
    json_t *in = json_object_get(c, "inputs");
    if (!json_is_object(c) || !json_is_array(in)) {
      snprintf(f, sizeof(f), "cases[%zu]", i);
      problem_add(p, f, "format", -1, "must be an object with an \"inputs\" array");
      return;
    }
  }
  json_object_set(out, "cases", v);
}

static void spec_tunables(const json_t *doc, json_t *out, struct problem *p)
{
  json_t *v = json_object_get(doc, "tunables"), *vals, *x, *o;
  const char *key;
  size_t i;
  char f[96];

  if (!v || json_is_null(v)) {
    json_object_set_new(out, "tunables", json_null());
    return;
  }
  if (!json_is_object(v)) {
    problem_add(p, "tunables", "type", -1, "must be an object name -> array of integers");
    return;
  }
  if (json_object_size(v) > SPEC_MAX_TUNABLES) {
    problem_add(p, "tunables", "maxProperties", SPEC_MAX_TUNABLES,
                "must name at most %d tunables", SPEC_MAX_TUNABLES);
    return;
  }
  o = json_object();
  json_object_foreach((json_t *)v, key, vals) {
    snprintf(f, sizeof(f), "tunables.%.64s", key);
    if (!spec_identifier(key) || strlen(key) > 64) {
      problem_add(p, f, "format", -1, "name must be a Python identifier of at most 64 chars");
      continue;
    }
    if (!json_is_array(vals) || json_array_size(vals) == 0 ||
        json_array_size(vals) > SPEC_MAX_TUNABLE_VALUES) {
      problem_add(p, f, "items", SPEC_MAX_TUNABLE_VALUES,
                  "must be an array of 1 to %d integers", SPEC_MAX_TUNABLE_VALUES);
      continue;
    }
    json_array_foreach(vals, i, x) {
      if (!json_is_integer(x) || json_integer_value(x) < 0 ||
          json_integer_value(x) > (1 << 20)) {
        problem_add(p, f, "range", 1 << 20, "values must be integers from 0 to %d", 1 << 20);
        break;
      }
    }
    json_object_set(o, key, vals);
  }
  json_object_set_new(out, "tunables", o);
}

/* Integer outputs match exactly unless the job names their dtype here: a quantised output
 * rounded from a float division may land on the neighbouring integer at a rounding tie (GPU
 * division is approximate), so {"atol": n, "max_fraction": f} lets at most a fraction f of the
 * elements differ, each by at most n (harness/PROTOCOL.md, validate; the harness's list is
 * judge.py INTEGER_DTYPES). */
static const char *const spec_int_dtypes[] = { "int8", "uint8", "int16", "int32", "int64", NULL };

static void spec_int_tolerance(const char *key, const char *f, const json_t *t, json_t *o,
                               struct problem *p)
{
  json_t *a = json_object_get(t, "atol"), *m = json_object_get(t, "max_fraction");

  if (!json_is_object(t) || json_object_size(t) != 2 || !json_is_integer(a) ||
      json_integer_value(a) < 0 || json_integer_value(a) > SPEC_MAX_INT_ATOL ||
      !json_is_number(m) || !isfinite(json_number_value(m)) || json_number_value(m) < 0 ||
      json_number_value(m) > 1) {
    problem_add(p, f, "format", SPEC_MAX_INT_ATOL,
                "must be {\"atol\": n, \"max_fraction\": f} with n an integer, 0 <= n <= limit, "
                "and 0 <= f <= 1");
    return;
  }
  json_object_set_new(o, key, json_pack("{s:I, s:f}", "atol", json_integer_value(a),
                                        "max_fraction", json_number_value(m)));
}

static void spec_tolerances(const json_t *doc, json_t *out, struct problem *p)
{
  json_t *v = json_object_get(doc, "tolerances"), *t, *o;
  const char *key;
  char f[96];
  static const char *const dtypes[] = { "float32", "float16", "bfloat16", NULL };

  o = json_object();
  for (int i = 0; dtypes[i]; i++) {
    double rtol, atol;
    spec_default_tolerance(dtypes[i], &rtol, &atol);
    json_object_set_new(o, dtypes[i], json_pack("{s:f, s:f}", "rtol", rtol, "atol", atol));
  }
  if (v && !json_is_null(v)) {
    if (!json_is_object(v)) {
      problem_add(p, "tolerances", "type", -1, "must be an object dtype -> {rtol, atol}");
      json_decref(o);
      return;
    }
    json_object_foreach((json_t *)v, key, t) {
      json_t *r, *a;
      snprintf(f, sizeof(f), "tolerances.%.64s", key);
      if (contract_find(spec_int_dtypes, key) >= 0) {
        spec_int_tolerance(key, f, t, o, p);
        continue;
      }
      if (contract_find(dtypes, key) < 0) {
        problem_add(p, f, "enum", -1,
                    "dtype must be float32, float16, bfloat16 or an integer dtype (int8, uint8, "
                    "int16, int32, int64)");
        continue;
      }
      r = json_object_get(t, "rtol");
      a = json_object_get(t, "atol");
      if (!json_is_object(t) || json_object_size(t) != 2 || !json_is_number(r) ||
          !json_is_number(a) || json_number_value(r) < 0 || json_number_value(a) < 0 ||
          !isfinite(json_number_value(r)) || !isfinite(json_number_value(a)) ||
          json_number_value(r) > 1 || json_number_value(a) > 1) {
        problem_add(p, f, "format", -1, "must be {\"rtol\": x, \"atol\": y} with 0 <= x, y <= 1");
        continue;
      }
      json_object_set_new(o, key, json_pack("{s:f, s:f}", "rtol", json_number_value(r),
                                            "atol", json_number_value(a)));
    }
  }
  json_object_set_new(out, "tolerances", o);
}

/* A device compiles for itself: only interp (and any, which may land on interp) take another
 * compiler's IR as evidence. */
static void spec_ir_target(const json_t *o, struct problem *p)
{
  const char *b = json_string_value(json_object_get(o, "backend"));
  const char *t = json_string_value(json_object_get(o, "ir_target"));
  if (!b || !t || !strcmp(t, "auto") || !strcmp(b, "interp") || !strcmp(b, "any") || !strcmp(b, t))
    return;
  problem_add(p, "ir_target", "enum", -1,
              "must be auto or %s on backend %s (a device's IR is its own compiler's; other IR "
              "targets are for interp)", b, b);
}

int spec_validate(const json_t *doc, const struct spec_limits *lim, json_t **out,
                  struct problem *p)
{
  json_t *o = json_object(), *v;
  const char *key;
  json_t *val;
  int rc = 0;

  *out = NULL;
  problem_init(p, 400, "validation", "Request failed validation");
  json_object_foreach((json_t *)doc, key, val) {
    if (contract_find(spec_fields, key) < 0) {
      char f[80];
      snprintf(f, sizeof(f), "%.64s", key);
      problem_add(p, f, "unknown-field", -1, "is not a known field (see docs/API.md)");
    }
  }
  spec_text(doc, o, "name", SPEC_MAX_NAME, p);
  spec_text(doc, o, "operator", SPEC_MAX_NAME, p);
  spec_source(doc, o, "kernel", 1, "ModelNew", lim, p);
  spec_source(doc, o, "reference", 0, "Model", lim, p);
  spec_cases(doc, o, p);
  spec_enum(doc, o, "backend", contract_job_backends, KOPT_BACKEND_ANY, p);
  spec_enum(doc, o, "ir_target", spec_ir_targets, "auto", p);
  spec_ir_target(o, p);
  spec_enum(doc, o, "policy", contract_policies, contract_policies[0], p);
  spec_enum(doc, o, "proposer", contract_proposers, contract_proposers[0], p);
  spec_int(doc, o, "rounds", 0, SPEC_MAX_ROUNDS, 15, p);
  spec_int(doc, o, "max_candidates", 1, SPEC_MAX_CANDIDATES, SPEC_DEFAULT_CANDIDATES, p);
  spec_int(doc, o, "priority", -100, 100, 0, p);
  spec_int(doc, o, "benchmark_cases", 1, 64, 5, p);
  spec_int(doc, o, "seed", 0, 2147483647LL, 0, p);

  v = json_object_get(doc, "correctness_cases");
  if (!v || json_is_null(v) || (json_is_string(v) && strcmp(json_string_value(v), "all") == 0))
    json_object_set_new(o, "correctness_cases", json_string("all"));
  else if (json_is_integer(v) && json_integer_value(v) >= 1 &&
           json_integer_value(v) <= SPEC_MAX_CASES)
    json_object_set_new(o, "correctness_cases", json_integer(json_integer_value(v)));
  else
    problem_add(p, "correctness_cases", "format", SPEC_MAX_CASES,
                "must be \"all\" or an integer from 1 to %d", SPEC_MAX_CASES);

  v = json_object_get(doc, "pattern_index");
  if (!v || json_is_null(v) || (json_is_string(v) && strcmp(json_string_value(v), "latest") == 0))
    json_object_set_new(o, "pattern_index", json_string("latest"));
  else if (json_is_string(v) && strcmp(json_string_value(v), "frozen") == 0)
    json_object_set_new(o, "pattern_index", json_string("frozen"));
  else if (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= 1000000)
    json_object_set_new(o, "pattern_index", json_integer(json_integer_value(v)));
  else
    problem_add(p, "pattern_index", "format", -1,
                "must be \"latest\", \"frozen\" or a version number from 1");

  v = json_object_get(doc, "exclude_same_operator");
  if (!v || json_is_null(v))
    json_object_set_new(o, "exclude_same_operator", json_false());
  else if (json_is_boolean(v))
    json_object_set_new(o, "exclude_same_operator", json_boolean(json_is_true(v)));
  else
    problem_add(p, "exclude_same_operator", "type", -1, "must be true or false");

  spec_tunables(doc, o, p);
  spec_tolerances(doc, o, p);

  if (problem_has_errors(p)) {
    json_decref(o);
    rc = -EINVAL;
  } else {
    *out = o;
  }
  return rc;
}
