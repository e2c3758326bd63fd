/* ir_adapter: L3 features of triton-ascend adapter IR. See ir_adapter.h for what is
 * recognised and the JSON shape. One pass over the text, line by line, with a stack of open
 * regions and a bounded table of SSA names (what each value is: a view of global memory, a
 * local buffer, a scalar loaded from global memory, a select result). */
#include "ir_adapter.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "ir_text.h"

#define ADP_NAME_MAX 48      /* longest SSA name tracked (longer ones are not) */
#define ADP_FRAMES_MAX 64    /* region nesting tracked */
#define ADP_HDR_LINES_MAX 64 /* lines one func.func signature may span */
#define ADP_TOKEN_MAX 64     /* longest hivm.* name counted */

/* What an SSA value is. */
enum { ADP_GLOBAL = 1, ADP_LOCAL = 2, ADP_LOADED = 4, ADP_SELECT = 8 };

/* Open addressing over IR_ADAPTER_NAMES_MAX slots (a power of two), filled to 3/4 at most. */
struct adp_names {
  char (*name)[ADP_NAME_MAX]; /* owned; "" = free slot */
  unsigned char *flags;       /* owned */
  int *parent;                /* owned; slot of the value this one is a view of, or -1 */
  int *origin;                /* owned; local buffer / tensor / select: the global view its
                               * data was copied from (a select: that of its false operand) */
  size_t used;
  int trunc;                  /* a value was not remembered: the table was full */
};

struct adp_frame {
  char op[IR_OP_MAX];
  int is_for, is_if, linalg, discrete, branch_on_load;
  const char *key;            /* by_line key to attribute at the closing line, or NULL */
  long scalar_loads, scalar_stores, copies_in, copies_out, scalar_arith;
};

struct adp {
  struct adp_names T;
  struct ir_locs L;
  struct adp_frame st[ADP_FRAMES_MAX];
  size_t depth;               /* open regions; may exceed ADP_FRAMES_MAX (then untracked) */
  char pending[IR_OP_MAX];    /* last op seen: the op of a region opened on the next line */
  const char *pending_key;    /* and its by_line key to attribute at that region's end */
  json_t *root, *funcs, *loops, *linalg, *hivm, *by_line; /* owned until moved into root */
  int trunc;
  long copies_in, copies_out, discrete_loads, discrete_stores, scalar_loads, scalar_stores, masked_rmw;
  long discrete_ops, discrete_loops, scalar_loops, branches, scalar_arith, loop_scalar_arith, scalar_i64;
  long nalloc, alloc_bytes, alloc_max, alloc_dynamic;
};

/* ---- the name table ---- */

static int adp_names_init(struct adp_names *T)
{
  memset(T, 0, sizeof(*T));
  T->name = calloc(IR_ADAPTER_NAMES_MAX, sizeof(*T->name));
  T->flags = calloc(IR_ADAPTER_NAMES_MAX, 1);
  T->parent = malloc(IR_ADAPTER_NAMES_MAX * sizeof(*T->parent));
  T->origin = malloc(IR_ADAPTER_NAMES_MAX * sizeof(*T->origin));
  return T->name && T->flags && T->parent && T->origin ? 0 : -ENOMEM;
}

static void adp_names_clear(struct adp_names *T)
{
  memset(T->name, 0, IR_ADAPTER_NAMES_MAX * sizeof(*T->name));
  memset(T->flags, 0, IR_ADAPTER_NAMES_MAX);
  T->used = 0;
}

static void adp_names_free(struct adp_names *T)
{
  free(T->name);
  free(T->flags);
  free(T->parent);
  free(T->origin);
  memset(T, 0, sizeof(*T));
}

/* The slot of name s (l bytes), created when create is set; -1 when absent, too long, or
 * the table is full. */
static int adp_slot(struct adp_names *T, const char *s, size_t l, int create)
{
  uint32_t h = 2166136261u;
  size_t mask = IR_ADAPTER_NAMES_MAX - 1, i;
  static_assert((IR_ADAPTER_NAMES_MAX & (IR_ADAPTER_NAMES_MAX - 1)) == 0, "a power of two");
  if (!l || l >= ADP_NAME_MAX)
    return -1;
  for (size_t k = 0; k < l; k++)
    h = (h ^ (unsigned char)s[k]) * 16777619u;
  for (i = h & mask;; i = (i + 1) & mask) {
    if (!T->name[i][0]) {
      if (!create)
        return -1;
      if (T->used >= IR_ADAPTER_NAMES_MAX / 4 * 3) {
        T->trunc = 1;
        return -1;
      }
      memcpy(T->name[i], s, l);
      T->name[i][l] = '\0';
      T->flags[i] = 0;
      T->parent[i] = -1;
      T->origin[i] = -1;
      T->used++;
      return (int)i;
    }
    if (strlen(T->name[i]) == l && memcmp(T->name[i], s, l) == 0)
      return (int)i;
  }
}

static unsigned adp_flags(struct adp_names *T, const char *s, size_t l)
{
  int i = adp_slot(T, s, l, 0);
  return i < 0 ? 0 : T->flags[i];
}

/* The next `%name` token at or after *pp in [*pp, e): its start and length; advances *pp. */
static int adp_token(const char **pp, const char *e, const char **s, size_t *l)
{
  const char *p = *pp;
  while (p < e && *p != '%')
    p++;
  if (p >= e)
    return 0;
  *s = p++;
  while (p < e && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$' || *p == '-'))
    p++;
  *l = (size_t)(p - *s);
  *pp = p;
  return *l > 1;
}

/* The result name of `%x = op ...`. */
static int adp_result(const char *p, size_t n, const char **s, size_t *l)
{
  const char *q = p, *eq = ir_find(p, n, " = ");
  if (!n || *p != '%' || !eq)
    return 0;
  return adp_token(&q, eq, s, l);
}

/* Operand k (0-based) among the %tokens after the op name (the part before " : " types). */
static int adp_operand(const char *p, size_t n, const char *op, int k, const char **s, size_t *l)
{
  const char *o = ir_find(p, n, op), *e = p + n, *c;
  if (!o)
    return 0;
  o += strlen(op);
  c = ir_find(o, (size_t)(e - o), " : ");
  if (c)
    e = c;
  for (int i = 0; i <= k; i++)
    if (!adp_token(&o, e, s, l))
      return 0;
  return 1;
}

/* Elements of the first static memref<...>/tensor<...> type at or after p: the product of
 * its dims (1 for a 0-d type), or -1 when a dim is dynamic or there is no such type. Bytes
 * of one element into *elem (0 when the element type is not a plain number type). */
static long adp_type_elems(const char *p, size_t n, long *elem)
{
  const char *e = p + n, *m = ir_find(p, n, "memref<"), *t = ir_find(p, n, "tensor<"), *q;
  long total;
  *elem = 0;
  if (!m || (t && t < m))
    m = t;
  if (!m)
    return -1;
  q = m + 7;
  total = ir_shape_product(&q, e);
  if (total >= 0)
    *elem = ir_elem_bytes(q, e);
  return total;
}

static int adp_one_elem(const char *p, size_t n)
{
  long elem;
  return adp_type_elems(p, n, &elem) == 1;
}

/* ---- counting ---- */

static struct adp_frame *adp_loop(struct adp *A)
{
  size_t top = A->depth < ADP_FRAMES_MAX ? A->depth : ADP_FRAMES_MAX;
  for (size_t i = top; i-- > 0;)
    if (A->st[i].is_for)
      return &A->st[i];
  return NULL;
}

static int adp_in_linalg(const struct adp *A)
{
  size_t top = A->depth < ADP_FRAMES_MAX ? A->depth : ADP_FRAMES_MAX;
  for (size_t i = 0; i < top; i++)
    if (A->st[i].linalg)
      return 1;
  return 0;
}

static int adp_line_bump(struct adp *A, long line, const char *key, long by)
{
  return by > 0 ? ir_line_bump(A->by_line, line, key, by, &A->trunc) : 0;
}

/* A scalar access of global memory: counted in the innermost loop (classified when it
 * closes) or, outside loops, right here. */
static int adp_scalar_access(struct adp *A, int store, long line)
{
  struct adp_frame *f = adp_loop(A);
  if (f) {
    if (store)
      f->scalar_stores++;
    else
      f->scalar_loads++;
    return 0;
  }
  if (store)
    A->scalar_stores++;
  else
    A->scalar_loads++;
  return adp_line_bump(A, line, store ? "scalar_store" : "scalar_load", 1);
}

static int adp_copy(struct adp *A, int out, long line)
{
  struct adp_frame *f = adp_loop(A);
  if (f) {
    if (out)
      f->copies_out++;
    else
      f->copies_in++;
  }
  if (out)
    A->copies_out++;
  else
    A->copies_in++;
  return adp_line_bump(A, line, out ? "copy_out" : "copy_in", 1);
}

#define ADP_VIEW_HOPS 16 /* view chains followed (subview of subview of ...) */

/* Whether two global views share a view below the kernel argument (the same block of the
 * same buffer): a and b's chains of parents, without their roots (the arguments). */
static int adp_same_block(const struct adp_names *T, int a, int b)
{
  for (int i = 0, x = a; x >= 0 && T->parent[x] >= 0 && i < ADP_VIEW_HOPS; i++, x = T->parent[x])
    for (int j = 0, y = b; y >= 0 && T->parent[y] >= 0 && j < ADP_VIEW_HOPS; j++, y = T->parent[y])
      if (x == y)
        return 1;
  return 0;
}

/* hivm.* attribute and op names on a line (before its location). */
static int adp_hivm(struct adp *A, const char *p, size_t n)
{
  const char *lc = ir_find(p, n, " loc("), *e = lc ? lc : p + n, *q = p;
  while (q < e && (q = ir_find(q, (size_t)(e - q), "hivm.")) != NULL) {
    char tok[ADP_TOKEN_MAX];
    size_t l = 0;
    if (q > p && (isalnum((unsigned char)q[-1]) || q[-1] == '_' || q[-1] == '.' || q[-1] == '#')) {
      q += 5;
      continue;
    }
    while (q + l < e && (isalnum((unsigned char)q[l]) || q[l] == '_' || q[l] == '.') && l + 1 < sizeof(tok))
      l++;
    memcpy(tok, q, l);
    tok[l] = '\0';
    if (ir_bump(A->hivm, tok, 1))
      return -ENOMEM;
    q += l;
  }
  return 0;
}

/* ---- functions ---- */

static void adp_attr_string(const char *p, size_t n, const char *attr, char *out, size_t outlen)
{
  const char *a = ir_find(p, n, attr), *e = p + n;
  size_t l = 0;
  out[0] = '\0';
  if (!a)
    return;
  a += strlen(attr);
  while (a + l < e && a[l] != '"' && l + 1 < outlen)
    l++;
  memcpy(out, a, l);
  out[l] = '\0';
}

/* A func.func line: its signature may span lines (up to the one opening the body). Registers
 * the memref arguments as global memory and records the function. */
static int adp_function(struct adp *A, const char *p, size_t n, const char *cur, const char *end)
{
  const char *q = p, *hend = p + n, *at, *s;
  size_t l;
  char name[128] = "", mix[24], par[24], core[24];
  for (int i = 0; i < ADP_HDR_LINES_MAX; i++) {
    const char *lp, *tp = q;
    size_t ln, tn = (size_t)(hend - q);
    ir_trim(&tp, &tn);
    if (tn && tp[tn - 1] == '{')
      break;
    if (!ir_next_line(&cur, end, &lp, &ln))
      break;
    q = lp;
    hend = lp + ln;
  }
  n = (size_t)(hend - p);
  adp_names_clear(&A->T);
  at = memchr(p, '@', n);
  if (at) {
    l = 0;
    while (at + 1 + l < p + n && (isalnum((unsigned char)at[1 + l]) || at[1 + l] == '_') && l + 1 < sizeof(name))
      l++;
    memcpy(name, at + 1, l);
    name[l] = '\0';
  }
  for (q = p; adp_token(&q, p + n, &s, &l);) {
    if (ir_starts(q, (size_t)(p + n - q), ": memref<")) {
      int i = adp_slot(&A->T, s, l, 1);
      if (i >= 0)
        A->T.flags[i] |= ADP_GLOBAL;
    }
  }
  adp_attr_string(p, n, "mix_mode = \"", mix, sizeof(mix));
  adp_attr_string(p, n, "parallel_mode = \"", par, sizeof(par));
  for (l = 0; mix[l] && l + 1 < sizeof(core); l++)
    core[l] = (char)toupper((unsigned char)mix[l]);
  core[l] = '\0';
  {
    json_t *f = json_pack("{s:s, s:s?, s:s?, s:s?}", "name", name, "mix_mode", mix[0] ? mix : NULL,
                          "parallel_mode", par[0] ? par : NULL, "core_type", core[0] ? core : NULL);
    if (!f || json_array_append_new(A->funcs, f))
      return -ENOMEM;
  }
  return 0;
}

/* ---- one op line ---- */

/* Views (reinterpret_cast, subview, casts) inherit what they view; allocs are local. */
static int adp_define(struct adp *A, const char *op, const char *p, size_t n, long line)
{
  const char *rs, *s;
  size_t rl, l;
  int r, src;
  if (!adp_result(p, n, &rs, &rl))
    return 0;
  if (!strcmp(op, "memref.reinterpret_cast") || !strcmp(op, "memref.subview") || !strcmp(op, "memref.cast") ||
      !strcmp(op, "memref.collapse_shape") || !strcmp(op, "memref.expand_shape")) {
    if (!adp_operand(p, n, op, 0, &s, &l) || (src = adp_slot(&A->T, s, l, 0)) < 0 ||
        !(A->T.flags[src] & (ADP_GLOBAL | ADP_LOCAL)) || (r = adp_slot(&A->T, rs, rl, 1)) < 0)
      return 0;
    A->T.flags[r] |= A->T.flags[src] & (ADP_GLOBAL | ADP_LOCAL);
    A->T.parent[r] = src;
  } else if (!strcmp(op, "memref.alloc") || !strcmp(op, "memref.alloca")) {
    const char *c = ir_find_last(p, n, " : memref<");
    long elem, elems = c ? adp_type_elems(c, (size_t)(p + n - c), &elem) : -1;
    if ((r = adp_slot(&A->T, rs, rl, 1)) >= 0)
      A->T.flags[r] |= ADP_LOCAL;
    A->nalloc++;
    if (elems < 0 || !elem) {
      A->alloc_dynamic++;
    } else {
      A->alloc_bytes += elems * elem;
      if (elems * elem > A->alloc_max)
        A->alloc_max = elems * elem;
    }
    return adp_line_bump(A, line, "alloc", 1);
  } else if (!strcmp(op, "bufferization.to_tensor")) {
    if (adp_operand(p, n, op, 0, &s, &l) && (src = adp_slot(&A->T, s, l, 0)) >= 0 && A->T.origin[src] >= 0 &&
        (r = adp_slot(&A->T, rs, rl, 1)) >= 0)
      A->T.origin[r] = A->T.origin[src];
  } else if (!strcmp(op, "arith.select")) {
    /* select(mask, new, old): the store of a select whose old value is the block it is
     * stored to is a read-modify-write of that block. */
    if (ir_find(p, n, "tensor<") && (r = adp_slot(&A->T, rs, rl, 1)) >= 0) {
      A->T.flags[r] |= ADP_SELECT;
      if (adp_operand(p, n, op, 2, &s, &l) && (src = adp_slot(&A->T, s, l, 0)) >= 0)
        A->T.origin[r] = A->T.origin[src];
    }
  } else if (!strncmp(op, "arith.", 6) && !ir_find(p, n, "tensor<")) {
    /* A scalar derived from a loaded scalar is data-dependent too. */
    const char *q = ir_find(p, n, op) + strlen(op), *c = ir_find(q, (size_t)(p + n - q), " : ");
    while (adp_token(&q, c ? c : p + n, &s, &l))
      if (adp_flags(&A->T, s, l) & ADP_LOADED) {
        if ((r = adp_slot(&A->T, rs, rl, 1)) >= 0)
          A->T.flags[r] |= ADP_LOADED;
        break;
      }
  }
  return 0;
}

/* Memory ops: copies in/out, scalar loads/stores, the masked read-modify-write. */
static int adp_memory(struct adp *A, const char *op, const char *p, size_t n, long line)
{
  const char *s, *d, *rs;
  size_t l, dl, rl;
  int si, di;
  if (!strcmp(op, "memref.load")) {
    if (!adp_operand(p, n, op, 0, &s, &l) || !(adp_flags(&A->T, s, l) & ADP_GLOBAL))
      return 0;
    if (adp_result(p, n, &rs, &rl) && (si = adp_slot(&A->T, rs, rl, 1)) >= 0)
      A->T.flags[si] |= ADP_LOADED;
    return adp_scalar_access(A, 0, line);
  }
  if (!strcmp(op, "memref.store")) {
    if (adp_operand(p, n, op, 1, &d, &dl) && (adp_flags(&A->T, d, dl) & ADP_GLOBAL))
      return adp_scalar_access(A, 1, line);
    return 0;
  }
  if (!strcmp(op, "memref.copy")) {
    if (!adp_operand(p, n, op, 0, &s, &l) || !adp_operand(p, n, op, 1, &d, &dl))
      return 0;
    si = adp_slot(&A->T, s, l, 0);
    di = adp_slot(&A->T, d, dl, 0);
    if (si >= 0 && (A->T.flags[si] & ADP_GLOBAL) && !(di >= 0 && (A->T.flags[di] & ADP_GLOBAL))) {
      for (int i = 0, x = di; x >= 0 && i < ADP_VIEW_HOPS; i++, x = A->T.parent[x])
        A->T.origin[x] = si; /* the local buffer (and what it views) now holds that block */
      return adp_one_elem(p, n) ? adp_scalar_access(A, 0, line) : adp_copy(A, 0, line);
    }
    if (di >= 0 && (A->T.flags[di] & ADP_GLOBAL))
      return adp_one_elem(p, n) ? adp_scalar_access(A, 1, line) : adp_copy(A, 1, line);
    return 0;
  }
  if (!strcmp(op, "bufferization.materialize_in_destination")) {
    const char *w = ir_find(p, n, " in writable "), *q;
    if (!w || !adp_operand(p, n, op, 0, &s, &l))
      return 0;
    q = w + 13;
    if (!adp_token(&q, p + n, &d, &dl) || (di = adp_slot(&A->T, d, dl, 0)) < 0 || !(A->T.flags[di] & ADP_GLOBAL))
      return 0;
    si = adp_slot(&A->T, s, l, 0);
    if (si >= 0 && (A->T.flags[si] & ADP_SELECT) && A->T.origin[si] >= 0 &&
        adp_same_block(&A->T, A->T.origin[si], di)) {
      A->masked_rmw++;
      if (adp_line_bump(A, line, "masked_rmw", 1))
        return -ENOMEM;
    }
    return adp_one_elem(w, (size_t)(p + n - w)) ? adp_scalar_access(A, 1, line) : adp_copy(A, 1, line);
  }
  return 0;
}

/* Linalg structured ops by name; matmul and reduce also by line. An op line without a
 * location (linalg.reduce prints it on its region's closing line) sets *defer to the key to
 * attribute when that region closes. */
static int adp_linalg(struct adp *A, const char *op, long line, const char **defer)
{
  const char *key = !strcmp(op, "linalg.matmul") || !strcmp(op, "linalg.batch_matmul") ? "matmul"
                    : !strcmp(op, "linalg.reduce")                                       ? "reduce"
                                                                                         : NULL;
  if (!strcmp(op, "linalg.yield") || !strcmp(op, "linalg.index"))
    return 0;
  if (ir_bump(A->linalg, op, 1))
    return -ENOMEM;
  if (key && line > 0)
    return adp_line_bump(A, line, key, 1);
  *defer = key;
  return 0;
}

/* ---- regions ---- */

static void adp_open(struct adp *A, const char *op, const char *p, size_t n, const char *key)
{
  if (A->depth < ADP_FRAMES_MAX) {
    struct adp_frame *f = &A->st[A->depth];
    memset(f, 0, sizeof(*f));
    snprintf(f->op, sizeof(f->op), "%s", op);
    f->is_for = !strcmp(op, "scf.for");
    f->is_if = !strcmp(op, "scf.if");
    f->linalg = !strncmp(op, "linalg.", 7);
    f->key = key;
    if (f->is_if) {
      const char *q = ir_find(p, n, "scf.if "), *s;
      size_t l;
      if (q && (q += 7, adp_token(&q, p + n, &s, &l)) && (adp_flags(&A->T, s, l) & ADP_LOADED))
        f->branch_on_load = 1;
    }
  }
  A->depth++;
}

static int adp_loop_record(struct adp *A, const struct adp_frame *f, long line, int discrete)
{
  json_t *r;
  if (json_array_size(A->loops) >= IR_LOOPS_MAX)
    return 0;
  r = json_pack("{s:o, s:b, s:I, s:I, s:I, s:I, s:I}", "line", line > 0 ? json_integer(line) : json_null(),
                "discrete", discrete, "scalar_loads", (json_int_t)f->scalar_loads, "scalar_stores",
                (json_int_t)f->scalar_stores, "copies_in", (json_int_t)f->copies_in, "copies_out",
                (json_int_t)f->copies_out, "scalar_arith", (json_int_t)f->scalar_arith);
  return !r || json_array_append_new(A->loops, r) ? -ENOMEM : 0;
}

static int adp_close(struct adp *A, const char *p, size_t n)
{
  struct adp_frame f;
  long line;
  if (!A->depth)
    return 0;
  A->depth--;
  if (A->depth >= ADP_FRAMES_MAX)
    return 0;
  f = A->st[A->depth];
  line = ir_line_of(&A->L, p, n);
  if (f.key && adp_line_bump(A, line, f.key, 1))
    return -ENOMEM;
  if (f.is_if && f.branch_on_load) {
    A->branches++;
    if (adp_line_bump(A, line, "branch_on_load", 1))
      return -ENOMEM;
  }
  if (!f.is_for)
    return 0;
  {
    int discrete = f.discrete || ir_find(p, n, "{ExtractedLoadOrStore}") != NULL;
    long acc = f.scalar_loads + f.scalar_stores;
    if (discrete) {
      A->discrete_loads += f.scalar_loads;
      A->discrete_stores += f.scalar_stores;
      A->discrete_loops++;
      if (adp_line_bump(A, line, "discrete_loop", 1) || adp_line_bump(A, line, "discrete_load", f.scalar_loads) ||
          adp_line_bump(A, line, "discrete_store", f.scalar_stores))
        return -ENOMEM;
    } else {
      A->scalar_loads += f.scalar_loads;
      A->scalar_stores += f.scalar_stores;
      if (adp_line_bump(A, line, "scalar_load", f.scalar_loads) ||
          adp_line_bump(A, line, "scalar_store", f.scalar_stores) ||
          (acc > 0 && adp_line_bump(A, line, "scalar_loop", 1)))
        return -ENOMEM;
    }
    if (acc > 0)
      A->scalar_loops++;
    return adp_loop_record(A, &f, line, discrete);
  }
}

static int adp_line(struct adp *A, const char *p, size_t n, const char *cur, const char *end)
{
  char op[IR_OP_MAX];
  const char *defer = NULL;
  long line;
  int rc, opens, i64, mem;
  if ((rc = adp_hivm(A, p, n))) /* also on closing lines: `} {hivm.unlikely_condition}` */
    return rc;
  if (*p == '}') {
    /* `} else {` and `} do {` continue the same op. */
    if (p[n - 1] == '{')
      return 0;
    return adp_close(A, p, n);
  }
  if (ir_find(p, n, "{DiscreteMemAccess}")) {
    struct adp_frame *f = adp_loop(A);
    A->discrete_ops++;
    if (f)
      f->discrete = 1;
  }
  ir_mlir_op_name(p, n, op, sizeof(op));
  opens = p[n - 1] == '{';
  if (!op[0]) {
    if (opens) { /* `(%in: f32 ..., %init: f32 ...) {`: the region of the op on a line before */
      adp_open(A, A->pending, p, n, A->pending_key);
      A->pending_key = NULL;
    }
    return 0;
  }
  line = ir_line_of(&A->L, p, n);
  if (!strcmp(op, "func.func") && (rc = adp_function(A, p, n, cur, end)))
    return rc;
  if ((rc = adp_define(A, op, p, n, line)) || (rc = adp_memory(A, op, p, n, line)))
    return rc;
  if (!strncmp(op, "linalg.", 7) && (rc = adp_linalg(A, op, line, &defer)))
    return rc;
  if (ir_is_scalar_op(op, p, n, &i64, &mem) && !mem && !adp_in_linalg(A)) {
    struct adp_frame *f = adp_loop(A);
    A->scalar_arith++;
    A->scalar_i64 += i64;
    if (f) {
      A->loop_scalar_arith++;
      f->scalar_arith++;
    }
  }
  snprintf(A->pending, sizeof(A->pending), "%s", op);
  A->pending_key = opens ? NULL : defer;
  if (opens)
    adp_open(A, op, p, n, defer);
  return 0;
}

/* ---- result ---- */

static int adp_hotspot(struct adp *A)
{
  static const struct {
    const char *keys[2], *reason;
  } order[] = {
    { { "discrete_load", "discrete_store" }, "discrete memory access" },
    { { "masked_rmw", NULL }, "masked read-modify-write" },
    { { "scalar_loop", NULL }, "scalar loop" },
    { { "scalar_load", "scalar_store" }, "scalar memory access" },
    { { "branch_on_load", NULL }, "branch on a loaded value" },
    { { "copy_in", "copy_out" }, "global memory" },
    { { "matmul", NULL }, "cube" },
  };
  for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++) {
    const char *k;
    json_t *v, *h;
    json_int_t best = 0;
    long best_line = -1;
    json_object_foreach(A->by_line, k, v) {
      json_int_t s = json_integer_value(json_object_get(v, order[o].keys[0]));
      if (order[o].keys[1])
        s += json_integer_value(json_object_get(v, order[o].keys[1]));
      if (s > best || (s == best && s > 0 && atol(k) < best_line)) {
        best = s;
        best_line = atol(k);
      }
    }
    if (best <= 0)
      continue;
    h = json_pack("{s:I, s:s}", "line", (json_int_t)best_line, "reason", order[o].reason);
    return !h || json_object_set_new(A->root, "hotspot", h) ? -ENOMEM : 0;
  }
  return 0;
}

static int adp_finish(struct adp *A)
{
  json_t *f0 = json_array_get(A->funcs, 0), *mem, *bufs;
  mem = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "copies_in", (json_int_t)A->copies_in,
                  "copies_out", (json_int_t)A->copies_out, "discrete_loads", (json_int_t)A->discrete_loads,
                  "discrete_stores", (json_int_t)A->discrete_stores, "scalar_loads", (json_int_t)A->scalar_loads,
                  "scalar_stores", (json_int_t)A->scalar_stores, "masked_rmw_stores", (json_int_t)A->masked_rmw,
                  "structured", (json_int_t)(A->copies_in + A->copies_out), "unstructured",
                  (json_int_t)(A->discrete_loads + A->discrete_stores + A->scalar_loads + A->scalar_stores));
  bufs = json_pack("{s:I, s:I, s:I, s:I, s:I}", "count", (json_int_t)A->nalloc, "bytes", (json_int_t)A->alloc_bytes,
                   "max_bytes", (json_int_t)A->alloc_max, "dynamic", (json_int_t)A->alloc_dynamic, "ub_bytes",
                   (json_int_t)IR_ADAPTER_UB_BYTES);
  if (!mem || !bufs || json_object_set_new(A->root, "memory", mem) ||
      json_object_set_new(A->root, "local_buffers", bufs)) {
    return -ENOMEM;
  }
  if (json_object_set_new(A->root, "ir", json_string("ttadapter")) ||
      json_object_set(A->root, "functions", A->funcs) ||
      json_object_set(A->root, "mix_mode", json_object_get(f0, "mix_mode") ?: json_null()) ||
      json_object_set(A->root, "core_type", json_object_get(f0, "core_type") ?: json_null()) ||
      ir_set_int(A->root, "discrete_ops", A->discrete_ops) || json_object_set(A->root, "loops", A->loops) ||
      ir_set_int(A->root, "discrete_loops", A->discrete_loops) ||
      ir_set_int(A->root, "scalar_loops", A->scalar_loops) || ir_set_int(A->root, "branches_on_load", A->branches) ||
      json_object_set(A->root, "linalg", A->linalg) || json_object_set(A->root, "hivm_annotations", A->hivm) ||
      ir_set_int(A->root, "scalar_arith", A->scalar_arith) ||
      ir_set_int(A->root, "loop_scalar_arith", A->loop_scalar_arith) ||
      ir_set_int(A->root, "scalar_i64", A->scalar_i64) || json_object_set(A->root, "by_line", A->by_line) ||
      json_object_set_new(A->root, "verified_on_hardware", json_false()))
    return -ENOMEM;
  if (A->L.user && json_object_set_new(A->root, "source_file", json_stringn(A->L.user, A->L.ulen)))
    return -ENOMEM;
  if ((A->trunc && json_object_set_new(A->root, "by_line_truncated", json_true())) ||
      (A->T.trunc && json_object_set_new(A->root, "names_truncated", json_true())))
    return -ENOMEM;
  return adp_hotspot(A);
}

json_t *ir_adapter_features(const char *ttadapter, char *err, size_t errlen)
{
  struct adp *A = NULL;
  json_t *ret = NULL;
  const char *cur, *end, *p;
  size_t n, len;
  int rc = -ENOMEM; /* until the result is complete, a failure is out of memory */

  if (!ttadapter) {
    ir_errf(err, errlen, "no adapter IR given (the ttadapter stage produced nothing)");
    return NULL;
  }
  if (ir_check_input("adapter IR", ttadapter, err, errlen))
    return NULL;
  A = calloc(1, sizeof(*A));
  if (!A || adp_names_init(&A->T))
    goto out;
  len = strlen(ttadapter);
  A->root = json_object();
  A->funcs = json_array();
  A->loops = json_array();
  A->linalg = json_object();
  A->hivm = json_object();
  A->by_line = json_object();
  if (!A->root || !A->funcs || !A->loops || !A->linalg || !A->hivm || !A->by_line ||
      ir_locs_build(&A->L, ttadapter, len))
    goto out;
  cur = ttadapter;
  end = ttadapter + len;
  while (ir_next_line(&cur, end, &p, &n)) {
    ir_trim(&p, &n);
    if (!n || *p == '#' || ir_starts(p, n, "//"))
      continue;
    if ((rc = adp_line(A, p, n, cur, end)))
      goto out;
  }
  if ((rc = adp_finish(A)))
    goto out;
  ret = A->root;
  A->root = NULL;
out:
  if (rc == -ENOMEM && !ret)
    ir_errf(err, errlen, "out of memory while reading adapter IR");
  if (A) {
    ir_locs_free(&A->L);
    adp_names_free(&A->T);
    json_decref(A->root);
    json_decref(A->funcs);
    json_decref(A->loops);
    json_decref(A->linalg);
    json_decref(A->hivm);
    json_decref(A->by_line);
    free(A);
  }
  return ret;
}
