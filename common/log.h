/* log: one line per event on stderr, "ts level event key=value ...", for journald. */
#ifndef KOPT_LOG_H
#define KOPT_LOG_H

enum log_level { LOG_LVL_DEBUG = 0, LOG_LVL_INFO, LOG_LVL_WARN, LOG_LVL_ERROR };

/* Returns 0 and sets *out, or -EINVAL for an unknown name. */
int log_level_parse(const char *name, enum log_level *out);
void log_set_level(enum log_level lvl);
enum log_level log_get_level(void);
/* Sets the component name printed on every line (static string, not copied). */
void log_set_component(const char *name);

/* fields is a printf format for "key=value ..." pairs; values with spaces must be quoted by
 * the caller (use %s with log_quote-d strings). The line is written with one write(2) so
 * lines from several threads or processes never interleave. */
void log_msg(enum log_level lvl, const char *event, const char *fields, ...)
    __attribute__((format(printf, 3, 4)));

#define log_debug(ev, ...) log_msg(LOG_LVL_DEBUG, ev, __VA_ARGS__)
#define log_info(ev, ...)  log_msg(LOG_LVL_INFO, ev, __VA_ARGS__)
#define log_warn(ev, ...)  log_msg(LOG_LVL_WARN, ev, __VA_ARGS__)
#define log_error(ev, ...) log_msg(LOG_LVL_ERROR, ev, __VA_ARGS__)

/* Copies s into out (cap bytes) as a double-quoted value with \" \\ \n escaped; truncates
 * with "..." when it does not fit. Returns out. */
char *log_quote(char *out, size_t cap, const char *s);

#endif
