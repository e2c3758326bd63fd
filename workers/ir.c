/* ir: L3 IR attribution from the text of TTGIR, PTX and SASS (cuda), and the MLIR helpers and
 * region walker the Ascend readers (ir_ascend.c) share through ir_text.h.
 * See ir.h for the JSON shape. The parsers walk the text line by line; nothing is built
 * that grows with the input except the location table (one slot per #loc alias, capped)
 * and the list of PTX global-load positions (one per load, capped with the input). */
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
#define IR_FRAMES_MAX 64              /* region nesting tracked by the MLIR walker */
#define IR_PTX_FILES_MAX 256          /* .file entries kept */
#define IR_PTX_LABELS_MAX 65536       /* PTX labels kept (loop detection) */


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

static json_int_t ir_geti(const json_t *obj, const char *key)
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




static const char *ir_basename(const char *p, size_t n, size_t *bn)
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

/* ---- MLIR walker (TTGIR, per-pass dumps, HIVM) ---- */

static const char *const ir_ttgir_ops[] = {
  "tt.load", "tt.store", "tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "ttng.tc_gen5_mma",
  "ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.local_store",
  "ttg.async_copy_global_to_local", "ttg.async_wait", "ttng.async_tma_copy_global_to_local",
  "ttng.async_tma_copy_local_to_global", "tt.descriptor_load", "tt.descriptor_store", "tt.reduce",
  "tt.scan", "tt.atomic_rmw", "tt.atomic_cas", "tt.gather", "scf.for", "scf.while", "gpu.barrier",
  "ttng.wait_barrier", "ttng.barrier_expect",
};
#define IR_NTTGIR_OPS (sizeof(ir_ttgir_ops) / sizeof(ir_ttgir_ops[0]))

static int ir_is_tracked(const char *op)
{
  for (size_t i = 0; i < IR_NTTGIR_OPS; i++)
    if (strcmp(op, ir_ttgir_ops[i]) == 0)
      return 1;
  return 0;
}

static int ir_is_load(const char *op)
{
  return strcmp(op, "tt.load") == 0 || strcmp(op, "tt.descriptor_load") == 0;
}

static int ir_is_async(const char *op)
{
  return strcmp(op, "ttg.async_copy_global_to_local") == 0 ||
         strcmp(op, "ttng.async_tma_copy_global_to_local") == 0;
}

static int ir_is_tma(const char *op)
{
  return strncmp(op, "ttng.async_tma_copy", 19) == 0 || strcmp(op, "tt.descriptor_load") == 0 ||
         strcmp(op, "tt.descriptor_store") == 0;
}

static int ir_is_dot(const char *op)
{
  return strcmp(op, "tt.dot") == 0 || strcmp(op, "tt.dot_scaled") == 0 ||
         strcmp(op, "ttng.warp_group_dot") == 0 || strcmp(op, "ttng.tc_gen5_mma") == 0;
}

/* HIVM ops that are vector, cube or DMA work (not scalar). */
static int ir_is_hivm_work(const char *op)
{
  const char *s;
  if (strncmp(op, "hivm.hir.", 9) != 0)
    return 0;
  s = op + 9;
  return s[0] == 'v' || strcmp(s, "load") == 0 || strcmp(s, "store") == 0 || strstr(s, "mmad") ||
         strcmp(s, "matmul") == 0 || strcmp(s, "fixpipe") == 0 || strcmp(s, "nd2nz") == 0 ||
         strcmp(s, "copy") == 0;
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

struct ir_frame {
  char op[IR_OP_MAX];
  int is_for;
  long loads, asyncs, dots, ops, scalar, work;
  int tensor;            /* the body mentions tensor<...> or !ttg.memdesc */
  long rec;              /* index in the loops array, or -1 */
};


static long ir_memdesc_bytes(const char *p, size_t n)
{
  const char *m = ir_find_last(p, n, "!ttg.memdesc<"), *e = p + n, *q;
  long total = 1, elem = 0;
  if (!m)
    return 0;
  q = m + 13;
  for (;;) {
    if (q < e && isdigit((unsigned char)*q)) {
      long d = ir_parse_long(&q, e);
      if (q < e && *q == 'x') {
        if (d > 0 && total < (1L << 40) / d)
          total *= d;
        q++;
        continue;
      }
      return 0;
    }
    break;
  }
  /* element type */
  if (ir_starts(q, (size_t)(e - q), "bf16") || ir_starts(q, (size_t)(e - q), "f16") ||
      ir_starts(q, (size_t)(e - q), "i16"))
    elem = 2;
  else if (ir_starts(q, (size_t)(e - q), "f32") || ir_starts(q, (size_t)(e - q), "i32"))
    elem = 4;
  else if (ir_starts(q, (size_t)(e - q), "f64") || ir_starts(q, (size_t)(e - q), "i64"))
    elem = 8;
  else if (ir_starts(q, (size_t)(e - q), "f8") || ir_starts(q, (size_t)(e - q), "i8") ||
           ir_starts(q, (size_t)(e - q), "i1"))
    elem = 1;
  return total * elem;
}

/* Closes a frame: attributes its op to the closing line's location and finishes a loop
 * record. */
static int ir_walk_close(struct ir_walk *w, const struct ir_frame *f, const char *p, size_t n)
{
  long line = w->locs ? ir_line_of(w->locs, p, n) : -1;
  int rc = 0;
  if (w->by_line && line > 0 && ir_is_tracked(f->op) && (rc = ir_line_bump(w->by_line, line, f->op, 1, &w->trunc)))
    return rc;
  if (!f->is_for)
    return 0;
  {
    int scalar = w->hivm ? (f->scalar > 0 && f->work == 0) : (!f->tensor && f->ops > 0);
    int sync_load = f->loads > 0 && f->asyncs == 0;
    w->nloops++;
    if (scalar) {
      w->nscalar++;
      w->scalar_loads += f->loads;
    }
    if (((w->count_flags & IR_LOOP_SYNC_LOAD) && sync_load) || ((w->count_flags & IR_LOOP_SCALAR) && scalar))
      w->nloops_matching++;
    if (w->loops && f->rec >= 0) {
      json_t *r = json_array_get(w->loops, (size_t)f->rec);
      if (!r)
        return 0;
      if (json_object_set_new(r, "line", line > 0 ? json_integer(line) : json_null()) ||
          json_object_set_new(r, "loads", json_integer(f->loads)) ||
          json_object_set_new(r, "async_copies", json_integer(f->asyncs)) ||
          json_object_set_new(r, "dots", json_integer(f->dots)) ||
          json_object_set_new(r, w->hivm ? "work_ops" : "tensor_ops",
                              w->hivm ? json_integer(f->work) : json_boolean(f->tensor)) ||
          json_object_set_new(r, "scalar", json_boolean(scalar)))
        return -ENOMEM;
    }
  }
  return 0;
}

static void ir_module_attrs(struct ir_walk *w, const char *p, size_t n)
{
  const char *a = ir_find(p, n, "\"ttg.num-warps\" = "), *e = p + n;
  if (a) {
    const char *q = a + 18;
    w->num_warps = ir_parse_long(&q, e);
  }
  a = ir_find(p, n, "ttg.target = \"");
  if (a) {
    const char *q = a + 14, *s = q;
    while (q < e && *q != '"')
      q++;
    snprintf(w->target, sizeof(w->target), "%.*s", (int)(q - s), s);
  }
}

int ir_walk_mlir(struct ir_walk *w, const char *text, size_t len)
{
  struct ir_frame st[IR_FRAMES_MAX];
  size_t depth = 0; /* frames open, may exceed IR_FRAMES_MAX (then untracked) */
  const char *cur = text, *end = text + len, *p;
  size_t n;
  char op[IR_OP_MAX];
  int rc = 0;

  while (ir_next_line(&cur, end, &p, &n)) {
    int opens, tensor, scalar = 0, i64 = 0, mem = 0;
    size_t top;
    ir_trim(&p, &n);
    if (!n || *p == '#' || ir_starts(p, n, "//"))
      continue;
    if (*p == '}') {
      if (depth) {
        depth--;
        if (depth < IR_FRAMES_MAX) {
          struct ir_frame f = st[depth];
          if ((rc = ir_walk_close(w, &f, p, n)))
            goto out;
          if (p[n - 1] == '{' && depth < IR_FRAMES_MAX) { /* `} else {`, `} do {` */
            st[depth] = f;
            st[depth].rec = -1;
            st[depth].is_for = 0;
            depth++;
          }
        } else if (p[n - 1] == '{') {
          depth++;
        }
      }
      /* The closing line's types belong to the closed op, not to its parents' bodies. */
      continue;
    }
    if (ir_starts(p, n, "module")) {
      ir_module_attrs(w, p, n);
    }
    ir_mlir_op_name(p, n, op, sizeof(op));
    opens = p[n - 1] == '{';
    tensor = ir_find(p, n, "tensor<") || ir_find(p, n, "!ttg.memdesc");
    if (op[0] && w->hivm)
      scalar = ir_is_scalar_op(op, p, n, &i64, &mem);
    /* Account the line to every open frame (it is inside their bodies). */
    top = depth < IR_FRAMES_MAX ? depth : IR_FRAMES_MAX;
    for (size_t i = 0; i < top; i++) {
      struct ir_frame *f = &st[i];
      f->tensor |= tensor;
      if (op[0] && strcmp(op, "scf.yield") != 0)
        f->ops++;
      if (op[0]) {
        f->loads += ir_is_load(op);
        f->asyncs += ir_is_async(op);
        f->dots += ir_is_dot(op);
        f->scalar += scalar;
        f->work += ir_is_hivm_work(op);
      }
    }
    if (op[0] && ir_is_tracked(op)) {
      if (w->ops && (rc = ir_bump(w->ops, op, 1)))
        goto out;
      if (strcmp(op, "ttg.local_alloc") == 0)
        w->local_alloc_bytes += ir_memdesc_bytes(p, n);
      if (!opens && w->by_line && w->locs) {
        long line = ir_line_of(w->locs, p, n);
        if (line > 0 && (rc = ir_line_bump(w->by_line, line, op, 1, &w->trunc)))
          goto out;
      }
    }
    if (opens) {
      if (depth < IR_FRAMES_MAX) {
        struct ir_frame *f = &st[depth];
        memset(f, 0, sizeof(*f));
        snprintf(f->op, sizeof(f->op), "%s", op);
        f->is_for = strcmp(op, "scf.for") == 0;
        f->rec = -1;
        if (f->is_for && w->loops && json_array_size(w->loops) < IR_LOOPS_MAX) {
          json_t *r = json_object();
          if (!r || json_array_append_new(w->loops, r)) {
            rc = -ENOMEM;
            goto out;
          }
          f->rec = (long)json_array_size(w->loops) - 1;
        }
      }
      depth++;
    }
  }
out:
  return rc;
}

long ir_mlir_count_loops(const char *text, size_t len, unsigned flags)
{
  struct ir_walk w;
  memset(&w, 0, sizeof(w));
  w.count_flags = flags;
  if (ir_walk_mlir(&w, text, len))
    return -1;
  return w.nloops_matching;
}

/* ---- TTGIR ---- */

/* Adds "ttgir" to root (root takes its own reference; o, ops and loops are ours until out). */
static int ir_ttgir(const char *ttgir, json_t *root, json_t *by_line, int *trunc, struct ir_locs *L)
{
  struct ir_walk w;
  json_t *o = NULL, *ops = NULL, *loops = NULL;
  int rc = 0;
  long dots = 0, tma = 0;

  memset(&w, 0, sizeof(w));
  o = json_object();
  ops = json_object();
  loops = json_array();
  if (!o || !ops || !loops) {
    rc = -ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < IR_NTTGIR_OPS; i++)
    if (ir_set_int(ops, ir_ttgir_ops[i], 0)) {
      rc = -ENOMEM;
      goto out;
    }
  w.locs = L;
  w.ops = ops;
  w.by_line = by_line;
  w.loops = loops;
  if ((rc = ir_walk_mlir(&w, ttgir, strlen(ttgir))))
    goto out;
  *trunc |= w.trunc;
  for (size_t i = 0; i < IR_NTTGIR_OPS; i++) {
    if (ir_is_dot(ir_ttgir_ops[i]))
      dots += ir_geti(ops, ir_ttgir_ops[i]);
    if (ir_is_tma(ir_ttgir_ops[i]))
      tma += ir_geti(ops, ir_ttgir_ops[i]);
  }
  if (w.num_warps > 0 && (rc = ir_set_int(o, "num_warps", w.num_warps)))
    goto out;
  if (w.target[0] && json_object_set_new(o, "target", json_string(w.target))) {
    rc = -ENOMEM;
    goto out;
  }
  if (json_object_set(o, "ops", ops) || ir_set_int(o, "layout_conversions", ir_geti(ops, "ttg.convert_layout")) ||
      ir_set_int(o, "local_alloc_bytes", w.local_alloc_bytes) ||
      ir_set_int(o, "async_copies", ir_geti(ops, "ttg.async_copy_global_to_local")) ||
      ir_set_int(o, "tma_copies", tma) || ir_set_int(o, "dots", dots) || json_object_set(o, "loops", loops) ||
      ir_set_int(o, "scalar_loops", w.nscalar) || ir_set_int(o, "scalar_loop_loads", w.scalar_loads) ||
      json_object_set(root, "ttgir", o)) {
    rc = -ENOMEM;
    goto out;
  }
out:
  json_decref(o);
  json_decref(ops);
  json_decref(loops);
  return rc;
}

/* ---- PTX ---- */

struct ir_ptx_file {
  long id;
  const char *path; /* borrowed */
  size_t len;
};

struct ir_ptx_label {
  const char *name; /* borrowed */
  size_t len;
  size_t pos;       /* index of the line that defines it */
};

struct ir_ptx {
  struct ir_ptx_file files[IR_PTX_FILES_MAX];
  size_t nfiles;
  long user_id;              /* .file id of the kernel's source, -1 unknown */
  struct ir_ptx_label *labels; /* owned */
  size_t nlabels, alabels;
  size_t *gl;                /* owned: line positions of global loads, in order */
  unsigned char *gl_scalar;  /* owned: 1 when that load has no .vN */
  size_t ngl, agl;
};

/* Width in bits of an ld/st.global mnemonic (vector count x element bits); *vec gets the
 * vector count. 0 when no type suffix is found. */
static long ir_ptx_width(const char *m, long *vec)
{
  long bits = 0, v = 1;
  const char *p = m;
  while ((p = strchr(p, '.'))) {
    const char *t = ++p;
    size_t l = strcspn(t, ".");
    if (l == 2 && t[0] == 'v' && (t[1] == '2' || t[1] == '4' || t[1] == '8'))
      v = t[1] - '0';
    else if (l >= 2 && l <= 4 && strchr("bfsu", t[0]) && isdigit((unsigned char)t[1])) {
      const char *q = t + 1;
      long b = ir_parse_long(&q, t + l);
      if (q == t + l && (b == 8 || b == 16 || b == 32 || b == 64 || b == 128))
        bits = b;
    }
  }
  *vec = v;
  return bits * v;
}

/* Source line of a .loc directive: the user-file line, or the innermost user-file frame of
 * its inlining chain (inlined_at, or the `@[ file:line:col ]` comment Triton's PTX carries). */
static long ir_ptx_loc_line(const struct ir_ptx *x, const char *p, size_t n)
{
  const char *e = p + n, *q = p + 4, *c, *ia;
  long fid, line;
  while (q < e && (*q == ' ' || *q == '\t'))
    q++;
  fid = ir_parse_long(&q, e);
  while (q < e && (*q == ' ' || *q == '\t'))
    q++;
  line = ir_parse_long(&q, e);
  if (fid == x->user_id)
    return line > 0 ? line : -1;
  ia = ir_find(p, n, "inlined_at ");
  if (ia) {
    const char *r = ia + 11;
    long f2 = ir_parse_long(&r, e), l2;
    while (r < e && *r == ' ')
      r++;
    l2 = ir_parse_long(&r, e);
    if (f2 == x->user_id && l2 > 0)
      return l2;
  }
  c = ir_find(p, n, "//");
  if (c && x->user_id >= 0) {
    const char *upath = NULL, *ub;
    size_t ulen = 0, bn;
    long best = -1;
    for (size_t i = 0; i < x->nfiles; i++)
      if (x->files[i].id == x->user_id) {
        upath = x->files[i].path;
        ulen = x->files[i].len;
      }
    if (!upath)
      return -1;
    ub = ir_basename(upath, ulen, &bn);
    /* `standard.py:263:15 @[ standard.py:293:36 @[ k.py:29:15 ] ]`: the last user-file frame
     * is the outermost caller in the kernel. */
    for (const char *s = c; s < e;) {
      const char *f = memmem(s, (size_t)(e - s), ub, bn);
      if (!f)
        break;
      if ((f == c || f[-1] == ' ' || f[-1] == '/') && f + bn < e && f[bn] == ':') {
        const char *r = f + bn + 1;
        long l = ir_parse_long(&r, e);
        if (l > 0)
          best = l;
      }
      s = f + 1;
    }
    return best;
  }
  return -1;
}

/* `.loc F L C` (and not `.local`). */
static int ir_is_loc(const char *p, size_t n)
{
  return n > 4 && memcmp(p, ".loc", 4) == 0 && (p[4] == ' ' || p[4] == '\t');
}

static int ir_ptx_prescan(struct ir_ptx *x, const char *ptx, size_t len)
{
  const char *cur = ptx, *end = ptx + len, *p;
  size_t n;
  x->user_id = -1;
  while (ir_next_line(&cur, end, &p, &n)) {
    ir_trim(&p, &n);
    if (ir_starts(p, n, ".file") && x->nfiles < IR_PTX_FILES_MAX) {
      const char *q = p + 5, *e = p + n, *s;
      while (q < e && (*q == ' ' || *q == '\t'))
        q++;
      x->files[x->nfiles].id = ir_parse_long(&q, e);
      s = memchr(q, '"', (size_t)(e - q));
      if (!s)
        continue;
      q = memchr(s + 1, '"', (size_t)(e - s - 1));
      if (!q)
        continue;
      x->files[x->nfiles].path = s + 1;
      x->files[x->nfiles].len = (size_t)(q - s - 1);
      x->nfiles++;
    } else if (ir_is_loc(p, n) && x->user_id < 0) {
      /* The first .loc is the kernel's own def line. */
      const char *q = p + 4, *e = p + n;
      while (q < e && (*q == ' ' || *q == '\t'))
        q++;
      x->user_id = ir_parse_long(&q, e);
    }
  }
  return 0;
}

static int ir_ptx_add_label(struct ir_ptx *x, const char *name, size_t len, size_t pos)
{
  if (x->nlabels >= IR_PTX_LABELS_MAX)
    return 0;
  if (x->nlabels == x->alabels) {
    size_t na = x->alabels ? x->alabels * 2 : 64;
    struct ir_ptx_label *nl = realloc(x->labels, na * sizeof(*nl));
    if (!nl)
      return -ENOMEM;
    x->labels = nl;
    x->alabels = na;
  }
  x->labels[x->nlabels].name = name;
  x->labels[x->nlabels].len = len;
  x->labels[x->nlabels].pos = pos;
  x->nlabels++;
  return 0;
}

static int ir_ptx_add_gl(struct ir_ptx *x, size_t pos, int scalar)
{
  if (x->ngl == x->agl) {
    size_t na = x->agl ? x->agl * 2 : 256;
    size_t *ng = realloc(x->gl, na * sizeof(*ng));
    unsigned char *ns;
    if (!ng)
      return -ENOMEM;
    x->gl = ng;
    ns = realloc(x->gl_scalar, na);
    if (!ns)
      return -ENOMEM;
    x->gl_scalar = ns;
    x->agl = na;
  }
  x->gl[x->ngl] = pos;
  x->gl_scalar[x->ngl] = (unsigned char)scalar;
  x->ngl++;
  return 0;
}

/* Shared-memory declaration: `.shared .align 16 .b8 name[1024];` (static) or
 * `.extern .shared .align 16 .b8 global_smem[];` (dynamic, sized at launch). */
static void ir_ptx_shared_decl(const char *p, size_t n, long *bytes, int *dynamic)
{
  const char *b = memchr(p, '[', n), *e = p + n, *q;
  long elem = 1, count;
  if (!b)
    return;
  if (b + 1 < e && b[1] == ']') {
    *dynamic = 1;
    return;
  }
  if (ir_find(p, n, ".b16") || ir_find(p, n, ".u16"))
    elem = 2;
  else if (ir_find(p, n, ".b32") || ir_find(p, n, ".u32") || ir_find(p, n, ".f32"))
    elem = 4;
  else if (ir_find(p, n, ".b64") || ir_find(p, n, ".u64") || ir_find(p, n, ".f64"))
    elem = 8;
  q = b + 1;
  count = ir_parse_long(&q, e);
  *bytes += count * elem;
}

static const char *ir_ptx_key(const char *m)
{
  if (!strncmp(m, "ld.shared", 9))
    return "ld.shared";
  if (!strncmp(m, "st.shared", 9))
    return "st.shared";
  if (!strncmp(m, "ld.local", 8))
    return "ld.local";
  if (!strncmp(m, "st.local", 8))
    return "st.local";
  if (!strncmp(m, "bar.sync", 8) || !strncmp(m, "barrier.sync", 12) || !strncmp(m, "barrier.cta", 11) ||
      !strncmp(m, "bar.cta", 7))
    return "bar.sync";
  if (!strncmp(m, "mma.sync", 8))
    return "mma.sync";
  if (!strncmp(m, "wgmma.mma_async", 15))
    return "wgmma";
  if (!strncmp(m, "tcgen05.mma", 11))
    return "tcgen05.mma";
  if (!strncmp(m, "ldmatrix", 8))
    return "ldmatrix";
  if (!strncmp(m, "stmatrix", 8))
    return "stmatrix";
  if (!strncmp(m, "cp.async.bulk.tensor", 20))
    return "cp.async.bulk.tensor";
  if (!strncmp(m, "cp.async.ca.", 12) || !strncmp(m, "cp.async.cg.", 12))
    return "cp.async";
  if (!strncmp(m, "mbarrier", 8))
    return "mbarrier";
  if (!strncmp(m, "atom.global", 11) || !strncmp(m, "red.global", 10))
    return "atom.global";
  return NULL;
}

/* Adds "ptx" to root and the PTX keys of spills and by_line (all borrowed); *srcfile points
 * into ptx (the user's .file path). */
static int ir_ptx(const char *ptx, json_t *root, json_t *by_line, json_t *spills, int *trunc,
                  const char **srcfile, size_t *srclen)
{
  static const char *const zero_keys[] = {"ld.shared", "st.shared", "ld.local", "st.local", "bar.sync",
                                          "mma.sync", "wgmma", "ldmatrix", "cp.async", "cp.async.bulk.tensor",
                                          "mbarrier", "atom.global"};
  struct ir_ptx *x = NULL;
  json_t *o = NULL;
  const char *cur, *end, *p;
  size_t n, len = strlen(ptx), pos = 0;
  long cur_line = -1, gloads = 0, gstores = 0, g128 = 0, loops = 0, loops_scalar = 0, shared = 0, depot = 0;
  int dynamic = 0, rc = 0;

  x = calloc(1, sizeof(*x));
  o = json_object();
  if (!x || !o) {
    rc = -ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < sizeof(zero_keys) / sizeof(zero_keys[0]); i++)
    if (ir_set_int(o, zero_keys[i], 0)) {
      rc = -ENOMEM;
      goto out;
    }
  ir_ptx_prescan(x, ptx, len);
  for (size_t i = 0; i < x->nfiles; i++)
    if (x->files[i].id == x->user_id) {
      *srcfile = x->files[i].path;
      *srclen = x->files[i].len;
    }
  cur = ptx;
  end = ptx + len;
  while (ir_next_line(&cur, end, &p, &n)) {
    char m[IR_OP_MAX];
    const char *q, *e, *key = NULL;
    char wkey[40];
    size_t ml;
    pos++;
    ir_trim(&p, &n);
    if (!n || ir_starts(p, n, "//"))
      continue;
    e = p + n;
    if (ir_is_loc(p, n)) {
      cur_line = ir_ptx_loc_line(x, p, n);
      continue;
    }
    if (ir_starts(p, n, ".shared") || ir_starts(p, n, ".extern .shared")) {
      ir_ptx_shared_decl(p, n, &shared, &dynamic);
      continue;
    }
    if (ir_starts(p, n, ".local")) { /* __local_depot: the stack frame (spills, local arrays) */
      long b = 0;
      int dummy = 0;
      ir_ptx_shared_decl(p, n, &b, &dummy);
      depot += b;
      continue;
    }
    if (*p == '$') { /* `$L__BB0_2:` */
      const char *colon = memchr(p, ':', n);
      if (colon && (rc = ir_ptx_add_label(x, p, (size_t)(colon - p), pos)))
        goto out;
      continue;
    }
    if (*p == '.' || *p == '{' || *p == '}' || *p == ')' || *p == '(')
      continue;
    q = p;
    if (*q == '@') { /* predicate */
      while (q < e && *q != ' ' && *q != '\t')
        q++;
      while (q < e && (*q == ' ' || *q == '\t'))
        q++;
    }
    ml = 0;
    while (q + ml < e && q[ml] != ' ' && q[ml] != '\t' && q[ml] != ';' && ml + 1 < sizeof(m))
      ml++;
    if (!ml || !isalpha((unsigned char)q[0]))
      continue;
    memcpy(m, q, ml);
    m[ml] = '\0';
    if (!strncmp(m, "ld.global", 9) || !strncmp(m, "st.global", 9)) {
      long vec = 1, w = ir_ptx_width(m, &vec);
      int is_ld = m[0] == 'l';
      if (w)
        snprintf(wkey, sizeof(wkey), "%s.global.%ld", is_ld ? "ld" : "st", w);
      else
        snprintf(wkey, sizeof(wkey), "%s.global.other", is_ld ? "ld" : "st");
      key = wkey;
      if (is_ld) {
        gloads++;
        if ((rc = ir_ptx_add_gl(x, pos, vec == 1)))
          goto out;
      } else {
        gstores++;
      }
      g128 += w == 128;
    } else if (!strcmp(m, "bra") || !strncmp(m, "bra.", 4)) {
      /* A branch back to a label defined earlier closes a loop. */
      const char *t = q + ml;
      size_t tl;
      while (t < e && (*t == ' ' || *t == '\t'))
        t++;
      tl = 0;
      while (t + tl < e && t[tl] != ';' && t[tl] != ' ')
        tl++;
      for (size_t i = x->nlabels; i-- > 0;) {
        if (x->labels[i].len == tl && memcmp(x->labels[i].name, t, tl) == 0) {
          size_t from = x->labels[i].pos;
          long scalar = 0;
          loops++;
          for (size_t j = x->ngl; j-- > 0 && x->gl[j] >= from;)
            scalar += x->gl_scalar[j];
          loops_scalar += scalar > 0;
          break;
        }
      }
    } else {
      key = ir_ptx_key(m);
    }
    if (key) {
      if ((rc = ir_bump(o, key, 1)))
        goto out;
      if (cur_line > 0 && (rc = ir_line_bump(by_line, cur_line, key, 1, trunc)))
        goto out;
    }
  }
  if (ir_set_int(o, "global_loads", gloads) || ir_set_int(o, "global_stores", gstores) ||
      ir_set_int(o, "global_128bit", g128) ||
      json_object_set_new(o, "all_global_128bit", json_boolean(gloads + gstores > 0 && g128 == gloads + gstores)) ||
      ir_set_int(o, "shared_static_bytes", shared) || json_object_set_new(o, "shared_dynamic", json_boolean(dynamic)) ||
      ir_set_int(o, "loops", loops) || ir_set_int(o, "loops_with_scalar_global_loads", loops_scalar) ||
      ir_set_int(spills, "ld.local", ir_geti(o, "ld.local")) || ir_set_int(spills, "st.local", ir_geti(o, "st.local")) ||
      ir_set_int(spills, "local_depot_bytes", depot) || json_object_set(root, "ptx", o)) {
    rc = -ENOMEM;
    goto out;
  }
out:
  if (x) {
    free(x->labels);
    free(x->gl);
    free(x->gl_scalar);
  }
  free(x);
  json_decref(o);
  return rc;
}

/* ---- SASS ---- */

/* The number just before pos (skipping spaces), or -1. */
static long ir_num_before(const char *start, const char *pos)
{
  const char *q = pos;
  long v = 0, mul = 1;
  while (q > start && q[-1] == ' ')
    q--;
  if (q == start || !isdigit((unsigned char)q[-1]))
    return -1;
  while (q > start && isdigit((unsigned char)q[-1]) && mul < 1000000000L) {
    v += (q[-1] - '0') * mul;
    mul *= 10;
    q--;
  }
  return v;
}

/* ptxas -v (`N bytes spill stores, M bytes spill loads`) and cuobjdump -res-usage
 * (`LOCAL:N`) lines, when the text carries them. */
static int ir_spill_lines(const char *text, json_t *spills)
{
  const char *s = ir_find(text, strlen(text), "bytes spill stores");
  const char *l = ir_find(text, strlen(text), "bytes spill loads");
  const char *lc = ir_find(text, strlen(text), " LOCAL:");
  if (s && ir_set_int(spills, "spill_store_bytes", ir_num_before(text, s)))
    return -ENOMEM;
  if (l && ir_set_int(spills, "spill_load_bytes", ir_num_before(text, l)))
    return -ENOMEM;
  if (lc) {
    const char *q = lc + 7;
    if (ir_set_int(spills, "local_bytes", ir_parse_long(&q, q + 12)))
      return -ENOMEM;
  }
  return 0;
}

/* Adds "sass" to root and the SASS keys of spills (both borrowed). */
static int ir_sass(const char *sass, json_t *root, json_t *spills)
{
  static const char *const zero_keys[] = {"LDS", "STS", "LDSM", "LDL", "STL", "LDGSTS", "UTMALDG", "BAR",
                                          "HGMMA", "HMMA"};
  json_t *o = json_object();
  const char *cur = sass, *end = sass + strlen(sass), *p;
  size_t n;
  long insns = 0, gl = 0, gs = 0, g128 = 0;
  int rc = 0;

  if (!o) {
    rc = -ENOMEM;
    goto out;
  }
  for (size_t i = 0; i < sizeof(zero_keys) / sizeof(zero_keys[0]); i++)
    if (ir_set_int(o, zero_keys[i], 0)) {
      rc = -ENOMEM;
      goto out;
    }
  while (ir_next_line(&cur, end, &p, &n)) {
    const char *c, *q, *e;
    char m[IR_OP_MAX], base[IR_OP_MAX], key[40];
    size_t ml, bl;
    const char *k = NULL;
    ir_trim(&p, &n);
    /* An instruction line: an address comment `/ *0110* /`, an optional predicate, the
     * mnemonic (`@!P0 LDG.E.128 R4, desc[UR4][R2.64] ;`), then the encoding comment. */
    if (!ir_starts(p, n, "/*") || n < 4 || p[2] == ' ')
      continue;
    c = ir_find(p, n, "*/");
    if (!c)
      continue;
    q = c + 2;
    e = p + n;
    while (q < e && (*q == ' ' || *q == '\t'))
      q++;
    if (q < e && *q == '@') {
      while (q < e && *q != ' ')
        q++;
      while (q < e && *q == ' ')
        q++;
    }
    ml = 0;
    while (q + ml < e && q[ml] != ' ' && q[ml] != ';' && ml + 1 < sizeof(m))
      ml++;
    if (!ml || !isupper((unsigned char)q[0]))
      continue;
    memcpy(m, q, ml);
    m[ml] = '\0';
    bl = strcspn(m, ".");
    memcpy(base, m, bl);
    base[bl] = '\0';
    insns++;
    if (!strcmp(base, "LDG") || !strcmp(base, "STG")) {
      long w = 32;
      if (strstr(m, ".128"))
        w = 128;
      else if (strstr(m, ".64"))
        w = 64;
      else if (strstr(m, ".U16") || strstr(m, ".S16"))
        w = 16;
      else if (strstr(m, ".U8") || strstr(m, ".S8"))
        w = 8;
      snprintf(key, sizeof(key), "%s.%ld", base[0] == 'L' ? "LDG" : "STG", w);
      k = key;
      if (base[0] == 'L')
        gl++;
      else
        gs++;
      g128 += w == 128;
    } else if (!strcmp(base, "LDGSTS") || !strcmp(base, "LDS") || !strcmp(base, "STS") || !strcmp(base, "LDSM") ||
               !strcmp(base, "LDL") || !strcmp(base, "STL") || !strcmp(base, "UTMALDG") || !strcmp(base, "UTMASTG") ||
               !strcmp(base, "UBLKCP") || !strcmp(base, "BAR") || !strcmp(base, "HGMMA") || !strcmp(base, "HMMA") ||
               !strcmp(base, "IMMA") || !strcmp(base, "ATOMG") || !strcmp(base, "RED") || !strcmp(base, "SYNCS")) {
      k = base;
    }
    if (k && (rc = ir_bump(o, k, 1)))
      goto out;
  }
  if (ir_set_int(o, "instructions", insns) || ir_set_int(o, "global_loads", gl) || ir_set_int(o, "global_stores", gs) ||
      json_object_set_new(o, "all_global_128bit", json_boolean(gl + gs > 0 && g128 == gl + gs)) ||
      ir_set_int(spills, "LDL", ir_geti(o, "LDL")) || ir_set_int(spills, "STL", ir_geti(o, "STL")) ||
      ir_spill_lines(sass, spills) || json_object_set(root, "sass", o)) {
    rc = -ENOMEM;
    goto out;
  }
out:
  json_decref(o);
  return rc;
}

/* ---- hotspot ---- */

static json_int_t ir_score(json_t *ops, int mma, int have_ptx)
{
  const char *k;
  json_t *v;
  json_int_t s = 0;
  json_object_foreach(ops, k, v) {
    json_int_t c = json_integer_value(v);
    if (mma) {
      if (!strcmp(k, "wgmma") || !strcmp(k, "mma.sync") || !strcmp(k, "tcgen05.mma") || ir_is_dot(k))
        s += c;
    } else if (have_ptx) {
      if (!strncmp(k, "ld.global.", 10) || !strncmp(k, "st.global.", 10) || !strcmp(k, "cp.async") ||
          !strcmp(k, "cp.async.bulk.tensor") || !strcmp(k, "atom.global"))
        s += c;
    } else if (!strcmp(k, "tt.load") || !strcmp(k, "tt.store") || ir_is_async(k) || ir_is_tma(k) ||
               !strcmp(k, "tt.atomic_rmw") || !strcmp(k, "tt.atomic_cas")) {
      s += c;
    }
  }
  return s;
}

/* The line with the most MMA ops when there are any, else the one with the most global
 * memory ops; ties go to the earlier line. */
static int ir_hotspot(json_t *root, json_t *by_line, int have_ptx)
{
  const char *k;
  json_t *v, *best = NULL, *h;
  long best_line = 0;
  json_int_t best_s = 0;
  int mma = 0;

  /* best is borrowed from by_line; json_pack's O takes a new reference for "ops". */
  json_object_foreach(by_line, k, v)
    if (ir_score(v, 1, have_ptx) > 0)
      mma = 1;
  json_object_foreach(by_line, k, v) {
    json_int_t s = ir_score(v, mma, have_ptx);
    long line = strtol(k, NULL, 10);
    if (s > best_s || (s == best_s && s > 0 && line < best_line)) {
      best_s = s;
      best_line = line;
      best = v;
    }
  }
  if (!best)
    return 0;
  h = json_pack("{s:I, s:s, s:O}", "line", (json_int_t)best_line, "reason", mma ? "mma" : "global memory", "ops", best);
  if (!h || json_object_set_new(root, "hotspot", h))
    return -ENOMEM;
  return 0;
}

/* ---- entry points ---- */

int ir_check_input(const char *what, const char *text, char *err, size_t errlen)
{
  if (text && strnlen(text, (size_t)IR_TEXT_MAX + 1) > IR_TEXT_MAX) {
    ir_errf(err, errlen, "%s is larger than %u bytes", what, IR_TEXT_MAX);
    return -EFBIG;
  }
  return 0;
}

json_t *ir_features_cuda(const char *ttgir, const char *ptx, const char *sass, char *err, size_t errlen)
{
  json_t *root = NULL, *by_line = NULL, *spills = NULL, *ret = NULL;
  struct ir_locs L;
  const char *src = NULL;
  size_t srclen = 0;
  int trunc = 0, rc = -ENOMEM; /* until the result is complete, a failure is out of memory */

  memset(&L, 0, sizeof(L));
  if (!ttgir && !ptx && !sass) {
    ir_errf(err, errlen, "no IR given (TTGIR, PTX and SASS all missing)");
    rc = -EINVAL;
    goto out;
  }
  if ((rc = ir_check_input("TTGIR", ttgir, err, errlen)) || (rc = ir_check_input("PTX", ptx, err, errlen)) ||
      (rc = ir_check_input("SASS", sass, err, errlen)))
    goto out;
  rc = -ENOMEM;
  root = json_object();
  by_line = json_object();
  spills = json_object();
  if (!root || !by_line || !spills)
    goto out;
  if (ttgir) {
    if (ir_locs_build(&L, ttgir, strlen(ttgir)) || ir_ttgir(ttgir, root, by_line, &trunc, &L))
      goto out;
    if (L.user) {
      src = L.user;
      srclen = L.ulen;
    }
  }
  if (ptx) {
    const char *psrc = NULL;
    size_t plen = 0;
    if (ir_ptx(ptx, root, by_line, spills, &trunc, &psrc, &plen))
      goto out;
    if (!src && psrc) {
      src = psrc;
      srclen = plen;
    }
  }
  if (sass && ir_sass(sass, root, spills))
    goto out;
  if (src && json_object_set_new(root, "source_file", json_stringn(src, srclen)))
    goto out;
  if (json_object_size(spills) && json_object_set(root, "spills", spills))
    goto out;
  {
    json_t *a = json_object_get(json_object_get(root, "ptx"), "all_global_128bit");
    if (!a)
      a = json_object_get(json_object_get(root, "sass"), "all_global_128bit");
    if (a && json_object_set(root, "all_global_128bit", a))
      goto out;
  }
  if (json_object_set(root, "by_line", by_line))
    goto out;
  if (trunc && json_object_set_new(root, "by_line_truncated", json_true()))
    goto out;
  if (ir_hotspot(root, by_line, ptx != NULL))
    goto out;
  ret = root;
  root = NULL;
  rc = 0;
out:
  if (rc == -ENOMEM)
    ir_errf(err, errlen, "out of memory while reading IR");
  ir_locs_free(&L);
  json_decref(root);
  json_decref(by_line);
  json_decref(spills);
  return ret;
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

json_t *ir_features_cuda_paths(const char *ttgir_path, const char *ptx_path, const char *sass_path, char *err,
                               size_t errlen)
{
  char *ttgir = NULL, *ptx = NULL, *sass = NULL;
  json_t *ret = NULL;

  if (ir_read_optional("TTGIR", ttgir_path, &ttgir, err, errlen) || ir_read_optional("PTX", ptx_path, &ptx, err, errlen) ||
      ir_read_optional("SASS", sass_path, &sass, err, errlen))
    goto out;
  ret = ir_features_cuda(ttgir, ptx, sass, err, errlen);
out:
  free(ttgir);
  free(ptx);
  free(sass);
  return ret;
}
