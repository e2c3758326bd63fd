#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_structural.h"

int rules_prefers(const json_t *prefer, const char *key, const json_t *v)
{
  const json_t *p = key && *key ? json_object_get(prefer, key) : NULL, *x;
  size_t i;
  if (json_is_integer(p))
    return json_equal(p, (json_t *)v);
  json_array_foreach(p, i, x)
    if (json_equal(x, (json_t *)v))
      return 1;
  return 0;
}

static int rules_tried(const json_t *tried, const char *sig)
{
  const json_t *t;
  size_t i;
  json_array_foreach(tried, i, t)
    if (json_is_string(t) && !strcmp(json_string_value(t), sig))
      return 1;
  return 0;
}

/* A parameter point of a structural rewrite: the survey's defaults overlaid with values. */
struct rules_point {
  double score;
  unsigned idx[RULES_MAX_KNOBS];
};

static int rules_cmp_point(const void *a, const void *b)
{
  const struct rules_point *x = a, *y = b;
  if (x->score != y->score)
    return x->score < y->score ? -1 : 1;
  return memcmp(x->idx, y->idx, sizeof(x->idx));
}

/* The points of a domain {param: [values]} nearest the defaults (in steps), at most max.
 * Appends {id, structural: {name, params}} to out. */
static void rules_domain_points(const struct rules_plan_in *in, const char *name,
                                const json_t *defaults, const json_t *domain, json_t *out)
{
  const char *keys[RULES_MAX_KNOBS];
  const json_t *vals[RULES_MAX_KNOBS];
  unsigned nk = 0, def[RULES_MAX_KNOBS] = { 0 }, idx[RULES_MAX_KNOBS] = { 0 };
  unsigned long total = 1, n = 0;
  struct rules_point *pts;
  const char *k;
  json_t *v;

  json_object_foreach((json_t *)domain, k, v) {
    if (!json_is_array(v) || !json_array_size(v) || nk == RULES_MAX_KNOBS)
      continue;
    keys[nk] = k;
    vals[nk] = v;
    for (unsigned i = 0; i < json_array_size(v); i++)
      if (json_equal(json_array_get(v, i), json_object_get(defaults, k)))
        def[nk] = i;
    total *= json_array_size(v);
    nk++;
  }
  if (total > RULES_ENUM_MAX || !(pts = calloc(total, sizeof(*pts))))
    return;
  for (unsigned long t = 0; t < total; t++, n++) {
    for (unsigned a = 0; a < nk; a++) {
      pts[n].idx[a] = idx[a];
      pts[n].score += fabs((double)idx[a] - (double)def[a]);
    }
    for (unsigned a = 0; a < nk; a++) {
      if (++idx[a] < json_array_size(vals[a]))
        break;
      idx[a] = 0;
    }
  }
  qsort(pts, n, sizeof(*pts), rules_cmp_point);
  for (unsigned long i = 0; i < n && json_array_size(out) < in->max_candidates; i++) {
    json_t *params = json_deep_copy(defaults);
    char id[32];
    for (unsigned a = 0; a < nk; a++)
      json_object_set(params, keys[a], json_array_get(vals[a], pts[i].idx[a]));
    snprintf(id, sizeof(id), "r%ds%zu", in->round, json_array_size(out));
    json_array_append_new(out, json_pack("{s:s, s:{s:s, s:o}}", "id", id, "structural", "name",
                                         name, "params", params));
  }
  free(pts);
}

/* Orders structural candidates by how many of their parameters the pattern prefers (most
 * first, otherwise as they came) and numbers them again. */
static void rules_prefer_order(const struct rules_plan_in *in, json_t *cands)
{
  size_t n = json_array_size(cands), i;
  json_t *sorted;
  if (!in->prefer || n < 2)
    return;
  sorted = json_array();
  for (long want = json_object_size(in->prefer); want >= 0; want--) {
    json_t *c;
    json_array_foreach(cands, i, c) {
      const json_t *params = json_object_get(json_object_get(c, "structural"), "params"), *v;
      const char *k;
      long hits = 0;
      json_object_foreach((json_t *)params, k, v)
        hits += rules_prefers(in->prefer, k, v);
      if (hits == want)
        json_array_append(sorted, c);
    }
  }
  json_array_clear(cands);
  for (i = 0; i < json_array_size(sorted); i++) {
    json_t *c = json_array_get(sorted, i);
    char id[32];
    snprintf(id, sizeof(id), "r%ds%zu", in->round, i);
    json_object_set_new(c, "id", json_string(id));
    json_array_append(cands, c);
  }
  json_decref(sorted);
}

/* Overlays the pattern's preferred values on a rewrite's defaults where its domain has them:
 * the points nearest the preferred region come first. */
static void rules_prefer_defaults(const struct rules_plan_in *in, json_t *defaults, const json_t *domain)
{
  const char *k;
  json_t *vals;
  json_object_foreach((json_t *)domain, k, vals) {
    const json_t *x;
    size_t i;
    json_array_foreach(vals, i, x)
      if (rules_prefers(in->prefer, k, x)) {
        json_object_set(defaults, k, (json_t *)x);
        break;
      }
  }
}

/* Structural candidates: the survey's defaults, then its domain's points — whole parameter
 * sets when the domain lists `configs` (tile configurations go together), else the points of
 * the parameters' product nearest the defaults — capped at the budget. */
int rules_structural_plan(const struct rules_plan_in *in, const char *name,
                          struct rules_plan_out *out, char *why, size_t whylen)
{
  const json_t *fit = NULL, *s, *defaults, *domain, *configs;
  size_t i;
  json_array_foreach(json_object_get(in->knobs, "structural"), i, s)
    if (!strcmp(json_string_value(json_object_get(s, "name")) ?: "", name))
      fit = s;
  if (!fit || !json_is_true(json_object_get(fit, "fits"))) {
    snprintf(why, whylen, "rules: the structural rewrite %s does not fit this kernel: %s", name,
             fit ? json_string_value(json_object_get(fit, "why")) ?: "(no reason given)"
                 : "the harness did not survey it");
    return -ENOENT;
  }
  snprintf(out->signature, sizeof(out->signature), "structural:%s@%s", name, in->structure);
  if (rules_tried(in->tried, out->signature)) {
    snprintf(why, whylen, "rules: %s was already tried on this kernel structure", name);
    return -ENOENT;
  }
  defaults = json_object_get(fit, "params");
  domain = json_object_get(fit, "domain");
  configs = json_object_get(domain, "configs");
  out->candidates = json_array();
  if (json_is_array(defaults)) { /* a list of whole parameter sets */
    json_t *p;
    json_array_foreach(defaults, i, p) {
      char id[32];
      if (i >= in->max_candidates)
        break;
      snprintf(id, sizeof(id), "r%ds%zu", in->round, i);
      json_array_append_new(out->candidates, json_pack("{s:s, s:{s:s, s:O}}", "id", id,
                                                       "structural", "name", name, "params", p));
    }
  } else if (json_is_array(configs)) {
    json_t *c;
    json_array_foreach(configs, i, c) {
      json_t *params;
      char id[32];
      if (i >= in->max_candidates) /* before the copy: a copy past the budget would leak */
        break;
      params = json_is_object(defaults) ? json_deep_copy(defaults) : json_object();
      json_object_update(params, c);
      snprintf(id, sizeof(id), "r%ds%zu", in->round, i);
      json_array_append_new(out->candidates, json_pack("{s:s, s:{s:s, s:o}}", "id", id,
                                                       "structural", "name", name, "params", params));
    }
  } else {
    json_t *d = json_is_object(defaults) ? json_deep_copy(defaults) : json_object();
    if (in->prefer && json_is_object(domain))
      rules_prefer_defaults(in, d, domain);
    rules_domain_points(in, name, d, json_is_object(domain) ? domain : NULL, out->candidates);
    if (!json_array_size(out->candidates)) {
      char id[32];
      snprintf(id, sizeof(id), "r%ds0", in->round);
      json_array_append_new(out->candidates, json_pack("{s:s, s:{s:s, s:O}}", "id", id,
                                                       "structural", "name", name, "params", d));
    }
    json_decref(d);
  }
  rules_prefer_order(in, out->candidates);
  snprintf(out->summary, sizeof(out->summary), "Precondition met: %s So the structural rewrite %s, "
           "%zu parameter point(s)%s%s%s.",
           json_string_value(json_object_get(fit, "why")) ?: "(the harness's survey)", name,
           json_array_size(out->candidates), in->prefer ? ", those pattern " : "",
           in->prefer ? (in->pattern ? in->pattern : "?") : "", in->prefer ? " prefers first" : "");
  if (!json_array_size(out->candidates)) {
    json_decref(out->candidates);
    out->candidates = NULL;
    return -ENOENT;
  }
  return 0;
}
