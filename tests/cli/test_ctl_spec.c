/* Unit tests of cli/ctl_spec: job spec from files, JSON Lines cases, file limits. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "ctl_spec.h"

static const char kernel_py[] =
	"import torch\nimport triton\nimport triton.language as tl\n\n"
	"@triton.jit\ndef add_kernel(x, y, out, n, BLOCK: tl.constexpr):\n"
	"    pid = tl.program_id(0)\n    off = pid * BLOCK + tl.arange(0, BLOCK)\n"
	"    m = off < n\n    tl.store(out + off, tl.load(x + off, mask=m) + tl.load(y + off, mask=m), mask=m)\n\n"
	"class ModelNew(torch.nn.Module):\n    def forward(self, x, y):\n"
	"        out = torch.empty_like(x)\n        add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)\n"
	"        return out\n# caf\xc3\xa9 \"quoted\" \\ backslash\n";
static const char ref_py[] =
	"import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x, y):\n"
	"        return x + y\n\ndef get_inputs():\n    return [torch.randn(4096), torch.randn(4096)]\n\n"
	"def get_init_inputs():\n    return []\n";

struct fixture {
	char dir[64];
	char path[256];
	char err[1024];
};

/* Writes dir/name with len bytes of text and returns its path in f->path. */
static const char *put(struct fixture *f, const char *name, const char *text, size_t len)
{
	FILE *fp;

	snprintf(f->path, sizeof(f->path), "%s/%s", f->dir, name);
	fp = fopen(f->path, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(text, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return f->path;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/test_ctl_spec.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd) != 0)
		return -1;
	free(f);
	return 0;
}

static void test_build_full(void **state)
{
	struct fixture *f = *state;
	struct ctl_spec_opts o = {0};
	char kpath[256], rpath[256], cpath[256];
	static const char cases[] =
		"{\"inputs\": [{\"name\": \"x\", \"type\": \"tensor\", \"dtype\": \"float32\", \"shape\": [4096]}]}\n"
		"\n"
		"   \n"
		"{\"inputs\": [{\"name\": \"alpha\", \"type\": \"attr\", \"value\": 2}]}";
	json_t *spec = NULL;

	strcpy(kpath, put(f, "kernel.py", kernel_py, sizeof(kernel_py) - 1));
	strcpy(rpath, put(f, "ref.py", ref_py, sizeof(ref_py) - 1));
	strcpy(cpath, put(f, "cases.jsonl", cases, sizeof(cases) - 1));
	o.kernel_path = kpath;
	o.reference_path = rpath;
	o.cases_path = cpath;
	o.backend = "interp";
	o.policy = "hierarchy";
	o.proposer = "rules";
	o.name = "vector_add";
	o.rounds = 0; /* baseline only: 0 must be sent, not dropped */
	o.has_rounds = true;
	o.priority = -5;
	o.has_priority = true;
	assert_int_equal(ctl_spec_build(&o, &spec, f->err, sizeof(f->err)), 0);
	assert_non_null(spec);
	assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "kernel"), "source")),
			    kernel_py);
	assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "kernel"), "filename")),
			    "kernel.py");
	assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "reference"), "source")),
			    ref_py);
	assert_string_equal(json_string_value(json_object_get(json_object_get(spec, "reference"), "filename")),
			    "ref.py");
	assert_int_equal(json_array_size(json_object_get(spec, "cases")), 2);
	assert_string_equal(json_string_value(json_object_get(spec, "backend")), "interp");
	assert_string_equal(json_string_value(json_object_get(spec, "name")), "vector_add");
	assert_string_equal(json_string_value(json_object_get(spec, "policy")), "hierarchy");
	assert_string_equal(json_string_value(json_object_get(spec, "proposer")), "rules");
	assert_true(json_is_integer(json_object_get(spec, "rounds")));
	assert_int_equal(json_integer_value(json_object_get(spec, "rounds")), 0);
	assert_int_equal(json_integer_value(json_object_get(spec, "priority")), -5);
	assert_int_equal(json_object_size(spec), 9);
	json_decref(spec);
}

static void test_build_minimal(void **state)
{
	struct fixture *f = *state;
	struct ctl_spec_opts o = {0};
	json_t *spec = NULL;

	o.kernel_path = put(f, "k.py", kernel_py, sizeof(kernel_py) - 1);
	assert_int_equal(ctl_spec_build(&o, &spec, f->err, sizeof(f->err)), 0);
	/* Only what was given: the server fills in its own defaults. */
	assert_int_equal(json_object_size(spec), 1);
	assert_non_null(json_object_get(spec, "kernel"));
	json_decref(spec);
	o.kernel_path = NULL;
	assert_int_equal(ctl_spec_build(&o, &spec, f->err, sizeof(f->err)), -EINVAL);
	assert_null(spec);
	assert_non_null(strstr(f->err, "--kernel"));
}

static void test_cases_bad_line(void **state)
{
	struct fixture *f = *state;
	static const char cases[] = "{\"inputs\": []}\n\n{\"inputs\": [1,]}\n{\"inputs\": []}\n";
	json_t *arr = NULL;

	assert_int_equal(ctl_spec_parse_cases("cases.jsonl", cases, sizeof(cases) - 1, &arr,
					      f->err, sizeof(f->err)),
			 -EINVAL);
	assert_null(arr);
	/* Line 3: the blank line 2 still counts. */
	assert_non_null(strstr(f->err, "cases.jsonl:3:"));
	assert_non_null(strstr(f->err, "invalid JSON"));
}

static void test_cases_crlf_and_bom(void **state)
{
	struct fixture *f = *state;
	static const char cases[] = "\xEF\xBB\xBF{\"inputs\": []}\r\n\r\n{\"inputs\": [2]}\r\n";
	json_t *arr = NULL;

	assert_int_equal(ctl_spec_parse_cases("c.jsonl", cases, sizeof(cases) - 1, &arr, f->err,
					      sizeof(f->err)),
			 0);
	assert_int_equal(json_array_size(arr), 2);
	json_decref(arr);
}

static void test_cases_shape(void **state)
{
	struct fixture *f = *state;
	json_t *arr = NULL;

	assert_int_equal(ctl_spec_parse_cases("c.jsonl", "{\"inputs\": []}\n[1, 2]\n", 22, &arr,
					      f->err, sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "c.jsonl:2:"));
	assert_non_null(strstr(f->err, "an array"));
	assert_int_equal(ctl_spec_parse_cases("c.jsonl", "{\"outputs\": []}\n", 16, &arr, f->err,
					      sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "c.jsonl:1:"));
	assert_non_null(strstr(f->err, "\"inputs\""));
	/* Two objects on one line are one bad line, not two cases. */
	assert_int_equal(ctl_spec_parse_cases("c.jsonl", "{\"inputs\": []} {\"inputs\": []}\n", 31,
					      &arr, f->err, sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "c.jsonl:1:"));
	assert_int_equal(ctl_spec_parse_cases("c.jsonl", "\n \n", 3, &arr, f->err, sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "no cases"));
}

static void test_cases_too_many(void **state)
{
	struct fixture *f = *state;
	static const char line[] = "{\"inputs\": []}\n";
	size_t n = CTL_SPEC_MAX_CASES + 1, i;
	char *buf = malloc(n * (sizeof(line) - 1));
	json_t *arr = NULL;

	assert_non_null(buf);
	for (i = 0; i < n; i++)
		memcpy(buf + i * (sizeof(line) - 1), line, sizeof(line) - 1);
	assert_int_equal(ctl_spec_parse_cases("c.jsonl", buf, (n - 1) * (sizeof(line) - 1), &arr,
					      f->err, sizeof(f->err)),
			 0);
	assert_int_equal(json_array_size(arr), CTL_SPEC_MAX_CASES);
	json_decref(arr);
	assert_int_equal(ctl_spec_parse_cases("c.jsonl", buf, n * (sizeof(line) - 1), &arr, f->err,
					      sizeof(f->err)),
			 -E2BIG);
	assert_non_null(strstr(f->err, "c.jsonl:1025:"));
	assert_non_null(strstr(f->err, "1024"));
	free(buf);
}

static void test_source_limit(void **state)
{
	struct fixture *f = *state;
	size_t n = CTL_SPEC_MAX_SOURCE;
	char *big = malloc(n + 1);
	json_t *src = NULL;

	assert_non_null(big);
	memset(big, '#', n + 1);
	/* Exactly the limit is accepted... */
	assert_int_equal(ctl_spec_source(put(f, "kernel.py", big, n), &src, f->err,
					 sizeof(f->err)),
			 0);
	assert_int_equal(json_string_length(json_object_get(src, "source")), n);
	json_decref(src);
	/* ...one byte more is refused, naming the file and the limit. */
	assert_int_equal(ctl_spec_source(put(f, "kernel.py", big, n + 1), &src, f->err,
					 sizeof(f->err)),
			 -EFBIG);
	assert_null(src);
	assert_non_null(strstr(f->err, "kernel.py"));
	assert_non_null(strstr(f->err, "16 MiB"));
	assert_non_null(strstr(f->err, "16777217 bytes"));
	free(big);
}

static void test_read_file_unsized(void **state)
{
	struct fixture *f = *state;
	char *buf = NULL;
	size_t len = 0;

	/* A character device reports no size: the cap holds while reading. */
	assert_int_equal(ctl_spec_read_file("/dev/zero", 100000, "cases", &buf, &len, f->err,
					    sizeof(f->err)),
			 -EFBIG);
	assert_null(buf);
	assert_non_null(strstr(f->err, "/dev/zero"));
	assert_non_null(strstr(f->err, "100000 bytes"));
	assert_int_equal(ctl_spec_read_file("/dev/null", 100, "cases", &buf, &len, f->err,
					    sizeof(f->err)),
			 0);
	assert_int_equal(len, 0);
	free(buf);
}

static void test_source_errors(void **state)
{
	struct fixture *f = *state;
	json_t *src = NULL;

	assert_int_equal(ctl_spec_source(put(f, "empty.py", "", 0), &src, f->err, sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "empty.py: empty file"));
	assert_int_equal(ctl_spec_source(put(f, "nul.py", "ab\0cd", 5), &src, f->err,
					 sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "offset 2"));
	assert_int_equal(ctl_spec_source(put(f, "latin1.py", "# caf\xe9\n", 7), &src, f->err,
					 sizeof(f->err)),
			 -EILSEQ);
	assert_non_null(strstr(f->err, "latin1.py: invalid UTF-8 at byte offset 5"));
	snprintf(f->path, sizeof(f->path), "%s/missing.py", f->dir);
	assert_int_equal(ctl_spec_source(f->path, &src, f->err, sizeof(f->err)), -ENOENT);
	assert_non_null(strstr(f->err, "missing.py: No such file"));
	assert_int_equal(ctl_spec_source(f->dir, &src, f->err, sizeof(f->err)), -EISDIR);
	assert_null(src);
}

static void test_cases_file_limit(void **state)
{
	struct fixture *f = *state;
	struct ctl_spec_opts o = {0};
	char kpath[256];
	size_t n = CTL_SPEC_MAX_DOC + 1;
	char *big = malloc(n);
	json_t *spec = NULL;

	assert_non_null(big);
	memset(big, ' ', n);
	strcpy(kpath, put(f, "kernel.py", kernel_py, sizeof(kernel_py) - 1));
	o.kernel_path = kpath;
	o.cases_path = put(f, "cases.jsonl", big, n);
	assert_int_equal(ctl_spec_build(&o, &spec, f->err, sizeof(f->err)), -EFBIG);
	assert_null(spec);
	assert_non_null(strstr(f->err, "cases.jsonl"));
	assert_non_null(strstr(f->err, "64 MiB"));
	free(big);
}

static void test_check_doc(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ctl_spec_check_doc("job.json", "{\"kernel\": {}}", 14, f->err,
					    sizeof(f->err)),
			 0);
	assert_int_equal(ctl_spec_check_doc("job.json", "{\n  \"a\": 1,\n  \"b\" 2\n}", 21, f->err,
					    sizeof(f->err)),
			 -EINVAL);
	assert_non_null(strstr(f->err, "job.json:3:"));
	assert_int_equal(ctl_spec_check_doc("job.json", "[]", 2, f->err, sizeof(f->err)), -EINVAL);
	assert_non_null(strstr(f->err, "not an array"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_build_full, setup, teardown),
		cmocka_unit_test_setup_teardown(test_build_minimal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cases_bad_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cases_crlf_and_bom, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cases_shape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cases_too_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_source_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_file_unsized, setup, teardown),
		cmocka_unit_test_setup_teardown(test_source_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cases_file_limit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_check_doc, setup, teardown),
	};

	return cmocka_run_group_tests_name("ctl_spec", tests, NULL, NULL);
}
