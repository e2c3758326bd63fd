/* problem: RFC 9457 problem documents (application/problem+json) with a stable type URN
 * and, for validation failures, one entry per broken rule naming the field. */
#ifndef KOPT_PROBLEM_H
#define KOPT_PROBLEM_H
#include <jansson.h>

#define PROBLEM_CONTENT_TYPE "application/problem+json"
#define PROBLEM_MAX_ERRORS 32

struct problem {
  unsigned status;
  const char *type;   /* suffix after urn:kopt:problem:, static */
  const char *title;  /* static */
  char detail[512];
  json_t *errors;     /* owned array (NULL until the first problem_add) */
};

void problem_init(struct problem *p, unsigned status, const char *type, const char *title);
/* Sets detail (printf). */
void problem_detail(struct problem *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends {field, rule, detail[, limit]}; limit < 0 means none. Caps at PROBLEM_MAX_ERRORS.
 * The first error's text also becomes detail when detail is empty. field (cut to 95 bytes)
 * and the message may quote any bytes: what is not UTF-8 renders as '?', as in detail. */
void problem_add(struct problem *p, const char *field, const char *rule, long long limit,
                 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
int problem_has_errors(const struct problem *p);
/* Renders the document; returns a malloc'd string (caller frees) or NULL on OOM. */
char *problem_render(const struct problem *p);
void problem_free(struct problem *p);

#endif
