#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "search.h"

void search_init(struct search *s, const char *kernel_sha256)
{
  s->memory = json_array();
  s->siblings = NULL;
  search_new_structure(s, kernel_sha256);
}

void search_free(struct search *s)
{
  json_decref(s->memory);
  s->memory = NULL;
  json_decref(s->siblings);
  s->siblings = NULL;
}

void search_new_structure(struct search *s, const char *kernel_sha256)
{
  snprintf(s->structure, sizeof(s->structure), "%.*s", SEARCH_STRUCTURE_LEN,
           kernel_sha256 ? kernel_sha256 : "");
}

int search_profile_current(const struct search *s, const char *profiled_structure, double profiled_speedup,
                           double speedup)
{
  assert(s);
  if (!profiled_structure || strcmp(profiled_structure, s->structure) != 0)
    return 0;
  return profiled_speedup > 0 && speedup < profiled_speedup * SEARCH_REPROFILE_GAIN;
}

json_t *search_knob_values(const json_t *knobs)
{
  json_t *out = json_object(), *k;
  size_t i;
  json_array_foreach(json_object_get(knobs, "knobs"), i, k) {
    const char *id = json_string_value(json_object_get(k, "id"));
    json_t *v = json_object_get(k, "value");
    if (id && json_is_integer(v))
      json_object_set(out, id, v);
  }
  return out;
}

/* The configuration a candidate ran with: base values overridden by its changes. */
static json_t *search_config(const json_t *base, const json_t *cand)
{
  json_t *cfg = json_deep_copy(base), *ch = json_object_get(cand, "changes");
  if (json_is_object(ch))
    json_object_update(cfg, ch);
  return cfg;
}

static int search_same(const json_t *a, const json_t *b) { return json_equal((json_t *)a, (json_t *)b); }

int search_measured(const struct search *s, const json_t *cfg)
{
  json_t *m;
  size_t i;
  json_array_foreach(s->memory, i, m) {
    if (strcmp(json_string_value(json_object_get(m, "structure")) ?: "", s->structure) == 0 &&
        search_same(json_object_get(m, "config"), cfg))
      return 1;
  }
  return 0;
}

/* Appends configuration cfg (stolen) of the current structure as sweep candidate cand measured
 * it: time, status and reason (status "error" and why when why is given), compile facts. */
static void search_add(struct search *s, json_t *cfg, const json_t *cand, int round, const char *why)
{
  json_array_append_new(
      s->memory,
      json_pack("{s:s, s:o, s:O?, s:s?, s:s?, s:i, s:O?}", "structure", s->structure, "config", cfg,
                "time_ms", json_object_get(cand, "time_ms"), "status",
                why ? "error" : json_string_value(json_object_get(cand, "status")), "reason",
                why ? why : json_string_value(json_object_get(cand, "reason")), "round", round,
                "facts", json_object_get(json_object_get(cand, "compile"), "facts")));
}

/* Appends each candidate's configuration (not a structural or a model's candidate, nor a
 * noisy one) with its status and reason, or with status and why when why is given. */
static void search_remember_cands(struct search *s, const json_t *base, const json_t *cands,
                                  int round, const char *why)
{
  json_t *c;
  size_t i;
  json_array_foreach(cands, i, c) {
    if (json_array_size(s->memory) >= SEARCH_MEMORY_MAX)
      break;
    if (json_object_get(c, "structural") && !json_is_null(json_object_get(c, "structural")))
      continue; /* another structure: its configuration is not over these knobs */
    if (!strcmp(json_string_value(json_object_get(c, "origin")) ?: "", "model"))
      continue; /* a model's module: its knobs are not the incumbent's */
    if (json_is_true(json_object_get(c, "noisy")))
      continue; /* timed twice through a disturbance: not known, so a later round may retry */
    search_add(s, search_config(base, c), c, round, why);
  }
}

void search_remember(struct search *s, const json_t *knobs, const json_t *sweep, int round)
{
  json_t *base = search_knob_values(knobs);
  search_remember_cands(s, base, json_object_get(sweep, "candidates"), round, NULL);
  /* The incumbent itself, measured in the same sweep. */
  if (json_array_size(s->memory) < SEARCH_MEMORY_MAX) {
    json_t *inc = json_object_get(json_object_get(sweep, "incumbent"), "time_ms");
    json_array_append_new(s->memory, json_pack("{s:s, s:O, s:O?, s:s, s:i}", "structure",
                                               s->structure, "config", base, "time_ms", inc,
                                               "status", "incumbent", "round", round));
  }
  json_decref(base);
}

void search_remember_failed(struct search *s, const json_t *knobs, const json_t *candidates,
                            int round, const char *why)
{
  json_t *base = search_knob_values(knobs);
  assert(why);
  search_remember_cands(s, base, candidates, round, why);
  json_decref(base);
}

unsigned search_forget(struct search *s, const json_t *knobs, const json_t *cand)
{
  json_t *base = search_knob_values(knobs), *cfg = search_config(base, cand);
  unsigned n = 0;
  for (size_t i = json_array_size(s->memory); i-- > 0;) {
    const json_t *m = json_array_get(s->memory, i);
    if (strcmp(json_string_value(json_object_get(m, "structure")) ?: "", s->structure) == 0 &&
        search_same(json_object_get(m, "config"), cfg) &&
        strcmp(json_string_value(json_object_get(m, "status")) ?: "", "incumbent") != 0) {
      json_array_remove(s->memory, i);
      n++;
    }
  }
  json_decref(cfg);
  json_decref(base);
  return n;
}

json_t *search_shortlist(const json_t *sweep, unsigned n, double min_gain)
{
  json_t *out = json_array(), *id;
  double inc = json_number_value(json_object_get(json_object_get(sweep, "incumbent"), "time_ms"));
  size_t i;
  json_array_foreach(json_object_get(sweep, "order"), i, id) {
    const json_t *c = search_candidate(sweep, json_string_value(id));
    double t = json_number_value(json_object_get(c, "time_ms"));
    if (json_array_size(out) >= n)
      break;
    if (!c || strcmp(json_string_value(json_object_get(c, "status")) ?: "", "ok") != 0)
      continue;
    if (inc > 0 && t > 0 && t < inc * (1.0 - min_gain))
      json_array_append(out, id);
  }
  return out;
}

const json_t *search_candidate(const json_t *sweep, const char *id)
{
  json_t *c;
  size_t i;
  if (!id)
    return NULL;
  json_array_foreach(json_object_get(sweep, "candidates"), i, c)
    if (strcmp(json_string_value(json_object_get(c, "id")) ?: "", id) == 0)
      return c;
  return NULL;
}

json_t *search_record(const json_t *sweep)
{
  json_t *rec = json_deep_copy(sweep), *c;
  size_t i;
  json_array_foreach(json_object_get(rec, "candidates"), i, c)
    json_object_del(c, "source");
  return rec;
}

void search_adopt_siblings(struct search *s, const json_t *sweep, const char *chosen_id, int round)
{
  const json_t *cs = json_object_get(search_candidate(sweep, chosen_id), "structural");
  const char *name = json_string_value(json_object_get(cs, "name"));

  json_decref(s->siblings);
  s->siblings = NULL;
  if (name && json_is_object(json_object_get(cs, "params")))
    s->siblings = json_pack("{s:s, s:s, s:O, s:i, s:O}", "structure", s->structure, "name", name,
                            "chosen", json_object_get(cs, "params"), "round", round, "candidates",
                            json_object_get(sweep, "candidates"));
}

/* Which param of the rewrite sets each knob of the new structure (new reference {knob id:
 * param key}), or NULL when a knob has none or two knobs the same: the param named as the
 * knob, else the one named as its role in capitals (tile_grid's BLOCK_M sets the knob whose
 * role is block_m, which the kernel may call BM). */
static json_t *search_sibling_naming(const json_t *knobs, const json_t *chosen)
{
  json_t *naming = json_object(), *k;
  size_t i;
  json_array_foreach(json_object_get(knobs, "knobs"), i, k) {
    const char *id = json_string_value(json_object_get(k, "id"));
    const char *role = json_string_value(json_object_get(k, "role")) ?: "";
    char up[SEARCH_ROLE_MAX];
    const char *key = NULL, *other;
    json_t *v;
    if (!id || !json_is_integer(json_object_get(k, "value")))
      continue; /* not a knob search_knob_values counts */
    if (json_object_get(chosen, id)) {
      key = id;
    } else if (strlen(role) < sizeof(up)) {
      size_t j;
      for (j = 0; role[j]; j++)
        up[j] = (char)toupper((unsigned char)role[j]);
      up[j] = '\0';
      key = json_object_get(chosen, up) ? up : NULL;
    }
    json_object_foreach(naming, other, v)
      if (key && !strcmp(json_string_value(v), key))
        key = NULL;
    if (!key)
      goto refuse;
    json_object_set_new(naming, id, json_string(key));
  }
  if (json_object_size(naming))
    return naming;
refuse:
  json_decref(naming);
  return NULL;
}

/* The point's configuration over the knobs (new reference), or NULL when it is not one of the
 * structure: a param naming sets is missing, or a param no knob takes differs from chosen's. */
static json_t *search_sibling_config(const json_t *naming, const json_t *chosen, const json_t *params)
{
  json_t *cfg = json_object(), *v, *w;
  const char *id, *key;
  json_object_foreach((json_t *)naming, id, v) {
    const json_t *pv = json_object_get(params, json_string_value(v));
    if (!json_is_integer(pv))
      goto refuse;
    json_object_set(cfg, id, (json_t *)pv);
  }
  json_object_foreach((json_t *)params, key, v) {
    int knob = 0;
    json_object_foreach((json_t *)naming, id, w)
      knob = knob || !strcmp(json_string_value(w), key);
    if (!knob && !json_equal(v, json_object_get(chosen, key)))
      goto refuse;
  }
  return cfg;
refuse:
  json_decref(cfg);
  return NULL;
}

unsigned search_remember_siblings(struct search *s, const json_t *knobs)
{
  json_t *base = NULL, *naming = NULL, *check = NULL, *c;
  const json_t *chosen;
  const char *name;
  unsigned n = 0;
  int round;
  size_t i;

  if (!s->siblings)
    return 0;
  if (strcmp(json_string_value(json_object_get(s->siblings, "structure")) ?: "", s->structure))
    goto out; /* another structure since */
  chosen = json_object_get(s->siblings, "chosen");
  naming = search_sibling_naming(knobs, chosen);
  if (!naming)
    goto out;
  /* The accepted point read through the naming must be the incumbent's knob values: else the
   * naming is not what the rewrite wrote (or, on a job taken over, a later round changed them
   * and the check cannot tell). */
  base = search_knob_values(knobs);
  check = search_sibling_config(naming, chosen, chosen);
  if (!check || !json_equal(check, base))
    goto out;
  name = json_string_value(json_object_get(s->siblings, "name"));
  round = (int)json_integer_value(json_object_get(s->siblings, "round"));
  json_array_foreach(json_object_get(s->siblings, "candidates"), i, c) {
    const json_t *st = json_object_get(c, "structural");
    json_t *cfg;
    /* the accepted rewrite's points; a noisy one's time is not known */
    if (strcmp(json_string_value(json_object_get(st, "name")) ?: "", name) ||
        json_is_true(json_object_get(c, "noisy")))
      continue;
    cfg = search_sibling_config(naming, chosen, json_object_get(st, "params"));
    if (!cfg)
      continue;
    if (json_array_size(s->memory) >= SEARCH_MEMORY_MAX || search_measured(s, cfg)) {
      json_decref(cfg);
      continue;
    }
    search_add(s, cfg, c, round, NULL);
    n++;
  }
out:
  json_decref(base);
  json_decref(naming);
  json_decref(check);
  json_decref(s->siblings);
  s->siblings = NULL;
  return n;
}
