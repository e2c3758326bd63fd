#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "params.h"

enum params_result params_int(const char *s, long long lo, long long hi, long long *out)
{
  const char *d = s;
  size_t n;
  long long v;
  char *end;

  if (!s)
    return PARAMS_NOT_INT;
  if (*d == '-' && lo < 0)
    d++;
  n = strlen(d);
  if (n == 0 || strspn(d, "0123456789") != n)
    return PARAMS_NOT_INT;
  if (n > PARAMS_INT_DIGITS_MAX + 1) /* strtoll would still say ERANGE; skip the work */
    return d == s ? PARAMS_TOO_BIG : PARAMS_TOO_SMALL;
  errno = 0;
  v = strtoll(s, &end, 10);
  if (errno == ERANGE)
    return d == s ? PARAMS_TOO_BIG : PARAMS_TOO_SMALL;
  if (v < lo)
    return PARAMS_TOO_SMALL;
  if (v > hi)
    return PARAMS_TOO_BIG;
  *out = v;
  return PARAMS_OK;
}

int params_int_field(struct problem *p, const char *field, const char *s, long long lo,
                     long long hi, long long *out)
{
  switch (params_int(s, lo, hi, out)) {
  case PARAMS_OK:
    return 0;
  case PARAMS_NOT_INT:
    problem_add(p, field, "type", -1, "must be an integer from %lld to %lld", lo, hi);
    break;
  case PARAMS_TOO_SMALL:
    problem_add(p, field, "minimum", lo, "must be at least %lld", lo);
    break;
  case PARAMS_TOO_BIG:
    problem_add(p, field, "maximum", hi, "must be at most %lld", hi);
    break;
  }
  return -1;
}
