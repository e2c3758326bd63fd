/* jsonlim: checks a JSON text's nesting depth before parsing, so a hostile document can
 * never drive a recursive parser deep; and parses with the project's limits. */
#ifndef KOPT_JSONLIM_H
#define KOPT_JSONLIM_H
#include <jansson.h>
#include <stddef.h>

#define JSONLIM_MAX_DEPTH 32

/* Deepest nesting of [ and { outside strings. Stops counting past limit+1. */
unsigned jsonlim_depth(const char *s, size_t len, unsigned limit);

enum jsonlim_result { JSONLIM_OK = 0, JSONLIM_TOO_DEEP, JSONLIM_MALFORMED, JSONLIM_NOT_OBJECT };

/* Parses s (len bytes) into a new object reference (*out, caller decrefs) when it is an
 * object within the depth cap; on failure *out is NULL and msg says where. */
enum jsonlim_result jsonlim_parse_object(const char *s, size_t len, json_t **out, char *msg,
                                         size_t msglen);

#endif
