#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "log.h"

/* Fills reason with "interpreter <python>: <why>". */
static int check_fail(struct worker *w, char *reason, size_t len, const char *why)
{
  snprintf(reason, len, "interpreter %s: %s", w->python, why);
  return -1;
}

/* The hello result names a usable harness: the versions, this backend, the sandbox user. */
static int check_hello(struct worker *w, json_t *res, char *reason, size_t len, json_t **facts)
{
  json_t *sbx = json_object_get(res, "sandbox");
  const char *torch = json_string_value(json_object_get(res, "torch"));
  const char *triton = json_string_value(json_object_get(res, "triton"));
  const char *backend = json_string_value(json_object_get(res, "backend"));
  const char *user = json_string_value(json_object_get(sbx, "user"));
  json_int_t uid = json_integer_value(json_object_get(sbx, "uid"));
  char why[512];

  if (!torch || !triton)
    return check_fail(w, reason, len, "the harness answered hello without torch and Triton versions");
  if (!backend || strcmp(backend, w->backend) != 0) {
    snprintf(why, sizeof(why), "the harness serves backend %s, not %s", backend ? backend : "?",
             w->backend);
    return check_fail(w, reason, len, why);
  }
  /* Run as root, the launcher must have switched to the sandbox user: it falls back to root
   * only when that user cannot read the interpreter (and says so in its log). */
  if (w->sandbox_user[0] && geteuid() == 0 &&
      (uid == 0 || (user && strcmp(user, w->sandbox_user) != 0))) {
    snprintf(why, sizeof(why),
             "the harness runs as %s (uid %lld), not as the sandbox user %s: the interpreter or "
             "its packages cannot be read by %s",
             user ? user : "?", (long long)uid, w->sandbox_user, w->sandbox_user);
    return check_fail(w, reason, len, why);
  }
  *facts = json_pack("{s:s, s:s, s:s, s:s, s:s?, s:O?}", "python", w->python, "torch", torch,
                     "triton", triton, "backend", backend, "user", user, "launcher",
                     json_object_get(sbx, "launcher"));
  return *facts ? 0 : check_fail(w, reason, len, "out of memory");
}

int check_harness(struct worker *w, char *reason, size_t len, json_t **facts)
{
  struct harness_opts o = { w->harness_argv, w->harness_envp };
  json_t *req = NULL, *rep = NULL;
  char err[768];
  int rc;

  *facts = NULL;
  reason[0] = '\0';
  if (!w->h.pid) {
    log_info("harness.start", "device=%s starts=%d why=check", w->device, w->h.started);
    if (harness_start(&w->h, &o, err, sizeof(err)) != 0)
      return check_fail(w, reason, len, err);
  }
  req = json_pack("{s:s, s:i}", "op", "hello", "timeout_s", CHECK_TIMEOUT_S - 10);
  if (!req)
    return check_fail(w, reason, len, "out of memory");
  rc = harness_call(&w->h, req, CHECK_TIMEOUT_S, &w->stop, &rep, err, sizeof(err));
  json_decref(req);
  if (rc == -EINTR) {
    rc = -EINTR;
  } else if (rc) {
    /* "the harness exited with status 1: kopt-launch: ..." (its last stderr line). */
    rc = check_fail(w, reason, len, err);
  } else if (!json_is_true(json_object_get(rep, "ok"))) {
    const char *msg = json_string_value(json_object_get(json_object_get(rep, "error"), "message"));
    rc = check_fail(w, reason, len, msg ? msg : "the harness refused hello");
  } else {
    rc = check_hello(w, json_object_get(rep, "result"), reason, len, facts);
  }
  json_decref(rep);
  if (rc)
    harness_kill(&w->h); /* what failed its check runs no job */
  return rc;
}
