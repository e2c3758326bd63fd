/* Unit tests for workers/agent.c with small shell scripts as agents: one that writes good
 * files, one that writes nothing, one that outlives its timeout (with a child in the
 * background), one that prints its answer on stdout, and the ways an answer can be wrong. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "agent.h"
#include "proposal.h"

#define KERNEL                                                                             \
  "import torch\nimport triton\nimport triton.language as tl\n\n@triton.jit\n"            \
  "def add_kernel(x, y, o, n, BLOCK: tl.constexpr):\n    pass\n\n"                         \
  "class ModelNew(torch.nn.Module):\n    def forward(self, a, b):\n"                       \
  "        add_kernel[(1,)](a, b, a, 1, BLOCK=1024)\n        return a\n"

static char base[256];    /* the test's scratch directory */
static char workdir[512]; /* the round's work directory: a space and a quote in it */

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void put(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static char *slurp(const char *path)
{
  FILE *f = fopen(path, "r");
  char *s;
  long n;
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  s = calloc(1, (size_t)n + 1);
  assert_int_equal(fread(s, 1, (size_t)n, f), (size_t)n);
  fclose(f);
  return s;
}

/* Writes base/NAME.sh holding body and sets c->cmd to run it with args. */
static void agent(struct agent_config *c, const char *name, const char *args, const char *body)
{
  char path[1024], cmd[4096];
  snprintf(path, sizeof(path), "%s/%s.sh", base, name);
  put(path, body);
  snprintf(cmd, sizeof(cmd), "sh %s %s", path, args);
  agent_config_init(c);
  c->cmd = strdup(cmd);
  c->timeout_s = 20;
  c->kill_grace_ms = 300;
}

static const struct agent_input input = {
    "## Round contract\none rewrite\n", KERNEL, "{\"bottleneck\": \"memory\"}",
    "# prompt\noptimize it\n"};

static int setup(void **state)
{
  (void)state;
  snprintf(base, sizeof(base), "/tmp/kopt-agent-testXXXXXX");
  if (!mkdtemp(base))
    return -1;
  snprintf(workdir, sizeof(workdir), "%s/round 1 it's", base);
  return 0;
}

static int teardown(void **state)
{
  char cmd[512];
  (void)state;
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
  return system(cmd) == 0 ? 0 : -1;
}

/* 1 while pid exists and is not a zombie. */
static int alive(pid_t pid)
{
  char path[64], buf[512], *rp;
  FILE *f;
  size_t n;
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  f = fopen(path, "r");
  if (!f)
    return 0;
  n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  rp = strrchr(buf, ')');
  return rp && rp[1] == ' ' && rp[2] != 'Z' && rp[2] != 'X';
}

static void test_expand(void **state)
{
  char *out = NULL, err[256];
  (void)state;
  assert_int_equal(agent_expand("a {dir} {kernel} {evidence} {prompt} {contract} ${HOME} {a,b} "
                                "{other} {dir",
                                "/w/it's here", &out, err, sizeof(err)),
                   0);
  assert_string_equal(out, "a '/w/it'\\''s here' '/w/it'\\''s here/kernel.py' "
                           "'/w/it'\\''s here/evidence.json' '/w/it'\\''s here/prompt.md' "
                           "'/w/it'\\''s here/contract.md' ${HOME} {a,b} {other} {dir");
  free(out);
}

static void test_config_from_env(void **state)
{
  struct agent_config c;
  char err[256];
  (void)state;
  unsetenv("KOPT_AGENT_CMD");
  unsetenv("KOPT_AGENT_TIMEOUT_S");
  assert_int_equal(agent_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_AGENT_CMD is not set"));
  setenv("KOPT_AGENT_CMD", "my-agent --dir {dir}", 1);
  assert_int_equal(agent_config_from_env(&c, err, sizeof(err)), 0);
  assert_string_equal(c.cmd, "my-agent --dir {dir}");
  assert_int_equal(c.timeout_s, 600);
  agent_config_free(&c);
  setenv("KOPT_AGENT_TIMEOUT_S", "0", 1);
  assert_int_equal(agent_config_from_env(&c, err, sizeof(err)), -EINVAL);
  assert_non_null(strstr(err, "KOPT_AGENT_TIMEOUT_S"));
  assert_null(c.cmd);
  setenv("KOPT_AGENT_TIMEOUT_S", "45", 1);
  assert_int_equal(agent_config_from_env(&c, err, sizeof(err)), 0);
  assert_int_equal(c.timeout_s, 45);
  agent_config_free(&c);
  unsetenv("KOPT_AGENT_CMD");
  unsetenv("KOPT_AGENT_TIMEOUT_S");
}

static void test_good_files(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  char path[1024], *s;
  (void)state;
  agent(&c, "good", "{dir} {kernel} {contract}",
        "set -e\n"
        "[ \"$(pwd -P)\" = \"$1\" ] || { echo \"cwd $(pwd -P) is not $1\" >&2; exit 3; }\n"
        "for f in contract.md kernel.py evidence.json prompt.md; do\n"
        "  [ -s \"$f\" ] || { echo \"missing $f\" >&2; exit 4; }\n"
        "done\n"
        "grep -q 'one rewrite' \"$3\"\n"
        "sed 's/BLOCK=1024/BLOCK=2048/' \"$2\" > new_kernel.py\n"
        "printf '{\"hypothesis\": \"Bigger blocks halve the launches.\", "
        "\"rewrite_family\": \"block_size\"}' > hypothesis.json\n"
        "echo agent done\n");
  proposal_init(&p);
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), 0);
  assert_int_equal(r.exit_code, 0);
  assert_string_equal(r.answer_from, "files");
  assert_non_null(strstr(p.source, "BLOCK=2048"));
  assert_string_equal(p.family, "block_size");
  assert_string_equal(p.hypothesis, "Bigger blocks halve the launches.");
  assert_string_equal(r.output_tail, "agent done\n");
  /* The incumbent and the evidence were laid out as files. */
  snprintf(path, sizeof(path), "%s/evidence.json", workdir);
  s = slurp(path);
  assert_string_equal(s, input.evidence_json);
  free(s);
  proposal_free(&p);
  agent_result_free(&r);
  agent_config_free(&c);
}

static void test_writes_nothing(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  char path[1024];
  (void)state;
  agent(&c, "nothing", "", "echo thinking... >&2\nexit 0\n");
  /* A new_kernel.py left from an earlier round does not count for this one. */
  mkdir(workdir, 0755);
  snprintf(path, sizeof(path), "%s/new_kernel.py", workdir);
  put(path, KERNEL);
  snprintf(path, sizeof(path), "%s/hypothesis.json", workdir);
  put(path, "{\"hypothesis\": \"old\", \"rewrite_family\": \"block_size\"}");
  proposal_init(&p);
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "wrote no new_kernel.py (with hypothesis.json)"));
  assert_non_null(strstr(r.error, "printed no answer on stdout"));
  assert_null(p.source);
  assert_string_equal(r.output_tail, "thinking...\n");
  agent_result_free(&r);
  agent_config_free(&c);
}

static void test_timeout_kills_group(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  char path[1024], *s;
  pid_t bg;
  double t0;
  (void)state;
  /* A child in the background and a shell that ignores SIGTERM: SIGKILL after the grace. */
  agent(&c, "sleeper", "",
        "trap '' TERM\nsleep 30 &\necho $! > bgpid\necho started\nsleep 30\necho never\n");
  c.timeout_s = 1;
  free(c.cmd); /* the shell itself ignores SIGTERM, so only the grace's SIGKILL ends it */
  c.cmd = strdup("trap '' TERM; sleep 30 & echo $! > bgpid; echo started; sleep 30; echo never");
  proposal_init(&p);
  t0 = now_s();
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -ETIMEDOUT);
  assert_true(now_s() - t0 < 5.0);
  assert_true(r.elapsed_s >= 1.0);
  assert_true(r.timed_out);
  assert_int_equal(r.exit_code, 128 + SIGKILL);
  assert_non_null(strstr(r.error, "timed out after 1 s (KOPT_AGENT_TIMEOUT_S)"));
  assert_non_null(strstr(r.output_tail, "started"));
  assert_null(strstr(r.output_tail, "never"));
  snprintf(path, sizeof(path), "%s/bgpid", workdir);
  s = slurp(path);
  assert_non_null(s);
  bg = (pid_t)atoi(s);
  free(s);
  assert_true(bg > 0);
  for (int i = 0; i < 40 && alive(bg); i++)
    usleep(50000);
  assert_false(alive(bg));
  agent_result_free(&r);
  agent_config_free(&c);
}

static void test_stdout_answer(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  char path[1024], args[1100], *ans;
  json_t *o;
  (void)state;
  o = json_pack("{s:s, s:s, s:s}", "hypothesis", "Two warps idle; use four.", "rewrite_family",
                "num_warps", "kernel", KERNEL);
  ans = json_dumps(o, JSON_INDENT(2));
  json_decref(o);
  snprintf(path, sizeof(path), "%s/answer.json", base);
  put(path, ans);
  free(ans);
  snprintf(args, sizeof(args), "'%s'", path);
  agent(&c, "printer", args, "echo 'progress: reading kernel' >&2\nprintf '```json\\n'\n"
                             "cat \"$1\"\nprintf '\\n```\\n'\n");
  proposal_init(&p);
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), 0);
  assert_string_equal(r.answer_from, "stdout");
  assert_string_equal(p.family, "num_warps");
  assert_string_equal(p.source, KERNEL);
  proposal_free(&p);
  agent_result_free(&r);
  agent_config_free(&c);
  /* Prose on stdout is no answer, and the reason says so. */
  agent(&c, "chatty", "", "echo 'I made it faster, trust me.'\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "its stdout is no answer: output contract:"));
  agent_result_free(&r);
  agent_config_free(&c);
}

static void test_bad_files(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  (void)state;
  proposal_init(&p);
  agent(&c, "nohyp", "{kernel}", "cp \"$1\" new_kernel.py\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "wrote new_kernel.py but no hypothesis.json"));
  agent_result_free(&r);
  agent_config_free(&c);
  agent(&c, "badfam", "{kernel}",
        "cp \"$1\" new_kernel.py\n"
        "echo '{\"hypothesis\": \"h\", \"rewrite_family\": \"unroll\"}' > hypothesis.json\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "\"rewrite_family\" must be one of block_size"));
  agent_result_free(&r);
  agent_config_free(&c);
  agent(&c, "badjson", "{kernel}",
        "cp \"$1\" new_kernel.py\necho 'hypothesis: bigger blocks' > hypothesis.json\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "hypothesis.json must be one JSON object"));
  agent_result_free(&r);
  agent_config_free(&c);
  agent(&c, "extrakey", "{kernel}",
        "cp \"$1\" new_kernel.py\n"
        "echo '{\"hypothesis\": \"h\", \"rewrite_family\": \"num_warps\", \"x\": 1}' "
        "> hypothesis.json\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "unknown key \"x\""));
  agent_result_free(&r);
  agent_config_free(&c);
  agent(&c, "notmodelnew", "",
        "printf '@triton.jit\\ndef k(): pass\\n' > new_kernel.py\n"
        "echo '{\"hypothesis\": \"h\", \"rewrite_family\": \"num_warps\"}' > hypothesis.json\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "class ModelNew"));
  agent_result_free(&r);
  agent_config_free(&c);
  agent(&c, "huge", "",
        "head -c 300000 /dev/zero | tr '\\0' '#' > new_kernel.py\n"
        "echo '{\"hypothesis\": \"h\", \"rewrite_family\": \"num_warps\"}' > hypothesis.json\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "new_kernel.py is over the limit of 262144 bytes"));
  agent_result_free(&r);
  agent_config_free(&c);
  assert_null(p.source);
}

static void test_exit_status_and_tail(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  size_t n;
  (void)state;
  proposal_init(&p);
  agent(&c, "fails", "", "echo 'model quota exhausted' >&2\nexit 3\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EPROTO);
  assert_int_equal(r.exit_code, 3);
  assert_non_null(strstr(r.error, "exited with status 3; last output: model quota exhausted"));
  agent_result_free(&r);
  agent_config_free(&c);
  agent(&c, "missing", "", "no-such-agent-binary-kopt --dir .\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EPROTO);
  assert_int_equal(r.exit_code, 127);
  assert_non_null(strstr(r.error, "command not found?"));
  agent_result_free(&r);
  agent_config_free(&c);
  /* 300 KB of output: the record keeps the last 64 KiB and says what was dropped. */
  agent(&c, "loud", "",
        "head -c 300000 /dev/zero | tr '\\0' 'a' >&2\necho >&2\necho LAST-LINE >&2\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_int_equal(r.output_bytes, 300000 + 1 + 10);
  n = strlen(r.output_tail);
  assert_true(n <= AGENT_TAIL + 128);
  assert_true(n > AGENT_TAIL);
  assert_non_null(strstr(r.output_tail, "earlier bytes of agent output dropped (AGENT_TAIL)"));
  assert_string_equal(r.output_tail + n - 10, "LAST-LINE\n");
  agent_result_free(&r);
  agent_config_free(&c);
}

/* Found by tests/fuzz/fuzz_agent.c: an agent's output is any bytes, and its last line goes
 * into the round's reject reason. A byte that is not UTF-8 there made jansson refuse the
 * round record, so the round was never stored and the job aborted; now it becomes '?'. */
static void test_output_not_utf8(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  json_t *reason;
  (void)state;
  /* Latin-1 "\xe9chec" (not UTF-8), then a line cut short inside a three-byte character. */
  agent(&c, "latin1", "", "printf 'starting\\n\\351chec: no model \\342\\202\\n' >&2\nexit 3\n");
  proposal_init(&p);
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EPROTO);
  assert_non_null(strstr(r.error, "status 3"));
  assert_non_null(strstr(r.error, "?chec: no model ??"));
  reason = json_string(r.error); /* what rounds.c stores */
  assert_non_null(reason);
  json_decref(reason);
  agent_result_free(&r);
  agent_config_free(&c);
  /* An answer on stdout that is not UTF-8: refused, with a storable reason. */
  agent(&c, "latin1_answer", "", "printf '```\\351son\\n{}\\n```\\n'\n");
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  reason = json_string(r.error);
  assert_non_null(reason);
  json_decref(reason);
  assert_null(p.source);
  agent_result_free(&r);
  agent_config_free(&c);
}

static void test_stop_and_unset(void **state)
{
  struct agent_config c;
  struct agent_result r;
  struct proposal p;
  volatile sig_atomic_t stop = 1;
  double t0;
  (void)state;
  proposal_init(&p);
  agent(&c, "long", "", "sleep 30\n");
  c.stop = &stop;
  t0 = now_s();
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -ECANCELED);
  assert_true(now_s() - t0 < 3.0);
  agent_result_free(&r);
  agent_config_free(&c);
  agent_config_init(&c);
  assert_int_equal(agent_run(&c, workdir, &input, &p, &r), -EINVAL);
  assert_non_null(strstr(r.error, "KOPT_AGENT_CMD"));
  agent_result_free(&r);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_expand),
      cmocka_unit_test(test_config_from_env),
      cmocka_unit_test(test_good_files),
      cmocka_unit_test(test_writes_nothing),
      cmocka_unit_test(test_timeout_kills_group),
      cmocka_unit_test(test_stdout_answer),
      cmocka_unit_test(test_bad_files),
      cmocka_unit_test(test_exit_status_and_tail),
      cmocka_unit_test(test_output_not_utf8),
      cmocka_unit_test(test_stop_and_unset),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
