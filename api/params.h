/* params: integer parameters from the query string, the path and request headers (limit,
 * cursor, round numbers, Last-Event-ID). Each is parsed here against its bounds, so a
 * value out of range is a 400 naming the field, never a number the database refuses
 * (an integer overflow there would be a 503) or one that wraps. */
#ifndef KOPT_PARAMS_H
#define KOPT_PARAMS_H
#include "problem.h"

#define PARAMS_INT_DIGITS_MAX 19 /* any 64-bit value; longer strings are out of range */

enum params_result {
  PARAMS_OK = 0,
  PARAMS_NOT_INT = -1,   /* empty, a sign where none is allowed, or not all digits */
  PARAMS_TOO_SMALL = -2,
  PARAMS_TOO_BIG = -3,
};

/* Parses s as a decimal integer in [lo, hi] (a leading '-' only when lo < 0; no blanks,
 * no '+'). PARAMS_OK with *out set, or the reason. */
enum params_result params_int(const char *s, long long lo, long long hi, long long *out);
/* The same; on failure adds an error to p naming field, with rule "type", "minimum" or
 * "maximum" and the bound. 0 or -1. */
int params_int_field(struct problem *p, const char *field, const char *s, long long lo,
                     long long hi, long long *out);

#endif
