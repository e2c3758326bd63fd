/* ir_text: the MLIR text helpers the IR readers share (declared in ir_text.h): bounded file
 * reading, line slicing, bounded JSON counters, the location table (`#locN = loc(...)`
 * aliases resolved to lines of the user's kernel file) and the scalar-op classifier of
 * linalg/HIVM-level IR. Nothing here allocates beyond the file buffer and the location
 * table (one slot per #loc alias, capped). */
#include "ir.h"
#include "ir_text.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IR_LOC_ALIASES_MAX (1u << 18) /* #locN aliases kept; N beyond this is unresolved */
#define IR_LOC_DEPTH_MAX 32           /* nesting of loc(...) expressions followed */


int ir_read_file(const char *path, size_t cap, char **out, size_t *len)
{
  int fd = -1, rc = 0;
  char *buf = NULL;
  size_t n = 0, alloc = 0;
  struct stat st;

  *out = NULL;
  if (len)
    *len = 0;
  fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    rc = -errno;
    goto out;
  }
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (unsigned long long)st.st_size > cap) {
    rc = -EFBIG;
    goto out;
  }
  for (;;) {
    ssize_t r;
    if (n + 1 >= alloc) {
      size_t na = alloc ? alloc * 2 : 65536;
      char *nb;
      if (na > cap + 2)
        na = cap + 2; /* one byte past cap tells "too big" apart from "exactly cap" */
      if (na <= n + 1) {
        rc = -EFBIG;
        goto out;
      }
      nb = realloc(buf, na);
      if (!nb) {
        rc = -ENOMEM;
        goto out;
      }
      buf = nb;
      alloc = na;
    }
    r = read(fd, buf + n, alloc - 1 - n);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      rc = -errno;
      goto out;
    }
    if (r == 0)
      break;
    n += (size_t)r;
    if (n > cap) {
      rc = -EFBIG;
      goto out;
    }
  }
  if (!buf) {
    buf = malloc(1);
    if (!buf) {
      rc = -ENOMEM;
      goto out;
    }
  }
  buf[n] = '\0';
  *out = buf;
  buf = NULL;
  if (len)
    *len = n;
out:
  free(buf);
  if (fd >= 0)
    close(fd);
  return rc;
}

/* ---- small text helpers ---- */

/* Next line of [*cur, end): sets *p and *n (without the newline), advances *cur; 0 at the end. */
int ir_next_line(const char **cur, const char *end, const char **p, size_t *n)
{
  const char *s = *cur, *nl;
  if (s >= end)
    return 0;
  nl = memchr(s, '\n', (size_t)(end - s));
  *p = s;
  *n = nl ? (size_t)(nl - s) : (size_t)(end - s);
  *cur = nl ? nl + 1 : end;
  return 1;
}

/* Trims spaces/tabs/CR on both sides of a line slice. */
void ir_trim(const char **p, size_t *n)
{
  while (*n && (**p == ' ' || **p == '\t')) {
    (*p)++;
    (*n)--;
  }
  while (*n && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t' || (*p)[*n - 1] == '\r'))
    (*n)--;
}

int ir_starts(const char *p, size_t n, const char *lit)
{
  size_t l = strlen(lit);
  return n >= l && memcmp(p, lit, l) == 0;
}

const char *ir_find(const char *p, size_t n, const char *lit)
{
  return memmem(p, n, lit, strlen(lit));
}

/* Last occurrence of lit in [p, p+n). */
const char *ir_find_last(const char *p, size_t n, const char *lit)
{
  const char *best = NULL, *q = p;
  size_t l = strlen(lit);
  while (q + l <= p + n) {
    const char *f = memmem(q, (size_t)(p + n - q), lit, l);
    if (!f)
      break;
    best = f;
    q = f + 1;
  }
  return best;
}

static int ir_is_ident(int c)
{
  return isalnum(c) || c == '_' || c == '.' || c == '$';
}

/* Adds by to the integer member key of obj (created at by; obj keeps the reference). 0 or
 * -ENOMEM. */
int ir_bump(json_t *obj, const char *key, json_int_t by)
{
  json_t *v = json_object_get(obj, key);
  if (v)
    return json_integer_set(v, json_integer_value(v) + by) ? -ENOMEM : 0;
  return json_object_set_new(obj, key, json_integer(by)) ? -ENOMEM : 0;
}

json_int_t ir_geti(const json_t *obj, const char *key)
{
  return json_integer_value(json_object_get(obj, key));
}

int ir_set_int(json_t *obj, const char *key, json_int_t v)
{
  return json_object_set_new(obj, key, json_integer(v)) ? -ENOMEM : 0;
}

/* by_line[line][key] += by; the per-line object is created in and owned by by_line. Lines
 * past IR_BY_LINE_MAX set *trunc and are dropped. */
int ir_line_bump(json_t *by_line, long line, const char *key, json_int_t by, int *trunc)
{
  char k[24];
  json_t *o;
  if (!by_line || line <= 0)
    return 0;
  snprintf(k, sizeof(k), "%ld", line);
  o = json_object_get(by_line, k);
  if (!o) {
    if (json_object_size(by_line) >= IR_BY_LINE_MAX) {
      *trunc = 1;
      return 0;
    }
    o = json_object();
    if (!o || json_object_set_new(by_line, k, o))
      return -ENOMEM;
  }
  return ir_bump(o, key, by);
}

size_t ir_mlir_op_name(const char *line, size_t len, char *out, size_t outlen)
{
  const char *p = line, *e, *s;
  size_t n = len, l;
  int has_dot = 0;

  if (outlen)
    out[0] = '\0';
  ir_trim(&p, &n);
  if (!n || *p == '#' || *p == '}' || *p == '^' || *p == ')' || ir_starts(p, n, "//"))
    return 0;
  e = p + n;
  if (*p == '%') {
    /* `%x = op` / `%x:3 = op`: the op follows the first " = ". */
    const char *eq = ir_find(p, n, " = ");
    if (!eq)
      return 0;
    p = eq + 3;
    while (p < e && *p == ' ')
      p++;
  }
  if (p < e && *p == '"') { /* generic form: "tt.reduce"(...) */
    s = ++p;
    while (p < e && *p != '"')
      p++;
    if (p >= e)
      return 0;
    l = (size_t)(p - s);
  } else {
    s = p;
    while (p < e && ir_is_ident((unsigned char)*p))
      p++;
    l = (size_t)(p - s);
  }
  if (!l || !isalpha((unsigned char)s[0]))
    return 0;
  for (size_t i = 0; i < l; i++)
    has_dot |= s[i] == '.';
  if (!has_dot)
    return 0; /* `module`, `return`, continuation lines such as `outs(...)` */
  if (l >= outlen)
    return 0;
  memcpy(out, s, l);
  out[l] = '\0';
  return l;
}

long ir_mlir_count_op(const char *text, size_t len, const char *op)
{
  const char *cur = text, *end = text + len, *p;
  size_t n;
  char name[IR_OP_MAX];
  long c = 0;
  while (ir_next_line(&cur, end, &p, &n))
    if (ir_mlir_op_name(p, n, name, sizeof(name)) && strcmp(name, op) == 0)
      c++;
  return c;
}

/* ---- MLIR locations ---- */




const char *ir_basename(const char *p, size_t n, size_t *bn)
{
  const char *s = p;
  for (size_t i = 0; i < n; i++)
    if (p[i] == '/')
      s = p + i + 1;
  *bn = (size_t)(p + n - s);
  return s;
}

static int ir_same_file(const char *a, size_t al, const char *b, size_t bl)
{
  size_t an, bn;
  const char *ab, *bb;
  if (!a || !b)
    return 0;
  if (al == bl && memcmp(a, b, al) == 0)
    return 1;
  /* PTX comments name files by basename only. */
  ab = ir_basename(a, al, &an);
  bb = ir_basename(b, bl, &bn);
  return an == bn && an && memcmp(ab, bb, an) == 0;
}

static int ir_in_user(const struct ir_locs *L, const struct ir_flc *f)
{
  return f->file && L->user && ir_same_file(f->file, f->flen, L->user, L->ulen);
}

/* End of a parenthesised or bracketed group that starts just after its opener, respecting
 * quoted strings; NULL when unbalanced. */
const char *ir_group_end(const char *p, const char *e, char open, char close)
{
  int depth = 1;
  while (p < e) {
    if (*p == '"') {
      p++;
      while (p < e && *p != '"') {
        if (*p == '\\' && p + 1 < e)
          p++;
        p++;
      }
    } else if (*p == open) {
      depth++;
    } else if (*p == close && --depth == 0) {
      return p;
    }
    p++;
  }
  return NULL;
}

long ir_parse_long(const char **pp, const char *e)
{
  long v = 0;
  const char *p = *pp;
  while (p < e && isdigit((unsigned char)*p) && v < 100000000L)
    v = v * 10 + (*p++ - '0');
  *pp = p;
  return v;
}

static void ir_loc_alias(struct ir_locs *L, size_t idx, int depth, struct ir_flc *out);

/* Parses one location expression at p (the inside of loc(...)); fills *out with the
 * user-file location it stands for (callsite: the callee when it is in the user's file,
 * else the caller). Returns the end of the expression, or NULL on a syntax it does not
 * know. */
static const char *ir_loc_expr(struct ir_locs *L, const char *p, const char *e, int depth, struct ir_flc *out)
{
  out->file = NULL;
  out->flen = 0;
  out->line = -1;
  while (p < e && *p == ' ')
    p++;
  if (p >= e || depth > IR_LOC_DEPTH_MAX)
    return NULL;
  if (ir_starts(p, (size_t)(e - p), "#loc")) {
    size_t idx = 0;
    p += 4;
    if (p < e && isdigit((unsigned char)*p))
      idx = (size_t)ir_parse_long(&p, e) + 1;
    ir_loc_alias(L, idx, depth + 1, out);
    return p;
  }
  if (*p == '"') {
    const char *s = ++p;
    while (p < e && *p != '"') {
      if (*p == '\\' && p + 1 < e)
        p++;
      p++;
    }
    if (p >= e)
      return NULL;
    size_t sl = (size_t)(p - s);
    p++;
    if (p < e && *p == ':') { /* "file":line:col */
      p++;
      out->file = s;
      out->flen = sl;
      out->line = ir_parse_long(&p, e);
      if (p < e && *p == ':') {
        p++;
        (void)ir_parse_long(&p, e);
      }
      return p;
    }
    if (p < e && *p == '(') { /* "name"(child) */
      const char *ce = ir_group_end(p + 1, e, '(', ')');
      if (!ce)
        return NULL;
      if (!ir_loc_expr(L, p + 1, ce, depth + 1, out))
        return NULL;
      return ce + 1;
    }
    return p; /* a bare name: no position */
  }
  if (ir_starts(p, (size_t)(e - p), "callsite(")) {
    struct ir_flc a, b;
    const char *ce = ir_group_end(p + 9, e, '(', ')'), *q;
    if (!ce)
      return NULL;
    q = ir_loc_expr(L, p + 9, ce, depth + 1, &a);
    if (!q)
      return NULL;
    while (q < ce && *q == ' ')
      q++;
    if (!ir_starts(q, (size_t)(ce - q), "at "))
      return NULL;
    if (!ir_loc_expr(L, q + 3, ce, depth + 1, &b))
      return NULL;
    *out = ir_in_user(L, &a) ? a : b;
    return ce + 1;
  }
  if (ir_starts(p, (size_t)(e - p), "fused")) {
    struct ir_flc first = {NULL, 0, -1}, f;
    const char *ce, *q;
    int have = 0;
    p += 5;
    if (p < e && *p == '<') {
      const char *ge = ir_group_end(p + 1, e, '<', '>');
      if (!ge)
        return NULL;
      p = ge + 1;
    }
    if (p >= e || *p != '[')
      return NULL;
    ce = ir_group_end(p + 1, e, '[', ']');
    if (!ce)
      return NULL;
    q = p + 1;
    while (q < ce) {
      q = ir_loc_expr(L, q, ce, depth + 1, &f);
      if (!q)
        return NULL;
      if (ir_in_user(L, &f)) {
        *out = f;
        return ce + 1;
      }
      if (!have && f.file) {
        first = f;
        have = 1;
      }
      while (q < ce && (*q == ',' || *q == ' '))
        q++;
    }
    *out = first;
    return ce + 1;
  }
  if (ir_starts(p, (size_t)(e - p), "unknown"))
    return p + 7;
  return NULL;
}

static void ir_loc_alias(struct ir_locs *L, size_t idx, int depth, struct ir_flc *out)
{
  struct ir_locdef *d;
  out->file = NULL;
  out->flen = 0;
  out->line = -1;
  if (idx >= L->n || !L->v[idx].expr)
    return;
  d = &L->v[idx];
  if (d->state == 2) {
    *out = d->flc;
    return;
  }
  if (d->state == 1)
    return; /* a cycle: leave it unresolved */
  d->state = 1;
  if (!ir_loc_expr(L, d->expr, d->expr + d->len, depth, &d->flc)) {
    d->flc.file = NULL;
    d->flc.line = -1;
  }
  d->state = 2;
  *out = d->flc;
}

/* Collects `#loc... = loc(...)` definitions and picks the user's file: the file of the
 * bare #loc (the kernel's own location), else of the first file location defined. */
int ir_locs_build(struct ir_locs *L, const char *text, size_t len)
{
  const char *cur = text, *end = text + len, *p;
  size_t n;
  int rc = 0;

  memset(L, 0, sizeof(*L));
  while (ir_next_line(&cur, end, &p, &n)) {
    const char *q, *e = p + n, *ex, *ce;
    size_t idx = 0;
    if (!ir_starts(p, n, "#loc"))
      continue;
    q = p + 4;
    if (q < e && isdigit((unsigned char)*q)) {
      long v = ir_parse_long(&q, e);
      if (v < 0 || (unsigned long)v >= IR_LOC_ALIASES_MAX)
        continue;
      idx = (size_t)v + 1;
    }
    if (!ir_starts(q, (size_t)(e - q), " = loc("))
      continue;
    ex = q + 7;
    ce = ir_group_end(ex, e, '(', ')');
    if (!ce)
      continue;
    if (idx >= L->n) {
      size_t nn = L->n ? L->n : 64;
      struct ir_locdef *nv;
      while (nn <= idx)
        nn *= 2;
      nv = realloc(L->v, nn * sizeof(*nv));
      if (!nv) {
        rc = -ENOMEM;
        goto out;
      }
      memset(nv + L->n, 0, (nn - L->n) * sizeof(*nv));
      L->v = nv;
      L->n = nn;
    }
    L->v[idx].expr = ex;
    L->v[idx].len = (size_t)(ce - ex);
    if (ir_starts(ex, (size_t)(ce - ex), "\"") && !L->user) {
      struct ir_flc f;
      if (ir_loc_expr(L, ex, ce, 0, &f) && f.file && (idx == 0 || !L->user)) {
        L->user = f.file;
        L->ulen = f.flen;
      }
    }
  }
  /* The bare #loc wins over the first definition seen. */
  if (L->n && L->v[0].expr) {
    struct ir_flc f;
    if (ir_loc_expr(L, L->v[0].expr, L->v[0].expr + L->v[0].len, 0, &f) && f.file) {
      L->user = f.file;
      L->ulen = f.flen;
    }
  }
  /* Definitions were parsed before the user file was known: resolve lazily from here. */
  for (size_t i = 0; i < L->n; i++)
    L->v[i].state = 0;
out:
  return rc;
}

void ir_locs_free(struct ir_locs *L)
{
  free(L->v);
  memset(L, 0, sizeof(*L));
}

/* The user-file line of an op line's trailing loc(...), or -1. */
long ir_line_of(struct ir_locs *L, const char *p, size_t n)
{
  const char *l = ir_find_last(p, n, "loc("), *ce;
  struct ir_flc f;
  if (!L || !l)
    return -1;
  ce = ir_group_end(l + 4, p + n, '(', ')');
  if (!ce || !ir_loc_expr(L, l + 4, ce, 0, &f))
    return -1;
  return ir_in_user(L, &f) && f.line > 0 ? f.line : -1;
}

/* Scalar computation in HIVM/linalg-level IR: arith/math ops whose result type is a plain
 * integer or float (not index, not a shaped type), and element-wise memory access. Sets
 * *i64 for i64 results (i64 arithmetic is what Ascend lowers to scalar code). */
int ir_is_scalar_op(const char *op, const char *p, size_t n, int *i64, int *mem)
{
  const char *c, *e = p + n, *t, *to, *lc;
  size_t tl;
  *i64 = 0;
  *mem = 0;
  if (strcmp(op, "memref.load") == 0 || strcmp(op, "memref.store") == 0 || strcmp(op, "affine.load") == 0 ||
      strcmp(op, "affine.store") == 0 || strcmp(op, "hivm.hir.load_scalar") == 0) {
    *mem = 1;
    return 1;
  }
  if ((strncmp(op, "arith.", 6) != 0 && strncmp(op, "math.", 5) != 0) || strcmp(op, "arith.constant") == 0)
    return 0;
  lc = ir_find(p, n, " loc(");
  if (lc)
    e = lc;
  c = ir_find_last(p, (size_t)(e - p), " : ");
  if (!c)
    return 0;
  t = c + 3;
  to = ir_find_last(t, (size_t)(e - t), " to ");
  if (to)
    t = to + 4;
  while (t < e && *t == ' ')
    t++;
  tl = (size_t)(e - t);
  while (tl && (t[tl - 1] == ' ' || t[tl - 1] == '\r'))
    tl--;
  if (!tl || memchr(t, '<', tl) || (tl == 5 && memcmp(t, "index", 5) == 0))
    return 0;
  if (!((t[0] == 'i' || t[0] == 'f') && tl > 1 && isdigit((unsigned char)t[1])) && !(tl == 4 && !memcmp(t, "bf16", 4)))
    return 0;
  *i64 = tl == 3 && memcmp(t, "i64", 3) == 0;
  return 1;
}

int ir_check_input(const char *what, const char *text, char *err, size_t errlen)
{
  if (text && strnlen(text, (size_t)IR_TEXT_MAX + 1) > IR_TEXT_MAX) {
    ir_errf(err, errlen, "%s is larger than %u bytes", what, IR_TEXT_MAX);
    return -EFBIG;
  }
  return 0;
}

/* Reads an optional IR file: 0 with *text NULL when path is NULL or the file is missing. */
int ir_read_optional(const char *what, const char *path, char **text, char *err, size_t errlen)
{
  int rc;
  *text = NULL;
  if (!path)
    return 0;
  rc = ir_read_file(path, IR_TEXT_MAX, text, NULL);
  if (rc == -ENOENT)
    return 0;
  if (rc)
    ir_errf(err, errlen, "cannot read %s %s: %s", what, path, strerror(-rc));
  return rc;
}

long ir_shape_product(const char **q, const char *e)
{
  long total = 1;
  while (*q < e && isdigit((unsigned char)**q)) {
    const char *d0 = *q;
    long d = ir_parse_long(q, e);
    if (*q >= e || **q != 'x') {
      *q = d0; /* not a dimension: leave the cursor at it */
      break;
    }
    if (d > 0 && total < (1L << 40) / d)
      total *= d;
    (*q)++;
  }
  return *q < e && **q == '?' ? -1 : total;
}

int ir_elem_bytes(const char *q, const char *e)
{
  size_t n = (size_t)(e - q);
  if (ir_starts(q, n, "bf16") || ir_starts(q, n, "f16") || ir_starts(q, n, "i16"))
    return 2;
  if (ir_starts(q, n, "f32") || ir_starts(q, n, "i32"))
    return 4;
  if (ir_starts(q, n, "f64") || ir_starts(q, n, "i64"))
    return 8;
  if (ir_starts(q, n, "f8") || ir_starts(q, n, "i8") || ir_starts(q, n, "i1"))
    return 1;
  return 0;
}
