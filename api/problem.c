#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem.h"
#include "utf8.h"

void problem_init(struct problem *p, unsigned status, const char *type, const char *title)
{
  p->status = status;
  p->type = type;
  p->title = title;
  p->detail[0] = '\0';
  p->errors = NULL;
}

void problem_detail(struct problem *p, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->detail, sizeof(p->detail), fmt, ap);
  va_end(ap);
  utf8_scrub(p->detail);
}

void problem_add(struct problem *p, const char *field, const char *rule, long long limit,
                 const char *fmt, ...)
{
  char msg[384], f[96];
  va_list ap;
  json_t *e;

  /* Field names and messages quote the request (a JSON key, a URL) and are cut to fit:
   * jansson refuses invalid UTF-8, and the error would silently go missing. */
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  utf8_scrub(msg);
  snprintf(f, sizeof(f), "%s", field);
  utf8_scrub(f);
  if (!p->errors)
    p->errors = json_array();
  if (!p->errors || json_array_size(p->errors) >= PROBLEM_MAX_ERRORS)
    return;
  e = json_pack("{s:s, s:s, s:s}", "field", f, "rule", rule, "detail", msg);
  if (!e)
    return;
  if (limit >= 0)
    json_object_set_new(e, "limit", json_integer(limit));
  json_array_append_new(p->errors, e); /* steals e */
  if (!p->detail[0]) {
    snprintf(p->detail, sizeof(p->detail), "%s: %s", f, msg);
    utf8_scrub(p->detail);
  }
}

int problem_has_errors(const struct problem *p)
{
  return p->errors && json_array_size(p->errors) > 0;
}

char *problem_render(const struct problem *p)
{
  char type[128], detail[sizeof(p->detail)];
  char *out;
  json_t *doc;

  snprintf(type, sizeof(type), "urn:kopt:problem:%s", p->type);
  doc = json_pack("{s:s, s:s, s:i}", "type", type, "title", p->title, "status",
                  (int)p->status);
  if (!doc)
    return NULL;
  if (p->detail[0]) {
    /* Callers may have written detail directly (api_resp_simple_problem). */
    memcpy(detail, p->detail, sizeof(detail));
    detail[sizeof(detail) - 1] = '\0';
    utf8_scrub(detail);
    json_object_set_new(doc, "detail", json_string(detail));
  }
  if (p->errors)
    json_object_set(doc, "errors", p->errors); /* borrowed: p keeps its reference */
  out = json_dumps(doc, JSON_COMPACT);
  json_decref(doc);
  return out;
}

void problem_free(struct problem *p)
{
  json_decref(p->errors);
  p->errors = NULL;
}
