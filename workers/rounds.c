#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "db.h"
#include "diff.h"
#include "evidence.h"
#include "hash.h"
#include "ladder.h"
#include "ladder_structural.h"
#include "log.h"
#include "pindex.h"
#include "proposal.h"
#include "rounds.h"
#include "proposer.h"
#include "round_commit.h"
#include "round_decide.h"
#include "rules.h"
#include "search.h"
#include "secret.h"
#include "utf8.h"

/* Families spent at once: more than the ladder names (25, the structural ones among them,
 * every one of which the last resort may add), so a spent family is always remembered. */
#define ROUNDS_MAX_SKIP 32
/* The last resort's stages: the launch parameters, then the rewrites that fit (rounds_fallback). */
#define ROUNDS_FALLBACK_STAGES 2

/* The loop's state: the incumbent (best validated kernel so far) and what was tried. */
struct rounds_state {
  struct job_ctx *j;
  enum ladder_policy policy;
  const struct proposer *proposer;
  char *src;                    /* owned: incumbent source */
  json_t *tunables;             /* owned: incumbent constructor tunables */
  char sha[KOPT_SHA256_HEX_SIZE]; /* incumbent kernel sha256 */
  int best_round;
  double speedup;               /* cumulative, product of accepted ABBA speedups */
  json_t *tried;                /* owned: signatures of what earlier rounds proposed */
  char exhausted[ROUNDS_MAX_SKIP][32];
  unsigned nexhausted;
  json_t *history;              /* owned: [{round, family, hypothesis, outcome}] */
  struct pindex ix;             /* the pattern index version the job pinned */
  struct pindex_round pr;       /* what this round's L1 made of it */
  json_t *knobs;                /* owned: the harness's knobs result for the incumbent */
  struct search search;         /* measured configurations, the incumbent's structure */
  unsigned max_candidates;
  int levels_seen[LADDER_LEVELS + 1]; /* count of rounds reaching each level */
  struct evidence ev;
  char profile_structure[SEARCH_STRUCTURE_LEN + 1]; /* structure the cached profile is of */
  double profile_speedup;       /* the job's speedup when it was taken (search_profile_current) */
  char stop_reason[600];
  int last_round;               /* last round committed (0: none) */
};

static void rounds_exhaust(struct rounds_state *s, const char *family)
{
  for (unsigned i = 0; i < s->nexhausted; i++)
    if (!strcmp(s->exhausted[i], family))
      return;
  if (s->nexhausted < ROUNDS_MAX_SKIP)
    snprintf(s->exhausted[s->nexhausted++], 32, "%s", family);
}

static void rounds_skip_list(const struct rounds_state *s, const char **skip)
{
  unsigned i;
  for (i = 0; i < s->nexhausted; i++)
    skip[i] = s->exhausted[i];
  skip[i] = NULL;
}

/* Rebuilds the search memory from a committed round (columns 11-15 of the resume query):
 * the structure the round searched, the incumbent's knob values it started from, its sweep,
 * the structure the incumbent had after it and the candidate it chose (an accepted
 * structural one's siblings: search_adopt_siblings). A job taken over never measures a
 * configuration twice either. */
static void rounds_resume_search(struct rounds_state *s, PGresult *r, int i, int round)
{
  json_error_t je;
  json_t *base = PQgetisnull(r, i, 12) ? NULL : json_loads(PQgetvalue(r, i, 12), 0, &je);
  json_t *sweep = PQgetisnull(r, i, 13) ? NULL : json_loads(PQgetvalue(r, i, 13), 0, &je);
  if (!PQgetisnull(r, i, 11) && json_is_object(base) && json_is_object(sweep)) {
    json_t *knobs = json_pack("{s:[]}", "knobs"), *v;
    const char *k;
    json_object_foreach(base, k, v)
      json_array_append_new(json_object_get(knobs, "knobs"), json_pack("{s:s, s:O}", "id", k, "value", v));
    snprintf(s->search.structure, sizeof(s->search.structure), "%s", PQgetvalue(r, i, 11));
    search_remember(&s->search, knobs, sweep, round);
    json_decref(knobs);
  }
  if (!PQgetisnull(r, i, 14))
    snprintf(s->search.structure, sizeof(s->search.structure), "%s", PQgetvalue(r, i, 14));
  if (!strcmp(PQgetvalue(r, i, 1), "t") && json_is_object(sweep) && !PQgetisnull(r, i, 15))
    search_adopt_siblings(&s->search, sweep, PQgetvalue(r, i, 15), round);
  json_decref(base);
  json_decref(sweep);
}

/* Loads committed rounds (resume) and pins the pattern index. 0, -ENOENT (the spec names a
 * version that does not exist: fail_msg), -ESTALE, -EIO. */
static int rounds_resume(struct rounds_state *s, int *next_round)
{
  struct job_ctx *j = s->j;
  char err[512];
  const char *p[1] = { j->id };
  PGresult *r;

  *next_round = 1;
  if (job_db(j->w))
    return -EIO;
  r = db_exec(j->w->db, PGRES_TUPLES_OK, err, sizeof(err),
              "SELECT rd.round, rd.accepted, rd.kernel_sha256, k.source,"
              " rd.evidence->>'signature', rd.evidence->'tunables', rd.timing->'speedup',"
              " rd.rewrite_family, coalesce(rd.hypothesis, ''), coalesce(rd.reject_reason, ''),"
              " rd.level_reached, rd.evidence->>'structure', rd.evidence->'base_config',"
              " rd.evidence->'sweep', rd.evidence->>'structure_after', rd.evidence->>'chosen'"
              " FROM rounds rd LEFT JOIN kernels k ON k.sha256 = rd.kernel_sha256"
              " WHERE rd.job_id = $1::uuid ORDER BY rd.round",
              1, p);
  if (!r)
    return -EIO;
  for (int i = 0; i < PQntuples(r); i++) {
    int round = atoi(PQgetvalue(r, i, 0));
    int accepted = strcmp(PQgetvalue(r, i, 1), "t") == 0;
    json_error_t je;
    if (!PQgetisnull(r, i, 4))
      json_array_append_new(s->tried, json_string(PQgetvalue(r, i, 4)));
    if (accepted && !PQgetisnull(r, i, 3)) {
      free(s->src);
      s->src = strdup(PQgetvalue(r, i, 3));
      snprintf(s->sha, sizeof(s->sha), "%s", PQgetvalue(r, i, 2));
      json_decref(s->tunables);
      s->tunables = json_loads(PQgetvalue(r, i, 5), JSON_DECODE_ANY, &je);
      if (!json_is_object(s->tunables)) {
        json_decref(s->tunables);
        s->tunables = json_object();
      }
      s->speedup *= atof(PQgetvalue(r, i, 6));
      s->best_round = round;
    }
    rounds_resume_search(s, r, i, round);
    if (!PQgetisnull(r, i, 10)) {
      int lvl = atoi(PQgetvalue(r, i, 10));
      if (lvl >= 1 && lvl <= 4)
        s->levels_seen[lvl]++;
    }
    json_array_append_new(s->history,
                          json_pack("{s:i, s:i, s:s, s:s, s:s}", "round", round, "level",
                                    PQgetisnull(r, i, 10) ? 0 : atoi(PQgetvalue(r, i, 10)), "family",
                                    PQgetvalue(r, i, 7), "hypothesis", PQgetvalue(r, i, 8),
                                    "outcome", accepted ? "accepted" : PQgetvalue(r, i, 9)));
    *next_round = round + 1;
  }
  PQclear(r);
  /* The pattern index version (L1): pinned when the job first started, kept on takeover. */
  return pindex_pin(j, &s->ix);
}

static void rounds_progress(struct rounds_state *s, int round, int level, const char *step,
                            const char *last)
{
  char *txt;
  json_t *p = json_pack("{s:s, s:i, s:i, s:f, s:i}", "step", step, "round", round, "rounds",
                        s->j->rounds, "best_speedup", s->speedup, "best_round", s->best_round);
  const char *params[1];
  if (level > 0)
    json_object_set_new(p, "level", json_integer(level));
  if (last)
    json_object_set_new(p, "last_outcome", json_string(last));
  if (s->stop_reason[0])
    json_object_set_new(p, "stop_reason", json_string(s->stop_reason));
  txt = json_dumps(p, JSON_COMPACT);
  params[0] = txt;
  snprintf(s->j->w->step, sizeof(s->j->w->step), "%s", step);
  if (txt)
    job_update(s->j, "progress = $3::jsonb", 1, params);
  free(txt);
  json_decref(p);
}

/* The incumbent's knobs (the harness's `knobs` op, from the syntax tree and the recorded
 * launches), asked once per incumbent. On failure the round goes on without them (the rules
 * then have no knob to sweep, and say so). */
static void rounds_knobs(struct rounds_state *s)
{
  struct job_ctx *j = s->j;
  json_t *declared = json_object_get(j->spec, "tunables"), *req, *res = NULL;
  if (s->knobs)
    return;
  req = json_pack("{s:s, s:O, s:O?}", "op", "knobs", "tunables", s->tunables, "declared",
                  json_is_object(declared) ? declared : NULL);
  if (req && strcmp(s->src, j->ksrc) != 0)
    json_object_set_new(req, "source", json_string(s->src));
  if (req && job_op(j, "knobs", req, &res) == 0) {
    s->knobs = res;
    unsigned n = search_remember_siblings(&s->search, s->knobs);
    if (n)
      log_info("round.siblings", "job=%s remembered=%u", j->id, n);
  } else {
    log_warn("round.knobs_unavailable", "job=%s err=\"%.300s\"", j->id, j->fail_msg);
    j->fail_msg[0] = '\0';
  }
  json_decref(req);
}

/* The incumbent's launch settings by name ({"BLOCK": 128, "num_warps": 4}), from its knobs:
 * L1 reads them before anything is compiled. */
static json_t *rounds_source_launch(const struct rounds_state *s)
{
  json_t *out = json_object(), *k;
  size_t i;
  json_array_foreach(json_object_get(s->knobs, "knobs"), i, k) {
    const char *name = json_string_value(json_object_get(k, "name"));
    json_t *v = json_object_get(k, "value");
    if (name && json_is_integer(v))
      json_object_set(out, name, v);
  }
  return out;
}

/* Whether the incumbent is still the submitted kernel as submitted: the baseline's compile
 * and profile describe it. */
static int rounds_initial_incumbent(const struct rounds_state *s)
{
  return s->j->baseline && !strcmp(s->sha, s->j->ksha) && json_object_size(s->tunables) == 0;
}

/* Climbs the ladder for this round. Fills diags[1..level], returns the level reached, or
 * -EINTR. */
static int rounds_climb(struct rounds_state *s, int round, struct ladder_diag *diags,
                        struct ladder_tests *tests, json_t *escalation)
{
  const char *skip[ROUNDS_MAX_SKIP + 1];
  int maxl = ladder_max_level(s->policy), level = 1, rc;
  json_t *launch = NULL;
  const char *l2 = NULL;
  char why[256];

  rounds_skip_list(s, skip);
  rounds_knobs(s);
  /* L1 reads launch settings from the last compile when there is one, else the knobs. */
  launch = s->ev.compile ? evidence_launch(&s->ev) : rounds_source_launch(s);
  ladder_l1(s->src, launch, s->knobs, NULL, &diags[1]);
  ladder_structural(&diags[1], json_object_get(s->knobs, "structural"), NULL, NULL);
  /* The pattern index: matches settle L1 or put their families first. */
  pindex_round_clear(&s->pr);
  s->pr.features = pindex_features(&s->ix, s->src, launch, s->knobs, &s->ev);
  if (pindex_match(s->j, &s->ix, s->pr.features, &s->pr.matches))
    log_warn("round.patterns_unavailable", "job=%s round=%d", s->j->id, round);
  pindex_apply(&s->ix, s->pr.matches, skip, &diags[1], s->pr.settled_by, sizeof(s->pr.settled_by));
  for (;;) {
    ladder_tests(&diags[level], skip, &tests[level]);
    json_array_append_new(escalation, ladder_diag_json(&diags[level], &tests[level]));
    if (level >= maxl)
      break;
    if (tests[level].hotspot && tests[level].one_family && tests[level].sufficient &&
        s->policy != LADDER_ALWAYS_DEEP)
      break;
    level++;
    rounds_progress(s, round, level, "diagnose", NULL);
    if (level == 2) {
      /* One profile per kernel structure while knob changes leave the incumbent within
       * SEARCH_REPROFILE_GAIN of the profiled kernel (search_profile_current). The
       * baseline's profile is the initial kernel's. */
      if (rounds_initial_incumbent(s) && !s->ev.profile) {
        evidence_seed(&s->ev, s->j->baseline, EVIDENCE_SEED_PROFILE);
        snprintf(s->profile_structure, sizeof(s->profile_structure), "%s", s->search.structure);
        s->profile_speedup = s->speedup;
      }
      if (s->ev.profile &&
          search_profile_current(&s->search, s->profile_structure, s->profile_speedup, s->speedup)) {
        json_object_set_new(s->ev.profile, "reused", json_true());
      } else {
        double since = s->profile_speedup > 0 ? s->speedup / s->profile_speedup : 0;
        int same = s->ev.profile && strcmp(s->profile_structure, s->search.structure) == 0;
        json_decref(s->ev.profile);
        s->ev.profile = NULL;
        rc = evidence_profile(s->j, &s->ev, s->src, s->tunables);
        if (rc)
          goto out;
        if (same && since > 0) /* the same structure again: the incumbent got this much faster */
          json_object_set_new(s->ev.profile, "faster_since_last", json_real(since));
        snprintf(s->profile_structure, sizeof(s->profile_structure), "%s", s->search.structure);
        s->profile_speedup = s->speedup;
      }
      ladder_l2(s->ev.profile, &diags[2]);
      l2 = ladder_l2_class(s->ev.profile, why, sizeof(why));
      ladder_structural(&diags[2], json_object_get(s->knobs, "structural"), l2, NULL);
    } else if (level == 3) {
      if (rounds_initial_incumbent(s))
        evidence_seed(&s->ev, s->j->baseline, EVIDENCE_SEED_COMPILE);
      rc = evidence_ir(s->j, &s->ev, s->src, s->tunables, round);
      if (rc)
        goto out;
      json_decref(launch);
      launch = evidence_launch(&s->ev);
      ladder_l3(s->ev.ir, l2, launch, &diags[3]);
      ladder_short_rows(&diags[3], s->knobs);
      ladder_structural(&diags[3], json_object_get(s->knobs, "structural"), l2, s->ev.ir);
    } else {
      rc = evidence_passes(s->j, &s->ev, s->src, s->tunables);
      if (rc)
        goto out;
      ladder_l4(s->ev.passes, s->ev.ir, &diags[4]);
    }
  }
  rc = level;
out:
  json_decref(launch);
  return rc;
}

/* The family for this round: from the deepest level that justifies any (not exhausted). */
static int rounds_choose(struct rounds_state *s, struct ladder_diag *diags, int level,
                         int *from_level)
{
  const char *skip[ROUNDS_MAX_SKIP + 1];
  rounds_skip_list(s, skip);
  /* A structural family the evidence justified at some level goes first: it is what no
   * sweep of launch parameters can find (measured on the H200: softmax, layernorm and a
   * column sum spent their first rounds on num_stages from L4 before the row or tile
   * rewrite that L3 had already justified). Then the deepest level's first family. */
  for (int l = level; l >= 1; l--) {
    if (!diags[l].available)
      continue;
    for (unsigned i = 0; i < diags[l].nfamilies; i++) {
      int skipped = 0;
      for (unsigned k = 0; skip[k]; k++)
        skipped |= !strcmp(skip[k], diags[l].family[i]);
      /* only where that level's evidence suffices for it (L1 names a fitting rewrite but
       * needs the IR to justify it) */
      if (!skipped && ladder_structural_ready(diags[l].family[i], s->history) &&
          diags[l].needs_level[i] <= l) {
        *from_level = l;
        return (int)i;
      }
    }
  }
  for (int l = level; l >= 1; l--) {
    int idx;
    if (diags[l].available && ladder_pick(&diags[l], skip, &idx)) {
      *from_level = l;
      return idx;
    }
  }
  return -1;
}

/* Evidence words for the hypothesis: the deepest level's account. */
static void rounds_words(const struct ladder_diag *d, char *out, size_t outlen)
{
  snprintf(out, outlen, "%s%s%s", d->hotspot[0] ? d->hotspot : "",
           d->hotspot[0] ? ": " : "", d->why);
}

/* Asks the job's proposer for this round's candidates. 0, -ENOENT (nothing for this family:
 * why set), -EPROTO (the proposer failed or broke the contract: why set; the round is
 * recorded as rejected), -EINTR. */
static int rounds_propose(struct rounds_state *s, struct ladder_diag *diags, int level,
                          int from_level, int idx, int round, struct proposer_output *out,
                          char *why, size_t whylen)
{
  struct ladder_diag *d = &diags[from_level];
  struct proposer_input in;
  char words[800];

  /* The hypothesis cites the level that justified the family (and says how deep it looked). */
  rounds_words(d, words, sizeof(words));
  if (from_level < level) {
    size_t n = strlen(words);
    snprintf(words + n, sizeof(words) - n, " (L%d added nothing that changes this.)", level);
  }
  memset(&in, 0, sizeof(in));
  in.j = s->j;
  in.family = d->family[idx];
  in.direction = d->direction[idx];
  in.level = level;
  in.from_level = from_level;
  in.round = round;
  in.diagnosis = words;
  in.source = s->src;
  in.tunables = s->tunables;
  in.knobs = s->knobs;
  in.structure = s->search.structure;
  in.memory = s->search.memory;
  in.tried = s->tried;
  in.history = s->history;
  in.patterns = s->pr.matches;
  {
    const json_t *m = pindex_for_family(s->pr.matches, d->family[idx]);
    in.prefer = json_object_get(json_object_get(m, "action"), "prefer");
    in.pattern = json_string_value(json_object_get(m, "name"));
  }
  in.ev = &s->ev;
  in.max_candidates = s->max_candidates;
  return s->proposer->propose(&in, out, why, whylen);
}

/* round_decide's progress: a step of this round at this level. */
struct rounds_step_arg {
  struct rounds_state *s;
  int round, level;
};

static void rounds_step(void *arg, const char *step)
{
  struct rounds_step_arg *a = arg;
  rounds_progress(a->s, a->round, a->level, step, NULL);
}

static int rounds_cancelled(struct job_ctx *j)
{
  char err[256];
  const char *p[1] = { j->id };
  PGresult *r;
  int c = 0;
  if (job_db(j->w))
    return 0;
  r = db_exec(j->w->db, PGRES_TUPLES_OK, err, sizeof(err),
              "SELECT cancel_requested FROM jobs WHERE id = $1::uuid", 1, p);
  if (r && PQntuples(r) == 1)
    c = strcmp(PQgetvalue(r, 0, 0), "t") == 0;
  PQclear(r);
  return c;
}

static json_t *rounds_best(struct rounds_state *s, double base_ms)
{
  int lv = 0;
  for (int l = 1; l <= 4; l++)
    if (s->levels_seen[l])
      lv = l;
  return json_pack("{s:i, s:s, s:O, s:f, s:f, s:i, s:[iiii], s:s?, s:i}", "round", s->best_round,
                   "kernel_sha256", s->sha, "tunables", s->tunables, "speedup", s->speedup,
                   "median_ms", base_ms > 0 ? base_ms / s->speedup : -1.0, "max_level", lv,
                   "levels", s->levels_seen[1], s->levels_seen[2], s->levels_seen[3],
                   s->levels_seen[4], "stop_reason", s->stop_reason[0] ? s->stop_reason : NULL,
                   "pattern_index", s->ix.version);
}

/* The round record (new reference). */
static json_t *rounds_record(struct rounds_state *s, int level, json_t *esc, struct ladder_diag *diags,
                             const struct proposer_output *po, const char *words,
                             const json_t *sweep, const json_t *chosen, const json_t *cand_tun,
                             const char *cand_sha, const char *diff, json_t *val, json_t *cmp,
                             int accepted, const char *reject)
{
  json_t *base = s->knobs ? search_knob_values(s->knobs) : NULL;
  json_t *rec = json_pack(
      "{s:i, s:o, s:{s:s?, s:s, s:O?, s:O?, s:o?, s:s?, s:s, s:o?}, s:s?, s:s?, s:s, s:s, s:s?, s:s?,"
      " s:O?, s:O?, s:b, s:s?}",
      "level_reached", level, "escalation", esc, "evidence", "signature",
      po->signature[0] ? po->signature : NULL, "diagnosis", words, "tunables", cand_tun,
      "l2_class", s->ev.profile ? json_object_get(s->ev.profile, "bound") : NULL, "sweep",
      sweep ? search_record(sweep) : NULL, "chosen",
      chosen ? json_string_value(json_object_get(chosen, "id")) : NULL, "structure",
      s->search.structure, "base_config", base, "hotspot",
      diags[level].hotspot[0] ? diags[level].hotspot : NULL, "hypothesis", po->hypothesis,
      "rewrite_family", po->family, "proposer", s->proposer->name, "kernel_sha256",
      cand_sha[0] ? cand_sha : NULL, "diff", diff, "correctness", val, "timing", cmp, "accepted",
      accepted, "reject_reason", accepted ? NULL : reject);
  if (rec && accepted && chosen && /* a structural round won by the kernel as written */
      !strcmp(json_string_value(json_object_get(chosen, "origin")) ?: "", RULES_ORIGIN_AS_WRITTEN))
    json_object_set_new(json_object_get(rec, "evidence"), "credited_family",
                        json_string(RULES_FILL_FAMILY));
  if (rec) { /* which evidence the baseline's results stood in for (evidence_seed) */
    json_t *reused = json_array();
    if (json_is_string(json_object_get(s->ev.profile, "seeded_from")))
      json_array_append_new(reused, json_string("profile"));
    if (json_is_string(json_object_get(s->ev.compile, "seeded_from")))
      json_array_append_new(reused, json_string("compile"));
    json_object_set_new(json_object_get(rec, "evidence"), "from_baseline", reused);
  }
  if (rec && (po->prompt_tokens >= 0 || po->completion_tokens >= 0 || po->attempts > 0) &&
      strcmp(s->proposer->name, "rules"))
    json_object_set_new(rec, "tokens", json_pack("{s:I, s:I, s:i}", "prompt", (json_int_t)po->prompt_tokens,
                                                 "completion", (json_int_t)po->completion_tokens,
                                                 "attempts", po->attempts));
  return rec;
}

/* The accepted candidate becomes the incumbent. A structural rewrite or a model's module
 * starts a new structure (other knobs, a profile of its own); knob changes keep the
 * structure, and the profile while search_profile_current says it still stands. */
static void rounds_promote(struct rounds_state *s, int round, const json_t *chosen,
                           const char *src, const json_t *tun, const char *sha, double sp)
{
  int restructured = (json_object_get(chosen, "structural") &&
                      !json_is_null(json_object_get(chosen, "structural"))) ||
                     !strcmp(json_string_value(json_object_get(chosen, "origin")) ?: "", "model");
  json_t *prof = s->ev.profile;
  s->speedup *= sp > 0 ? sp : 1.0;
  s->best_round = round;
  /* "Nothing left" meant nothing near the old incumbent: around the new one, or on a new
   * structure, a family may have points again (what was measured is still never measured
   * twice: the search memory and the tried signatures keep it out). */
  s->nexhausted = 0;
  free(s->src);
  s->src = strdup(src);
  memcpy(s->sha, sha, sizeof(s->sha));
  json_decref(s->tunables);
  s->tunables = json_deep_copy(tun);
  json_decref(s->knobs);
  s->knobs = NULL;
  s->ev.profile = NULL;
  evidence_clear(&s->ev); /* the IR described the old incumbent */
  s->ev.tile_hint = evidence_tile_hint(chosen);
  if (restructured) {
    search_new_structure(&s->search, sha);
    json_decref(prof);
  } else {
    s->ev.profile = prof;
  }
}

/* Whether a round whose justified families are all spent should climb again: some family
 * was exhausted since the last climb (so the next one sees a different skip list) and the
 * climb stopped below the policy's deepest level. */
static int rounds_reclimb(const struct rounds_state *s, int level, unsigned exhausted_at_climb)
{
  return s->nexhausted > exhausted_at_climb && level < ladder_max_level(s->policy);
}

/* The last resort of a round under `hierarchy` whose climb reached L4 and whose justified
 * families are all spent: the launch parameters the evidence did not name are swept rather
 * than the job ending with rounds unused (on the H200, 22 of 27 jobs stopped before round 5
 * with "no rewrite family left", and a blind sweep of launch parameters is what the ladder
 * must never do worse than); once those are spent too, the structural rewrites the survey
 * says fit and no round has tried (on an H100 gemv, row_sum and softmax stopped after round
 * 4 with rows_per_program fitting, untried). *stage says which comes next (0: launch
 * parameters, 1: rewrites) and advances past each one taken. The families go on the deepest
 * level's diagnosis, which says so, and its escalation entry is rewritten to show them. 1
 * when a family was added. */
static int rounds_fallback(const struct rounds_state *s, struct ladder_diag *d,
                           struct ladder_tests *t, json_t *esc, int *stage)
{
  const char *skip[ROUNDS_MAX_SKIP + 1];
  size_t last = json_array_size(esc);
  unsigned added = 0;

  if (s->policy != LADDER_HIERARCHY || d->level != ladder_max_level(s->policy) || !last)
    return 0;
  rounds_skip_list(s, skip);
  while (!added && *stage < ROUNDS_FALLBACK_STAGES)
    added = (*stage)++ == 0 ? ladder_fallback(d, skip)
                            : ladder_structural_fallback(d, json_object_get(s->knobs, "structural"), skip);
  if (!added)
    return 0;
  ladder_tests(d, skip, t);
  json_array_set_new(esc, last - 1, ladder_diag_json(d, t));
  return 1;
}

/* Records why the round has nothing to try and logs its escalation. */
static void rounds_nothing_left(struct rounds_state *s, int round, int level, int fallback,
                                const char *why, const json_t *esc)
{
  char *e;
  snprintf(s->stop_reason, sizeof(s->stop_reason),
           "round %d: no rewrite family left that the evidence (levels 1-%d) justifies%s%s%s%.300s",
           round, level, fallback ? ", nor a launch parameter left to sweep" : "",
           fallback > 1 ? ", nor a fitting rewrite left to try" : "", why[0] ? "; last: " : "", why);
  utf8_scrub(s->stop_reason); /* "%.300s" may cut a character of the proposer's text */
  e = json_dumps(esc, JSON_COMPACT);
  log_info("round.nothing_left", "job=%s round=%d escalation=%.1500s", s->j->id, round, e ? e : "?");
  free(e);
}

/* The round's family and its candidates: the first justified family the proposer can act on,
 * climbing again or taking the last resort when every one is spent. 0 (po filled), 1 (nothing
 * left: s->stop_reason set), -EPROTO with *idx >= 0 (the proposer failed: why set, po.family
 * not), or the climb's or the proposer's other negative code (*idx < 0 when the climb's).
 * *level may deepen. */
static int rounds_pick(struct rounds_state *s, int round, struct ladder_diag *diags,
                       struct ladder_tests *tests, json_t *esc, int *level, int *from, int *idx,
                       struct proposer_output *po, char *why, size_t whylen)
{
  unsigned exhausted_at_climb = s->nexhausted;
  int fallback = 0, rc;

  for (;;) {
    *idx = rounds_choose(s, diags, *level, from);
    if (*idx < 0 && rounds_reclimb(s, *level, exhausted_at_climb)) {
      /* What stopped the climb (a pattern that settled L1, a level's one family) is spent:
       * climb again without it, so deeper evidence can justify another family. Measured on
       * the H200: a mined pattern settled bias_gelu's rounds at L1 on a persistent grid that
       * gained nothing, and the job ended at round 2 with block_size never tried. */
      s->levels_seen[*level]--;
      json_array_clear(esc);
      memset(diags, 0, sizeof(*diags) * (LADDER_LEVELS + 1));
      exhausted_at_climb = s->nexhausted;
      if ((*level = rounds_climb(s, round, diags, tests, esc)) < 0)
        return *level; /* *idx < 0 here */
      s->levels_seen[*level]++;
      continue;
    }
    if (*idx < 0 && rounds_fallback(s, &diags[*level], &tests[*level], esc, &fallback))
      continue;
    if (*idx < 0) {
      rounds_nothing_left(s, round, *level, fallback, why, esc);
      s->levels_seen[*level]--;
      return 1;
    }
    rounds_progress(s, round, *level, "propose", NULL);
    rc = rounds_propose(s, diags, *level, *from, *idx, round, po, why, whylen);
    if (rc != -ENOENT)
      return rc;
    /* The proposer has nothing for this family: the next justified family, if any. */
    rounds_exhaust(s, diags[*from].family[*idx]);
    proposer_output_free(po);
  }
}

/* One round, start to commit. Returns 1 to continue, 0 to stop (s->stop_reason says why),
 * -EINTR stopping, -ESTALE lease lost, -EIO. */
static int rounds_one(struct rounds_state *s, int round, double base_ms)
{
  struct job_ctx *j = s->j;
  struct ladder_diag diags[LADDER_LEVELS + 1];
  struct ladder_tests tests[LADDER_LEVELS + 1];
  struct proposer_output po;
  json_t *esc = json_array(), *rec = NULL, *val = NULL, *cmp = NULL, *req = NULL, *best = NULL;
  json_t *sweep = NULL, *cand_tun = NULL;
  const json_t *chosen = NULL;
  const char *cand_src = NULL;
  char *diff = NULL, *besttxt = NULL, why[1200] = "", words[800];
  char cand_sha[KOPT_SHA256_HEX_SIZE] = "", reject[1400] = "";
  int level, from = 0, idx = -1, rc, accepted = 0, committed;
  struct timespec t0, t1;

  proposer_output_init(&po);
  memset(diags, 0, sizeof(diags));
  j->round = round;
  rounds_progress(s, round, 1, "diagnose", NULL);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  level = rounds_climb(s, round, diags, tests, esc);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  if (level < 0) {
    rc = level;
    goto out;
  }
  s->levels_seen[level]++;
  rc = rounds_pick(s, round, diags, tests, esc, &level, &from, &idx, &po, why, sizeof(why));
  if (rc == 1) {
    rc = 0; /* nothing left: s->stop_reason says why */
    goto out;
  }
  if (rc < 0 && (rc != -EPROTO || idx < 0))
    goto out;
  rounds_words(&diags[from], words, sizeof(words));
  if (rc == -EPROTO) {
    snprintf(reject, sizeof(reject), "%s", why);
    snprintf(po.family, sizeof(po.family), "%s", diags[from].family[idx]);
  } else {
    /* The family's candidates, screened and timed in one sweep; the best few checked on every
     * case and decided against the incumbent (ABBA). */
    rounds_progress(s, round, level, "sweep", NULL);
    json_t *declared = json_object_get(j->spec, "tunables");
    req = json_pack("{s:s, s:s, s:O, s:O, s:O?}", "op", "sweep", "base_source", s->src,
                    "base_tunables", s->tunables, "candidates", po.candidates, "declared",
                    json_is_object(declared) ? declared : NULL);
    rc = job_op(j, "sweep", req, &sweep);
    if (rc == -EINTR)
      goto out;
    if (rc) {
      snprintf(reject, sizeof(reject), "the sweep failed: %s", j->fail_msg);
      j->fail_msg[0] = '\0';
      search_remember_failed(&s->search, s->knobs, po.candidates, round, reject);
    } else {
      search_remember(&s->search, s->knobs, sweep, round);
      struct rounds_step_arg step = { s, round, level };
      struct round_decide_ctx dc = { .j = j, .inc_src = s->src, .inc_tunables = s->tunables,
                                     .search = &s->search, .knobs = s->knobs,
                                     .progress = rounds_step, .arg = &step };
      rc = round_decide(&dc, sweep, &chosen, &val, &cmp, &accepted, reject, sizeof(reject));
      if (rc == -EINTR)
        goto out;
    }
  }
  if (chosen) {
    const json_t *t = json_object_get(chosen, "tunables");
    cand_src = json_string_value(json_object_get(chosen, "source"));
    cand_tun = json_is_object(t) ? json_incref((json_t *)t) : json_deep_copy(s->tunables);
  } else if (json_is_string(json_object_get(json_array_get(po.candidates, 0), "source"))) {
    /* Nothing was decided on, but a model wrote a module: it is the round's kernel. */
    const json_t *c0 = json_array_get(po.candidates, 0), *t = json_object_get(c0, "tunables");
    cand_src = json_string_value(json_object_get(c0, "source"));
    cand_tun = json_is_object(t) ? json_incref((json_t *)t) : json_deep_copy(s->tunables);
  }
  if (cand_src) {
    hash_sha256_hex(cand_src, strlen(cand_src), cand_sha);
    diff = diff_render(s->src, cand_src, s->tunables, cand_tun);
  }
  /* Reasons and hypotheses quote proposers and the harness, cut to fit: one byte that is not
   * UTF-8 would make json_pack fail and the round go unrecorded. */
  utf8_scrub(reject);
  utf8_scrub(words);
  if (po.hypothesis)
    utf8_scrub(po.hypothesis);
  rec = rounds_record(s, level, esc, diags, &po, words, sweep, chosen, cand_tun, cand_sha, diff,
                      val, cmp, accepted, reject);
  esc = NULL; /* rec owns it */
  {
    /* The pattern record (L1 features, matches, what settled or guided the round) and the
     * seconds the climb took: what synthesis reads back. */
    const char *fam = idx >= 0 ? diags[from].family[idx] : NULL;
    const json_t *m = pindex_for_family(s->pr.matches, fam);
    json_t *ev = json_object_get(rec, "evidence");
    pindex_record(&s->ix, &s->pr, level, json_string_value(json_object_get(m, "name")),
                  idx >= 0 ? diags[from].direction[idx] : "",
                  json_array_get(json_object_get(rec, "escalation"), 0), ev);
    json_object_set_new(ev, "seconds", json_pack("{s:f}", "diagnose",
                                                 (double)(t1.tv_sec - t0.tv_sec) +
                                                     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9));
  }
  if (accepted) {
    rounds_promote(s, round, chosen, cand_src, cand_tun, cand_sha,
                   json_number_value(json_object_get(cmp, "speedup")));
    search_adopt_siblings(&s->search, sweep, json_string_value(json_object_get(chosen, "id")), round);
    json_object_set_new(json_object_get(rec, "evidence"), "structure_after",
                        json_string(s->search.structure));
    best = rounds_best(s, base_ms);
    besttxt = json_dumps(best, JSON_COMPACT);
  }
  committed = round_commit(s->j, round, rec, cand_src, cand_src ? cand_sha : NULL, accepted, besttxt);
  if (committed != 1) {
    rc = committed == 0 ? -ESTALE : -EIO;
    goto out;
  }
  if (po.signature[0])
    json_array_append_new(s->tried, json_string(po.signature));
  json_array_append_new(s->history,
                        json_pack("{s:i, s:i, s:s, s:s?, s:s}", "round", round, "level", level,
                                  "family", po.family, "hypothesis", po.hypothesis, "outcome",
                                  accepted ? "accepted" : reject));
  log_info("round.committed", "job=%s round=%d level=%d family=%s candidates=%zu accepted=%d speedup=%.4f",
           j->id, round, level, po.family, json_array_size(po.candidates), accepted, s->speedup);
  rounds_progress(s, round, level, "round", accepted ? "accepted" : reject);
  rc = 1;
out:
  proposer_output_free(&po);
  json_decref(esc);
  json_decref(rec);
  json_decref(val);
  json_decref(cmp);
  json_decref(req);
  json_decref(sweep);
  json_decref(cand_tun);
  json_decref(best);
  free(besttxt);
  free(diff);
  return rc;
}

const char *rounds_run(struct job_ctx *j)
{
  struct rounds_state s;
  const char *outcome = KOPT_OUTCOME_FAILED;
  json_t *best = NULL;
  char *besttxt = NULL;
  double base_ms = job_baseline_ms(j->baseline);
  int next = 1, rc = 0;

  memset(&s, 0, sizeof(s));
  s.j = j;
  s.src = strdup(j->ksrc);
  s.tunables = json_object();
  snprintf(s.sha, sizeof(s.sha), "%s", j->ksha);
  s.speedup = 1.0;
  s.tried = json_array();
  s.history = json_array();
  s.proposer = proposer_find(json_string_value(json_object_get(j->spec, "proposer")));
  if (!s.proposer)
    s.proposer = &proposer_rules;
  s.max_candidates = (unsigned)json_integer_value(json_object_get(j->spec, "max_candidates"));
  if (s.max_candidates < 1 || s.max_candidates > SPEC_MAX_CANDIDATES)
    s.max_candidates = SPEC_DEFAULT_CANDIDATES;
  search_init(&s.search, j->ksha);
  if (ladder_policy_parse(json_string_value(json_object_get(j->spec, "policy")), &s.policy))
    s.policy = LADDER_HIERARCHY;
  evidence_init(&s.ev);
  rc = rounds_resume(&s, &next);
  if (rc == -ENOENT) { /* a pattern_index version that does not exist: the job's fault */
    rc = job_finish(j, KOPT_STATE_FAILED, j->fail_msg, NULL);
    outcome = rc == 1 ? KOPT_OUTCOME_FAILED : KOPT_OUTCOME_LOST;
    goto out;
  }
  if (rc) {
    outcome = rc == -ESTALE ? KOPT_OUTCOME_LOST : KOPT_OUTCOME_ABORTED;
    goto out;
  }
  s.last_round = next - 1;
  if (next > 1)
    log_info("job.resumed", "job=%s from_round=%d best_round=%d", j->id, next, s.best_round);
  for (int r = next; r <= j->rounds; r++) {
    if (j->w->stop) {
      outcome = KOPT_OUTCOME_ABORTED;
      goto out;
    }
    if (rounds_cancelled(j)) {
      best = rounds_best(&s, base_ms);
      besttxt = json_dumps(best, JSON_COMPACT);
      job_finish(j, KOPT_STATE_CANCELLED, "cancelled by request", besttxt);
      outcome = KOPT_OUTCOME_CANCELLED;
      goto out;
    }
    rc = rounds_one(&s, r, base_ms);
    if (rc == 1)
      s.last_round = r;
    if (rc == -EINTR) {
      outcome = KOPT_OUTCOME_ABORTED;
      goto out;
    }
    if (rc == -ESTALE) {
      outcome = KOPT_OUTCOME_LOST;
      goto out;
    }
    if (rc < 0) {
      outcome = KOPT_OUTCOME_ABORTED;
      goto out;
    }
    if (rc == 0)
      break;
  }
  if (!s.stop_reason[0] && j->rounds > 0)
    snprintf(s.stop_reason, sizeof(s.stop_reason), "round budget of %d used", j->rounds);
  rounds_progress(&s, s.last_round, 0, "done", NULL);
  best = rounds_best(&s, base_ms);
  besttxt = json_dumps(best, JSON_COMPACT);
  rc = job_finish(j, KOPT_STATE_SUCCEEDED, NULL, besttxt);
  outcome = rc == 1 ? KOPT_OUTCOME_SUCCEEDED : KOPT_OUTCOME_LOST;
out:
  evidence_clear(&s.ev);
  free(s.src);
  free(besttxt);
  json_decref(best);
  json_decref(s.tunables);
  json_decref(s.tried);
  json_decref(s.history);
  pindex_round_clear(&s.pr);
  json_decref(s.knobs);
  search_free(&s.search);
  return outcome;
}
