"""The operator suite's runner and report end to end (issue 7): bench/suite/run.py submits 3
operators x 2 rounds to a real koptd with real interp workers (the harness on the Triton
interpreter, small sizes) as one batch (issue 9), waits, writes one record per (operator, run)
and the batch's report; bench/suite/report.py turns the records into the Markdown report and
its plots.
"""
import json
import os
import subprocess

import pytest
from kopt_helpers import ROOT
from worker_fixtures import *

pytestmark = pytest.mark.slow

OPS = ["gelu_tanh", "softmax", "matmul"]
ROUNDS = 2
DEVICES = os.environ.get("KOPT_TEST_SUITE_DEVICES", "interp:0,interp:1")
RUN_TIMEOUT = float(os.environ.get("KOPT_TEST_SUITE_TIMEOUT", "600"))
PY = str(ROOT / ".venv" / "bin" / "python")


@pytest.fixture(scope="module")
def suite_run(module_wkoptd, module_dbs, tmp_path_factory):
    """koptd with two interp workers, and run.py's output for the three operators."""
    db = module_dbs.create()
    out = tmp_path_factory.mktemp("suite-out")
    k = module_wkoptd(db, devices=DEVICES, lease_s=10, name="koptd-suite")
    sub = submitter(db)
    module_wkoptd.wait_workers_ready(k, n=len(DEVICES.split(",")))
    env = dict(os.environ, KOPT_URL=k.base, KOPT_TOKEN=sub)
    p = subprocess.run([PY, str(ROOT / "bench" / "suite" / "run.py"), "--ops", ",".join(OPS), "--runs", "1",
                        "--rounds", str(ROUNDS), "--backend", "interp", "--correctness-cases", "1", "--max-candidates", "4",
                        "--out", str(out), "--poll", "0.5", "--job-timeout", str(RUN_TIMEOUT)],
                       check=False, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT + 60)
    return p, out, k, sub


def test_runner_records_every_operator(suite_run):
    p, out, k, _ = suite_run
    assert p.returncode == 0, f"run.py exited {p.returncode}:\n{p.stderr[-4000:]}\n{log_tail(k)}"
    files = sorted(f.name for f in out.iterdir())
    batches = [f for f in files if f.startswith("batch-")]
    assert len(batches) == 1, files
    assert sorted(set(files) - set(batches)) == sorted(f"kopt-{op}-run1.json" for op in OPS), files
    batch = json.loads((out / batches[0]).read_text())
    assert batch["state"] == "done" and batch["aggregate"]["succeeded"] == len(OPS), batch["aggregate"]
    assert sorted(j["operator"] for j in batch["jobs"]) == sorted(OPS)
    for op in OPS:
        rec = json.loads((out / f"kopt-{op}-run1.json").read_text())
        assert rec["kind"] == "kopt" and rec["operator"] == op and rec["run"] == 1
        assert rec["ok"] is True and rec["failure"] is None, rec["failure"]
        job = rec["job"]
        assert job["state"] == "succeeded" and job["name"] == f"suite-{op}-run1"
        assert job["spec"]["operator"] == op and job["spec"]["rounds"] == ROUNDS
        assert job["batch_id"] == batch["id"] and job["best"]["pattern_index"] == batch["pattern_index"]
        assert job["baseline"]["bench"]["summary"]["geomean_median_ms"] > 0
        best = job["best"]
        # A job may stop before its budget (stop_reason says why); the record keeps what ran.
        assert len(rec["rounds"]) <= ROUNDS
        assert rec["rounds"] or best.get("stop_reason"), json.dumps([op, best, job["progress"]])
        assert [r["round"] for r in rec["rounds"]] == list(range(1, len(rec["rounds"]) + 1))
        assert best["speedup"] >= 1.0 and best["kernel_sha256"]
        assert "class ModelNew" in rec["best_kernel"]
    # progress lines: operator, run, state, round k/N
    for op in OPS:
        assert f"{op} run 1: submitted job" in p.stderr
        assert f"{op} run 1, running, round" in p.stderr, p.stderr[-3000:]
    assert "3 of 3 jobs succeeded" in p.stderr


def test_runner_records_a_refused_job_as_a_failure(suite_run, tmp_path):
    """A job koptd refuses (rounds above the API's limit) is written with its reason."""
    _, _, k, sub = suite_run
    env = dict(os.environ, KOPT_URL=k.base, KOPT_TOKEN=sub)
    p = subprocess.run([PY, str(ROOT / "bench" / "suite" / "run.py"), "--ops", "silu", "--runs", "1",
                        "--rounds", "1000", "--backend", "interp", "--out", str(tmp_path)],
                       check=False, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 1, p.stderr
    rec = json.loads((tmp_path / "kopt-silu-run1.json").read_text())
    assert rec["ok"] is False and rec["job_id"] is None
    assert rec["failure"]["stage"] == "submit" and "jobs[0].rounds" in rec["failure"]["reason"]
    assert "0 of 1 jobs succeeded" in p.stderr


def test_report_on_the_runner_output(suite_run, tmp_path):
    _, out, _, _ = suite_run
    p = subprocess.run([PY, str(ROOT / "bench" / "suite" / "report.py"), str(out), "--out", str(tmp_path)],
                       check=False, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    text = (tmp_path / "report.md").read_text()
    assert "kopt jobs 3 of 3 succeeded" in text
    for op in OPS:
        assert f"| {op} |" in text
    summ = json.loads((tmp_path / "summary.json").read_text())
    assert summ["summary"]["kopt_runs"] == 3 and summ["summary"]["failures"] == 0
