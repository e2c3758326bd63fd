#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "buf.h"
#include "db.h"
#include "diff.h"
#include "evidence.h"
#include "hash.h"
#include "ladder.h"
#include "llm.h"
#include "log.h"
#include "prompt.h"
#include "proposal.h"
#include "rounds.h"
#include "rules.h"
#include "utf8.h"

#define ROUNDS_MAX_SKIP 16

/* The loop's state: the incumbent (best validated kernel so far) and what was tried. */
struct rounds_state {
  struct job_ctx *j;
  enum ladder_policy policy;
  const char *proposer;         /* borrowed from spec */
  char *src;                    /* owned: incumbent source */
  json_t *tunables;             /* owned: incumbent constructor tunables */
  char sha[65];                 /* incumbent kernel sha256 */
  int best_round;
  double speedup;               /* cumulative, product of accepted ABBA speedups */
  json_t *tried;                /* owned: change signatures tried */
  char exhausted[ROUNDS_MAX_SKIP][32];
  unsigned nexhausted;
  json_t *history;              /* owned: [{round, family, hypothesis, outcome}] */
  json_t *patterns;             /* owned: pattern index entries for L1 */
  int levels_seen[5];           /* count of rounds reaching each level */
  struct evidence ev;
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

/* Loads committed rounds (resume) and the pattern index. 0, -ESTALE, -EIO. */
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
              " rd.level_reached"
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
  /* The pattern index (L1): the chosen version's entries, minus this operator's own when the
   * job asks to exclude them. */
  {
    json_t *pv = json_object_get(j->spec, "pattern_index");
    json_t *op = json_object_get(j->spec, "operator");
    char ver[24] = "";
    const char *q[3] = { NULL, json_is_string(op) ? json_string_value(op) : NULL,
                         json_is_true(json_object_get(j->spec, "exclude_same_operator")) ? "t"
                                                                                         : "f" };
    if (json_is_integer(pv)) {
      snprintf(ver, sizeof(ver), "%lld", (long long)json_integer_value(pv));
      q[0] = ver;
    }
    r = db_exec(j->w->db, PGRES_TUPLES_OK, err, sizeof(err),
                "SELECT coalesce(json_agg(json_build_object('symptom', symptom,"
                " 'rewrite_family', rewrite_family, 'direction', outcome->>'direction',"
                " 'successes', coalesce((outcome->>'successes')::int, 0),"
                " 'trials', coalesce((outcome->>'trials')::int, 0))), '[]')::text"
                " FROM patterns WHERE version = coalesce($1::int,"
                "  (SELECT max(version) FROM pattern_index_versions))"
                " AND NOT ($3::bool AND $2::text IS NOT NULL"
                "          AND provenance->'operators' ? $2::text)",
                3, q);
    if (r) {
      json_error_t je;
      json_decref(s->patterns);
      s->patterns = json_loads(PQgetvalue(r, 0, 0), 0, &je);
      PQclear(r);
    }
  }
  return 0;
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

/* The incumbent's launch settings read from its source (constructor defaults, launch
 * literals) and tunables, for L1 before anything is compiled. */
static json_t *rounds_source_launch(const struct rounds_state *s)
{
  struct rules_knobs ks;
  json_t *declared = json_object_get(s->j->spec, "tunables"), *out = json_object();
  rules_discover(s->src, json_is_object(declared) ? declared : NULL, s->tunables, &ks);
  for (unsigned i = 0; i < ks.n; i++)
    if (ks.k[i].value >= 0)
      json_object_set_new(out, ks.k[i].name, json_integer(ks.k[i].value));
  return out;
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
  /* L1 reads launch settings from the last compile when there is one, else the source. */
  launch = s->ev.compile ? evidence_launch(&s->ev) : rounds_source_launch(s);
  ladder_l1(s->src, launch, s->patterns, &diags[1]);
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
      rc = evidence_profile(s->j, &s->ev, s->src, s->tunables);
      if (rc)
        goto out;
      ladder_l2(s->ev.profile, &diags[2]);
      l2 = ladder_l2_class(s->ev.profile, why, sizeof(why));
    } else if (level == 3) {
      rc = evidence_ir(s->j, &s->ev, s->src, s->tunables, round);
      if (rc)
        goto out;
      json_decref(launch);
      launch = evidence_launch(&s->ev);
      ladder_l3(s->ev.ir, l2, launch, &diags[3]);
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

/* Asks the configured proposer for one proposal. 0, -ENOENT (nothing: why set), -EPROTO
 * (the proposer failed or broke the contract: why set; the round is recorded as rejected),
 * -EINTR. */
static int rounds_propose(struct rounds_state *s, struct ladder_diag *diags, int level,
                          int from_level, int idx, struct proposal *p, char **sig, char *why,
                          size_t whylen)
{
  struct ladder_diag *d = &diags[from_level];
  char words[800];
  int rc;

  /* The hypothesis cites the level that justified the family (and says how deep it looked). */
  rounds_words(&diags[from_level], words, sizeof(words));
  if (from_level < level) {
    size_t n = strlen(words);
    snprintf(words + n, sizeof(words) - n, " (L%d added nothing that changes this.)", level);
  }
  if (!strcmp(s->proposer, "rules")) {
    json_t *declared = json_object_get(s->j->spec, "tunables");
    return rules_propose(d->family[idx], d->direction[idx], s->src,
                         json_is_object(declared) ? declared : NULL, s->tunables, s->tried,
                         words, from_level, p, sig, why, whylen);
  }
  {
    /* llm / agent: the prompt carries the contract, the kernel, the evidence at the level
     * reached, matching pattern guidance and the earlier rounds' hypotheses and outcomes. */
    enum prompt_mode mode = strcmp(s->proposer, "agent") == 0 ? PROMPT_AGENT : PROMPT_LLM;
    struct prompt_round hist[64];
    struct prompt_input in;
    json_t *ev = json_pack("{s:i, s:s, s:s, s:s, s:O?, s:O?, s:O?}", "level", level,
                           "family", d->family[idx], "direction", d->direction[idx],
                           "diagnosis", words, "profile", level >= 2 ? s->ev.profile : NULL,
                           "ir", level >= 3 ? s->ev.ir : NULL, "passes",
                           level >= 4 ? s->ev.passes : NULL);
    char *evtxt = json_dumps(ev, JSON_INDENT(1));
    char *pattxt = json_dumps(s->patterns ? s->patterns : json_null(), JSON_INDENT(1));
    char *tmpl = NULL, *prompt = NULL, origin[256], err[1024] = "", contract[PROMPT_MAX_CONTRACT];
    size_t plen = 0, nh = json_array_size(s->history), first = nh > 64 ? nh - 64 : 0;

    for (size_t i = first; i < nh; i++) {
      json_t *h = json_array_get(s->history, i);
      struct prompt_round *pr = &hist[i - first];
      pr->round = (int)json_integer_value(json_object_get(h, "round"));
      pr->level = (int)json_integer_value(json_object_get(h, "level"));
      pr->family = json_string_value(json_object_get(h, "family"));
      pr->hypothesis = json_string_value(json_object_get(h, "hypothesis"));
      pr->outcome = json_string_value(json_object_get(h, "outcome"));
      if (!pr->family)
        pr->family = "";
      if (!pr->hypothesis)
        pr->hypothesis = "";
      if (!pr->outcome)
        pr->outcome = "";
    }
    memset(&in, 0, sizeof(in));
    in.mode = mode;
    in.kernel = s->src;
    in.evidence_json = evtxt ? evtxt : "{}";
    in.level = level;
    in.patterns = pattxt;
    in.history = hist;
    in.nhistory = nh - first;
    rc = prompt_template_load(&tmpl, origin, sizeof(origin), err, sizeof(err));
    if (!rc)
      rc = prompt_render(tmpl, &in, &prompt, &plen, err, sizeof(err));
    if (rc) {
      snprintf(why, whylen, "prompt: %s", err);
      rc = -EPROTO;
    } else if (mode == PROMPT_LLM) {
      struct llm_config cfg;
      struct llm_result res;
      llm_config_init(&cfg);
      llm_result_init(&res);
      if (llm_config_from_env(&cfg, err, sizeof(err))) {
        snprintf(why, whylen, "llm: %.500s", err);
        rc = -EPROTO;
      } else {
        cfg.stop = &s->j->w->stop;
        rc = llm_propose(&cfg, prompt_system_message(), prompt, p, &res, err, sizeof(err));
        p->prompt_tokens = res.prompt_tokens;
        p->completion_tokens = res.completion_tokens;
        p->attempts = res.attempts;
        if (s->j->w->stop)
          rc = -EINTR;
        else if (rc) {
          snprintf(why, whylen, "%.500s", err);
          rc = -EPROTO;
        }
      }
      llm_result_free(&res);
      llm_config_free(&cfg);
    } else {
      struct agent_config ac;
      struct agent_result ar;
      struct agent_input ai;
      char dir[1200];
      agent_config_init(&ac);
      agent_result_init(&ar);
      snprintf(dir, sizeof(dir), "%s/agent-%s-r%zu", s->j->w->work_dir, s->j->id, nh + 1);
      prompt_contract(PROMPT_AGENT, contract, sizeof(contract));
      ai.contract = contract;
      ai.kernel = s->src;
      ai.evidence_json = evtxt ? evtxt : "{}";
      ai.prompt = prompt;
      if (agent_config_from_env(&ac, err, sizeof(err))) {
        snprintf(why, whylen, "agent: %s", err);
        rc = -EPROTO;
      } else {
        ac.stop = &s->j->w->stop;
        rc = agent_run(&ac, dir, &ai, p, &ar);
        if (s->j->w->stop)
          rc = -EINTR;
        else if (rc) {
          snprintf(why, whylen, "%.500s", ar.error);
          rc = -EPROTO;
        }
      }
      agent_result_free(&ar);
      agent_config_free(&ac);
    }
    if (!rc) {
      char h[65];
      hash_sha256_hex(p->source, strlen(p->source), h);
      *sig = malloc(80);
      if (*sig)
        snprintf(*sig, 80, "src:%.16s", h);
    }
    free(tmpl);
    free(prompt);
    free(evtxt);
    free(pattxt);
    json_decref(ev);
  }
  return rc;
}

/* Commits one round (and, when accepted, the job's best) in one transaction, fenced by the
 * lease. 1 committed, 0 lease lost, -1 error. */
static int rounds_commit(struct rounds_state *s, int round, json_t *rec, const char *cand_src,
                         const char *cand_sha, int accepted, const char *best_json)
{
  struct job_ctx *j = s->j;
  char err[512], rnd[16];
  char *rectxt = json_dumps(rec, JSON_COMPACT);
  PGresult *r;
  int rc = -1;

  if (!rectxt || job_db(j->w))
    goto out;
  snprintf(rnd, sizeof(rnd), "%d", round);
  PQclear(PQexec(j->w->db, "BEGIN"));
  if (cand_src) {
    const char *pk[2] = { cand_sha, cand_src };
    r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err),
                "INSERT INTO kernels (sha256, source) VALUES ($1, $2) ON CONFLICT DO NOTHING", 2,
                pk);
    if (!r)
      goto fail;
    PQclear(r);
  }
  {
    /* The record goes in only while we hold the lease (the SELECT guards the INSERT). */
    const char *pr[4] = { j->id, rnd, rectxt, j->owner };
    r = db_exec(j->w->db, PGRES_COMMAND_OK, err, sizeof(err),
                "INSERT INTO rounds (job_id, round, level_reached, escalation, evidence, hotspot,"
                " hypothesis, rewrite_family, proposer, kernel_sha256, diff, correctness, timing,"
                " accepted, reject_reason, tokens)"
                " SELECT $1::uuid, $2::int, (x->>'level_reached')::int, x->'escalation',"
                " x->'evidence', x->>'hotspot', x->>'hypothesis', x->>'rewrite_family',"
                " x->>'proposer', x->>'kernel_sha256', x->>'diff', x->'correctness', x->'timing',"
                " (x->>'accepted')::bool, x->>'reject_reason', x->'tokens'"
                " FROM (SELECT $3::jsonb AS x) v"
                " WHERE EXISTS (SELECT 1 FROM jobs WHERE id = $1::uuid AND lease_owner = $4"
                "               AND state = 'running')"
                " ON CONFLICT (job_id, round) DO NOTHING",
                4, pr);
    if (!r)
      goto fail;
    if (atoi(PQcmdTuples(r)) != 1) {
      PQclear(r);
      PQclear(PQexec(j->w->db, "ROLLBACK"));
      rc = 0;
      goto out;
    }
    PQclear(r);
  }
  if (accepted && best_json) {
    const char *pb[1] = { best_json };
    if (job_update(j, "best = $3::jsonb", 1, pb) != 1)
      goto fail;
  }
  r = PQexec(j->w->db, "COMMIT");
  rc = PQresultStatus(r) == PGRES_COMMAND_OK ? 1 : -1;
  PQclear(r);
  goto out;
fail:
  log_error("round.commit_failed", "job=%s round=%d err=\"%.300s\"", j->id, round, err);
  PQclear(PQexec(j->w->db, "ROLLBACK"));
out:
  free(rectxt);
  return rc;
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
  return json_pack("{s:i, s:s, s:O, s:f, s:f, s:i, s:[iiii], s:s?}", "round", s->best_round,
                   "kernel_sha256", s->sha, "tunables", s->tunables, "speedup", s->speedup,
                   "median_ms", base_ms > 0 ? base_ms / s->speedup : -1.0, "max_level", lv,
                   "levels", s->levels_seen[1], s->levels_seen[2], s->levels_seen[3],
                   s->levels_seen[4], "stop_reason", s->stop_reason[0] ? s->stop_reason : NULL);
}

/* One round, start to commit. Returns 1 to continue, 0 to stop (s->stop_reason says why),
 * -EINTR stopping, -ESTALE lease lost, -EIO. */
static int rounds_one(struct rounds_state *s, int round, double base_ms)
{
  struct job_ctx *j = s->j;
  struct ladder_diag diags[5];
  struct ladder_tests tests[5];
  struct proposal p;
  json_t *esc = json_array(), *rec = NULL, *val = NULL, *cmp = NULL, *req = NULL, *best = NULL;
  json_t *cand_tun = NULL;
  char *sig = NULL, *diff = NULL, *besttxt = NULL, why[1200] = "", words[800];
  char cand_sha[65] = "", reject[1400] = "";
  int level, from = 0, idx, rc, accepted = 0, committed;

  proposal_init(&p);
  memset(diags, 0, sizeof(diags));
  rounds_progress(s, round, 1, "diagnose", NULL);
  level = rounds_climb(s, round, diags, tests, esc);
  if (level < 0) {
    rc = level;
    goto out;
  }
  s->levels_seen[level]++;
  for (;;) {
    idx = rounds_choose(s, diags, level, &from);
    if (idx < 0) {
      snprintf(s->stop_reason, sizeof(s->stop_reason),
               "round %d: no rewrite family left that the evidence (levels 1-%d) justifies%s%.300s",
               round, level, why[0] ? "; last: " : "", why);
      utf8_scrub(s->stop_reason); /* "%.300s" may cut a character of the proposer's text */
      s->levels_seen[level]--;
      {
        char *e = json_dumps(esc, JSON_COMPACT);
        log_info("round.nothing_left", "job=%s round=%d escalation=%.1500s", j->id, round,
                 e ? e : "?");
        free(e);
      }
      rc = 0;
      goto out;
    }
    rounds_progress(s, round, level, "propose", NULL);
    rc = rounds_propose(s, diags, level, from, idx, &p, &sig, why, sizeof(why));
    if (rc == -ENOENT) {
      /* The proposer has nothing for this family: the next justified family, if any. */
      rounds_exhaust(s, diags[from].family[idx]);
      proposal_free(&p);
      proposal_init(&p);
      continue;
    }
    break;
  }
  if (rc == -EINTR)
    goto out;
  rounds_words(&diags[from], words, sizeof(words));
  if (rc == -EPROTO) {
    snprintf(reject, sizeof(reject), "%s", why);
    snprintf(p.family, sizeof(p.family), "%s", diags[from].family[idx]);
  } else {
    /* Correctness on every case, then ABBA timing against the incumbent. */
    json_error_t je;
    cand_tun = p.tunables_json ? json_loads(p.tunables_json, 0, &je) : json_deep_copy(s->tunables);
    if (!json_is_object(cand_tun)) {
      json_decref(cand_tun);
      cand_tun = json_object();
    }
    hash_sha256_hex(p.source, strlen(p.source), cand_sha);
    rounds_progress(s, round, level, "validate", NULL);
    req = json_pack("{s:s, s:s, s:O}", "op", "validate", "candidate_source", p.source,
                    "tunables", cand_tun);
    rc = job_op(j, "validate", req, &val);
    json_decref(req);
    req = NULL;
    if (rc == -EINTR)
      goto out;
    if (rc) {
      snprintf(reject, sizeof(reject), "candidate could not be validated: %s", j->fail_msg);
      val = json_pack("{s:b, s:s}", "passed", 0, "error", j->fail_msg);
      j->fail_msg[0] = '\0';
    } else if (!json_is_true(json_object_get(val, "passed"))) {
      const char *m = json_string_value(json_object_get(json_object_get(val, "failure"), "message"));
      snprintf(reject, sizeof(reject), "incorrect: %s", m ? m : "failed validation");
    } else {
      rounds_progress(s, round, level, "time", NULL);
      req = json_pack("{s:s, s:s, s:O, s:s, s:O}", "op", "compare", "incumbent_source", s->src,
                      "incumbent_tunables", s->tunables, "candidate_source", p.source,
                      "candidate_tunables", cand_tun);
      rc = job_op(j, "compare", req, &cmp);
      json_decref(req);
      req = NULL;
      if (rc == -EINTR)
        goto out;
      if (rc) {
        snprintf(reject, sizeof(reject), "candidate could not be timed: %s", j->fail_msg);
        j->fail_msg[0] = '\0';
      } else if (!json_is_true(json_object_get(cmp, "faster_beyond_noise"))) {
        snprintf(reject, sizeof(reject),
                 "not faster beyond noise: speedup %.4f, noise %.4f",
                 json_number_value(json_object_get(cmp, "speedup")),
                 json_number_value(json_object_get(cmp, "noise")));
      } else {
        accepted = 1;
      }
    }
  }
  diff = p.source ? diff_render(s->src, p.source, s->tunables, cand_tun) : NULL;
  /* The reason quotes proposers and the harness, cut to fit: one byte that is not UTF-8
   * would make json_pack fail and the round go unrecorded. */
  utf8_scrub(reject);
  rec = json_pack("{s:i, s:o, s:{s:s?, s:s, s:O?, s:O?}, s:s?, s:s?, s:s, s:s, s:s?, s:s?,"
                  " s:O?, s:O?, s:b, s:s?}",
                  "level_reached", level, "escalation", esc, "evidence", "signature", sig,
                  "diagnosis", words, "tunables", cand_tun, "l2_class",
                  s->ev.profile ? json_object_get(s->ev.profile, "bound") : NULL,
                  "hotspot", diags[level].hotspot[0] ? diags[level].hotspot : NULL,
                  "hypothesis", p.hypothesis, "rewrite_family", p.family, "proposer",
                  s->proposer, "kernel_sha256", cand_sha[0] ? cand_sha : NULL, "diff", diff,
                  "correctness", val, "timing", cmp, "accepted", accepted, "reject_reason",
                  accepted ? NULL : reject);
  esc = NULL; /* rec owns it */
  if (rec && (p.prompt_tokens >= 0 || p.completion_tokens >= 0 || p.attempts > 0) &&
      strcmp(s->proposer, "rules"))
    json_object_set_new(rec, "tokens", json_pack("{s:I, s:I, s:i}", "prompt", (json_int_t)p.prompt_tokens,
                                                 "completion", (json_int_t)p.completion_tokens,
                                                 "attempts", p.attempts));
  if (accepted) {
    double sp = json_number_value(json_object_get(cmp, "speedup"));
    s->speedup *= sp > 0 ? sp : 1.0;
    s->best_round = round;
    free(s->src);
    s->src = strdup(p.source);
    memcpy(s->sha, cand_sha, sizeof(s->sha));
    json_decref(s->tunables);
    s->tunables = json_incref(cand_tun);
    best = rounds_best(s, base_ms);
    besttxt = json_dumps(best, JSON_COMPACT);
  }
  committed = rounds_commit(s, round, rec, p.source, cand_sha[0] ? cand_sha : NULL, accepted,
                            besttxt);
  if (committed != 1) {
    rc = committed == 0 ? -ESTALE : -EIO;
    goto out;
  }
  if (accepted)
    evidence_clear(&s->ev); /* evidence described the old incumbent */
  if (sig)
    json_array_append_new(s->tried, json_string(sig));
  json_array_append_new(s->history,
                        json_pack("{s:i, s:i, s:s, s:s?, s:s}", "round", round, "level", level,
                                  "family", p.family, "hypothesis", p.hypothesis, "outcome",
                                  accepted ? "accepted" : reject));
  log_info("round.committed", "job=%s round=%d level=%d family=%s accepted=%d speedup=%.4f", j->id,
           round, level, p.family, accepted, s->speedup);
  rounds_progress(s, round, level, "round", accepted ? "accepted" : reject);
  rc = 1;
out:
  proposal_free(&p);
  json_decref(esc);
  json_decref(rec);
  json_decref(val);
  json_decref(cmp);
  json_decref(cand_tun);
  json_decref(best);
  free(besttxt);
  free(sig);
  free(diff);
  return rc;
}

const char *rounds_run(struct job_ctx *j)
{
  struct rounds_state s;
  const char *outcome = "failed";
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
  s.proposer = json_string_value(json_object_get(j->spec, "proposer"));
  if (!s.proposer)
    s.proposer = "rules";
  if (ladder_policy_parse(json_string_value(json_object_get(j->spec, "policy")), &s.policy))
    s.policy = LADDER_HIERARCHY;
  evidence_init(&s.ev);
  if (rounds_resume(&s, &next)) {
    outcome = "aborted";
    goto out;
  }
  s.last_round = next - 1;
  if (next > 1)
    log_info("job.resumed", "job=%s from_round=%d best_round=%d", j->id, next, s.best_round);
  for (int r = next; r <= j->rounds; r++) {
    if (j->w->stop) {
      outcome = "aborted";
      goto out;
    }
    if (rounds_cancelled(j)) {
      best = rounds_best(&s, base_ms);
      besttxt = json_dumps(best, JSON_COMPACT);
      job_finish(j, "cancelled", "cancelled by request", besttxt);
      outcome = "cancelled";
      goto out;
    }
    rc = rounds_one(&s, r, base_ms);
    if (rc == 1)
      s.last_round = r;
    if (rc == -EINTR) {
      outcome = "aborted";
      goto out;
    }
    if (rc == -ESTALE) {
      outcome = "lost";
      goto out;
    }
    if (rc < 0) {
      outcome = "aborted";
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
  rc = job_finish(j, "succeeded", NULL, besttxt);
  outcome = rc == 1 ? "succeeded" : "lost";
out:
  evidence_clear(&s.ev);
  free(s.src);
  free(besttxt);
  json_decref(best);
  json_decref(s.tunables);
  json_decref(s.tried);
  json_decref(s.history);
  json_decref(s.patterns);
  return outcome;
}
