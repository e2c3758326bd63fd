#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rules.h"

#define RULES_SRC_CAP (1u << 20)

static int rules_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static struct rules_knob *rules_find(struct rules_knobs *ks, const char *name)
{
  for (unsigned i = 0; i < ks->n; i++)
    if (strcmp(ks->k[i].name, name) == 0)
      return &ks->k[i];
  return NULL;
}

static struct rules_knob *rules_add(struct rules_knobs *ks, const char *name, size_t len,
                                    long value, enum rules_via via)
{
  struct rules_knob *k;
  char nm[64];
  if (len >= sizeof(nm))
    return NULL;
  memcpy(nm, name, len);
  nm[len] = '\0';
  k = rules_find(ks, nm);
  if (k)
    return k;
  if (ks->n == RULES_MAX_KNOBS)
    return NULL;
  k = &ks->k[ks->n++];
  memset(k, 0, sizeof(*k));
  snprintf(k->name, sizeof(k->name), "%s", nm);
  k->value = value;
  k->via = via;
  return k;
}

/* Index of the ')' closing the '(' at open, skipping strings; -1 if unbalanced. */
static long rules_close_paren(const char *s, long open)
{
  int depth = 0;
  char q = 0;
  for (long i = open; s[i]; i++) {
    char c = s[i];
    if (q) {
      if (c == '\\' && s[i + 1])
        i++;
      else if (c == q)
        q = 0;
      continue;
    }
    if (c == '"' || c == '\'')
      q = c;
    else if (c == '(' || c == '[' || c == '{')
      depth++;
    else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0)
        return i;
    }
  }
  return -1;
}

/* Scans NAME=INT (or NAME: int = INT) pairs at depth 1 of the span (open, close). */
static void rules_scan_kwargs(const char *s, long open, long close, struct rules_knobs *ks,
                              enum rules_via via, int only_launch_names)
{
  int depth = 0;
  for (long i = open + 1; i < close; i++) {
    char c = s[i];
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if (c == ')' || c == ']' || c == '}')
      depth--;
    if (depth != 0 || !(isalpha((unsigned char)c) || c == '_') || rules_ident_char(s[i - 1]))
      continue;
    {
      long j = i, k;
      char *end;
      long v;
      while (rules_ident_char(s[j]))
        j++;
      k = j;
      while (s[k] == ' ')
        k++;
      if (s[k] == ':') { /* annotation: NAME: int = 128 */
        k++;
        while (s[k] == ' ' || rules_ident_char(s[k]))
          k++;
      }
      while (s[k] == ' ')
        k++;
      if (s[k] != '=' || s[k + 1] == '=')
        continue;
      k++;
      while (s[k] == ' ')
        k++;
      v = strtol(s + k, &end, 10);
      if (end == s + k || rules_ident_char(*end) || *end == '.')
        continue;
      if (only_launch_names) {
        size_t n = (size_t)(j - i);
        int ok = (n >= 5 && strncmp(s + i, "BLOCK", 5) == 0) ||
                 (n == 9 && strncmp(s + i, "num_warps", 9) == 0) ||
                 (n == 10 && strncmp(s + i, "num_stages", 10) == 0) ||
                 (n > 5 && strncmp(s + j - 5, "BLOCK", 5) == 0) ||
                 (n > 5 && strncmp(s + j - 5, "_SIZE", 5) == 0);
        if (!ok)
          continue;
      }
      rules_add(ks, s + i, (size_t)(j - i), v, via);
      i = (long)(end - s) - 1;
    }
  }
}

void rules_discover(const char *source, const json_t *declared, const json_t *current,
                    struct rules_knobs *out)
{
  const char *cls = strstr(source, "class ModelNew"), *init, *fwd;
  const char *key;
  json_t *v;

  memset(out, 0, sizeof(*out));
  if (cls && (init = strstr(cls, "def __init__(")) != NULL) {
    long open = (long)(init - source) + 12;
    long close = rules_close_paren(source, open);
    if (close > open)
      rules_scan_kwargs(source, open, close, out, RULES_CTOR, 0);
  }
  /* Launch sites: kernel[grid](...) inside forward. */
  if (cls && (fwd = strstr(cls, "def forward(")) != NULL) {
    const char *p = fwd;
    while ((p = strstr(p, "](")) != NULL) {
      long open = (long)(p - source) + 1;
      long close = rules_close_paren(source, open);
      if (close < 0)
        break;
      rules_scan_kwargs(source, open, close, out, RULES_LAUNCH, 1);
      p = source + close;
    }
  }
  json_object_foreach((json_t *)declared, key, v) {
    struct rules_knob *k = rules_find(out, key);
    size_t i;
    json_t *x;
    if (!k)
      k = rules_add(out, key, strlen(key), -1, RULES_CTOR);
    if (!k)
      continue;
    k->nchoices = 0;
    json_array_foreach(v, i, x)
      if (json_is_integer(x) && k->nchoices < 32)
        k->choices[k->nchoices++] = (long)json_integer_value(x);
    if (k->value < 0 && k->nchoices)
      k->value = k->choices[0];
  }
  json_object_foreach((json_t *)current, key, v) {
    struct rules_knob *k = rules_find(out, key);
    if (k && json_is_integer(v))
      k->value = (long)json_integer_value(v);
  }
}

char *rules_set_launch_kwarg(const char *source, const char *name, long value)
{
  const char *cls = strstr(source, "class ModelNew");
  const char *fwd = cls ? strstr(cls, "def forward(") : NULL;
  struct buf b;
  size_t nl = strlen(name);
  long pos = 0, found = 0;
  const char *p;

  if (!fwd)
    return NULL;
  buf_init(&b, RULES_SRC_CAP);
  p = fwd;
  while ((p = strstr(p, "](")) != NULL) {
    long open = (long)(p - source) + 1, close = rules_close_paren(source, open), hit = -1;
    if (close < 0)
      break;
    for (long i = open + 1; i + (long)nl < close; i++) {
      long k = i + (long)nl;
      if (strncmp(source + i, name, nl) == 0 && !rules_ident_char(source[i - 1]) &&
          !rules_ident_char(source[k])) {
        while (source[k] == ' ')
          k++;
        if (source[k] == '=' && source[k + 1] != '=') {
          hit = k + 1;
          break;
        }
      }
    }
    if (hit >= 0) {
      long e = hit;
      while (source[e] == ' ')
        e++;
      if (isdigit((unsigned char)source[e])) {
        long d = e;
        while (isdigit((unsigned char)source[d]))
          d++;
        buf_append(&b, source + pos, (size_t)(e - pos));
        buf_appendf(&b, "%ld", value);
        pos = d;
        found++;
      }
      /* A keyword bound to a name (self.X) is set through the constructor instead. */
    } else {
      long e = close;
      while (e > open && (source[e - 1] == ' ' || source[e - 1] == '\n'))
        e--;
      buf_append(&b, source + pos, (size_t)(e - pos));
      buf_appendf(&b, "%s%s=%ld", source[e - 1] == ',' || source[e - 1] == '(' ? " " : ", ",
                  name, value);
      pos = e;
      found++;
    }
    p = source + close;
  }
  if (!found) {
    buf_free(&b);
    return NULL;
  }
  buf_appends(&b, source + pos);
  return buf_take(&b, NULL);
}

char *rules_add_contiguity_hints(const char *source)
{
  struct buf b;
  const char *line = source;
  int changed = 0;
  if (strstr(source, "tl.max_contiguous"))
    return NULL;
  buf_init(&b, RULES_SRC_CAP);
  while (*line) {
    const char *eol = strchr(line, '\n');
    size_t len = eol ? (size_t)(eol - line + 1) : strlen(line);
    char var[64], blk[64];
    const char *ar = memmem(line, len, "tl.arange(0, ", 13);
    buf_append(&b, line, len);
    if (ar && sscanf(line, " %63[A-Za-z0-9_] =", var) == 1 &&
        sscanf(ar + 13, "%63[A-Za-z0-9_]", blk) == 1 && !strchr(var, '[')) {
      int indent = 0;
      while (line[indent] == ' ')
        indent++;
      if (!eol)
        buf_appends(&b, "\n");
      buf_appendf(&b, "%*s%s = tl.max_contiguous(tl.multiple_of(%s, %s), %s)\n", indent, "",
                  var, var, blk, blk);
      changed = 1;
    }
    line += len;
  }
  if (!changed) {
    buf_free(&b);
    return NULL;
  }
  return buf_take(&b, NULL);
}

static int rules_tried(const json_t *tried, const char *sig)
{
  size_t i;
  json_t *v;
  json_array_foreach((json_t *)tried, i, v)
    if (json_is_string(v) && strcmp(json_string_value(v), sig) == 0)
      return 1;
  return 0;
}

/* Next value for a knob in a direction: declared choices in order, else powers of two
 * within [lo, hi]. Skips values whose signature was tried. -1 when none. */
static long rules_next(const struct rules_knob *k, int up, long lo, long hi, const json_t *tried)
{
  char sig[96];
  if (k->nchoices) {
    long best = -1;
    for (unsigned i = 0; i < k->nchoices; i++) {
      long c = k->choices[i];
      snprintf(sig, sizeof(sig), "%s=%ld", k->name, c);
      if ((up ? c > k->value : c < k->value) && !rules_tried(tried, sig) &&
          (best < 0 || (up ? c < best : c > best)))
        best = c;
    }
    return best;
  }
  for (long c = up ? k->value * 2 : k->value / 2; c >= lo && c <= hi; c = up ? c * 2 : c / 2) {
    snprintf(sig, sizeof(sig), "%s=%ld", k->name, c);
    if (!rules_tried(tried, sig))
      return c;
  }
  return -1;
}

static struct rules_knob *rules_block_knob(struct rules_knobs *ks)
{
  for (unsigned i = 0; i < ks->n; i++)
    if (strstr(ks->k[i].name, "BLOCK") && ks->k[i].value > 0)
      return &ks->k[i];
  for (unsigned i = 0; i < ks->n; i++) {
    size_t n = strlen(ks->k[i].name);
    if (n > 5 && !strcmp(ks->k[i].name + n - 5, "_SIZE") && ks->k[i].value > 0)
      return &ks->k[i];
  }
  return NULL;
}

/* Applies knob := value to the candidate: a constructor tunable or a launch literal. */
static int rules_apply(const char *source, const json_t *current, const struct rules_knob *k,
                       long value, struct proposal *p)
{
  json_t *t = current ? json_deep_copy(current) : json_object();
  if (k->via == RULES_LAUNCH) {
    p->source = rules_set_launch_kwarg(source, k->name, value);
    if (!p->source) {
      json_decref(t);
      return -ENOENT;
    }
  } else {
    p->source = strdup(source);
    json_object_set_new(t, k->name, json_integer(value));
  }
  p->tunables_json = json_dumps(t, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(t);
  return p->source && p->tunables_json ? 0 : -ENOMEM;
}

int rules_propose(const char *family, const char *direction, const char *source,
                  const json_t *declared, const json_t *current, const json_t *tried,
                  const char *evidence_words, int level, struct proposal *p, char **signature,
                  char *why, size_t whylen)
{
  struct rules_knobs ks;
  struct rules_knob *k = NULL, launch_warps;
  int up = !direction || strcmp(direction, "down") != 0;
  long nv = -1, lo = 1, hi = 1 << 16;
  char sig[128], hyp[1200];
  int rc;

  *signature = NULL;
  rules_discover(source, declared, current, &ks);
  if (!strcmp(family, "block_size")) {
    k = rules_block_knob(&ks);
    lo = 16;
    hi = 16384;
  } else if (!strcmp(family, "num_warps") || !strcmp(family, "num_stages")) {
    k = rules_find(&ks, family);
    lo = 1;
    hi = !strcmp(family, "num_warps") ? 16 : 6;
    if (!k) {
      /* Not set anywhere: Triton's default (4 warps, 3 stages on cuda) applies, and the rules
       * add the keyword to the launch. */
      memset(&launch_warps, 0, sizeof(launch_warps));
      snprintf(launch_warps.name, sizeof(launch_warps.name), "%s", family);
      launch_warps.value = !strcmp(family, "num_warps") ? 4 : 3;
      launch_warps.via = RULES_LAUNCH;
      k = &launch_warps;
    }
    if (!strcmp(family, "num_stages") && up) {
      /* +1, not x2, for stages. */
      for (long c = k->value + 1; c <= hi; c++) {
        snprintf(sig, sizeof(sig), "%s=%ld", k->name, c);
        if (!rules_tried(tried, sig)) {
          nv = c;
          break;
        }
      }
    }
  } else if (!strcmp(family, "vectorize_access")) {
    struct rules_knob *w = rules_find(&ks, "num_warps");
    long warps = w ? w->value : 4;
    k = rules_block_knob(&ks);
    if (k) {
      /* Four 32-bit elements per thread make 128-bit accesses possible. */
      long want = 4 * 32 * warps;
      nv = k->value;
      while (nv < want)
        nv *= 2;
      snprintf(sig, sizeof(sig), "%s=%ld", k->name, nv);
      if (nv == k->value || rules_tried(tried, sig))
        nv = rules_next(k, 1, 16, 16384, tried);
    }
    if (!k || nv < 0) {
      char *hinted = rules_add_contiguity_hints(source);
      if (!hinted || rules_tried(tried, "contiguity_hints")) {
        free(hinted);
        snprintf(why, whylen, "rules: no BLOCK tunable left to widen and no offsets line to hint");
        return -ENOENT;
      }
      p->source = hinted;
      p->tunables_json = current ? json_dumps(current, JSON_COMPACT | JSON_SORT_KEYS) : strdup("{}");
      snprintf(p->family, sizeof(p->family), "%s", family);
      snprintf(hyp, sizeof(hyp),
               "L%d: %s Contiguity hints (tl.multiple_of, tl.max_contiguous) on the offsets let "
               "the compiler emit 128-bit accesses (vectorize_access).",
               level, evidence_words);
      p->hypothesis = strdup(hyp);
      *signature = strdup("contiguity_hints");
      return 0;
    }
  } else {
    snprintf(why, whylen, "rules: no mechanical rewrite for family %s (an llm or agent proposer can)",
             family);
    return -ENOENT;
  }
  if (!k) {
    snprintf(why, whylen, "rules: no tunable for %s in the kernel (declare tunables, or expose "
                          "BLOCK*/num_warps/num_stages at the launch or in ModelNew.__init__)",
             family);
    return -ENOENT;
  }
  if (nv < 0)
    nv = rules_next(k, up, lo, hi, tried);
  if (nv < 0 || nv == k->value) {
    snprintf(why, whylen, "rules: every %s value %s of %ld has been tried", k->name,
             up ? "above" : "below", k->value);
    return -ENOENT;
  }
  rc = rules_apply(source, current, k, nv, p);
  if (rc) {
    snprintf(why, whylen, "rules: cannot apply %s=%ld", k->name, nv);
    return rc;
  }
  snprintf(p->family, sizeof(p->family), "%s", family);
  snprintf(hyp, sizeof(hyp), "L%d: %s So %s %ld -> %ld (%s, %s).", level, evidence_words,
           k->name, k->value, nv, family,
           k->via == RULES_LAUNCH ? "launch keyword" : "constructor tunable");
  p->hypothesis = strdup(hyp);
  snprintf(sig, sizeof(sig), "%s=%ld", k->name, nv);
  *signature = strdup(sig);
  return p->hypothesis && *signature ? 0 : -ENOMEM;
}
