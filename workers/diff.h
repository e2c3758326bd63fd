/* diff: the round record's diff of a candidate against the incumbent — changed tunables,
 * then a unified-style line diff of the source (LCS; bounded in lines and output). */
#ifndef KOPT_DIFF_H
#define KOPT_DIFF_H
#include <jansson.h>

#define DIFF_MAX_LINES 4000
#define DIFF_MAX_OUT (256u << 10)

/* New string (caller frees); NULL on allocation failure. ta/tb may be NULL. */
char *diff_render(const char *a, const char *b, const json_t *ta, const json_t *tb);

#endif
