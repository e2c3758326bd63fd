/* ir_walk: the MLIR region walker (declared in ir_walk.h) that TTGIR, per-pass dumps and HIVM
 * share: counts tracked ops, attributes them to kernel source lines and classifies every
 * scf.for body (synchronous loads, async copies, dots, scalar work). It keeps a fixed stack
 * of open regions; nothing it builds grows with the input except the caller's JSON, capped
 * by IR_BY_LINE_MAX and IR_LOOPS_MAX. */
#include "ir.h"
#include "ir_text.h"
#include "ir_walk.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define IR_FRAMES_MAX 64 /* region nesting tracked by the walker */

const char *const ir_walk_tracked_ops[] = {
  "tt.load", "tt.store", "tt.dot", "tt.dot_scaled", "ttng.warp_group_dot", "ttng.tc_gen5_mma",
  "ttg.convert_layout", "ttg.local_alloc", "ttg.local_load", "ttg.local_store",
  "ttg.async_copy_global_to_local", "ttg.async_wait", "ttng.async_tma_copy_global_to_local",
  "ttng.async_tma_copy_local_to_global", "tt.descriptor_load", "tt.descriptor_store", "tt.reduce",
  "tt.scan", "tt.atomic_rmw", "tt.atomic_cas", "tt.gather", "scf.for", "scf.while", "gpu.barrier",
  "ttng.wait_barrier", "ttng.barrier_expect",
};
const size_t ir_walk_ntracked_ops = sizeof(ir_walk_tracked_ops) / sizeof(ir_walk_tracked_ops[0]);

static int ir_is_tracked(const char *op)
{
  for (size_t i = 0; i < ir_walk_ntracked_ops; i++)
    if (strcmp(op, ir_walk_tracked_ops[i]) == 0)
      return 1;
  return 0;
}

static int ir_is_load(const char *op)
{
  return strcmp(op, "tt.load") == 0 || strcmp(op, "tt.descriptor_load") == 0;
}

int ir_walk_is_async(const char *op)
{
  return strcmp(op, "ttg.async_copy_global_to_local") == 0 ||
         strcmp(op, "ttng.async_tma_copy_global_to_local") == 0;
}

int ir_walk_is_tma(const char *op)
{
  return strncmp(op, "ttng.async_tma_copy", 19) == 0 || strcmp(op, "tt.descriptor_load") == 0 ||
         strcmp(op, "tt.descriptor_store") == 0;
}

int ir_walk_is_dot(const char *op)
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
  long total;
  if (!m)
    return 0;
  q = m + 13;
  total = ir_shape_product(&q, e);
  return total > 0 ? total * ir_elem_bytes(q, e) : 0;
}

/* The element count of the largest tensor<...> type on the line (0 when none). */
static long ir_max_tensor(const char *p, size_t n)
{
  const char *e = p + n, *t = p, *q;
  long best = 0, v;
  while (t < e && (t = ir_find(t, (size_t)(e - t), "tensor<"))) {
    q = t + 7;
    v = ir_shape_product(&q, e);
    if (q > t + 7 && v > best) /* at least one dimension: not a scalar tensor<f32> */
      best = v;
    t += 7;
  }
  return best;
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
    if (tensor) {
      long te = ir_max_tensor(p, n);
      if (te > w->max_tensor_elems)
        w->max_tensor_elems = te;
    }
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
        f->asyncs += ir_walk_is_async(op);
        f->dots += ir_walk_is_dot(op);
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
