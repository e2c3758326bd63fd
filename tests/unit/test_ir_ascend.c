/* Unit tests for the Ascend IR readers on real triton-ascend 3.2.0 output: the fixtures
 * under tests/unit/data/ir/ascend_* were compiled offline for Ascend910B3 (no NPU, no CANN:
 * the compile stops at bishengir-compile) by tests/ir/gen_ascend_fixtures.py from
 * tests/ir/ascend_kernels.py; each meta.json names the source lines marked `# @name`.
 * L3: workers/ir_adapter.c on kernel.ttadapter, and the ladder's rules on its features. L4:
 * workers/ir_passes.c on passes.mlir (triton-adapter-opt printed before and after every
 * pass) through evidence_passes_findings_ascend, and the ladder's L4 reading. Run from the
 * repository root. */
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

#include "evidence.h"
#include "ir.h"
#include "ir_adapter.h"
#include "ir_hivm.h"
#include "ir_passes.h"
#include "ladder.h"

#define DATA "tests/unit/data/ir"

/* The text of DATA/ascend_<fx>/<file> (caller frees); fails the test when missing. */
static char *fx_read(const char *fx, const char *file)
{
  char path[512], *text = NULL;
  snprintf(path, sizeof(path), "%s/ascend_%s/%s", DATA, fx, file);
  if (ir_read_file(path, IR_TEXT_MAX, &text, NULL))
    fail_msg("cannot read %s (tests/ir/gen_ascend_fixtures.py writes it)", path);
  return text;
}

/* The source line marked `# @name` in fixture fx's kernel (its meta.json). */
static long fx_line(const char *fx, const char *name)
{
  char path[512];
  json_error_t je;
  json_t *m;
  long line;
  snprintf(path, sizeof(path), "%s/ascend_%s/meta.json", DATA, fx);
  m = json_load_file(path, 0, &je);
  assert_non_null(m);
  line = (long)json_integer_value(json_object_get(json_object_get(m, "lines"), name));
  json_decref(m);
  assert_true(line > 0);
  return line;
}

static json_t *fx_features(const char *fx)
{
  char err[256] = "", *t = fx_read(fx, "kernel.ttadapter");
  json_t *f = ir_adapter_features(t, err, sizeof(err));
  free(t);
  if (!f)
    fail_msg("ir_adapter_features(%s): %s", fx, err);
  return f;
}

/* obj at path "a/b" (keys with dots are looked up whole). */
static json_t *at(json_t *o, const char *path)
{
  char buf[128], *key, *save = NULL;
  json_t *v = o;
  snprintf(buf, sizeof(buf), "%s", path);
  for (key = strtok_r(buf, "/", &save); key && v; key = strtok_r(NULL, "/", &save))
    v = json_object_get(v, key);
  return v;
}

static long geti(json_t *o, const char *path)
{
  json_t *v = at(o, path);
  return v ? (long)json_integer_value(v) : -1;
}

static const char *gets_(json_t *o, const char *path)
{
  return json_string_value(at(o, path));
}

/* by_line[line][key], 0 when absent. */
static long on_line(json_t *f, long line, const char *key)
{
  char k[24];
  snprintf(k, sizeof(k), "%ld", line);
  return (long)json_integer_value(json_object_get(json_object_get(json_object_get(f, "by_line"), k), key));
}

/* ---- L3: the adapter IR ---- */

static void test_gather_is_discrete_at_its_line(void **state)
{
  json_t *f = fx_features("gather");
  long g = fx_line("gather", "gather"), idx = fx_line("gather", "load_idx"), st = fx_line("gather", "store");
  (void)state;
  /* tl.load(X + idx): one scalar load per element in a loop tagged by the adapter */
  assert_string_equal(gets_(f, "ir"), "ttadapter");
  assert_string_equal(gets_(f, "mix_mode"), "aiv");
  assert_string_equal(gets_(f, "core_type"), "AIV");
  assert_string_equal(gets_(json_array_get(json_object_get(f, "functions"), 0), "name"), "gather");
  assert_string_equal(gets_(json_array_get(json_object_get(f, "functions"), 0), "parallel_mode"), "simd");
  assert_int_equal(geti(f, "memory/discrete_loads"), 1);
  assert_int_equal(geti(f, "memory/discrete_stores"), 0);
  assert_int_equal(geti(f, "discrete_loops"), 1);
  assert_true(geti(f, "discrete_ops") >= 2); /* the extract and the yield at least */
  assert_int_equal(on_line(f, g, "discrete_loop"), 1);
  assert_int_equal(on_line(f, g, "discrete_load"), 1);
  /* the index load and the result store stay structured block copies */
  assert_int_equal(on_line(f, idx, "copy_in"), 1);
  assert_int_equal(on_line(f, st, "copy_out"), 1);
  assert_int_equal(geti(f, "memory/structured"), 2);
  assert_int_equal(geti(f, "memory/unstructured"), 1);
  assert_int_equal(json_array_size(json_object_get(f, "loops")), 1);
  assert_true(json_is_true(at(json_array_get(json_object_get(f, "loops"), 0), "discrete")));
  assert_int_equal(geti(json_array_get(json_object_get(f, "loops"), 0), "line"), g);
  assert_int_equal(geti(f, "hotspot/line"), g);
  assert_string_equal(gets_(f, "hotspot/reason"), "discrete memory access");
  assert_string_equal(gets_(f, "source_file"), "tests/ir/ascend_kernels.py");
  assert_false(json_is_true(json_object_get(f, "verified_on_hardware")));
  json_decref(f);
}

static void test_vector_add_is_structured(void **state)
{
  json_t *f = fx_features("vector_add");
  (void)state;
  assert_int_equal(geti(f, "discrete_ops"), 0);
  assert_int_equal(geti(f, "discrete_loops"), 0);
  assert_int_equal(geti(f, "memory/unstructured"), 0);
  assert_int_equal(geti(f, "memory/masked_rmw_stores"), 0);
  assert_int_equal(geti(f, "branches_on_load"), 0);
  assert_int_equal(on_line(f, fx_line("vector_add", "load_x"), "copy_in"), 1);
  assert_int_equal(on_line(f, fx_line("vector_add", "load_y"), "copy_in"), 1);
  assert_int_equal(on_line(f, fx_line("vector_add", "store"), "copy_out"), 1);
  /* two local buffers of BLOCK 1024 x f32 */
  assert_int_equal(geti(f, "local_buffers/count"), 2);
  assert_int_equal(geti(f, "local_buffers/bytes"), 2 * 1024 * 4);
  assert_int_equal(geti(f, "local_buffers/max_bytes"), 1024 * 4);
  assert_int_equal(geti(f, "local_buffers/ub_bytes"), IR_ADAPTER_UB_BYTES);
  /* the masked tail zero-fills its buffer under scf.if {hivm.unlikely_condition} */
  assert_int_equal(geti(f, "hivm_annotations/hivm.unlikely_condition"), 2);
  assert_string_equal(gets_(f, "hotspot/reason"), "global memory");
  json_decref(f);
}

static void test_row_sum_dot_branch_mask(void **state)
{
  json_t *r = fx_features("row_sum"), *d = fx_features("dot_tile"), *b = fx_features("branch"),
         *m = fx_features("even_mask");
  (void)state;
  /* a masked 2-D tile: one block copy of 4x256 f32, a linalg.reduce on the tl.sum line */
  assert_int_equal(on_line(r, fx_line("row_sum", "load"), "copy_in"), 1);
  assert_int_equal(on_line(r, fx_line("row_sum", "sum"), "reduce"), 1);
  assert_int_equal(geti(r, "local_buffers/bytes"), 4 * 256 * 4);
  assert_int_equal(geti(r, "memory/unstructured"), 0);
  /* tl.dot: cube work, a mix kernel */
  assert_string_equal(gets_(d, "mix_mode"), "mix");
  assert_string_equal(gets_(d, "core_type"), "MIX");
  assert_int_equal(geti(d, "linalg/linalg.matmul"), 1);
  assert_int_equal(on_line(d, fx_line("dot_tile", "dot"), "matmul"), 1);
  assert_int_equal(geti(d, "local_buffers/bytes"), 2 * 32 * 32 * 2);
  /* `if f > 0` on a loaded flag: a scalar load of global memory and a branch on it */
  assert_int_equal(geti(b, "memory/scalar_loads"), 1);
  assert_int_equal(on_line(b, fx_line("branch", "flag"), "scalar_load"), 1);
  assert_int_equal(geti(b, "branches_on_load"), 1);
  assert_int_equal(on_line(b, fx_line("branch", "branch"), "branch_on_load"), 1);
  assert_int_equal(geti(b, "discrete_ops"), 0);
  /* a mask that is not a bound: the store reads, selects and rewrites the whole block */
  assert_int_equal(geti(m, "memory/masked_rmw_stores"), 1);
  assert_int_equal(on_line(m, fx_line("even_mask", "store"), "masked_rmw"), 1);
  assert_int_equal(geti(m, "hotspot/line"), fx_line("even_mask", "store"));
  /* the other kernels' stores are plain */
  assert_int_equal(geti(r, "memory/masked_rmw_stores"), 0);
  assert_int_equal(geti(b, "memory/masked_rmw_stores"), 0);
  json_decref(r);
  json_decref(d);
  json_decref(b);
  json_decref(m);
}

static void test_adapter_errors(void **state)
{
  char err[256] = "";
  json_t *f;
  (void)state;
  assert_null(ir_adapter_features(NULL, err, sizeof(err)));
  assert_non_null(strstr(err, "adapter IR"));
  /* text that is not adapter IR reads as an empty kernel, not an error */
  f = ir_adapter_features("not mlir at all\n}\n}}\n%x = \n", err, sizeof(err));
  assert_non_null(f);
  assert_int_equal(geti(f, "memory/structured"), 0);
  assert_null(json_object_get(f, "hotspot"));
  json_decref(f);
}

/* The HIVM reader has no real HIVM IR here (bishengir-compile needs CANN); on adapter IR,
 * which shares its scalar-op and loop rules, it finds the gather's scalar load in a loop
 * with no vector work and the core type from mix_mode. */
static void test_hivm_reader_on_adapter_text(void **state)
{
  char err[256] = "", *t = fx_read("gather", "kernel.ttadapter");
  json_t *h = ir_hivm_features(t, err, sizeof(err));
  (void)state;
  assert_non_null(h);
  assert_int_equal(geti(h, "scalar_mem"), 1);
  assert_int_equal(geti(h, "loops"), 1);
  assert_int_equal(geti(h, "scalar_loops"), 1);
  assert_string_equal(gets_(h, "core_type"), "AIV");
  assert_int_equal(geti(h, "hivm/set_flag"), 0);
  assert_null(ir_hivm_features(NULL, err, sizeof(err)));
  json_decref(h);
  free(t);
}

/* ---- L4: the adapter pipeline, pass by pass ---- */

static json_t *fx_findings(const char *fx, struct ir_pass_table *tab)
{
  char err[256] = "", *dump = fx_read(fx, "passes.mlir");
  json_t *f = evidence_passes_findings_ascend(dump, strlen(dump), tab, err, sizeof(err));
  free(dump);
  if (!f)
    fail_msg("findings of %s: %s", fx, err);
  return f;
}

static json_t *finding(json_t *findings, const char *symptom)
{
  size_t i;
  json_t *f;
  json_array_foreach(findings, i, f)
    if (!strcmp(gets_(f, "symptom"), symptom))
      return f;
  return NULL;
}

static void test_gather_scalarized_by_triton_to_unstructure(void **state)
{
  struct ir_pass_table tab;
  char err[256] = "", *dump = fx_read("gather", "passes.mlir");
  json_t *fs, *f, *t, *a;
  (void)state;
  assert_int_equal(ir_pass_table_load(&tab, "workers/passes.tsv", err, sizeof(err)), 0);
  fs = fx_findings("gather", &tab);
  f = finding(fs, "discrete_access");
  assert_non_null(f);
  assert_string_equal(gets_(f, "pass"), "triton-to-unstructure");
  assert_string_equal(gets_(f, "verdict"), "introduced");
  assert_non_null(strstr(gets_(f, "description"), "scalar access per element"));
  /* its masks stay masks: the mask conversion keeps both accesses as they are */
  f = finding(fs, "masked_access");
  assert_non_null(f);
  assert_string_equal(gets_(f, "pass"), "discrete-mask-access-conversion");
  assert_true(json_is_true(json_object_get(f, "persisted")));
  /* local buffers appear where structured loads become block copies */
  f = finding(fs, "local_buffer");
  assert_non_null(f);
  assert_string_equal(gets_(f, "pass"), "triton-to-linalg");
  /* The step is TritonToUnstructure's whole bracket: the cse it runs inside itself (whose dump
   * shows the loop first) is folded in as nested, not blamed. */
  t = ir_passes_trace_file(DATA "/ascend_gather/passes.mlir", "substr:{ExtractedLoadOrStore}", &tab, NULL, err,
                           sizeof(err));
  assert_non_null(t);
  a = json_object_get(t, "appeared");
  assert_string_equal(gets_(a, "pass_arg"), "triton-to-unstructure");
  assert_string_equal(json_string_value(json_array_get(json_object_get(a, "nested"), 0)), "cse");
  assert_int_equal(geti(a, "before_count"), 0);
  assert_true(json_is_false(json_object_get(t, "present_in_input")));
  assert_null(json_object_get(t, "unknown_after"));
  json_decref(t);
  json_decref(fs);
  free(dump);
  ir_pass_table_free(&tab);
}

static void test_vector_add_and_mask_findings(void **state)
{
  json_t *va = fx_findings("vector_add", NULL), *em = fx_findings("even_mask", NULL), *f;
  (void)state;
  assert_null(finding(va, "discrete_access"));
  f = finding(va, "masked_access");
  assert_non_null(f);
  assert_true(json_is_true(json_object_get(f, "persisted")));
  assert_int_equal(geti(f, "before_count"), 3); /* two masked loads, one masked store */
  /* offs % 2 == 0: discrete-mask-access-conversion drops both masks */
  f = finding(em, "masked_access");
  assert_non_null(f);
  assert_string_equal(gets_(f, "verdict"), "removed");
  assert_false(json_is_true(json_object_get(f, "persisted")));
  assert_null(finding(em, "discrete_access"));
  json_decref(va);
  json_decref(em);
}

static void test_pass_table_covers_adapter_dumps(void **state)
{
  static const char *const fxs[] = {"vector_add", "gather", "row_sum", "dot_tile", "branch", "even_mask"};
  struct ir_pass_table t;
  char err[256] = "";
  (void)state;
  assert_int_equal(ir_pass_table_load(&t, "workers/passes.tsv", err, sizeof(err)), 0);
  for (size_t k = 0; k < sizeof(fxs) / sizeof(fxs[0]); k++) {
    char *text = fx_read(fxs[k], "passes.mlir");
    struct ir_pass_seq seq;
    assert_int_equal(ir_passes_parse(text, strlen(text), &seq, err, sizeof(err)), 0);
    assert_true(seq.n >= 20);
    for (size_t i = 0; i < seq.n; i++) {
      const struct ir_pass_row *row = ir_pass_table_find(&t, seq.v[i].arg, NULL);
      if (!row)
        fail_msg("%s: pass %s (%s) is not in workers/passes.tsv", fxs[k], seq.v[i].name, seq.v[i].arg);
      assert_string_equal(row->name, seq.v[i].name);
    }
    ir_passes_free(&seq);
    free(text);
  }
  ir_pass_table_free(&t);
}

/* ---- the ladder on real Ascend IR ---- */

static int has_family(const struct ladder_diag *d, const char *fam, const char *dir)
{
  for (unsigned i = 0; i < d->nfamilies; i++)
    if (!strcmp(d->family[i], fam) && (!dir || !strcmp(d->direction[i], dir)))
      return 1;
  return 0;
}

static void test_ladder_l3_on_adapter_ir(void **state)
{
  struct ladder_diag d;
  struct ladder_tests t;
  char want[64];
  json_t *g = fx_features("gather"), *va = fx_features("vector_add"), *m = fx_features("even_mask"),
         *b = fx_features("branch");
  (void)state;
  ladder_l3(g, NULL, NULL, &d);
  assert_true(d.available);
  assert_string_equal(d.family[0], "structured_access");
  snprintf(want, sizeof(want), "line %ld (discrete memory access)", fx_line("gather", "gather"));
  assert_string_equal(d.hotspot, want);
  assert_non_null(strstr(d.why, "mix_mode aiv"));
  assert_non_null(strstr(d.why, "discrete accesses 1 (in 1 scalar loop)"));
  ladder_tests(&d, NULL, &t);
  assert_true(t.hotspot && t.one_family && t.sufficient);
  /* structured and small: a larger block (2 x 8 KiB double-buffered is under 1/8 of the UB) */
  ladder_l3(va, NULL, NULL, &d);
  assert_int_equal(d.nfamilies, 1);
  assert_true(has_family(&d, "block_size", "up"));
  assert_non_null(strstr(d.why, "discrete accesses 0"));
  ladder_l3(m, NULL, NULL, &d);
  assert_string_equal(d.family[0], "structured_mask");
  ladder_l3(b, NULL, NULL, &d);
  assert_string_equal(d.family[0], "reduce_scalar_work");
  assert_false(has_family(&d, "structured_access", NULL));
  json_decref(g);
  json_decref(va);
  json_decref(m);
  json_decref(b);
}

static void test_ladder_ub_overflow(void **state)
{
  struct ladder_diag d;
  json_t *f = json_pack("{s:s, s:s, s:{s:i, s:i}, s:{s:i, s:i}}", "ir", "ttadapter", "mix_mode", "aiv", "memory",
                        "copies_in", 2, "copies_out", 1, "local_buffers", "bytes", 128 << 10, "ub_bytes",
                        IR_ADAPTER_UB_BYTES);
  (void)state;
  ladder_l3(f, NULL, NULL, &d);
  assert_true(has_family(&d, "block_size", "down"));
  json_decref(f);
}

static void test_ladder_l4_on_adapter_passes(void **state)
{
  struct ladder_diag d;
  json_t *g = fx_findings("gather", NULL), *em = fx_findings("even_mask", NULL), *va = fx_findings("vector_add", NULL);
  (void)state;
  ladder_l4(g, NULL, &d);
  assert_true(has_family(&d, "structured_access", NULL));
  assert_non_null(strstr(d.why, "discrete_access appeared after triton-to-unstructure"));
  ladder_l4(em, NULL, &d);
  assert_true(has_family(&d, "structured_mask", NULL));
  assert_non_null(strstr(d.why, "masked_access was removed by discrete-mask-access-conversion"));
  /* vector add: masks kept, local buffers from triton-to-linalg; nothing to rewrite here */
  ladder_l4(va, NULL, &d);
  assert_int_equal(d.nfamilies, 0);
  assert_non_null(strstr(d.why, "local_buffer appeared after triton-to-linalg"));
  json_decref(g);
  json_decref(em);
  json_decref(va);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_gather_is_discrete_at_its_line),
    cmocka_unit_test(test_vector_add_is_structured),
    cmocka_unit_test(test_row_sum_dot_branch_mask),
    cmocka_unit_test(test_adapter_errors),
    cmocka_unit_test(test_hivm_reader_on_adapter_text),
    cmocka_unit_test(test_gather_scalarized_by_triton_to_unstructure),
    cmocka_unit_test(test_vector_add_and_mask_findings),
    cmocka_unit_test(test_pass_table_covers_adapter_dumps),
    cmocka_unit_test(test_ladder_l3_on_adapter_ir),
    cmocka_unit_test(test_ladder_ub_overflow),
    cmocka_unit_test(test_ladder_l4_on_adapter_passes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
