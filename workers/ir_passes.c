/* ir_passes: L4 -- which compiler pass introduced a symptom, or failed to remove it.
 * See ir_passes.h for the dump format and the JSON shape. */
#include "errmsg.h"
#include "ir_passes.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"

/* scripts/embed_file.sh defines these when the build embeds workers/passes.tsv; weak, so a
 * binary built without the embedded copy reads the file instead. */
extern const char kopt_passes_tsv[] __attribute__((weak));
extern const unsigned long kopt_passes_tsv_len __attribute__((weak));

#define IR_HDR "// -----//"
#define IR_PASS_HDR "// -----// IR Dump "

/* Fills the caller's message buffer (common/errmsg). */
#define ir_perr(err, errlen, ...) ((void)errmsg_set((err), (errlen), 0, __VA_ARGS__))

static int ir_pstarts(const char *p, size_t n, const char *lit)
{
  size_t l = strlen(lit);
  return n >= l && memcmp(p, lit, l) == 0;
}

/* Copies [s, s+l) into out (capped, NUL-terminated). */
static void ir_pcopy(char *out, size_t outlen, const char *s, size_t l)
{
  if (l >= outlen)
    l = outlen - 1;
  memcpy(out, s, l);
  out[l] = '\0';
}

/* `// -----// IR Dump Before Name (arg) ('scope' operation: @fn) //----- //`. 1 when the
 * line is a pass header (d filled), 0 otherwise. */
static int ir_pass_header(const char *p, size_t n, struct ir_pass_dump *d)
{
  const char *e = p + n, *q, *s;
  memset(d, 0, sizeof(*d));
  if (!ir_pstarts(p, n, IR_PASS_HDR))
    return 0;
  q = p + strlen(IR_PASS_HDR);
  if (ir_pstarts(q, (size_t)(e - q), "Before "))
    q += 7;
  else if (ir_pstarts(q, (size_t)(e - q), "After ")) {
    q += 6;
    d->after = 1;
  } else {
    return 0;
  }
  s = q;
  while (q < e && *q != ' ')
    q++;
  if (q == s)
    return 0;
  ir_pcopy(d->name, sizeof(d->name), s, (size_t)(q - s));
  while (q < e && *q == ' ')
    q++;
  if (q < e && *q == '(' && !(q + 1 < e && q[1] == '\'')) {
    s = ++q;
    while (q < e && *q != ')')
      q++;
    ir_pcopy(d->arg, sizeof(d->arg), s, (size_t)(q - s));
    if (q < e)
      q++;
    while (q < e && *q == ' ')
      q++;
  }
  if (ir_pstarts(q, (size_t)(e - q), "('")) {
    s = q + 2;
    q = s;
    while (q < e && *q != '\'')
      q++;
    ir_pcopy(d->scope, sizeof(d->scope), s, (size_t)(q - s));
  }
  d->full = !d->scope[0] || strcmp(d->scope, "builtin.module") == 0;
  return 1;
}

int ir_passes_parse(const char *text, size_t len, struct ir_pass_seq *seq, char *err, size_t errlen)
{
  const char *cur = text, *end = text + len;
  struct ir_pass_dump *open = NULL; /* the dump whose IR is still being read */
  size_t alloc = 0;
  int rc = 0;

  memset(seq, 0, sizeof(*seq));
  while (cur < end) {
    const char *p = cur, *nl = memchr(cur, '\n', (size_t)(end - cur));
    size_t n = nl ? (size_t)(nl - cur) : (size_t)(end - cur);
    struct ir_pass_dump d;
    cur = nl ? nl + 1 : end;
    if (!ir_pstarts(p, n, IR_HDR))
      continue;
    /* Any `// -----//` line ends the IR of the open dump: the next pass's header, or a
     * pass-internal dump such as the pipeliner's "internal IR Dump After: LowerLoops". */
    if (open) {
      open->ir_len = (size_t)(p - open->ir);
      open = NULL;
    }
    if (!ir_pass_header(p, n, &d))
      continue;
    if (seq->n >= IR_PASSES_MAX) {
      seq->truncated = 1;
      break;
    }
    if (seq->n == alloc) {
      size_t na = alloc ? alloc * 2 : 64;
      struct ir_pass_dump *nv = realloc(seq->v, na * sizeof(*nv));
      if (!nv) {
        ir_perr(err, errlen, "out of memory reading the pass dump");
        rc = -ENOMEM;
        goto out;
      }
      seq->v = nv;
      alloc = na;
    }
    d.ir = cur;
    d.ir_len = (size_t)(end - cur);
    seq->v[seq->n] = d;
    open = &seq->v[seq->n];
    seq->n++;
  }
  if (open)
    open->ir_len = (size_t)(end - open->ir);
  if (!seq->n) {
    ir_perr(err, errlen, "no \"// -----// IR Dump Before/After\" header in the pass dump");
    rc = -ENOENT;
    goto out;
  }
out:
  if (rc)
    ir_passes_free(seq);
  return rc;
}

void ir_passes_free(struct ir_pass_seq *seq)
{
  free(seq->v);
  memset(seq, 0, sizeof(*seq));
}

/* ---- symptoms ---- */

int ir_symptom_init(struct ir_symptom *s, const char *spec, char *err, size_t errlen)
{
  static const struct {
    const char *prefix;
    enum ir_symptom_kind kind;
    int needs_pattern;
  } kinds[] = {
    {"op:", IR_SYM_OP, 1},
    {"substr:", IR_SYM_SUBSTR, 1},
    {"re:", IR_SYM_REGEX, 1},
    {"loop-sync-load", IR_SYM_LOOP_SYNC_LOAD, 0},
    {"loop-scalar", IR_SYM_LOOP_SCALAR, 0},
  };
  const char *pat = NULL;
  int rc = 0;

  memset(s, 0, sizeof(*s));
  if (!spec || strlen(spec) >= sizeof(s->spec)) {
    ir_perr(err, errlen, "symptom spec missing or longer than %zu bytes", sizeof(s->spec) - 1);
    rc = -EINVAL;
    goto out;
  }
  snprintf(s->spec, sizeof(s->spec), "%s", spec);
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
    size_t l = strlen(kinds[i].prefix);
    if (kinds[i].needs_pattern ? strncmp(spec, kinds[i].prefix, l) == 0 : strcmp(spec, kinds[i].prefix) == 0) {
      s->kind = kinds[i].kind;
      pat = kinds[i].needs_pattern ? spec + l : "";
      if (kinds[i].needs_pattern && !*pat) {
        ir_perr(err, errlen, "symptom %s has an empty pattern", spec);
        rc = -EINVAL;
        goto out;
      }
      break;
    }
  }
  if (!pat) {
    ir_perr(err, errlen, "unknown symptom %s (op:NAME, substr:TEXT, re:REGEX, loop-sync-load, loop-scalar)", spec);
    rc = -EINVAL;
    goto out;
  }
  snprintf(s->pattern, sizeof(s->pattern), "%s", pat);
  if (s->kind == IR_SYM_REGEX) {
    int r = regcomp(&s->re, s->pattern, REG_EXTENDED | REG_NEWLINE);
    if (r) {
      char m[128];
      regerror(r, &s->re, m, sizeof(m));
      ir_perr(err, errlen, "symptom %s: bad regex: %s", spec, m);
      rc = -EINVAL;
      goto out;
    }
    s->re_ok = 1;
  }
out:
  return rc;
}

void ir_symptom_free(struct ir_symptom *s)
{
  if (s->re_ok)
    regfree(&s->re);
  s->re_ok = 0;
}

long ir_symptom_count(const struct ir_symptom *s, const char *ir, size_t len)
{
  long c = 0;
  switch (s->kind) {
  case IR_SYM_OP:
    return ir_mlir_count_op(ir, len, s->pattern);
  case IR_SYM_SUBSTR: {
    size_t pl = strlen(s->pattern);
    const char *p = ir, *e = ir + len;
    while (p < e) {
      const char *f = memmem(p, (size_t)(e - p), s->pattern, pl);
      if (!f)
        break;
      c++;
      p = f + pl;
    }
    return c;
  }
  case IR_SYM_REGEX: {
    size_t off = 0;
    if (!s->re_ok)
      return -1;
    while (off <= len) {
      regmatch_t m;
      int fl = REG_STARTEND | (off > 0 && ir[off - 1] != '\n' ? REG_NOTBOL : 0);
      m.rm_so = (regoff_t)off;
      m.rm_eo = (regoff_t)len;
      if (regexec(&s->re, ir, 1, &m, fl))
        break;
      c++;
      off = m.rm_eo > m.rm_so ? (size_t)m.rm_eo : (size_t)m.rm_so + 1;
    }
    return c;
  }
  case IR_SYM_LOOP_SYNC_LOAD:
    return ir_mlir_count_loops(ir, len, IR_LOOP_SYNC_LOAD);
  case IR_SYM_LOOP_SCALAR:
    return ir_mlir_count_loops(ir, len, IR_LOOP_SCALAR);
  }
  return -1;
}

/* ---- the pass table ---- */

int ir_pass_table_parse(struct ir_pass_table *t, const char *text, size_t len, char *err, size_t errlen)
{
  char *p, *end;
  size_t alloc = 0, lineno = 0;
  int rc = 0;

  memset(t, 0, sizeof(*t));
  if (len > IR_PASS_TABLE_MAX) {
    ir_perr(err, errlen, "pass table larger than %u bytes", IR_PASS_TABLE_MAX);
    rc = -EINVAL;
    goto out;
  }
  t->buf = malloc(len + 1);
  if (!t->buf) {
    rc = -ENOMEM;
    goto out;
  }
  memcpy(t->buf, text, len);
  t->buf[len] = '\0';
  p = t->buf;
  end = t->buf + len;
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p)), *line = p, *t1, *t2, *cr;
    if (nl)
      *nl = '\0';
    p = nl ? nl + 1 : end;
    lineno++;
    cr = strchr(line, '\r');
    if (cr)
      *cr = '\0';
    if (!*line || *line == '#')
      continue;
    t1 = strchr(line, '\t');
    t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t1 || !t2 || t1 == line || !t2[1]) {
      ir_perr(err, errlen, "pass table line %zu: want pass-arg<TAB>pass name<TAB>description", lineno);
      rc = -EINVAL;
      goto out;
    }
    *t1 = '\0';
    *t2 = '\0';
    if (t->n == alloc) {
      size_t na = alloc ? alloc * 2 : 64;
      struct ir_pass_row *nr = realloc(t->rows, na * sizeof(*nr));
      if (!nr) {
        rc = -ENOMEM;
        goto out;
      }
      t->rows = nr;
      alloc = na;
    }
    t->rows[t->n].arg = line;
    t->rows[t->n].name = t1 + 1;
    t->rows[t->n].desc = t2 + 1;
    t->n++;
  }
out:
  if (rc == -ENOMEM)
    ir_perr(err, errlen, "out of memory reading the pass table");
  if (rc)
    ir_pass_table_free(t);
  return rc;
}

static int ir_pass_table_file(struct ir_pass_table *t, const char *path, char *err, size_t errlen)
{
  char *text = NULL;
  size_t len = 0;
  int rc = ir_read_file(path, IR_PASS_TABLE_MAX, &text, &len);
  if (rc) {
    ir_perr(err, errlen, "cannot read pass table %s: %s", path, strerror(-rc));
    goto out;
  }
  rc = ir_pass_table_parse(t, text, len, err, errlen);
  if (!rc)
    snprintf(t->source, sizeof(t->source), "%s", path);
out:
  free(text);
  return rc;
}

int ir_pass_table_load(struct ir_pass_table *t, const char *path, char *err, size_t errlen)
{
  const char *env;
  char cand[4096];
  int rc;

  memset(t, 0, sizeof(*t));
  if (path)
    return ir_pass_table_file(t, path, err, errlen);
  env = getenv("KOPT_PASSES_TSV");
  if (env && *env)
    return ir_pass_table_file(t, env, err, errlen); /* an explicit path must work */
  if (&kopt_passes_tsv_len != NULL && kopt_passes_tsv != NULL) {
    rc = ir_pass_table_parse(t, kopt_passes_tsv, (size_t)kopt_passes_tsv_len, err, errlen);
    if (!rc)
      snprintf(t->source, sizeof(t->source), "embedded");
    return rc;
  }
  env = getenv("KOPT_HARNESS_DIR");
  if (env && *env && (size_t)snprintf(cand, sizeof(cand), "%s/../workers/passes.tsv", env) < sizeof(cand)) {
    rc = ir_pass_table_file(t, cand, err, errlen);
    if (rc != -ENOENT)
      return rc;
  }
  return ir_pass_table_file(t, "workers/passes.tsv", err, errlen);
}

const struct ir_pass_row *ir_pass_table_find(const struct ir_pass_table *t, const char *arg, const char *name)
{
  if (!t)
    return NULL;
  if (arg && *arg)
    for (size_t i = 0; i < t->n; i++)
      if (strcmp(t->rows[i].arg, arg) == 0)
        return &t->rows[i];
  if (name && *name)
    for (size_t i = 0; i < t->n; i++)
      if (strcmp(t->rows[i].name, name) == 0)
        return &t->rows[i];
  return NULL;
}

void ir_pass_table_free(struct ir_pass_table *t)
{
  free(t->buf);
  free(t->rows);
  memset(t, 0, sizeof(*t));
}

/* ---- the trace ---- */

static int ir_same_pass(const struct ir_pass_dump *a, const struct ir_pass_dump *b)
{
  return !strcmp(a->name, b->name) && !strcmp(a->arg, b->arg);
}

struct ir_step {
  size_t pass;     /* dump index of the pass that ran */
  size_t nfrom;    /* nested passes: dumps [nfrom, nto) */
  size_t nto;
  long before;     /* -1: unknown */
  long after;
};

static const char *ir_verdict(long b, long a)
{
  if (b < 0 || a < 0)
    return "unknown";
  if (b == 0 && a > 0)
    return "introduced";
  if (b > 0 && a == 0)
    return "removed";
  if (a > b)
    return "increased";
  if (a < b)
    return "reduced";
  return b > 0 ? "persisted" : "absent";
}

static json_t *ir_count_json(long c)
{
  return c < 0 ? json_null() : json_integer(c);
}

/* New reference to the finding for one step, or NULL (out of memory). */
static json_t *ir_finding(const struct ir_pass_seq *seq, const struct ir_step *st, const struct ir_pass_table *tab)
{
  const struct ir_pass_dump *d = &seq->v[st->pass];
  const struct ir_pass_row *row = ir_pass_table_find(tab, d->arg, d->name);
  json_t *f, *nested = NULL, *ret = NULL;

  f = json_pack("{s:I, s:s, s:s, s:o, s:o, s:s, s:s?}", "index", (json_int_t)st->pass, "pass", d->name, "pass_arg",
                d->arg, "before_count", ir_count_json(st->before), "after_count", ir_count_json(st->after), "verdict",
                ir_verdict(st->before, st->after), "description", row ? row->desc : NULL);
  if (!f)
    goto out;
  if (st->nto > st->nfrom) {
    nested = json_array();
    if (!nested)
      goto out;
    for (size_t i = st->nfrom; i < st->nto && i < seq->n; i++) {
      if (i > st->nfrom && seq->v[i].after && !seq->v[i - 1].after && ir_same_pass(&seq->v[i - 1], &seq->v[i]))
        continue; /* the After dump of a bracket already listed by its Before dump */
      if (json_array_append_new(nested, json_string(seq->v[i].arg[0] ? seq->v[i].arg : seq->v[i].name)))
        goto out;
    }
    if (json_object_set(f, "nested", nested))
      goto out;
  }
  ret = f;
  f = NULL;
out:
  json_decref(f);
  json_decref(nested);
  return ret;
}

#define IR_BRACKET_DEPTH 32 /* nesting of Before/After brackets followed */

/* The steps between the ns snapshots (dump indices snap[], symptom counts count[] by dump
 * index) into steps[]; returns how many. Three dump styles:
 *   Before only (MLIR_ENABLE_DUMP=1): the pass at a snapshot (and the partial dumps after
 *     it) turned it into the next snapshot;
 *   After only (--mlir-print-ir-after-all): the pass at a snapshot turned the previous one
 *     into it;
 *   both (--mlir-print-ir-before-all --mlir-print-ir-after-all): `Before P` ... `After P`
 *     brackets the dumps of the passes P runs inside itself (triton-adapter-opt's passes run
 *     cse/canonicalize pipelines of their own); one step per outermost bracket, from the
 *     IR before P to the IR after it, the bracketed dumps folded in as nested. */
static size_t ir_steps(const struct ir_pass_seq *seq, const size_t *snap, size_t ns, const long *count,
                       struct ir_step *steps)
{
  size_t nsteps = 0, open[IR_BRACKET_DEPTH], depth = 0;
  int have_before = 0, have_after = 0;
  for (size_t k = 0; k < ns; k++) {
    have_before |= !seq->v[snap[k]].after;
    have_after |= seq->v[snap[k]].after;
  }
  for (size_t k = 0; k < ns; k++) {
    const struct ir_pass_dump *d = &seq->v[snap[k]];
    struct ir_step *st;
    if (have_before && have_after) {
      if (!d->after) {
        if (depth < IR_BRACKET_DEPTH)
          open[depth] = k;
        depth++;
        continue;
      }
      if (depth && depth <= IR_BRACKET_DEPTH && ir_same_pass(&seq->v[snap[open[depth - 1]]], d)) {
        size_t b = open[--depth];
        if (depth)
          continue; /* a nested pass: folded into the bracket around it */
        st = &steps[nsteps++];
        st->pass = snap[k];
        st->nfrom = snap[b] + 1;
        st->nto = snap[k];
        st->before = count[snap[b]];
        st->after = count[snap[k]];
        continue;
      }
      if (depth)
        continue; /* an unmatched dump inside a bracket */
    }
    st = &steps[nsteps++];
    st->pass = snap[k];
    if (!d->after) {
      st->nfrom = snap[k] + 1;
      st->nto = k + 1 < ns ? snap[k + 1] : seq->n;
      st->before = count[snap[k]];
      st->after = k + 1 < ns ? count[snap[k + 1]] : -1;
    } else {
      st->nfrom = k ? snap[k - 1] + 1 : 0;
      st->nto = snap[k];
      st->before = k ? count[snap[k - 1]] : -1;
      st->after = count[snap[k]];
    }
  }
  return nsteps;
}

json_t *ir_passes_trace(const struct ir_pass_seq *seq, const struct ir_symptom *sym, const struct ir_pass_table *tab,
                        const char *focus, char *err, size_t errlen)
{
  size_t *snap = NULL, ns = 0;
  long *count = NULL;
  struct ir_step *steps = NULL;
  size_t nsteps = 0;
  json_t *root = NULL, *changes = NULL, *persisted = NULL, *focusv = NULL, *appeared = NULL, *removed = NULL,
         *ret = NULL;
  int rc = -ENOMEM; /* until the result is complete, a failure is out of memory */

  if (!seq || !seq->n) {
    ir_perr(err, errlen, "empty pass sequence");
    rc = -EINVAL;
    goto out;
  }
  snap = calloc(seq->n, sizeof(*snap));
  count = calloc(seq->n, sizeof(*count));
  steps = calloc(seq->n + 1, sizeof(*steps));
  if (!snap || !count || !steps)
    goto out;
  /* Only dumps of the whole module are comparable snapshots; a dump of one function (the
   * inliner's nested canonicalizers) is folded into the step that spans it. */
  for (size_t i = 0; i < seq->n; i++) {
    count[i] = -1;
    if (seq->v[i].full) {
      count[i] = ir_symptom_count(sym, seq->v[i].ir, seq->v[i].ir_len);
      snap[ns++] = i;
    }
  }
  if (!ns) {
    ir_perr(err, errlen, "the pass dump has no whole-module snapshot");
    rc = -EINVAL;
    goto out;
  }
  nsteps = ir_steps(seq, snap, ns, count, steps);
  root = json_object();
  changes = json_array();
  persisted = json_array();
  if (!root || !changes || !persisted)
    goto out;
  if (focus && !(focusv = json_array()))
    goto out;
  for (size_t k = 0; k < nsteps; k++) {
    const struct ir_step *st = &steps[k];
    const struct ir_pass_dump *d = &seq->v[st->pass];
    const char *v = ir_verdict(st->before, st->after);
    int changed = !strcmp(v, "introduced") || !strcmp(v, "increased") || !strcmp(v, "reduced") || !strcmp(v, "removed");
    json_t *f = NULL;
    if (changed || (focus && !strcmp(d->arg, focus))) {
      f = ir_finding(seq, st, tab);
      if (!f)
        goto out;
    }
    if (!appeared && !strcmp(v, "introduced"))
      appeared = json_incref(f);
    if (!strcmp(v, "removed")) {
      json_decref(removed);
      removed = json_incref(f);
    }
    if (changed && json_array_size(changes) < IR_FINDINGS_MAX && json_array_append(changes, f)) {
      json_decref(f);
      goto out;
    }
    if (focus && !strcmp(d->arg, focus) && json_array_append(focusv, f)) {
      json_decref(f);
      goto out;
    }
    json_decref(f);
    if (st->before > 0 && st->after >= st->before) {
      /* Ran while the symptom was present and did not reduce it: once per pass-arg. */
      const char *key = d->arg[0] ? d->arg : d->name;
      json_t *e = NULL, *it;
      size_t i;
      json_array_foreach(persisted, i, it) {
        if (!strcmp(json_string_value(json_object_get(it, "pass_arg")), key)) {
          e = it;
          break;
        }
      }
      if (e) {
        if (json_object_set_new(e, "runs", json_integer(json_integer_value(json_object_get(e, "runs")) + 1)))
          goto out;
      } else if (json_array_size(persisted) < IR_FINDINGS_MAX) {
        const struct ir_pass_row *row = ir_pass_table_find(tab, d->arg, d->name);
        json_t *pe = json_pack("{s:s, s:s, s:i, s:s?}", "pass_arg", key, "pass", d->name, "runs", 1, "description",
                               row ? row->desc : NULL);
        if (!pe || json_array_append_new(persisted, pe))
          goto out;
      }
    }
  }
  if (json_object_set_new(root, "symptom", json_string(sym->spec)) ||
      json_object_set_new(root, "dumps", json_integer((json_int_t)seq->n)) ||
      json_object_set_new(root, "snapshots", json_integer((json_int_t)ns)) ||
      json_object_set_new(root, "initial_count", ir_count_json(count[snap[0]])) ||
      json_object_set_new(root, "final_count", ir_count_json(count[snap[ns - 1]])) ||
      json_object_set_new(root, "present_in_input", json_boolean(count[snap[0]] > 0)) ||
      json_object_set(root, "appeared", appeared ? appeared : json_null()) ||
      json_object_set(root, "removed", removed ? removed : json_null()) || json_object_set(root, "changes", changes) ||
      json_object_set(root, "persisted_through", persisted))
    goto out;
  if (!seq->v[snap[ns - 1]].after) {
    const struct ir_pass_dump *last = &seq->v[snap[ns - 1]];
    if (json_object_set_new(root, "unknown_after", json_string(last->arg[0] ? last->arg : last->name)))
      goto out;
  }
  if (focus && json_object_set(root, "focus", focusv))
    goto out;
  if (seq->truncated && json_object_set_new(root, "dump_truncated", json_true()))
    goto out;
  ret = root;
  root = NULL;
  rc = 0;
out:
  if (rc == -ENOMEM)
    ir_perr(err, errlen, "out of memory tracing the symptom");
  free(snap);
  free(count);
  free(steps);
  json_decref(root);
  json_decref(changes);
  json_decref(persisted);
  json_decref(focusv);
  json_decref(appeared);
  json_decref(removed);
  return ret;
}

json_t *ir_passes_trace_file(const char *path, const char *spec, const struct ir_pass_table *tab, const char *focus,
                             char *err, size_t errlen)
{
  char *text = NULL;
  size_t len = 0;
  struct ir_pass_seq seq;
  struct ir_symptom sym;
  json_t *ret = NULL;
  int rc, have_seq = 0, have_sym = 0;

  rc = ir_read_file(path, IR_TEXT_MAX, &text, &len);
  if (rc) {
    ir_perr(err, errlen, "cannot read pass dump %s: %s", path, strerror(-rc));
    goto out;
  }
  if (ir_passes_parse(text, len, &seq, err, errlen))
    goto out;
  have_seq = 1;
  if (ir_symptom_init(&sym, spec, err, errlen))
    goto out;
  have_sym = 1;
  ret = ir_passes_trace(&seq, &sym, tab, focus, err, errlen);
out:
  if (have_sym)
    ir_symptom_free(&sym);
  if (have_seq)
    ir_passes_free(&seq);
  free(text);
  return ret;
}
