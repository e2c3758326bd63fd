"""load + validate of the examples, per DESIGN section 7."""
import json
import re

from conftest import EXAMPLES, bad, read, vector_add

MSG = re.compile(r"^(candidate|initial kernel) wrong on case \d+: output \d+ at \(\d+(, \d+)*,?\): "
                 r"error \d\.\de[+-]\d+ is \S+ x its budget \d\.\de[+-]\d+ \(value .*\)")


def test_load_reports_cases_and_static_check(loaded):
    _, res = loaded
    assert res["form"] == "kernelbench"
    assert res["cases"] == 2 and res["correctness_cases"] == [0, 1]
    assert res["benchmark_cases"] == [0, 1]
    assert res["seed"] == 0 and set(res["case_seeds"]) == {"0", "1"}
    assert res["static_check"]["ok"] is True
    assert res["static_check"]["launches"] == ["add_kernel"]
    assert res["kernels"][0]["kernel"] == "add_kernel"
    assert res["kernels"][0]["last"]["kwargs"]["BLOCK_SIZE"]["value"] == 128


def test_example_validates_and_records_both_numbers(loaded):
    h, _ = loaded
    r = h.request("validate")
    assert r["ok"], r
    res = r["result"]
    assert res["passed"] is True and res["failure"] is None and res["who"] == "initial kernel"
    assert res["cases_checked"] == 2
    s = res["summary"]
    assert s["float64_unavailable"] is None
    assert 0 <= s["error_units"] <= 1 and 0 <= s["reference_error_units"] <= 1
    assert s["outputs"][0]["output"] == 0 and s["outputs"][0]["passed"] is True
    out = res["cases"][0]["outputs"][0]
    assert out["passed"] and out["truth"] == "float64 reference"
    assert out["rtol"] == 2 ** -13 and out["atol"] == 1e-5
    assert out["budget"]["magnitude"] == "used"          # a + b is a sum of terms
    # where the time went, per phase over both cases: every phase ran, none longer than the op
    ph = res["phases_s"]
    assert list(ph) == ["inputs", "candidate", "checks", "reference", "judge"]
    assert all(isinstance(v, float) and v >= 0 for v in ph.values()), ph
    assert ph["candidate"] > 0 and ph["reference"] > 0 and ph["judge"] > 0, ph
    assert sum(ph.values()) <= r["result"]["elapsed_s"] + 0.01, (ph, r["result"]["elapsed_s"])


def test_candidate_runs_and_passes(loaded):
    h, _ = loaded
    _, ker = vector_add()
    r = h.request("validate", candidate_source=ker.replace("BLOCK_SIZE=128", "BLOCK_SIZE=512"))
    assert r["ok"] and r["result"]["passed"], r
    assert r["result"]["who"] == "candidate"


def test_wrong_result_message_format(loaded):
    h, _ = loaded
    r = h.request("validate", candidate_source=bad("wrong_result.py"))
    f = r["result"]["failure"]
    assert f["kind"] == "wrong-result"
    assert MSG.match(f["message"]), f["message"]
    assert f["message"].startswith("candidate wrong on case 0: output 0 at (")


def test_initial_kernel_wrong(tmp_path):
    from conftest import start_harness
    ref, _ = vector_add()
    with start_harness(tmp_path) as h:
        r = h.request("load", reference_source=ref, kernel_source=bad("off_by_one.py"), workdir="w",
                      correctness_cases=2)
        assert r["ok"], r
        r = h.request("validate")
        f = r["result"]["failure"]
        assert MSG.match(f["message"]), f["message"]
        assert f["message"].startswith("initial kernel wrong on case 0: output 0 at (4095,): error ")
        assert "1 of 4096 elements outside their budget" in f["message"]     # the last element is never written


def test_without_reference_initial_outputs_are_golden(tmp_path):
    from conftest import start_harness
    ref, ker = vector_add()
    # the kernel module carries get_inputs itself when there is no reference
    kernel_with_inputs = ker + "\n\nimport os as _os\nN = 4096\n\ndef get_inputs():\n    return [torch.randn(N), torch.randn(N)]\n\n" \
                               "def get_init_inputs():\n    return []\n"
    with start_harness(tmp_path) as h:
        r = h.request("load", kernel_source=kernel_with_inputs, workdir="g", correctness_cases=2)
        assert r["ok"], r
        assert r["result"]["has_reference"] is False
        assert "initial kernel" in r["result"]["golden"]
        r = h.request("validate", candidate_source=kernel_with_inputs.replace("BLOCK_SIZE=128", "BLOCK_SIZE=256"))
        assert r["result"]["passed"], r
        assert "no reference" in r["result"]["summary"]["float64_unavailable"]
        assert r["result"]["cases"][0]["outputs"][0]["truth"] == "initial kernel outputs (no reference)"
        r = h.request("validate", candidate_source=bad("wrong_result.py"))
        assert r["result"]["failure"]["kind"] == "wrong-result"
        assert MSG.match(r["result"]["failure"]["message"])


def test_tolerance_override_is_applied(tmp_path):
    from conftest import start_harness
    ref, ker = vector_add()
    with start_harness(tmp_path) as h:
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir="t", correctness_cases=1,
                      tolerances={"float32": {"rtol": 0.5, "atol": 10.0}, "f64_slack": 1e9, "f64_factor": 6})
        assert r["ok"], r
        eff = r["result"]["tolerances"]
        assert eff["per_dtype"]["float32"] == {"rtol": 0.5, "atol": 10.0}
        assert eff["reference_factor"] == 6 and "f64_slack" in eff["ignored"]
        r = h.request("validate")
        assert r["result"]["cases"][0]["outputs"][0]["atol"] == 10.0
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir="t",
                      tolerances={"float32": {"rtol": -1}})
        assert r["error"]["kind"] == "bad-request"


def test_npu_softmax_input_groups_and_jsonl_cases(tmp_path):
    """NPUKernelBench form: get_input_groups() and JSON Lines cases; a kernel with a
    runtime-length loop, masks and reductions under the interpreter (fp32, fp16, bf16)."""
    from conftest import start_harness
    ref = read(EXAMPLES, "softmax_npu", "ref.py")
    ker = read(EXAMPLES, "softmax_npu", "kernel.py")
    cases = [json.loads(l) for l in read(EXAMPLES, "softmax_npu", "cases.jsonl").splitlines() if l.strip()]
    with start_harness(tmp_path) as h:
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir="sm", seed=3, benchmark_cases=2)
        assert r["ok"], r
        assert r["result"]["form"] == "input_groups" and r["result"]["cases"] == 5
        assert len(r["result"]["benchmark_cases"]) == 2
        r = h.request("validate")
        assert r["result"]["passed"], r["result"]["failure"]
        dtypes = {c["outputs"][0]["dtype"] for c in r["result"]["cases"]}
        assert dtypes == {"float32", "float16", "bfloat16"}
        r = h.request("load", reference_source=ref, kernel_source=ker, workdir="sm", cases=cases)
        assert r["ok"] and r["result"]["form"] == "cases"
        assert r["result"]["inputs_of_probe_case"][1] == -1     # the attr
        r = h.request("validate")
        assert r["result"]["passed"], r["result"]["failure"]
        # a softmax that forgets the max subtraction's rescale is wrong
        broken = ker.replace("s = s * alpha + e", "s = s + e")
        r = h.request("validate", candidate_source=broken)
        assert r["result"]["passed"] is False and r["result"]["failure"]["kind"] == "wrong-result"
