#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "secret.h"

/* Process-wide logging settings: the one piece of state every module shares, set once at
 * start-up (and on SIGHUP) from the loop thread; read racily by pool threads, which is
 * harmless for an int-sized level. */
static struct {
  enum log_level level;
  const char *component;
} log_state = { LOG_LVL_INFO, "kopt" };

static const char *const log_names[] = { "debug", "info", "warn", "error" };

int log_level_parse(const char *name, enum log_level *out)
{
  for (unsigned i = 0; i < sizeof(log_names) / sizeof(log_names[0]); i++) {
    if (strcasecmp(name, log_names[i]) == 0) {
      *out = (enum log_level)i;
      return 0;
    }
  }
  return -EINVAL;
}

void log_set_level(enum log_level lvl) { log_state.level = lvl; }
enum log_level log_get_level(void) { return log_state.level; }
void log_set_component(const char *name) { log_state.component = name; }

char *log_quote(char *out, size_t cap, const char *s)
{
  size_t o = 0;
  if (cap < 6) {
    if (cap)
      out[0] = '\0';
    return out;
  }
  out[o++] = '"';
  for (; s && *s; s++) {
    char c = *s;
    const char *esc = NULL;
    if (c == '"')
      esc = "\\\"";
    else if (c == '\\')
      esc = "\\\\";
    else if (c == '\n')
      esc = "\\n";
    else if (c == '\r' || c == '\t')
      esc = " ";
    size_t need = esc ? strlen(esc) : 1;
    if (o + need + 5 > cap) {
      memcpy(out + o, "...", 3);
      o += 3;
      break;
    }
    if (esc) {
      memcpy(out + o, esc, need);
      o += need;
    } else {
      out[o++] = c;
    }
  }
  out[o++] = '"';
  out[o] = '\0';
  return out;
}

void log_msg(enum log_level lvl, const char *event, const char *fields, ...)
{
  char line[2048];
  struct timeval tv;
  struct tm tm;
  int n, m;
  va_list ap;

  if (lvl < log_state.level)
    return;
  gettimeofday(&tv, NULL);
  gmtime_r(&tv.tv_sec, &tm);
  n = snprintf(line, sizeof(line),
               "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s comp=%s pid=%d event=%s ",
               tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
               tm.tm_sec, (long)(tv.tv_usec / 1000), log_names[lvl], log_state.component,
               (int)getpid(), event);
  if (n < 0 || (size_t)n >= sizeof(line))
    n = (int)sizeof(line) - 2;
  va_start(ap, fields);
  m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fields, ap);
  va_end(ap);
  if (m < 0)
    m = 0;
  if ((size_t)(n + m) >= sizeof(line) - 1)
    m = (int)(sizeof(line) - 2) - n;
  line[n + m] = '\n';
  line[n + m + 1] = '\0';
  {
    /* A line can quote a kernel's words; a registered secret (see secret.h) never reaches
     * the log. One write so concurrent lines stay whole; a short write to a dead stderr is
     * dropped. */
    char *clean = secret_found(line) ? secret_redact(line) : NULL;
    const char *out = clean ? clean : line;
    ssize_t w = write(STDERR_FILENO, out, clean ? strlen(clean) : (size_t)(n + m + 1));
    (void)w;
    free(clean);
  }
}
