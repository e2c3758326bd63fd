#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "ladder_structural.h"
#include "log.h"
#include "pindex.h"
#include "utf8.h"

/* ------------------------------------------------------------------------ pinning */

/* The operator a job's exclusion names: spec.operator, else the initial kernel (the same
 * identity synthesis gives rounds without an operator). */
static void pindex_operator(const struct job_ctx *j, char *out, size_t len)
{
  const char *op = json_string_value(json_object_get(j->spec, "operator"));
  if (op && *op)
    snprintf(out, len, "%s", op);
  else
    snprintf(out, len, "kernel:%.12s", j->ksha);
}

/* Reads one integer (or NULL: -1) answered by sql. 0 or -EIO. */
static int pindex_int(struct job_ctx *j, const char *sql, int n, const char *const *params,
                      int *out)
{
  char err[512];
  PGresult *r = db_exec(j->w->db, PGRES_TUPLES_OK, err, sizeof(err), sql, n, params);
  if (!r) {
    log_error("pindex.query_failed", "job=%s err=\"%.300s\"", j->id, err);
    return -EIO;
  }
  *out = PQntuples(r) == 1 && !PQgetisnull(r, 0, 0) ? atoi(PQgetvalue(r, 0, 0)) : -1;
  PQclear(r);
  return 0;
}

int pindex_pin(struct job_ctx *j, struct pindex *ix)
{
  const json_t *want = json_object_get(j->spec, "pattern_index");
  const char *p[1] = { j->id };
  const char *ir = job_ir_target(j);
  char vtxt[16];
  const char *pv[1] = { vtxt };
  int v, latest, rc;

  memset(ix, 0, sizeof(*ix));
  snprintf(ix->backend, sizeof(ix->backend), "%s", j->w->backend);
  snprintf(ix->target, sizeof(ix->target), "%s",
           !strcmp(j->w->backend, "ascend") || (ir && !strncmp(ir, "Ascend", 6)) ? "ascend" : "cuda");
  ix->min_support = j->w->pattern_min_support ? j->w->pattern_min_support : PINDEX_MIN_SUPPORT_DEFAULT;
  if (json_is_true(json_object_get(j->spec, "exclude_same_operator")))
    pindex_operator(j, ix->exclude_op, sizeof(ix->exclude_op));
  if (job_db(j->w))
    return -EIO;
  if ((rc = pindex_int(j, "SELECT pattern_version FROM jobs WHERE id = $1::uuid", 1, p, &v)))
    return rc;
  if (v > 0) { /* pinned when it started, or by its batch: kept across takeovers */
    ix->version = v;
    return 0;
  }
  if ((rc = pindex_int(j, "SELECT max(version) FROM pattern_index_versions", 0, NULL, &latest)))
    return rc;
  if (json_is_integer(want)) {
    snprintf(vtxt, sizeof(vtxt), "%lld", (long long)json_integer_value(want));
    if ((rc = pindex_int(j, "SELECT version FROM pattern_index_versions WHERE version = $1::int",
                         1, pv, &v)))
      return rc;
    if (v <= 0) {
      snprintf(j->fail_msg, sizeof(j->fail_msg),
               "pattern_index: version %s does not exist (the newest is %d; GET "
               "/v1/patterns/versions lists them)", vtxt, latest);
      return -ENOENT;
    }
  } else if (json_is_string(want) && !strcmp(json_string_value(want), "frozen")) {
    if ((rc = pindex_int(j, "SELECT max(version) FROM pattern_index_versions WHERE frozen", 0,
                         NULL, &v)))
      return rc;
  } else {
    v = latest;
  }
  if (v <= 0)
    return 0; /* no version at all: L1 reads no patterns */
  snprintf(vtxt, sizeof(vtxt), "%d", v);
  rc = job_update(j, "pattern_version = $3::int", 1, pv);
  if (rc != 1)
    return rc == 0 ? -ESTALE : -EIO;
  ix->version = v;
  log_info("pindex.pinned", "job=%s version=%d asked=%s", j->id, v,
           json_is_integer(want) ? vtxt : json_string_value(want) ? json_string_value(want) : "latest");
  return 0;
}

/* ------------------------------------------------------------------------ features */

static void pindex_sym(json_t *syms, const char *s)
{
  size_t i;
  json_t *v;
  json_array_foreach(syms, i, v)
    if (!strcmp(json_string_value(v), s))
      return;
  if (json_array_size(syms) < PINDEX_MAX_SYMPTOMS)
    json_array_append_new(syms, json_string(s));
}

/* The class and symptoms the harness's syntax tree gives (knobs.kernels, knobs.structural). */
static const char *pindex_knob_features(const json_t *knobs, json_t *syms)
{
  const json_t *k, *s;
  size_t i;
  unsigned dot = 0, loops = 0, red = 0;
  int any = ladder_knob_counts(knobs, &dot, &loops, &red);
  json_array_foreach(json_object_get(knobs, "kernels"), i, k) {
    if (json_is_true(json_object_get(k, "autotune")))
      pindex_sym(syms, "autotune");
    if (json_is_true(json_object_get(k, "atomics")))
      pindex_sym(syms, "atomics");
  }
  json_array_foreach(json_object_get(knobs, "structural"), i, s) {
    const char *name = json_string_value(json_object_get(s, "name"));
    char sym[LADDER_SYMPTOM_LEN];
    if (name && json_is_true(json_object_get(s, "fits")) && strlen(name) < sizeof(sym) - 5) {
      snprintf(sym, sizeof(sym), "fits:%s", name);
      pindex_sym(syms, sym);
    }
  }
  return !any ? NULL : dot ? "matmul" : red ? "reduction" : "elementwise";
}

/* Evidence from earlier rounds on this incumbent, named by what L2 and L3 concluded from it:
 * the bottleneck class, and each L3 family turned back into the symptom that justified it
 * (the thresholds stay in ladder.c). */
static void pindex_evidence_features(const struct pindex *ix, const struct evidence *ev,
                                     json_t *syms)
{
  static const struct {
    const char *family, *dir, *target, *symptom;
  } map[] = {
    { "vectorize_access", "up", NULL, "ir:narrow_access" },
    { "num_stages", "up", NULL, "ir:sync_loop" },
    { "num_stages", "down", "cuda", "ir:spills" },
    { "block_size", "down", "ascend", "ir:ub_overflow" },
    { "coalesce_access", NULL, NULL, "ir:layout_conversions" },
    { "reduce_barriers", NULL, NULL, "ir:barriers" },
    { "structured_access", NULL, NULL, "ir:discrete_access" },
    { "structured_mask", NULL, NULL, "ir:masked_rmw" },
    { "reduce_scalar_work", NULL, NULL, "ir:scalar_work" },
  };
  char why[256], sym[LADDER_SYMPTOM_LEN];
  const char *l2 = ev && ev->profile ? ladder_l2_class(ev->profile, why, sizeof(why)) : NULL;
  struct ladder_diag d;

  if (l2) {
    snprintf(sym, sizeof(sym), "l2:%s", l2);
    pindex_sym(syms, sym);
  }
  if (!ev || !json_is_object(ev->ir))
    return;
  ladder_l3(ev->ir, l2, NULL, &d);
  for (unsigned f = 0; f < d.nfamilies; f++)
    for (size_t m = 0; m < sizeof(map) / sizeof(map[0]); m++)
      if (!strcmp(d.family[f], map[m].family) &&
          (!map[m].dir || !strcmp(d.direction[f], map[m].dir)) &&
          (!map[m].target || !strcmp(ix->target, map[m].target)))
        pindex_sym(syms, map[m].symptom);
}

json_t *pindex_features(const struct pindex *ix, const char *source, const json_t *launch,
                        const json_t *knobs, const struct evidence *ev)
{
  char sym[LADDER_MAX_SYMPTOMS][LADDER_SYMPTOM_LEN];
  unsigned n = 0;
  const char *cls;
  json_t *syms = json_array(), *f;

  ladder_source_symptoms(source ? source : "", launch, knobs, sym, &n);
  for (unsigned i = 0; i < n; i++)
    pindex_sym(syms, sym[i]);
  cls = pindex_knob_features(knobs, syms);
  if (!cls) { /* no knobs: the source's own class */
    cls = !n ? "other"
          : !strncmp(sym[0], "matmul", 6) ? "matmul"
          : !strcmp(sym[0], "reduction") || !strcmp(sym[0], "elementwise") ? sym[0]
                                                                            : "other";
  }
  pindex_evidence_features(ix, ev, syms);
  f = json_pack("{s:s, s:s, s:s, s:o}", "backend", ix->backend, "target", ix->target, "class",
                cls, "symptoms", syms);
  return f;
}

/* ------------------------------------------------------------------------ matching */

int pindex_match(struct job_ctx *j, const struct pindex *ix, const json_t *features,
                 json_t **matches)
{
  char err[512], ver[16], *ftxt = NULL;
  const char *p[4];
  json_error_t je;
  PGresult *r = NULL;
  int rc = -EIO;

  *matches = NULL;
  if (ix->version <= 0) {
    *matches = json_array();
    return 0;
  }
  snprintf(ver, sizeof(ver), "%d", ix->version);
  ftxt = json_dumps(features, JSON_COMPACT);
  if (!ftxt || job_db(j->w))
    goto out;
  p[0] = ver;
  p[1] = ftxt;
  p[2] = ix->exclude_op[0] ? ix->exclude_op : NULL;
  p[3] = ix->backend;
  r = db_exec(j->w->db, PGRES_TUPLES_OK, err, sizeof(err),
              "SELECT coalesce(jsonb_agg(x ORDER BY (x->>'support')::int DESC,"
              " (x->>'rate')::float8 DESC, x->>'name'), '[]')::text FROM ("
              " SELECT jsonb_build_object('name', p.name, 'family', p.rewrite_family,"
              "  'action', p.action, 'guidance', p.guidance, 'origin', p.origin,"
              "  'when', kopt_pattern_conditions_text(p.conditions),"
              "  'stats', coalesce(p.stats->$4, '{}'),"
              "  'support', coalesce((p.stats->$4->>'operators')::int, 0),"
              "  'tried', coalesce((p.stats->$4->>'tried')::int, 0),"
              "  'accepted', coalesce((p.stats->$4->>'accepted')::int, 0),"
              "  'rate', coalesce((p.stats->$4->>'rate')::float8, 0)) AS x"
              " FROM patterns p WHERE p.version = $1::int AND p.status = 'active'"
              "  AND kopt_pattern_matches(p.conditions, $2::jsonb)"
              "  AND NOT ($3::text IS NOT NULL AND coalesce(p.provenance->'operators', '[]') ? $3::text)"
              " ORDER BY p.name LIMIT 32) s", /* PINDEX_MAX_MATCHES */
              4, p);
  if (!r) {
    log_error("pindex.query_failed", "job=%s err=\"%.300s\"", j->id, err);
    goto out;
  }
  *matches = json_loads(PQgetvalue(r, 0, 0), 0, &je);
  rc = json_is_array(*matches) ? 0 : -EIO;
out:
  PQclear(r);
  free(ftxt);
  return rc;
}

/* ------------------------------------------------------------------------ L1 */

static int pindex_skipped(const char *family, const char *const *skip)
{
  for (; skip && *skip; skip++)
    if (!strcmp(*skip, family))
      return 1;
  return 0;
}

static int pindex_settles(const struct pindex *ix, const json_t *m)
{
  json_int_t tried = json_integer_value(json_object_get(m, "tried"));
  json_int_t acc = json_integer_value(json_object_get(m, "accepted"));
  json_int_t support = json_integer_value(json_object_get(m, "support"));
  return tried > 0 && support >= (json_int_t)ix->min_support &&
         (double)acc >= PINDEX_MIN_RATE * (double)tried;
}

/* The evidence level a pattern's family needs when its support does not settle L1: the
 * action's needs_level, else 2 (profiling confirms it). */
static int pindex_needs(const json_t *m)
{
  json_int_t n = json_integer_value(json_object_get(json_object_get(m, "action"), "needs_level"));
  return n >= 1 && n <= 4 ? (int)n : 2;
}

static void pindex_why(struct ladder_diag *d, const char *text)
{
  size_t n = strlen(d->why);
  if (n + 2 < sizeof(d->why)) {
    snprintf(d->why + n, sizeof(d->why) - n, "%s%s", n ? " " : "", text);
    utf8_scrub(d->why + n);
  }
}

/* The structural families d justifies that the job has not spent (not in skip), named in
 * buf ("" when none); their count. */
static unsigned pindex_structural_pending(const struct ladder_diag *d, const char *const *skip,
                                          char *buf, size_t len)
{
  unsigned n = 0;
  size_t at = 0;

  buf[0] = '\0';
  for (unsigned i = 0; i < d->nfamilies; i++) {
    if (!ladder_is_structural(d->family[i]) || pindex_skipped(d->family[i], skip))
      continue;
    if (at < len) {
      int w = snprintf(buf + at, len - at, "%s%s", n ? ", " : "", d->family[i]);
      at += w > 0 ? (size_t)w : 0;
    }
    n++;
  }
  return n;
}

/* A pattern that would settle L1 on a launch-parameter family while structural rewrites fit
 * and are unspent does not settle: every structural round also sweeps the kernel as written
 * over its launch parameters (docs/LADDER.md), so the structural round covers what the
 * pattern asks for and more, and settling would drop the rewrite from the round. Measured in
 * the H200 held-out run (bench/results/h200-heldout-suite-2026-12-03): patterns mined from
 * such rounds (credited to block_size, migration 009) settled linear_bias's and softmax's
 * rounds on block sizes, 2.48x and 1.85x where the seed index's tile grid and row in
 * registers reached 3.46x and 2.25x. The family joins the list beside the structural ones;
 * the ladder climbs for their evidence as it would without the pattern. 1 when it
 * deferred. */
static int pindex_defer(const struct pindex *ix, const json_t *m, const char *const *skip,
                        struct ladder_diag *d)
{
  const char *fam = json_string_value(json_object_get(m, "family"));
  char pending[200], line[480];

  if (ladder_is_structural(fam) || !pindex_structural_pending(d, skip, pending, sizeof(pending)))
    return 0;
  ladder_add(d, fam, pindex_needs(m),
             json_string_value(json_object_get(json_object_get(m, "action"), "direction")));
  snprintf(line, sizeof(line),
           "Pattern index v%d: %s (-> %s, accepted %lld of %lld on %s) would settle L1, but %s is "
           "a launch parameter and structural rewrites fit (%s): their rounds sweep the kernel "
           "as written over its launch parameters too, so they come first.",
           ix->version, json_string_value(json_object_get(m, "name")) ?: "?", fam,
           (long long)json_integer_value(json_object_get(m, "accepted")),
           (long long)json_integer_value(json_object_get(m, "tried")), ix->backend, fam, pending);
  pindex_why(d, line);
  return 1;
}

void pindex_apply(const struct pindex *ix, const json_t *matches, const char *const *skip,
                  struct ladder_diag *d, char *settled_by, size_t len)
{
  const json_t *m;
  char line[400];
  size_t i, n = json_array_size(matches);

  settled_by[0] = '\0';
  if (!n)
    return;
  json_array_foreach(matches, i, m) {
    const char *fam = json_string_value(json_object_get(m, "family"));
    const char *name = json_string_value(json_object_get(m, "name"));
    if (!fam || !name || pindex_skipped(fam, skip))
      continue;
    if (!pindex_settles(ix, m))
      break;
    if (pindex_defer(ix, m, skip, d))
      return;
    /* Enough support: this family alone, with evidence enough at L1. */
    d->nfamilies = 0;
    ladder_add(d, fam, 1, json_string_value(json_object_get(json_object_get(m, "action"), "direction")));
    if (!d->hotspot[0])
      snprintf(d->hotspot, sizeof(d->hotspot), "the kernel pattern %.100s describes", name);
    snprintf(line, sizeof(line),
             "Pattern index v%d: %s (when %s) -> %s, accepted %lld of %lld tries on %s over %lld "
             "operators: enough support to settle L1.",
             ix->version, name, json_string_value(json_object_get(m, "when")) ?: "?", fam,
             (long long)json_integer_value(json_object_get(m, "accepted")),
             (long long)json_integer_value(json_object_get(m, "tried")), ix->backend,
             (long long)json_integer_value(json_object_get(m, "support")));
    pindex_why(d, line);
    snprintf(settled_by, len, "%s", name);
    return;
  }
  /* Not enough support: the matched families first (the best supported in front), each
   * needing the evidence its action names. */
  for (i = n; i-- > 0;) {
    const char *fam, *name;
    m = json_array_get(matches, i);
    fam = json_string_value(json_object_get(m, "family"));
    name = json_string_value(json_object_get(m, "name"));
    if (!fam || !name || pindex_skipped(fam, skip))
      continue;
    ladder_add(d, fam, pindex_needs(m),
               json_string_value(json_object_get(json_object_get(m, "action"), "direction")));
    ladder_first(d, fam);
  }
  snprintf(line, sizeof(line), "Pattern index v%d: %zu pattern(s) match, first %s (%s, accepted "
           "%lld of %lld on %s): not enough support to settle L1 (%u operators needed).",
           ix->version, n, json_string_value(json_object_get(json_array_get(matches, 0), "name")) ?: "?",
           json_string_value(json_object_get(json_array_get(matches, 0), "family")) ?: "?",
           (long long)json_integer_value(json_object_get(json_array_get(matches, 0), "accepted")),
           (long long)json_integer_value(json_object_get(json_array_get(matches, 0), "tried")),
           ix->backend, ix->min_support);
  pindex_why(d, line);
}

const json_t *pindex_for_family(const json_t *matches, const char *family)
{
  const json_t *m;
  size_t i;
  json_array_foreach(matches, i, m)
    if (family && !strcmp(json_string_value(json_object_get(m, "family")) ?: "", family))
      return m;
  return NULL;
}

/* ------------------------------------------------------------------------ the record */

void pindex_record(const struct pindex *ix, const struct pindex_round *pr, int level,
                   const char *applied, const char *direction, json_t *esc1, json_t *evidence)
{
  json_t *names = json_array(), *brief = json_array(), *l1, *m;
  const char *settled = level == 1 && pr->settled_by[0] ? pr->settled_by : NULL;
  size_t i;

  json_array_foreach(pr->matches, i, m) {
    json_array_append(names, json_object_get(m, "name"));
    json_array_append_new(brief, json_pack("{s:O, s:O, s:O, s:O, s:O, s:O}", "name",
                                           json_object_get(m, "name"), "family",
                                           json_object_get(m, "family"), "support",
                                           json_object_get(m, "support"), "tried",
                                           json_object_get(m, "tried"), "accepted",
                                           json_object_get(m, "accepted"), "rate",
                                           json_object_get(m, "rate")));
  }
  if (json_is_object(esc1))
    json_object_set_new(esc1, "patterns",
                        json_pack("{s:i, s:o, s:s?, s:i, s:s?}", "version", ix->version,
                                  "matched", brief, "settled_by", settled, "min_support",
                                  (int)ix->min_support, "excluded_operator",
                                  ix->exclude_op[0] ? ix->exclude_op : NULL));
  else
    json_decref(brief);
  l1 = pr->features ? json_deep_copy(pr->features) : json_object();
  json_object_set_new(l1, "pattern_index", json_integer(ix->version));
  json_object_set_new(l1, "matched", names);
  json_object_set_new(l1, "settled_by", settled ? json_string(settled) : json_null());
  json_object_set_new(l1, "applied", applied ? json_string(applied) : json_null());
  json_object_set_new(l1, "direction", json_string(direction ? direction : ""));
  if (json_is_object(evidence))
    json_object_set_new(evidence, "l1", l1);
  else
    json_decref(l1);
}

void pindex_round_clear(struct pindex_round *pr)
{
  json_decref(pr->features);
  json_decref(pr->matches);
  memset(pr, 0, sizeof(*pr));
}
