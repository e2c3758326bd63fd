#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "evidence.h"
#include "ir.h"
#include "ir_adapter.h"
#include "ir_hivm.h"
#include "ir_passes.h"
#include "log.h"

#define EVIDENCE_FILE_CAP (16u << 20)

static const char *evidence_path(const json_t *kernel, const char *kind);

void evidence_init(struct evidence *e) { memset(e, 0, sizeof(*e)); }

void evidence_clear(struct evidence *e)
{
  json_decref(e->profile);
  json_decref(e->compile);
  json_decref(e->ir);
  json_decref(e->passes);
  json_decref(e->compile_pp);
  json_decref(e->tile_hint);
  evidence_init(e);
}

/* Reads a whole text file (capped); NULL when missing or too big. Caller frees. */
static char *evidence_read(const char *path)
{
  FILE *f;
  struct buf b;
  char chunk[65536];
  size_t n;
  if (!path || !(f = fopen(path, "rb")))
    return NULL;
  buf_init(&b, EVIDENCE_FILE_CAP);
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    if (buf_append(&b, chunk, n)) {
      fclose(f);
      buf_free(&b);
      return NULL;
    }
  fclose(f);
  return buf_take(&b, NULL);
}

static json_t *evidence_req(const char *op, const char *source, const json_t *tunables)
{
  json_t *r = json_pack("{s:s, s:s}", "op", op, "candidate_source", source);
  if (r && tunables)
    json_object_set(r, "tunables", (json_t *)tunables);
  return r;
}

/* Runs one evidence op; a failure becomes {"available": false, "reason"} (evidence is never
 * a gate), -EINTR propagates. */
static int evidence_op(struct job_ctx *j, const char *what, json_t *req, json_t **out)
{
  int rc = job_op(j, what, req, out);
  json_decref(req);
  if (rc == -EINTR)
    return rc;
  if (rc) {
    *out = json_pack("{s:b, s:s}", "available", 0, "reason", j->fail_msg);
    j->fail_msg[0] = '\0';
  }
  return 0;
}

/* A compile result whose hottest kernel's IR files are still on disk (a baseline read back
 * after a restart may name files of a work directory that is gone). */
static int evidence_files_present(const json_t *compile)
{
  const json_t *k = json_array_get(json_object_get(compile, "kernels"), 0);
  const char *kinds[] = { "ttgir", "ttadapter" };
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
    const char *path = evidence_path(k, kinds[i]);
    if (path && access(path, R_OK) == 0)
      return 1;
  }
  return 0;
}

void evidence_seed(struct evidence *e, const json_t *baseline, int which)
{
  const json_t *prof = json_object_get(baseline, "profile");
  const json_t *comp = json_object_get(baseline, "compile");
  if ((which & EVIDENCE_SEED_PROFILE) && !e->profile && json_is_array(json_object_get(prof, "kernels"))) {
    e->profile = json_deep_copy(prof);
    json_object_set_new(e->profile, "seeded_from", json_string("baseline"));
  }
  if ((which & EVIDENCE_SEED_COMPILE) && !e->compile && !e->ir && evidence_files_present(comp)) {
    e->compile = json_deep_copy(comp);
    json_object_set_new(e->compile, "seeded_from", json_string("baseline"));
  }
}

int evidence_profile(struct job_ctx *j, struct evidence *e, const char *source,
                     const json_t *tunables)
{
  if (e->profile)
    return 0;
  return evidence_op(j, "profile", evidence_req("profile", source, tunables), &e->profile);
}

static const char *evidence_path(const json_t *kernel, const char *kind)
{
  return json_string_value(json_object_get(json_object_get(json_object_get(kernel, "files"),
                                                           kind),
                                           "path"));
}

/* Whether a compile result is triton-ascend's (ttir, ttadapter, and npuir where CANN is). */
static int evidence_is_ascend(const json_t *compile)
{
  const char *ir = json_string_value(json_object_get(compile, "ir"));
  return ir && !strcmp(ir, "ascend");
}

/* L3 features of an Ascend kernel: its adapter IR, and the HIVM IR's when bishengir-compile
 * ran (CANN installed) as "hivm_ir"; NULL with err when the adapter IR is missing. */
static json_t *evidence_ascend_features(const json_t *compile, const json_t *k, char *err,
                                        size_t errlen)
{
  char *adapter = evidence_read(evidence_path(k, "ttadapter"));
  char *npuir = evidence_read(evidence_path(k, "npuir"));
  json_t *f = ir_adapter_features(adapter, err, errlen);
  if (f) {
    char herr[256] = "";
    json_t *h = npuir ? ir_hivm_features(npuir, herr, sizeof(herr)) : NULL;
    json_object_set(f, "target", json_object_get(compile, "target"));
    json_object_set(f, "stopped_at", json_object_get(k, "stopped_at"));
    json_object_set(f, "stop_reason", json_object_get(k, "stop_reason"));
    if (h)
      json_object_set_new(f, "hivm_ir", h);
  }
  free(adapter);
  free(npuir);
  return f;
}

int evidence_ir(struct job_ctx *j, struct evidence *e, const char *source,
                const json_t *tunables, int round)
{
  json_t *req, *k;
  char *ttgir = NULL, *ptx = NULL, *sass = NULL, err[256] = "";
  const char *target = job_ir_target(j);
  int rc;

  if (e->ir)
    return 0;
  if (!e->compile) { /* else seeded (evidence_seed): the same kernel, compiled already */
    req = evidence_req("compile", source, tunables);
    if (target)
      json_object_set_new(req, "target", json_string(target));
    rc = evidence_op(j, "compile", req, &e->compile);
    if (rc)
      return rc;
  }
  if (!json_is_array(json_object_get(e->compile, "kernels"))) {
    e->ir = json_pack("{s:b, s:O?}", "available", 0, "reason",
                      json_object_get(e->compile, "reason"));
    return 0;
  }
  job_store_artifacts(j, e->compile, round);
  /* The first launched kernel is the hotspot unless the profile named another. */
  k = json_array_get(json_object_get(e->compile, "kernels"), 0);
  if (evidence_is_ascend(e->compile)) {
    e->ir = evidence_ascend_features(e->compile, k, err, sizeof(err));
  } else {
    ttgir = evidence_read(evidence_path(k, "ttgir"));
    ptx = evidence_read(evidence_path(k, "ptx"));
    sass = evidence_read(evidence_path(k, "sass"));
    e->ir = ir_features_cuda(ttgir, ptx, sass, err, sizeof(err));
  }
  if (!e->ir)
    e->ir = json_pack("{s:b, s:s}", "available", 0, "reason", err[0] ? err : "no IR");
  else
    json_object_set(e->ir, "kernel", json_object_get(k, "kernel"));
  free(ttgir);
  free(ptx);
  free(sass);
  return 0;
}

/* One L4 trace over the per-pass dump, turned into a finding the ladder reads:
 * {symptom, pass, persisted, verdict, before_count, after_count, description}. */
static void evidence_trace(const struct ir_pass_seq *seq, const struct ir_pass_table *tab,
                           const char *spec, const char *focus, const char *symptom,
                           json_t *findings)
{
  struct ir_symptom sym;
  char err[256];
  json_t *t, *f = NULL;

  if (ir_symptom_init(&sym, spec, err, sizeof(err)))
    return;
  t = ir_passes_trace(seq, &sym, tab, focus, err, sizeof(err));
  ir_symptom_free(&sym);
  if (!t)
    return;
  if (focus) {
    /* Did the named pass remove the symptom, or did it persist through it? */
    json_t *fr = json_array_get(json_object_get(t, "focus"), 0);
    if (fr && json_integer_value(json_object_get(fr, "before_count")) > 0)
      f = json_incref(fr);
  } else if (json_integer_value(json_object_get(t, "final_count")) > 0) {
    json_t *a = json_object_get(t, "appeared");
    if (json_is_object(a))
      f = json_incref(a);
  }
  if (f) {
    const char *verdict = json_string_value(json_object_get(f, "verdict"));
    json_array_append_new(
        findings,
        json_pack("{s:s, s:O?, s:O?, s:b, s:O?, s:O?, s:O?, s:O?}", "symptom", symptom, "pass",
                  json_object_get(f, "pass_arg"), "pass_name", json_object_get(f, "pass"),
                  "persisted", verdict && !strcmp(verdict, "persisted"), "verdict",
                  json_object_get(f, "verdict"), "before_count",
                  json_object_get(f, "before_count"), "after_count",
                  json_object_get(f, "after_count"), "description",
                  json_object_get(f, "description")));
    json_decref(f);
  }
  json_decref(t);
}

int evidence_passes(struct job_ctx *j, struct evidence *e, const char *source,
                    const json_t *tunables)
{
  struct ir_pass_table tab;
  json_t *req, *k;
  char *dump = NULL, err[256] = "";
  const char *target = job_ir_target(j);
  size_t len = 0;
  int rc, have_tab;

  if (e->passes || e->compile_pp)
    return 0; /* already tried for this incumbent, whatever came of it */
  req = evidence_req("compile", source, tunables);
  json_object_set_new(req, "per_pass", json_true());
  if (target)
    json_object_set_new(req, "target", json_string(target));
  rc = evidence_op(j, "compile per-pass", req, &e->compile_pp);
  if (rc)
    return rc;
  k = json_array_get(json_object_get(e->compile_pp, "kernels"), 0);
  if (!evidence_path(k, "passes") ||
      ir_read_file(evidence_path(k, "passes"), EVIDENCE_FILE_CAP, &dump, &len) != 0) {
    log_info("evidence.no_passes", "job=%s", j->id);
    return 0; /* e->passes stays NULL: L4 unavailable */
  }
  memset(&tab, 0, sizeof(tab));
  have_tab = ir_pass_table_load(&tab, NULL, err, sizeof(err)) == 0;
  e->passes = evidence_is_ascend(e->compile_pp)
                  ? evidence_passes_findings_ascend(dump, len, have_tab ? &tab : NULL, err, sizeof(err))
                  : evidence_passes_findings(dump, len, have_tab ? &tab : NULL, err, sizeof(err));
  if (!e->passes)
    log_info("evidence.passes_unparsed", "job=%s err=\"%s\"", j->id, err);
  if (have_tab)
    ir_pass_table_free(&tab);
  free(dump);
  return 0;
}

json_t *evidence_passes_findings(const char *dump, size_t len, const struct ir_pass_table *tab,
                                 char *err, size_t errlen)
{
  struct ir_pass_seq seq;
  json_t *findings;

  if (ir_passes_parse(dump, len, &seq, err, errlen) != 0)
    return NULL;
  findings = json_array();
  if (findings) {
    /* The symptoms L3 can raise, each traced to the pass that made or kept it. */
    evidence_trace(&seq, tab, "loop-sync-load", "tritongpu-pipeline", "sync_loads_in_loop",
                   findings);
    evidence_trace(&seq, tab, "re:ld\\.global\\.(b32|f32|u32)", NULL, "scalar_global_access",
                   findings);
    evidence_trace(&seq, tab, "op:ttg.convert_layout", NULL, "layout_conversion", findings);
  }
  ir_passes_free(&seq);
  return findings;
}

json_t *evidence_passes_findings_ascend(const char *dump, size_t len, const struct ir_pass_table *tab,
                                        char *err, size_t errlen)
{
  struct ir_pass_seq seq;
  json_t *findings;

  if (ir_passes_parse(dump, len, &seq, err, errlen) != 0)
    return NULL;
  findings = json_array();
  if (findings) {
    /* The adapter pipeline's symptoms (docs/ASCEND.md): a gather or scatter lowered to one
     * scalar access per element; masked accesses whose mask the pipeline could not keep (a
     * load of the whole block and a select instead); local buffers, where block copies
     * from global memory appear. */
    evidence_trace(&seq, tab, "substr:{DiscreteMemAccess}", NULL, "discrete_access", findings);
    evidence_trace(&seq, tab, "re:tt\\.(load %[^ ,]+|store %[^ ,]+, %[^ ,]+), %",
                   "discrete-mask-access-conversion", "masked_access", findings);
    evidence_trace(&seq, tab, "op:memref.alloc", NULL, "local_buffer", findings);
  }
  ir_passes_free(&seq);
  return findings;
}

json_t *evidence_tile_hint(const json_t *candidate)
{
  json_t *facts = json_object_get(json_object_get(candidate, "compile"), "facts"), *f;
  const char *name, *best = NULL;
  json_int_t most = 0;
  json_object_foreach(facts, name, f) {
    json_int_t e = json_integer_value(json_object_get(f, "max_tensor_elems"));
    if (e > most) {
      most = e;
      best = name;
    }
  }
  return best ? json_pack("{s:s, s:I}", "kernel", best, "elems", most) : NULL;
}

json_t *evidence_launch(const struct evidence *e)
{
  json_t *k = json_array_get(json_object_get(e->compile, "kernels"), 0);
  json_t *kw = json_object_get(k, "kwargs"), *v, *out = json_object();
  const char *name;
  json_object_foreach(kw, name, v) {
    json_t *x = json_is_object(v) ? json_object_get(v, "value") : v;
    if (json_is_integer(x))
      json_object_set(out, name, x);
  }
  return out;
}
