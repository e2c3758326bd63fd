#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "joblog.h"
#include "log.h"
#include "secret.h"

void joblog_cut_utf8(char *s, size_t max)
{
  size_t n = strlen(s);
  if (n <= max)
    return;
  n = max;
  /* Back up over continuation bytes (10xxxxxx) to the start of the cut sequence. */
  while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
    n--;
  s[n] = '\0';
}

int joblog_append(struct job_ctx *j, const char *what, const json_t *kernel_output)
{
  const char *text = json_string_value(json_object_get(kernel_output, "text"));
  json_int_t bytes = json_integer_value(json_object_get(kernel_output, "bytes"));
  int truncated = json_is_true(json_object_get(kernel_output, "truncated"));
  char round[16], nbytes[24], cap[24], err[256];
  char *clean = NULL; /* owned: capped, redacted copy of text */
  PGresult *r;
  int rc = -EIO;

  if (!json_is_object(kernel_output) || !text)
    return 0;
  clean = secret_redact(text);
  if (!clean)
    return -ENOMEM;
  if (strlen(clean) > JOBLOG_ENTRY_MAX_BYTES) {
    joblog_cut_utf8(clean, JOBLOG_ENTRY_MAX_BYTES);
    truncated = 1;
  }
  snprintf(round, sizeof(round), "%d", j->round);
  snprintf(nbytes, sizeof(nbytes), "%lld", (long long)(bytes > 0 ? bytes : 0));
  snprintf(cap, sizeof(cap), "%u", JOBLOG_JOB_MAX_BYTES);
  {
    /* Past the job's cap the text is dropped (the count stays); the cut is in characters
     * of what is left, which never exceeds the byte cap's order. */
    const char *p[7] = { j->id, round, what, nbytes, clean, cap, truncated ? "t" : "f" };
    if (job_db(j->w))
      goto out;
    r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err),
                "WITH used AS (SELECT coalesce(sum(octet_length(text)), 0) AS n"
                "              FROM job_logs WHERE job_id = $1::uuid)"
                " INSERT INTO job_logs (job_id, round, step, bytes, text, truncated)"
                " SELECT $1::uuid, $2::int, left($3, 64), $4::bigint,"
                "  CASE WHEN used.n >= $6::bigint THEN ''"
                "       ELSE left($5, ($6::bigint - used.n)::int) END,"
                "  $7::bool OR used.n + octet_length($5) > $6::bigint"
                " FROM used",
                7, p);
  }
  if (!r) {
    log_warn("joblog.append_failed", "job=%s step=%s err=\"%.200s\"", j->id, what, err);
    goto out;
  }
  PQclear(r);
  rc = 0;
out:
  free(clean);
  return rc;
}
