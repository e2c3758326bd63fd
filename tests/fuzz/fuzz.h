/* fuzz: what the libFuzzer targets in tests/fuzz/ share. Each target is one
 * LLVMFuzzerTestOneInput over one parser of untrusted bytes, linked with the real modules
 * (no copies of their code), built with -fsanitize=fuzzer,address,undefined (make
 * fuzz-bins). Besides memory errors, undefined behaviour, leaks and hangs, a target checks the
 * parser's own promises with FUZZ_CHECK: a broken promise aborts, which libFuzzer reports as
 * a crash with the input that caused it. */
#ifndef KOPT_FUZZ_H
#define KOPT_FUZZ_H
#include <errno.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FUZZ_CHECK(cond, ...)                                                 \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "FUZZ_CHECK failed at %s:%d: %s: ", __FILE__, __LINE__, \
              #cond);                                                         \
      fprintf(stderr, __VA_ARGS__);                                           \
      fputc('\n', stderr);                                                    \
      abort();                                                                \
    }                                                                         \
  } while (0)

/* A NUL-terminated copy of the input (caller frees); NULL only when memory ran out. */
static inline char *fuzz_str(const uint8_t *data, size_t size)
{
  char *s = malloc(size + 1);
  if (s) {
    memcpy(s, data, size);
    s[size] = '\0';
  }
  return s;
}

/* Splits a NUL-terminated copy of the input at its NUL bytes into up to n parts: parts[i]
 * points into the copy (len[i] bytes), parts past the last NUL are "". The last part keeps
 * any further NULs. Returns the copy (caller frees), NULL when memory ran out. NUL is the
 * separator because the parsers split this way read C strings. */
static inline char *fuzz_split(const uint8_t *data, size_t size, const char **parts, size_t *len,
                               size_t n)
{
  char *s = fuzz_str(data, size), *cur;
  size_t left = size;
  if (!s)
    return NULL;
  cur = s;
  for (size_t i = 0; i < n; i++) {
    char *nul = i + 1 < n ? memchr(cur, '\0', left) : NULL;
    size_t m = nul ? (size_t)(nul - cur) : left;
    parts[i] = cur;
    if (len)
      len[i] = m;
    cur += nul ? m + 1 : m;
    left -= nul ? m + 1 : m;
  }
  return s;
}

/* 1 when s (NUL-terminated) can become a JSON string, i.e. is valid UTF-8. The oracle is
 * jansson, the library every such text is encoded with on its way to the API or the
 * database: json_string() refuses what json_pack() would refuse. */
static inline int fuzz_json_text(const char *s)
{
  json_t *j = json_string(s);
  int ok = j != NULL;
  json_decref(j);
  return ok;
}

/* 1 when s (len bytes) is one JSON document. */
static inline int fuzz_json_doc(const char *s, size_t len)
{
  json_t *j = json_loadb(s, len, JSON_DECODE_ANY, NULL);
  int ok = j != NULL;
  json_decref(j);
  return ok;
}

#endif
