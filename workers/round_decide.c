/* round_decide — which candidate of a round's sweep replaces the incumbent: the shortlist
 * (search_shortlist: faster than the incumbent on the quick timing, in the sweep's order),
 * each checked on every correctness case (the harness's `validate`), the first correct one
 * timed against the incumbent in ABBA order (`compare`). */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "round_decide.h"
#include "search.h"

#define ROUND_DECIDE_MAX_COMPARES 2
#define ROUND_DECIDE_NOISY 0.25          /* a comparison's noise (A vs A) past this: nothing known */
#define ROUND_DECIDE_CPU_CLOCK "cpu"     /* the harness's clock name on the interpreter */

int round_decide(const struct round_decide_ctx *s, const json_t *sweep, const json_t **chosen,
                 json_t **val, json_t **cmp, int *accepted, char *reject, size_t rejlen)
{
  struct job_ctx *j = s->j;
  json_t *short_ = search_shortlist(sweep, SEARCH_SHORTLIST, SEARCH_MIN_GAIN), *id;
  unsigned compares = 0;
  size_t i;
  int rc = 0;

  assert(j && s->inc_src && s->search && s->progress);

  *chosen = NULL;
  *accepted = 0;
  if (!json_array_size(short_)) {
    const json_t *cnt = json_object_get(sweep, "counts"), *c;
    const char *first_wrong = NULL;
    json_array_foreach(json_object_get(sweep, "candidates"), i, c)
      if (!first_wrong && !strcmp(json_string_value(json_object_get(c, "status")) ?: "", "wrong"))
        first_wrong = json_string_value(json_object_get(c, "reason"));
    if (first_wrong && json_integer_value(json_object_get(cnt, "ok")) == 0) {
      snprintf(reject, rejlen, "incorrect: no candidate of the sweep was correct on the screen "
               "case (%lld wrong); first: %.600s",
               (long long)json_integer_value(json_object_get(cnt, "wrong")), first_wrong);
      *val = json_pack("{s:b, s:{s:s, s:s}, s:s}", "passed", 0, "failure", "kind", "wrong-result",
                       "message", first_wrong, "checked", "screen case of the sweep");
      goto out;
    }
    snprintf(reject, rejlen,
             "no candidate beat the incumbent in the sweep (%lld measured, %lld wrong, %lld "
             "refused or failed to compile; incumbent %.4g ms on the screen case)",
             (long long)json_integer_value(json_object_get(cnt, "ok")),
             (long long)json_integer_value(json_object_get(cnt, "wrong")),
             (long long)(json_integer_value(json_object_get(cnt, "refused")) +
                         json_integer_value(json_object_get(cnt, "compile-failed")) +
                         json_integer_value(json_object_get(cnt, "error")) +
                         json_integer_value(json_object_get(cnt, "static-check"))),
             json_number_value(json_object_get(json_object_get(sweep, "incumbent"), "time_ms")));
    goto out;
  }
  json_array_foreach(short_, i, id) {
    const json_t *c = search_candidate(sweep, json_string_value(id));
    const char *src = json_string_value(json_object_get(c, "source"));
    json_t *tun = json_object_get(c, "tunables"), *req;
    if (!src)
      continue;
    json_decref(*val);
    json_decref(*cmp);
    *val = *cmp = NULL;
    *chosen = c;
    s->progress(s->arg, "validate");
    req = json_pack("{s:s, s:s, s:O}", "op", "validate", "candidate_source", src, "tunables",
                    json_is_object(tun) ? tun : s->inc_tunables);
    rc = job_op(j, "validate", req, val);
    json_decref(req);
    if (rc == -EINTR)
      goto out;
    if (rc) {
      snprintf(reject, rejlen, "candidate %s could not be validated: %s", json_string_value(id),
               j->fail_msg);
      j->fail_msg[0] = '\0';
      *val = json_pack("{s:b, s:s}", "passed", 0, "error", reject);
      rc = 0;
      continue;
    }
    if (!json_is_true(json_object_get(*val, "passed"))) {
      const char *m = json_string_value(json_object_get(json_object_get(*val, "failure"), "message"));
      snprintf(reject, rejlen, "candidate %s incorrect: %s", json_string_value(id),
               m ? m : "failed validation");
      continue;
    }
    if (compares++ == ROUND_DECIDE_MAX_COMPARES)
      break;
    s->progress(s->arg, "time");
    req = json_pack("{s:s, s:s, s:O, s:s, s:O, s:b}", "op", "compare", "incumbent_source", s->inc_src,
                    "incumbent_tunables", s->inc_tunables, "candidate_source", src,
                    "candidate_tunables", json_is_object(tun) ? tun : s->inc_tunables, "adaptive", 1);
    rc = job_op(j, "compare", req, cmp);
    json_decref(req);
    if (rc == -EINTR)
      goto out;
    if (rc) {
      snprintf(reject, rejlen, "candidate %s could not be timed: %s", json_string_value(id),
               j->fail_msg);
      j->fail_msg[0] = '\0';
      rc = 0;
      continue;
    }
    if (json_is_true(json_object_get(*cmp, "faster_beyond_noise"))) {
      *accepted = 1;
      break;
    }
    snprintf(reject, rejlen, "candidate %s not faster beyond noise: speedup %.4f, noise %.4f",
             json_string_value(id), json_number_value(json_object_get(*cmp, "speedup")),
             json_number_value(json_object_get(*cmp, "noise")));
    /* Timed through a disturbance (the H200's moe_gating_topk: noise 1.09 where rounds before
     * had 0.002): its configuration is not known, so a later round may propose it again. Not
     * on the interpreter's CPU clock, where such noise is ordinary: the search would go back
     * to the same configuration round after round. */
    if (json_number_value(json_object_get(*cmp, "noise")) > ROUND_DECIDE_NOISY &&
        strcmp(json_string_value(json_object_get(*cmp, "clock")) ?: ROUND_DECIDE_CPU_CLOCK, ROUND_DECIDE_CPU_CLOCK))
      search_forget(s->search, s->knobs, c);
  }
out:
  json_decref(short_);
  return rc;
}
