#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"

struct diff_lines {
  const char **s;
  size_t *len;
  size_t n;
};

static int diff_split(const char *t, struct diff_lines *l)
{
  size_t cap = 0;
  l->s = NULL;
  l->len = NULL;
  l->n = 0;
  while (*t) {
    const char *e = strchr(t, '\n');
    size_t n = e ? (size_t)(e - t) : strlen(t);
    if (l->n == cap) {
      const char **ns;
      size_t *nl;
      cap = cap ? cap * 2 : 64;
      ns = realloc(l->s, cap * sizeof(*ns));
      if (!ns)
        return -1;
      l->s = ns;
      nl = realloc(l->len, cap * sizeof(*nl));
      if (!nl)
        return -1;
      l->len = nl;
    }
    l->s[l->n] = t;
    l->len[l->n++] = n;
    t += n + (e ? 1 : 0);
  }
  return 0;
}

static int diff_eq(const struct diff_lines *a, size_t i, const struct diff_lines *b, size_t j)
{
  return a->len[i] == b->len[j] && memcmp(a->s[i], b->s[j], a->len[i]) == 0;
}

static void diff_tunables(struct buf *o, const json_t *ta, const json_t *tb)
{
  const char *k;
  json_t *v;
  json_object_foreach((json_t *)tb, k, v) {
    json_t *old = json_object_get(ta, k);
    if (!old || !json_equal(old, v)) {
      char *a = old ? json_dumps(old, JSON_ENCODE_ANY) : NULL;
      char *b = json_dumps(v, JSON_ENCODE_ANY);
      buf_appendf(o, "tunable %s: %s -> %s\n", k, a ? a : "(default)", b ? b : "?");
      free(a);
      free(b);
    }
  }
}

char *diff_render(const char *a, const char *b, const json_t *ta, const json_t *tb)
{
  struct diff_lines la, lb;
  struct buf o;
  uint16_t *dp = NULL; /* (n+1)*(m+1) LCS lengths, capped by DIFF_MAX_LINES */
  size_t n, m, i, j;
  char *out = NULL;

  memset(&la, 0, sizeof(la));
  memset(&lb, 0, sizeof(lb));
  buf_init(&o, DIFF_MAX_OUT);
  diff_tunables(&o, ta, tb);
  if (strcmp(a, b) == 0) {
    if (!o.len)
      buf_appends(&o, "(no change)\n");
    return buf_take(&o, NULL);
  }
  if (diff_split(a, &la) || diff_split(b, &lb))
    goto out;
  n = la.n;
  m = lb.n;
  if (n > DIFF_MAX_LINES || m > DIFF_MAX_LINES) {
    buf_appendf(&o, "(source diff omitted: %zu and %zu lines, over %d)\n", n, m, DIFF_MAX_LINES);
    out = buf_take(&o, NULL);
    goto out;
  }
  dp = calloc((n + 1) * (m + 1), sizeof(*dp));
  if (!dp)
    goto out;
  for (i = n; i-- > 0;)
    for (j = m; j-- > 0;)
      dp[i * (m + 1) + j] = diff_eq(&la, i, &lb, j)
                                ? (uint16_t)(dp[(i + 1) * (m + 1) + j + 1] + 1)
                                : (dp[(i + 1) * (m + 1) + j] > dp[i * (m + 1) + j + 1]
                                       ? dp[(i + 1) * (m + 1) + j]
                                       : dp[i * (m + 1) + j + 1]);
  buf_appends(&o, "--- incumbent\n+++ candidate\n");
  for (i = 0, j = 0; i < n || j < m;) {
    if (i < n && j < m && diff_eq(&la, i, &lb, j)) {
      i++;
      j++;
    } else if (j < m && (i == n || dp[i * (m + 1) + j + 1] >= dp[(i + 1) * (m + 1) + j])) {
      buf_appendf(&o, "+%zu: %.*s\n", j + 1, (int)lb.len[j], lb.s[j]);
      j++;
    } else {
      buf_appendf(&o, "-%zu: %.*s\n", i + 1, (int)la.len[i], la.s[i]);
      i++;
    }
  }
  out = buf_take(&o, NULL);
out:
  free(dp);
  free(la.s);
  free(la.len);
  free(lb.s);
  free(lb.len);
  buf_free(&o);
  return out;
}
