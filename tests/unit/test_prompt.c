/* Unit tests for workers/prompt.c: placeholders, bounds and truncation marks, the template
 * file, and the repository's own workers/prompt_template.md. */
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
#include <unistd.h>

#include "prompt.h"
#include "proposal.h"

#define KERNEL "@triton.jit\ndef k(x):\n    pass\n\nclass ModelNew:\n    pass\n"

static void input(struct prompt_input *in)
{
  memset(in, 0, sizeof(*in));
  in->mode = PROMPT_LLM;
  in->kernel = KERNEL;
  in->evidence_json = "{\"bottleneck\": \"memory\", \"dram_pct\": 41.5}";
  in->level = 2;
  in->patterns = "- scalar loads on a memory-bound kernel -> vectorize_access (1.4x, job 12)";
}

static char *render(const char *tmpl, const struct prompt_input *in, int want_rc, char *err,
                    size_t errlen)
{
  char *out = NULL;
  size_t len = 0;
  assert_int_equal(prompt_render(tmpl, in, &out, &len, err, errlen), want_rc);
  if (want_rc == 0) {
    assert_non_null(out);
    assert_int_equal(strlen(out), len);
    assert_true(len <= PROMPT_MAX);
  } else {
    assert_null(out);
  }
  return out;
}

static void test_placeholders(void **state)
{
  struct prompt_input in;
  struct prompt_round h[2] = {
      {1, 1, "block_size", "Bigger blocks amortize the launch.", "rejected: 0.98x, within noise"},
      {2, 3, "vectorize_access", "The PTX shows ld.global.b32; 128-bit loads.", "accepted, 1.31x"},
  };
  char err[512], *out;
  (void)state;
  input(&in);
  in.history = h;
  in.nhistory = 2;
  out = render("C=[{{contract}}]\nK=[{{kernel}}]\nE=[{{evidence}}]\nL=[{{level}}]\n"
               "P=[{{patterns}}]\nH=[{{history}}]\nF=[{{families}}]\n",
               &in, 0, err, sizeof(err));
  assert_null(strstr(out, "{{"));
  assert_non_null(strstr(out, "K=[" KERNEL "]"));
  assert_non_null(strstr(out, "E=[{\"bottleneck\": \"memory\", \"dram_pct\": 41.5}]"));
  assert_non_null(strstr(out, "L=[L2 (profiling diagnosis"));
  assert_non_null(strstr(out, "P=[- scalar loads on a memory-bound kernel"));
  assert_non_null(strstr(out, "- round 1 (L1, block_size): Bigger blocks amortize the launch. -> "
                              "rejected: 0.98x, within noise\n- round 2 (L3, vectorize_access)"));
  assert_non_null(strstr(out, "F=[block_size, num_warps, num_stages, vectorize_access, "
                              "coalesce_access, fuse_kernels, pipeline_loads, reduce_barriers, "
                              "use_tensor_cores, grid_shape, reduce_scalar_work, algorithmic, row_in_registers, tile_grid, "
                          "persistent_grid, structured_access, structured_mask, rows_per_program, tma_loads]"));
  assert_non_null(strstr(out, "exactly ONE rewrite"));
  assert_non_null(strstr(out, "class ModelNew"));
  assert_non_null(strstr(out, "Keep ModelNew's interface"));
  assert_non_null(strstr(out, "\"rewrite_family\""));
  free(out);
  /* Empty pieces read as something a model understands. */
  in.patterns = NULL;
  in.evidence_json = NULL;
  in.history = NULL;
  in.nhistory = 0;
  out = render("{{patterns}}|{{evidence}}|{{history}}", &in, 0, err, sizeof(err));
  assert_string_equal(out, "(no matching patterns in the index)|{}|(none yet: this is the first "
                           "round)\n");
  free(out);
}

static void test_literal_braces_and_comments(void **state)
{
  struct prompt_input in;
  char err[512], *out;
  (void)state;
  input(&in);
  /* Substituted text is never rescanned. */
  in.kernel = "x = '{{evidence}}'";
  out = render("{{kernel}}", &in, 0, err, sizeof(err));
  assert_string_equal(out, "x = '{{evidence}}'");
  free(out);
  /* "{{" that is not a placeholder stays literal. */
  out = render("a {{ b }} c {{Kernel}} {{", &in, 0, err, sizeof(err));
  assert_string_equal(out, "a {{ b }} c {{Kernel}} {{");
  free(out);
  /* Comments go, even when they mention placeholders; one on its own line leaves no line. */
  out = render("{{! about {{kernel}} and {{level}} }}\nA{{! inline }}B\n", &in, 0, err,
               sizeof(err));
  assert_string_equal(out, "AB\n");
  free(out);
  render("{{! never closed", &in, -EINVAL, err, sizeof(err));
  assert_non_null(strstr(err, "not closed"));
}

static void test_unknown_placeholder(void **state)
{
  struct prompt_input in;
  char err[512];
  (void)state;
  input(&in);
  render("Round {{round}}: {{kernel}}", &in, -EINVAL, err, sizeof(err));
  assert_non_null(strstr(err, "unknown placeholder {{round}}"));
  assert_non_null(strstr(err, "{{families}}"));
}

static void test_bounds(void **state)
{
  struct prompt_input in;
  char err[512], *out, *k, *e, *m;
  size_t kn = PROMPT_MAX_KERNEL * 2, en = PROMPT_MAX_EVIDENCE + 5000;
  (void)state;
  input(&in);
  k = malloc(kn + 1);
  for (size_t i = 0; i < kn; i++)
    k[i] = (i % 80 == 79) ? '\n' : 'k';
  k[kn] = '\0';
  e = malloc(en + 1);
  memset(e, 'e', en);
  e[en] = '\0';
  in.kernel = k;
  in.evidence_json = e;
  out = render("{{kernel}}", &in, 0, err, sizeof(err));
  assert_true(strlen(out) <= PROMPT_MAX_KERNEL);
  m = strstr(out, "[... kernel truncated by kopt: first ");
  assert_non_null(m);
  assert_non_null(strstr(m, "of 131072 bytes shown (PROMPT_MAX_KERNEL) ...]"));
  assert_true(m - out > (long)PROMPT_MAX_KERNEL - 400);
  assert_true(m[-1] == '\n'); /* cut at a line end */
  free(out);
  out = render("{{evidence}}", &in, 0, err, sizeof(err));
  assert_true(strlen(out) <= PROMPT_MAX_EVIDENCE);
  assert_non_null(strstr(out, "evidence truncated by kopt"));
  free(out);
  /* Exactly at the cap: no mark. */
  k[PROMPT_MAX_KERNEL] = '\0';
  out = render("{{kernel}}", &in, 0, err, sizeof(err));
  assert_int_equal(strlen(out), PROMPT_MAX_KERNEL);
  assert_null(strstr(out, "truncated"));
  free(out);
  /* Three full kernels and two evidence blobs pass the whole-prompt cap: an error, not a
   * silently cut prompt. */
  render("{{kernel}}{{kernel}}{{evidence}}{{evidence}}", &in, -E2BIG, err, sizeof(err));
  assert_non_null(strstr(err, "over the limit of 163840 bytes (PROMPT_MAX)"));
  free(k);
  free(e);
}

static void test_utf8_cut(void **state)
{
  struct prompt_input in;
  char err[512], *out, *k, *m;
  size_t n = PROMPT_MAX_KERNEL + 999; /* three-byte characters, no new lines */
  (void)state;
  input(&in);
  k = malloc(n + 1);
  for (size_t i = 0; i + 3 <= n; i += 3)
    memcpy(k + i, "\xe2\x82\xac", 3);
  k[n - n % 3] = '\0';
  in.kernel = k;
  out = render("{{kernel}}", &in, 0, err, sizeof(err));
  m = strstr(out, "\n[... kernel truncated");
  assert_non_null(m);
  assert_int_equal((m - out) % 3, 0); /* no character split */
  free(out);
  free(k);
}

static void test_history_recent_kept(void **state)
{
  struct prompt_input in;
  struct prompt_round h[300];
  char hyp[1000], err[512], *out, *r300, *r299;
  (void)state;
  input(&in);
  memset(hyp, 'h', sizeof(hyp) - 1);
  hyp[sizeof(hyp) - 1] = '\0';
  for (int i = 0; i < 300; i++)
    h[i] = (struct prompt_round){i + 1, 1 + i % 4, "num_warps", hyp, "rejected: slower"};
  in.history = h;
  in.nhistory = 300;
  out = render("{{history}}", &in, 0, err, sizeof(err));
  assert_true(strlen(out) <= PROMPT_MAX_HISTORY);
  assert_non_null(strstr(out, "earlier rounds omitted by kopt (PROMPT_MAX_HISTORY)"));
  assert_null(strstr(out, "- round 1 ("));
  r300 = strstr(out, "- round 300 (");
  r299 = strstr(out, "- round 299 (");
  assert_non_null(r300);
  assert_non_null(r299);
  assert_true(r299 < r300); /* oldest first */
  /* Each hypothesis is clipped. */
  assert_non_null(strstr(out, "hhh... -> rejected: slower"));
  free(out);
}

static void test_contract_modes(void **state)
{
  char c[PROMPT_MAX_CONTRACT];
  size_t n;
  (void)state;
  n = prompt_contract(PROMPT_LLM, c, sizeof(c));
  assert_true(n > 0 && n < sizeof(c));
  assert_non_null(strstr(c, "exactly one JSON object"));
  assert_non_null(strstr(c, "reduce_scalar_work"));
  assert_non_null(strstr(c, "structured_access, structured_mask")); /* the Ascend families */
  assert_null(strstr(c, "new_kernel.py"));
  n = prompt_contract(PROMPT_AGENT, c, sizeof(c));
  assert_true(n > 0 && n < sizeof(c));
  assert_non_null(strstr(c, "new_kernel.py"));
  assert_non_null(strstr(c, "hypothesis.json"));
  assert_non_null(prompt_system_message());
}

static void test_template_files(void **state)
{
  char err[512], origin[256], path[] = "/tmp/kopt-tmplXXXXXX", *t = NULL, *out;
  struct prompt_input in;
  FILE *f;
  int fd;
  (void)state;
  input(&in);
  /* Missing file: the error names it. */
  assert_int_equal(prompt_template_read("/nonexistent/kopt/t.md", &t, err, sizeof(err)), -ENOENT);
  assert_null(t);
  assert_non_null(strstr(err, "prompt template /nonexistent/kopt/t.md: No such file"));
  setenv("KOPT_PROMPT_TEMPLATE", "/nonexistent/kopt/t.md", 1);
  assert_int_equal(prompt_template_load(&t, origin, sizeof(origin), err, sizeof(err)), -ENOENT);
  assert_non_null(strstr(err, "/nonexistent/kopt/t.md"));
  assert_non_null(strstr(err, "KOPT_PROMPT_TEMPLATE"));
  /* A user's own template. */
  fd = mkstemp(path);
  assert_true(fd >= 0);
  f = fdopen(fd, "w");
  fputs("Level: {{level}}\n{{kernel}}", f);
  fclose(f);
  setenv("KOPT_PROMPT_TEMPLATE", path, 1);
  assert_int_equal(prompt_template_load(&t, origin, sizeof(origin), err, sizeof(err)), 0);
  assert_string_equal(origin, path);
  out = render(t, &in, 0, err, sizeof(err));
  assert_string_equal(out, "Level: L2 (profiling diagnosis: profiler counters of the hot "
                           "kernel)\n" KERNEL);
  free(out);
  free(t);
  /* Too big a template. */
  f = fopen(path, "w");
  for (unsigned i = 0; i < PROMPT_MAX_TEMPLATE / 10 + 1; i++)
    fputs("0123456789", f);
  fclose(f);
  assert_int_equal(prompt_template_load(&t, origin, sizeof(origin), err, sizeof(err)), -E2BIG);
  assert_non_null(strstr(err, "over the limit of 24576 bytes"));
  f = fopen(path, "w");
  fclose(f);
  assert_int_equal(prompt_template_read(path, &t, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "empty"));
  unlink(path);
  unsetenv("KOPT_PROMPT_TEMPLATE");
}

static void test_repo_template(void **state)
{
  struct prompt_input in;
  struct prompt_round h[1] = {{1, 2, "block_size", "Launch-bound.", "accepted, 1.10x"}};
  char err[512], origin[256], *t = NULL, *out;
  (void)state;
  input(&in);
  in.history = h;
  in.nhistory = 1;
  unsetenv("KOPT_PROMPT_TEMPLATE");
  /* Tests run from the repository root, where the default path resolves. */
  assert_int_equal(prompt_template_load(&t, origin, sizeof(origin), err, sizeof(err)), 0);
  assert_string_equal(origin, KOPT_PROMPT_TEMPLATE_DEFAULT);
  out = render(t, &in, 0, err, sizeof(err));
  assert_null(strstr(out, "{{"));
  assert_null(strstr(out, "Placeholders:")); /* the comment is gone */
  assert_non_null(strstr(out, "## Round contract"));
  assert_non_null(strstr(out, "```python\n" KERNEL));
  assert_non_null(strstr(out, "- round 1 (L2, block_size): Launch-bound. -> accepted, 1.10x"));
  free(out);
  in.mode = PROMPT_AGENT;
  out = render(t, &in, 0, err, sizeof(err));
  assert_non_null(strstr(out, "hypothesis.json"));
  free(out);
  free(t);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_placeholders),     cmocka_unit_test(test_literal_braces_and_comments),
      cmocka_unit_test(test_unknown_placeholder), cmocka_unit_test(test_bounds),
      cmocka_unit_test(test_utf8_cut),         cmocka_unit_test(test_history_recent_kept),
      cmocka_unit_test(test_contract_modes),   cmocka_unit_test(test_template_files),
      cmocka_unit_test(test_repo_template),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
