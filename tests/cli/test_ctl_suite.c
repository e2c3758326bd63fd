/* ctl_suite: reading the operator suite (bench/suite/ops) and the held-out split. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ctl_suite.h"

static void test_load_the_suite(void **state)
{
	struct ctl_suite s;
	char err[1024] = "";
	(void)state;
	assert_int_equal(ctl_suite_load("bench/suite/ops", NULL, &s, err, sizeof(err)), 0);
	assert_true(s.n >= 20);
	for (size_t i = 1; i < s.n; i++)
		assert_true(strcmp(s.ops[i - 1].name, s.ops[i].name) < 0);
	for (size_t i = 0; i < s.n; i++) {
		assert_true(s.ops[i].cls[0] != '\0');
		assert_non_null(strstr(json_string_value(json_object_get(s.ops[i].kernel, "source")), "ModelNew"));
		assert_non_null(strstr(json_string_value(json_object_get(s.ops[i].reference, "source")), "Model"));
	}
	ctl_suite_free(&s);
	assert_int_equal(ctl_suite_load("bench/suite/ops", "softmax,silu", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.ops[0].name, "silu");
	assert_string_equal(s.ops[1].name, "softmax");
	assert_string_equal(s.ops[1].cls, "softmax");
	ctl_suite_free(&s);
	/* an operator's own tolerances travel with it into its jobs (quant_int8's int8 tolerance) */
	assert_int_equal(ctl_suite_load("bench/suite/unseen", "quant_int8,softplus", &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(s.ops[0].name, "quant_int8");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(s.ops[0].tolerances, "int8"),
							    "atol")), 1);
	assert_null(s.ops[1].tolerances);
	ctl_suite_free(&s);
	assert_true(ctl_suite_load("bench/suite/ops", "silu,nosuchop", &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "no operator nosuchop"));
	assert_true(ctl_suite_load("/nonexistent-kopt-suite", NULL, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "/nonexistent-kopt-suite"));
}

static void test_bad_op_json_names_the_file(void **state)
{
	char dir[] = "/tmp/kopt-suite-XXXXXX", path[256], err[1024] = "";
	struct ctl_suite s;
	FILE *f;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/opx", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/opx/op.json", dir);
	f = fopen(path, "w");
	fputs("{\"name\": \"other\", \"class\": \"elementwise\"}", f);
	fclose(f);
	assert_true(ctl_suite_load(dir, NULL, &s, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "opx/op.json"));
	assert_non_null(strstr(err, "directory's name"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/opx", dir);
	rmdir(path);
	rmdir(dir);
}

static void test_split(void **state)
{
	unsigned char a[24], b[24], c[24];
	int na = 0, differ = 0;
	(void)state;
	assert_int_equal(ctl_suite_split(24, 0.5, 7, a), 0);
	assert_int_equal(ctl_suite_split(24, 0.5, 7, b), 0);
	assert_memory_equal(a, b, 24); /* reproducible */
	for (int i = 0; i < 24; i++)
		na += a[i];
	assert_int_equal(na, 12);
	assert_int_equal(ctl_suite_split(24, 0.5, 8, c), 0);
	for (int i = 0; i < 24; i++)
		differ |= a[i] != c[i];
	assert_true(differ); /* another seed, another split */
	/* at least one operator on each side */
	assert_int_equal(ctl_suite_split(3, 0.01, 1, a), 0);
	assert_int_equal(a[0] + a[1] + a[2], 1);
	assert_int_equal(ctl_suite_split(3, 0.99, 1, a), 0);
	assert_int_equal(a[0] + a[1] + a[2], 2);
	assert_int_equal(ctl_suite_split(1, 0.5, 1, a), -EINVAL);
	assert_int_equal(ctl_suite_split(4, 1.0, 1, a), -EINVAL);
	assert_int_equal(ctl_suite_split(4, 0.0, 1, a), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_the_suite),
		cmocka_unit_test(test_bad_op_json_names_the_file),
		cmocka_unit_test(test_split),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
