/* Unit tests for workers/ir.c (L3) and workers/ir_passes.c (L4) on real Triton 3.6 output:
 * the fixtures under tests/unit/data/ir/ were compiled offline for cuda:90 by
 * tests/ir/gen_fixtures.py (see its meta.json files for the options and the source lines
 * marked in tests/ir/ir_kernels.py). The Ascend readers are tested in test_ir_ascend.c. Run
 * from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir.h"
#include "ir_passes.h"

#define DATA "tests/unit/data/ir"

/* The text of DATA/fx/file (caller frees), or NULL when the file is missing. */
static char *fx_read(const char *fx, const char *file)
{
  char path[512], *text = NULL;
  snprintf(path, sizeof(path), "%s/%s/%s", DATA, fx, file);
  if (ir_read_file(path, IR_TEXT_MAX, &text, NULL))
    return NULL;
  return text;
}

/* The source line marked `# @name` for fixture fx (from its meta.json). */
static long fx_line(const char *fx, const char *name)
{
  char path[512];
  json_error_t je;
  json_t *m;
  long line;
  snprintf(path, sizeof(path), "%s/%s/meta.json", DATA, fx);
  m = json_load_file(path, 0, &je);
  assert_non_null(m);
  line = (long)json_integer_value(json_object_get(json_object_get(m, "lines"), name));
  json_decref(m);
  assert_true(line > 0);
  return line;
}

/* L3 features of a fixture from its TTGIR, PTX and SASS. */
static json_t *fx_features(const char *fx)
{
  char err[256] = "";
  char *ttgir = fx_read(fx, "kernel.ttgir"), *ptx = fx_read(fx, "kernel.ptx"), *sass = fx_read(fx, "kernel.sass");
  json_t *f;
  assert_non_null(ttgir);
  assert_non_null(ptx);
  assert_non_null(sass);
  f = ir_features_cuda(ttgir, ptx, sass, err, sizeof(err));
  free(ttgir);
  free(ptx);
  free(sass);
  if (!f)
    fail_msg("ir_features_cuda(%s): %s", fx, err);
  return f;
}

static json_int_t geti(json_t *o, const char *path)
{
  /* "a.b.c" walks objects; keys with dots are looked up whole first ("ld.global.32"). */
  char buf[128], *key, *save = NULL;
  json_t *v;
  if ((v = json_object_get(o, path)))
    return json_integer_value(v);
  snprintf(buf, sizeof(buf), "%s", path);
  key = strtok_r(buf, "/", &save);
  v = o;
  while (key && v) {
    v = json_object_get(v, key);
    key = strtok_r(NULL, "/", &save);
  }
  return v ? json_integer_value(v) : -1;
}

static json_t *line_ops(json_t *f, long line)
{
  char k[24];
  snprintf(k, sizeof(k), "%ld", line);
  return json_object_get(json_object_get(f, "by_line"), k);
}

/* ---- L3: cuda ---- */

static void test_copy_scalar_vs_vectorized(void **state)
{
  json_t *s = fx_features("copy_scalar"), *v = fx_features("copy_vec");
  json_t *sp = json_object_get(s, "ptx"), *vp = json_object_get(v, "ptx");
  long sl = fx_line("copy_scalar", "load"), vl = fx_line("copy_vec", "load");
  (void)state;
  /* Same TTGIR op counts: the difference is only in how the loads were lowered. */
  assert_int_equal(geti(s, "ttgir/ops/tt.load"), 1);
  assert_int_equal(geti(v, "ttgir/ops/tt.load"), 1);
  /* Scalar twin: only 32-bit global loads/stores, no 128-bit ones. */
  assert_true(geti(sp, "ld.global.32") > 0);
  assert_null(json_object_get(sp, "ld.global.128"));
  assert_int_equal(geti(sp, "global_128bit"), 0);
  assert_false(json_is_true(json_object_get(s, "all_global_128bit")));
  assert_true(geti(s, "sass/LDG.32") > 0);
  assert_null(json_object_get(json_object_get(s, "sass"), "LDG.128"));
  /* Vectorized twin: 128-bit loads only, and every global access is 128-bit. */
  assert_true(geti(vp, "ld.global.128") > 0);
  assert_null(json_object_get(vp, "ld.global.32"));
  assert_true(json_is_true(json_object_get(v, "all_global_128bit")));
  assert_true(json_is_true(json_object_get(json_object_get(v, "sass"), "all_global_128bit")));
  assert_true(geti(v, "sass/LDG.128") > 0);
  assert_null(json_object_get(json_object_get(v, "sass"), "LDG.32"));
  /* The same bytes per thread either way: 4x as many loads at a quarter of the width. */
  assert_int_equal(geti(sp, "ld.global.32") * 32, geti(vp, "ld.global.128") * 128);
  assert_int_equal(geti(sp, "global_loads"), 4 * geti(vp, "global_loads"));
  /* Attributed to the tl.load line, which is also the hotspot. */
  assert_true(geti(line_ops(s, sl), "ld.global.32") > 0);
  assert_int_equal(geti(line_ops(s, sl), "tt.load"), 1);
  assert_true(geti(line_ops(v, vl), "ld.global.128") > 0);
  assert_null(json_object_get(line_ops(s, sl), "ld.global.128"));
  assert_int_equal(geti(s, "hotspot/line"), sl);
  assert_string_equal(json_string_value(json_object_get(json_object_get(s, "hotspot"), "reason")), "global memory");
  assert_true(geti(line_ops(s, fx_line("copy_scalar", "store")), "st.global.32") > 0);
  assert_non_null(strstr(json_string_value(json_object_get(s, "source_file")), "ir_kernels.py"));
  /* a program's tile: the 1024-element block */
  assert_int_equal(geti(s, "ttgir/max_tensor_elems"), 1024);
  json_decref(s);
  json_decref(v);
}

/* tl.atomic_add at its default ordering is `atom.global.gpu.acq_rel.add` in PTX (ptxas brackets
 * each with MEMBAR.ALL.GPU and CCTL.IVALL in the SASS); with sem="relaxed" the same atomics are
 * `.relaxed`: both count as atom.global, only the first as atom.ordered. */
static void test_atomic_ordering(void **state)
{
  json_t *a = fx_features("scatter_acq_rel"), *r = fx_features("scatter_relaxed");
  json_t *ap = json_object_get(a, "ptx"), *rp = json_object_get(r, "ptx");
  (void)state;
  assert_true(geti(ap, "atom.global") > 0);
  assert_int_equal(geti(ap, "atom.ordered"), geti(ap, "atom.global"));
  assert_int_equal(geti(rp, "atom.global"), geti(ap, "atom.global"));
  assert_int_equal(geti(rp, "atom.ordered"), 0);
  assert_true(geti(line_ops(a, fx_line("scatter_acq_rel", "atomic")), "atom.global") > 0);
  json_decref(a);
  json_decref(r);
}

/* The largest register tensor: a matmul's 64 x 64 accumulator, not its 32-wide K slices; a
 * row sum's 4 x 256 tile, not its vectors of 4 rows. */
static void test_max_tensor_elems(void **state)
{
  json_t *m = fx_features("mm_pipelined"), *r = fx_features("row_sum");
  (void)state;
  assert_int_equal(geti(m, "ttgir/max_tensor_elems"), 64 * 64);
  assert_int_equal(geti(r, "ttgir/max_tensor_elems"), 4 * 256);
  json_decref(m);
  json_decref(r);
}

static void test_missing_inputs_are_absent(void **state)
{
  char err[256] = "", *ptx = fx_read("copy_vec", "kernel.ptx"), *ttgir = fx_read("copy_vec", "kernel.ttgir");
  json_t *f;
  (void)state;
  assert_non_null(ptx);
  f = ir_features_cuda(NULL, ptx, NULL, err, sizeof(err));
  assert_non_null(f);
  assert_null(json_object_get(f, "ttgir"));
  assert_null(json_object_get(f, "sass"));
  assert_non_null(json_object_get(f, "ptx"));
  assert_null(json_object_get(json_object_get(f, "spills"), "LDL"));
  /* by_line still comes from PTX, without TTGIR op names. */
  assert_true(geti(line_ops(f, fx_line("copy_vec", "load")), "ld.global.128") > 0);
  assert_null(json_object_get(line_ops(f, fx_line("copy_vec", "load")), "tt.load"));
  json_decref(f);
  /* TTGIR alone: no PTX keys anywhere, hotspot from TTGIR memory ops. */
  f = ir_features_cuda(ttgir, NULL, NULL, err, sizeof(err));
  assert_non_null(f);
  assert_null(json_object_get(f, "ptx"));
  assert_null(json_object_get(f, "all_global_128bit"));
  assert_int_equal(geti(line_ops(f, fx_line("copy_vec", "load")), "tt.load"), 1);
  assert_int_equal(geti(f, "hotspot/line"), fx_line("copy_vec", "load"));
  json_decref(f);
  assert_null(ir_features_cuda(NULL, NULL, NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "no IR"));
  free(ptx);
  free(ttgir);
}

static void test_pipelined_loop_l3(void **state)
{
  json_t *p = fx_features("mm_pipelined"), *n = fx_features("mm_nopipe");
  json_t *pl = json_array_get(json_object_get(json_object_get(p, "ttgir"), "loops"), 0);
  json_t *nl = json_array_get(json_object_get(json_object_get(n, "ttgir"), "loops"), 0);
  long loop = fx_line("mm_pipelined", "loop"), dot = fx_line("mm_pipelined", "dot");
  (void)state;
  /* num_stages=3: async copies into shared memory in TTGIR, cp.async in PTX, LDGSTS in SASS. */
  assert_true(geti(p, "ttgir/async_copies") > 0);
  assert_true(geti(p, "ttgir/ops/ttg.async_copy_global_to_local") > 0);
  assert_true(geti(p, "ttgir/local_alloc_bytes") > geti(n, "ttgir/local_alloc_bytes"));
  assert_true(geti(p, "ptx/cp.async") > 0);
  assert_true(geti(p, "sass/LDGSTS") > 0);
  assert_non_null(pl);
  assert_int_equal(geti(pl, "line"), loop);
  assert_int_equal(geti(pl, "loads"), 0);
  assert_true(geti(pl, "async_copies") > 0);
  assert_false(json_is_true(json_object_get(pl, "scalar")));
  assert_true(geti(line_ops(p, fx_line("mm_pipelined", "load_a")), "ttg.async_copy_global_to_local") > 0);
  /* num_stages=1: plain loads in the loop, no async copy anywhere. */
  assert_int_equal(geti(n, "ttgir/async_copies"), 0);
  assert_int_equal(geti(n, "ptx/cp.async"), 0);
  assert_int_equal(geti(n, "sass/LDGSTS"), 0);
  assert_true(geti(n, "ptx/ld.global.128") > 0);
  assert_non_null(nl);
  assert_int_equal(geti(nl, "loads"), 2);
  assert_int_equal(geti(nl, "async_copies"), 0);
  /* Both are wgmma kernels; the hotspot is the tl.dot line. */
  assert_int_equal(geti(p, "ttgir/ops/ttng.warp_group_dot"), 1);
  assert_true(geti(p, "ptx/wgmma") > 0);
  assert_true(geti(n, "sass/HGMMA") > 0);
  assert_int_equal(geti(p, "hotspot/line"), dot);
  assert_int_equal(geti(n, "hotspot/line"), fx_line("mm_nopipe", "dot"));
  assert_string_equal(json_string_value(json_object_get(json_object_get(p, "hotspot"), "reason")), "mma");
  assert_true(geti(p, "ptx/bar.sync") > 0);
  assert_int_equal(geti(p, "ttgir/num_warps"), 4);
  json_decref(p);
  json_decref(n);
}

static void test_layout_conversion_attributed(void **state)
{
  json_t *f = fx_features("row_sum"), *bl, *v;
  long store = fx_line("row_sum", "store"), sum = fx_line("row_sum", "sum");
  const char *k;
  long lines_with_cvt = 0;
  (void)state;
  assert_int_equal(geti(f, "ttgir/layout_conversions"), 1);
  /* The conversion exists to store the reduced (slice-layout) value: the tl.store line. */
  assert_int_equal(geti(line_ops(f, store), "ttg.convert_layout"), 1);
  bl = json_object_get(f, "by_line");
  json_object_foreach(bl, k, v)
    lines_with_cvt += json_object_get(v, "ttg.convert_layout") != NULL;
  assert_int_equal(lines_with_cvt, 1);
  assert_int_equal(geti(line_ops(f, sum), "tt.reduce"), 1);
  /* PTX lines inlined from tl.sum (standard.py) are attributed to the tl.sum call line. */
  assert_true(geti(line_ops(f, sum), "ld.shared") > 0 || geti(line_ops(f, sum), "bar.sync") > 0);
  assert_true(geti(f, "ptx/bar.sync") > 0);
  assert_true(json_is_true(json_object_get(json_object_get(f, "ptx"), "shared_dynamic")));
  json_decref(f);
}

static void test_scalar_loop(void **state)
{
  json_t *f = fx_features("scalar_loop"), *n = fx_features("mm_nopipe");
  json_t *l = json_array_get(json_object_get(json_object_get(f, "ttgir"), "loops"), 0);
  (void)state;
  assert_int_equal(geti(f, "ttgir/scalar_loops"), 1);
  assert_int_equal(geti(f, "ttgir/scalar_loop_loads"), 1);
  assert_non_null(l);
  assert_true(json_is_true(json_object_get(l, "scalar")));
  assert_int_equal(geti(l, "line"), fx_line("scalar_loop", "loop"));
  assert_int_equal(geti(f, "ptx/loops"), 1);
  assert_int_equal(geti(f, "ptx/loops_with_scalar_global_loads"), 1);
  /* A tensor loop is not scalar, and its 128-bit loads do not count as scalar ones. */
  assert_int_equal(geti(n, "ttgir/scalar_loops"), 0);
  assert_int_equal(geti(n, "ptx/loops_with_scalar_global_loads"), 0);
  json_decref(f);
  json_decref(n);
}

static void test_features_from_paths(void **state)
{
  char err[256] = "";
  json_t *f;
  (void)state;
  /* A missing SASS file is absent, not an error. */
  f = ir_features_cuda_paths(DATA "/copy_vec/kernel.ttgir", DATA "/copy_vec/kernel.ptx", DATA "/copy_vec/none.sass", err,
                             sizeof(err));
  assert_non_null(f);
  assert_null(json_object_get(f, "sass"));
  assert_true(json_is_true(json_object_get(f, "all_global_128bit")));
  json_decref(f);
  /* A directory where a file should be is a read error. */
  assert_null(ir_features_cuda_paths(DATA "/copy_vec", NULL, NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "cannot read TTGIR"));
  assert_null(ir_features_cuda_paths(NULL, DATA "/none.ptx", NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "no IR"));
}

static void test_spills_and_local(void **state)
{
  char err[256] = "";
  const char *ptx = ".visible .entry k()\n{\n.local .align 8 .b8 \t__local_depot0[48];\n"
                    "\tst.local.b32 [%rd1], %r1;\n\tld.local.b32 %r2, [%rd1];\n\tret;\n}\n";
  const char *sass = "        /*0000*/                   STL [R1], R2 ;   /* 0x0 */\n"
                     "        /*0010*/                   LDL R3, [R1] ;   /* 0x0 */\n"
                     "ptxas info    : 48 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads\n"
                     " Function k:\n  REG:40 STACK:48 SHARED:0 LOCAL:48 CONSTANT[0]:360\n";
  json_t *f = ir_features_cuda(NULL, ptx, sass, err, sizeof(err)), *sp;
  (void)state;
  assert_non_null(f);
  sp = json_object_get(f, "spills");
  assert_int_equal(geti(sp, "st.local"), 1);
  assert_int_equal(geti(sp, "ld.local"), 1);
  assert_int_equal(geti(sp, "local_depot_bytes"), 48);
  assert_int_equal(geti(sp, "STL"), 1);
  assert_int_equal(geti(sp, "LDL"), 1);
  assert_int_equal(geti(sp, "spill_store_bytes"), 8);
  assert_int_equal(geti(sp, "spill_load_bytes"), 4);
  assert_int_equal(geti(sp, "local_bytes"), 48);
  assert_int_equal(geti(f, "sass/instructions"), 2);
  json_decref(f);
  /* The real kernels spill nothing. */
  f = fx_features("mm_pipelined");
  assert_int_equal(geti(f, "spills/STL"), 0);
  assert_int_equal(geti(f, "spills/st.local"), 0);
  json_decref(f);
}

static size_t opname(const char *line, char *op, size_t oplen)
{
  return ir_mlir_op_name(line, strlen(line), op, oplen);
}

static void test_op_name(void **state)
{
  char op[96];
  (void)state;
  assert_int_equal(opname("    %x_25 = tt.load %x_24, %mask_23 : tensor<1024x!tt.ptr<f32>> loc(#loc20)", op, sizeof(op)), 7);
  assert_string_equal(op, "tt.load");
  assert_true(opname("    tt.store %1, %x_25 : tensor<1024x!tt.ptr<f32>>", op, sizeof(op)) > 0);
  assert_string_equal(op, "tt.store");
  assert_true(opname("    %s = \"tt.reduce\"(%x_22) <{axis = 1 : i32}> ({", op, sizeof(op)) > 0);
  assert_string_equal(op, "tt.reduce");
  assert_true(opname("    %acc:3 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %b) -> (f32) {", op, sizeof(op)) > 0);
  assert_string_equal(op, "scf.for");
  assert_int_equal(opname("  } loc(#loc12)", op, sizeof(op)), 0);
  assert_int_equal(opname("#loc3 = loc(\"k.py\":3:4)", op, sizeof(op)), 0);
  assert_int_equal(opname("module attributes {} {", op, sizeof(op)), 0);
  assert_int_equal(opname("                  outs(%0 : memref<16xf16>)", op, sizeof(op)), 0);
  /* Names longer than the buffer are refused, not cut. */
  assert_int_equal(opname("tt.load %x", op, 4), 0);
  assert_string_equal(op, "");
}

static void test_read_file(void **state)
{
  char *t = NULL;
  size_t n = 0;
  (void)state;
  assert_int_equal(ir_read_file(DATA "/copy_vec/kernel.ttgir", IR_TEXT_MAX, &t, &n), 0);
  assert_true(n > 100);
  assert_int_equal(strlen(t), n);
  free(t);
  assert_int_equal(ir_read_file(DATA "/copy_vec/kernel.ttgir", 100, &t, &n), -EFBIG);
  assert_null(t);
  assert_int_equal(ir_read_file(DATA "/no/such/file", IR_TEXT_MAX, &t, &n), -ENOENT);
  assert_null(t);
}

/* ---- L4 ---- */

struct trace_ctx {
  char *text;
  struct ir_pass_seq seq;
  struct ir_symptom sym;
  struct ir_pass_table tab;
};

static json_t *trace(struct trace_ctx *c, const char *fx, const char *spec, const char *focus)
{
  char err[256] = "";
  json_t *r;
  memset(c, 0, sizeof(*c));
  c->text = fx_read(fx, "passes.mlir");
  assert_non_null(c->text);
  assert_int_equal(ir_passes_parse(c->text, strlen(c->text), &c->seq, err, sizeof(err)), 0);
  assert_int_equal(ir_symptom_init(&c->sym, spec, err, sizeof(err)), 0);
  assert_int_equal(ir_pass_table_load(&c->tab, "workers/passes.tsv", err, sizeof(err)), 0);
  r = ir_passes_trace(&c->seq, &c->sym, &c->tab, focus, err, sizeof(err));
  if (!r)
    fail_msg("trace %s %s: %s", fx, spec, err);
  return r;
}

static void trace_done(struct trace_ctx *c, json_t *r)
{
  json_decref(r);
  ir_symptom_free(&c->sym);
  ir_pass_table_free(&c->tab);
  ir_passes_free(&c->seq);
  free(c->text);
}

static const char *sget(json_t *o, const char *k)
{
  return json_string_value(json_object_get(o, k));
}

static void test_pipeliner_introduces_async_copies(void **state)
{
  struct trace_ctx c;
  json_t *r = trace(&c, "mm_pipelined", "op:ttg.async_copy_global_to_local", "tritongpu-pipeline"), *a;
  (void)state;
  a = json_object_get(r, "appeared");
  assert_non_null(a);
  assert_string_equal(sget(a, "pass_arg"), "tritongpu-pipeline");
  assert_string_equal(sget(a, "pass"), "TritonGPUPipeline");
  assert_int_equal(geti(a, "before_count"), 0);
  assert_true(geti(a, "after_count") > 0);
  assert_string_equal(sget(a, "verdict"), "introduced");
  assert_non_null(strstr(sget(a, "description"), "asynchronous copies"));
  assert_false(json_is_true(json_object_get(r, "present_in_input")));
  assert_int_equal(json_array_size(json_object_get(r, "changes")), 1);
  assert_string_equal(sget(json_array_get(json_object_get(r, "focus"), 0), "verdict"), "introduced");
  /* The pipeliner's internal dumps (LowerLoops, ExpandLoops) are not passes. */
  for (size_t i = 0; i < c.seq.n; i++)
    assert_true(c.seq.v[i].name[0] != '\0');
  trace_done(&c, r);
  /* num_stages=1: the pipeliner runs but no async copy ever appears. */
  r = trace(&c, "mm_nopipe", "op:ttg.async_copy_global_to_local", "tritongpu-pipeline");
  assert_true(json_is_null(json_object_get(r, "appeared")));
  assert_int_equal(geti(r, "final_count"), 0);
  assert_string_equal(sget(json_array_get(json_object_get(r, "focus"), 0), "verdict"), "absent");
  trace_done(&c, r);
}

static void test_loads_persist_through_pipeliner(void **state)
{
  struct trace_ctx c;
  json_t *r = trace(&c, "mm_nopipe", "loop-sync-load", "tritongpu-pipeline"), *f, *it;
  size_t i;
  int seen = 0;
  (void)state;
  /* The loop with synchronous loads is in the input and survives the pipeliner. */
  assert_true(json_is_true(json_object_get(r, "present_in_input")));
  f = json_array_get(json_object_get(r, "focus"), 0);
  assert_non_null(f);
  assert_string_equal(sget(f, "pass_arg"), "tritongpu-pipeline");
  assert_string_equal(sget(f, "verdict"), "persisted");
  assert_int_equal(geti(f, "before_count"), 1);
  assert_int_equal(geti(f, "after_count"), 1);
  json_array_foreach(json_object_get(r, "persisted_through"), i, it) {
    if (!strcmp(sget(it, "pass_arg"), "tritongpu-pipeline")) {
      seen = 1;
      assert_non_null(strstr(sget(it, "description"), "pipelin"));
    }
  }
  assert_true(seen);
  /* Only lowering structured control flow makes the loop go away. */
  assert_string_equal(sget(json_object_get(r, "removed"), "pass_arg"), "convert-scf-to-cf");
  trace_done(&c, r);
  /* num_stages=3: the pipeliner is what removes it. */
  r = trace(&c, "mm_pipelined", "loop-sync-load", "tritongpu-pipeline");
  f = json_array_get(json_object_get(r, "focus"), 0);
  assert_string_equal(sget(f, "verdict"), "removed");
  assert_string_equal(sget(json_object_get(r, "removed"), "pass_arg"), "tritongpu-pipeline");
  assert_int_equal(geti(r, "final_count"), 0);
  trace_done(&c, r);
}

static void test_layout_conversion_passes(void **state)
{
  struct trace_ctx c;
  json_t *r = trace(&c, "row_sum", "op:ttg.convert_layout", "tritongpu-remove-layout-conversions"), *ch, *it;
  size_t i;
  int runs = -1;
  (void)state;
  assert_string_equal(sget(json_object_get(r, "appeared"), "pass_arg"), "convert-triton-to-tritongpu");
  ch = json_object_get(r, "changes");
  assert_string_equal(sget(json_array_get(ch, 1), "pass_arg"), "tritongpu-coalesce");
  assert_string_equal(sget(json_array_get(ch, 1), "verdict"), "increased");
  assert_string_equal(sget(json_array_get(ch, 2), "pass_arg"), "tritongpu-remove-layout-conversions");
  assert_string_equal(sget(json_array_get(ch, 2), "verdict"), "reduced");
  assert_int_equal(geti(r, "final_count"), 1);
  /* remove-layout-conversions runs three times: reduces once, then fails to remove the last. */
  assert_int_equal(json_array_size(json_object_get(r, "focus")), 3);
  assert_string_equal(sget(json_array_get(json_object_get(r, "focus"), 2), "verdict"), "persisted");
  json_array_foreach(json_object_get(r, "persisted_through"), i, it)
    if (!strcmp(sget(it, "pass_arg"), "tritongpu-remove-layout-conversions"))
      runs = (int)geti(it, "runs");
  assert_int_equal(runs, 2);
  /* The dump was trimmed before the LLVM conversion: its effect is unknown. */
  assert_string_equal(sget(r, "unknown_after"), "convert-triton-gpu-to-llvm");
  trace_done(&c, r);
}

static void test_scalar_loads_appear_in_llvm_lowering(void **state)
{
  struct trace_ctx c;
  json_t *r = trace(&c, "copy_scalar", "re:ld\\.global\\.b32", NULL);
  (void)state;
  assert_string_equal(sget(json_object_get(r, "appeared"), "pass_arg"), "convert-triton-gpu-to-llvm");
  assert_int_equal(geti(json_object_get(r, "appeared"), "after_count"), 8);
  assert_null(json_object_get(r, "focus"));
  trace_done(&c, r);
  r = trace(&c, "copy_vec", "re:ld\\.global\\.b32", NULL);
  assert_true(json_is_null(json_object_get(r, "appeared")));
  trace_done(&c, r);
  r = trace(&c, "copy_vec", "re:ld\\.global\\.v4\\.b32", NULL);
  assert_string_equal(sget(json_object_get(r, "appeared"), "pass_arg"), "convert-triton-gpu-to-llvm");
  trace_done(&c, r);
}

static void test_trace_file(void **state)
{
  struct ir_pass_table t;
  char err[256] = "";
  json_t *r;
  (void)state;
  assert_int_equal(ir_pass_table_load(&t, "workers/passes.tsv", err, sizeof(err)), 0);
  r = ir_passes_trace_file(DATA "/mm_pipelined/passes.mlir", "op:ttg.local_alloc", &t, NULL, err, sizeof(err));
  assert_non_null(r);
  /* Shared-memory buffers for the dot operands come from accelerate-matmul (wgmma reads them). */
  assert_string_equal(sget(json_object_get(r, "appeared"), "pass_arg"), "tritongpu-accelerate-matmul");
  json_decref(r);
  assert_null(ir_passes_trace_file(DATA "/none/passes.mlir", "op:tt.load", &t, NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "cannot read"));
  assert_null(ir_passes_trace_file(DATA "/mm_pipelined/passes.mlir", "nope", &t, NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "unknown symptom"));
  assert_null(ir_passes_trace_file(DATA "/copy_vec/kernel.ttgir", "op:tt.load", &t, NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "no \"// -----// IR Dump"));
  ir_pass_table_free(&t);
}

static void test_nested_partial_dumps(void **state)
{
  struct trace_ctx c;
  json_t *r = trace(&c, "mm_pipelined", "op:tt.dot", "inline"), *f;
  (void)state;
  /* The inliner's canonicalizers print single functions: they are folded into its step. */
  assert_false(c.seq.v[1].full);
  assert_string_equal(c.seq.v[1].scope, "tt.func");
  f = json_array_get(json_object_get(r, "focus"), 0);
  assert_int_equal(json_array_size(json_object_get(f, "nested")), 3);
  assert_string_equal(sget(json_object_get(r, "removed"), "pass_arg"), "tritongpu-accelerate-matmul");
  trace_done(&c, r);
}

static void test_pass_table_covers_dumps(void **state)
{
  static const char *const fxs[] = {"copy_scalar", "copy_vec", "row_sum", "mm_pipelined", "mm_nopipe"};
  struct ir_pass_table t;
  char err[256] = "";
  (void)state;
  assert_int_equal(ir_pass_table_load(&t, "workers/passes.tsv", err, sizeof(err)), 0);
  assert_true(t.n >= 50);
  for (size_t k = 0; k < sizeof(fxs) / sizeof(fxs[0]); k++) {
    char *text = fx_read(fxs[k], "passes.mlir");
    struct ir_pass_seq seq;
    assert_non_null(text);
    assert_int_equal(ir_passes_parse(text, strlen(text), &seq, err, sizeof(err)), 0);
    assert_true(seq.n > 50);
    for (size_t i = 0; i < seq.n; i++) {
      const struct ir_pass_row *row = ir_pass_table_find(&t, seq.v[i].arg, NULL);
      if (!row)
        fail_msg("%s: pass %s (%s) is not in workers/passes.tsv", fxs[k], seq.v[i].name, seq.v[i].arg);
      assert_string_equal(row->name, seq.v[i].name);
      assert_true(strlen(row->desc) > 20);
    }
    ir_passes_free(&seq);
    free(text);
  }
  ir_pass_table_free(&t);
}

static void test_pass_table_parse_and_load(void **state)
{
  struct ir_pass_table t;
  char err[256] = "";
  const char *good = "# comment\n\ncse\tCSE\tmerges identical ops\r\nfoo\tFoo\tdoes foo\n";
  (void)state;
  assert_int_equal(ir_pass_table_parse(&t, good, strlen(good), err, sizeof(err)), 0);
  assert_int_equal(t.n, 2);
  assert_string_equal(ir_pass_table_find(&t, "cse", NULL)->desc, "merges identical ops");
  assert_string_equal(ir_pass_table_find(&t, "nope", "Foo")->arg, "foo");
  assert_null(ir_pass_table_find(&t, "nope", "Nope"));
  ir_pass_table_free(&t);
  assert_int_equal(ir_pass_table_parse(&t, "cse\tCSE\n", 8, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "line 1"));
  assert_null(t.rows);
  /* Default search from the repository root finds the table (embedded or the file). */
  unsetenv("KOPT_PASSES_TSV");
  assert_int_equal(ir_pass_table_load(&t, NULL, err, sizeof(err)), 0);
  assert_non_null(ir_pass_table_find(&t, "tritongpu-pipeline", NULL));
  ir_pass_table_free(&t);
  /* An explicit KOPT_PASSES_TSV that is missing is an error, not a silent fallback. */
  setenv("KOPT_PASSES_TSV", "/nonexistent/passes.tsv", 1);
  assert_int_equal(ir_pass_table_load(&t, NULL, err, sizeof(err)), -ENOENT);
  assert_non_null(strstr(err, "/nonexistent/passes.tsv"));
  unsetenv("KOPT_PASSES_TSV");
}

static void test_after_dumps_and_errors(void **state)
{
  /* The `IR Dump After` form (bishengir --mlir-print-ir-after-all), with a function-scope
   * dump in between and a pass-internal dump that must not count. */
  const char *text =
    "noise before the first header\n"
    "// -----// IR Dump After A (a-pass) ('builtin.module' operation) //----- //\n"
    "module {\n  %0 = x.op %a : i32\n}\n"
    "// -----// IR Dump After B (b-pass) ('func.func' operation: @f) //----- //\n"
    "func.func @f() {\n  %0 = x.op %a : i32\n  %1 = x.op %a : i32\n  %2 = x.op %a : i32\n}\n"
    "// -----// IR Dump After C (c-pass) ('builtin.module' operation) //----- //\n"
    "module {\n  %0 = x.op %a : i32\n  %1 = x.op %a : i32\n}\n"
    "// -----// SomePass internal IR Dump After: Step\n"
    "module {\n  %0 = x.op %a : i32\n  %1 = x.op %a : i32\n  %2 = x.op %a : i32\n}\n"
    "// -----// IR Dump After D (d-pass) ('builtin.module' operation) //----- //\n"
    "module {\n}\n";
  struct ir_pass_seq seq;
  struct ir_symptom s;
  char err[256] = "";
  json_t *r, *ch;
  (void)state;
  assert_int_equal(ir_passes_parse(text, strlen(text), &seq, err, sizeof(err)), 0);
  assert_int_equal(seq.n, 4);
  assert_true(seq.v[0].after);
  assert_string_equal(seq.v[2].arg, "c-pass");
  assert_false(seq.v[1].full);
  assert_null(memmem(seq.v[2].ir, seq.v[2].ir_len, "internal", 8));
  assert_int_equal(ir_mlir_count_op(seq.v[2].ir, seq.v[2].ir_len, "x.op"), 2);
  assert_int_equal(ir_symptom_init(&s, "op:x.op", err, sizeof(err)), 0);
  r = ir_passes_trace(&seq, &s, NULL, "c-pass", err, sizeof(err));
  assert_non_null(r);
  assert_int_equal(geti(r, "initial_count"), 1);
  ch = json_object_get(r, "changes");
  assert_int_equal(json_array_size(ch), 2);
  assert_string_equal(sget(json_array_get(ch, 0), "pass_arg"), "c-pass");
  assert_string_equal(sget(json_array_get(ch, 0), "verdict"), "increased");
  assert_string_equal(json_string_value(json_array_get(json_object_get(json_array_get(ch, 0), "nested"), 0)), "b-pass");
  assert_true(json_is_null(json_object_get(json_array_get(ch, 0), "description")));
  assert_string_equal(sget(json_object_get(r, "removed"), "pass_arg"), "d-pass");
  assert_null(json_object_get(r, "unknown_after"));
  json_decref(r);
  ir_symptom_free(&s);
  /* substr and regex symptoms count in the same snapshot. */
  assert_int_equal(ir_symptom_init(&s, "substr:x.op", err, sizeof(err)), 0);
  assert_int_equal(ir_symptom_count(&s, seq.v[2].ir, seq.v[2].ir_len), 2);
  ir_symptom_free(&s);
  assert_int_equal(ir_symptom_init(&s, "re:^  %[0-9]+ = x\\.op", err, sizeof(err)), 0);
  assert_int_equal(ir_symptom_count(&s, seq.v[2].ir, seq.v[2].ir_len), 2);
  ir_symptom_free(&s);
  ir_passes_free(&seq);
  /* Errors. */
  assert_int_equal(ir_passes_parse("no headers here\n", 16, &seq, err, sizeof(err)), -ENOENT);
  assert_int_equal(ir_symptom_init(&s, "bogus", err, sizeof(err)), -EINVAL);
  assert_int_equal(ir_symptom_init(&s, "op:", err, sizeof(err)), -EINVAL);
  assert_int_equal(ir_symptom_init(&s, "re:(", err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "bad regex"));
  assert_int_equal(ir_symptom_init(&s, "loop-scalar", err, sizeof(err)), 0);
  ir_symptom_free(&s);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_copy_scalar_vs_vectorized),
    cmocka_unit_test(test_atomic_ordering),
    cmocka_unit_test(test_max_tensor_elems),
    cmocka_unit_test(test_missing_inputs_are_absent),
    cmocka_unit_test(test_pipelined_loop_l3),
    cmocka_unit_test(test_layout_conversion_attributed),
    cmocka_unit_test(test_scalar_loop),
    cmocka_unit_test(test_features_from_paths),
    cmocka_unit_test(test_spills_and_local),
    cmocka_unit_test(test_op_name),
    cmocka_unit_test(test_read_file),
    cmocka_unit_test(test_pipeliner_introduces_async_copies),
    cmocka_unit_test(test_loads_persist_through_pipeliner),
    cmocka_unit_test(test_layout_conversion_passes),
    cmocka_unit_test(test_scalar_loads_appear_in_llvm_lowering),
    cmocka_unit_test(test_trace_file),
    cmocka_unit_test(test_nested_partial_dumps),
    cmocka_unit_test(test_pass_table_covers_dumps),
    cmocka_unit_test(test_pass_table_parse_and_load),
    cmocka_unit_test(test_after_dumps_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
