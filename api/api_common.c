/* api_common: what the pattern and batch handlers share (api_jobs.c has its own copies from
 * before; they say the same). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "api.h"
#include "log.h"

void api_db_fail(struct api_req *r, const char *what, const char *err)
{
  log_error("db.query_failed", "route=%s what=%s err=\"%.300s\"", r->route_name, what, err);
  api_resp_simple_problem(r, 503, "unavailable", "Database error",
                          "the database failed while %s; nothing was changed, retry later",
                          what);
}

int api_require_json(struct api_req *r)
{
  const char *ct = r->content_type;
  if (strncasecmp(ct, "application/json", 16) == 0 && (!ct[16] || ct[16] == ';' || ct[16] == ' '))
    return 0;
  api_resp_simple_problem(r, 415, "unsupported-media-type", "Unsupported media type",
                          "Content-Type must be application/json (got \"%.60s\")",
                          ct[0] ? ct : "none");
  return -1;
}
