"""The suite's tools without koptd: exhaustive.py's enumeration of a launch space (on `knobs`
results recorded from the harness and one written by hand from docs/SEARCH.md), baselines.py
on the CPU (interpreter; its timeout path), report.py on the recorded results in
bench/suite/testdata/ (a real interp run: see testdata/README.md)."""
import ast
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from kharness.timing import NOISY_REL_IQR, pass_order, retake_if_noisy, steadier

SUITE = os.path.join(ROOT, "bench", "suite")
TESTDATA = os.path.join(SUITE, "testdata")
sys.path.insert(0, SUITE)
import exhaustive
import gpustate
import report
from opspec import SUITE_OPS_DIR, UNSEEN_DIR, OpSpecError, load_op
from results import kopt_summary, load_records

PY = sys.executable


def knobs(name):
    with open(os.path.join(TESTDATA, "knobs", f"{name}.json")) as f:
        return json.load(f)["result"]


# ------------------------------------------------------------------------ exhaustive

def test_space_of_an_elementwise_kernel():
    s = exhaustive.enumerate_space(knobs("gelu_tanh"))
    assert s.names == ("BLOCK", "num_stages", "num_warps")
    dom = dict(zip(s.names, s.domains))
    assert dom["BLOCK"] == tuple(2 ** k for k in range(4, 15))     # 16 .. max_useful 16384
    assert dom["num_stages"] == (3,)                                 # no loop: nothing to pipeline
    assert dom["num_warps"] == (1, 2, 4, 8, 16, 32)
    assert s.size == 66 and len(s.points) == 66 and not s.sampled
    assert s.initial == {"BLOCK": 128, "num_stages": 3, "num_warps": 4}
    assert s.initial in s.points
    assert len({tuple(sorted(p.items())) for p in s.points}) == 66


def test_space_of_a_tiled_kernel_and_its_sample():
    full = exhaustive.enumerate_space(knobs("matmul"))
    dom = dict(zip(full.names, full.domains))
    assert dom["num_stages"] == tuple(range(1, 9))                   # a loop with tl.dot
    assert dom["BLOCK_M"] == (16, 32, 64, 128)                       # max_useful 128 at M = 128
    assert full.size == 4 * 4 * 4 * 8 * 6 and not full.sampled
    s = exhaustive.enumerate_space(knobs("matmul"), cap=500, seed=0)
    assert s.sampled and s.size == full.size and len(s.points) == 500
    keys = {tuple(sorted(p.items())) for p in s.points}
    assert len(keys) == 500 and tuple(sorted(s.initial.items())) in keys
    assert all(tuple(sorted(p.items())) in {tuple(sorted(q.items())) for q in full.points} for p in s.points[:50])
    again = exhaustive.enumerate_space(knobs("matmul"), cap=500, seed=0)
    other = exhaustive.enumerate_space(knobs("matmul"), cap=500, seed=1)
    assert again.points == s.points and other.points != s.points
    assert any("sampled 500 of 3072" in n for n in s.notes)


def test_space_of_the_contract_example():
    s = exhaustive.enumerate_space(knobs("contract"))
    dom = dict(zip(s.names, s.domains))
    assert dom["BLOCK_N"] == (32, 64, 128)            # declared choices
    assert dom["EVEN_K"] == (1,)                      # an int constexpr is not swept
    assert dom["HALF"] == (48,)                       # not a power of two
    assert dom["GROUP_M"] == (1, 2, 4, 8, 16)
    assert dom["num_warps"] == (2, 4, 8) and dom["num_stages"] == (2, 3, 4)
    assert dom["post.num_stages"] == (3,)             # its kernel has no loop
    assert "BLOCK_K" not in dom and any("BLOCK_K: frozen" in n for n in s.notes)
    assert s.size == 5 * 3 * 5 * 3 * 3
    assert exhaustive.changes_of({**s.initial, "BLOCK_M": 128}, s.initial) == {"BLOCK_M": 128}


def test_space_refuses_what_it_cannot_enumerate():
    good = knobs("gelu_tanh")
    bad = json.loads(json.dumps(good))
    bad["knobs"][0]["min"] = 1 << 20
    with pytest.raises(exhaustive.SpaceError, match="BLOCK: min"):
        exhaustive.enumerate_space(bad)
    dup = json.loads(json.dumps(good))
    dup["knobs"].append(dup["knobs"][0])
    with pytest.raises(exhaustive.SpaceError, match="listed twice"):
        exhaustive.enumerate_space(dup)
    with pytest.raises(exhaustive.SpaceError, match="cap"):
        exhaustive.enumerate_space(good, cap=0)
    with pytest.raises(exhaustive.SpaceError, match="no list of knobs"):
        exhaustive.enumerate_space({"frozen": []})


# ------------------------------------------------------------------------- baselines

def run_baselines(out, *args, timeout=240, ops_dir=None):
    env = dict(os.environ, TRITON_INTERPRET="1")
    if ops_dir is not None:
        env["KOPT_SUITE_OPS_DIR"] = ops_dir
    return subprocess.run([PY, os.path.join(SUITE, "baselines.py"), "--backend", "interp", "--runs", "1",
                           "--rep-ms", "5", "--min-reps", "1", "--max-reps", "2", "--out", str(out), *args],
                          capture_output=True, text=True, timeout=timeout, env=env, check=False)


def test_baselines_on_the_cpu(tmp_path):
    p = run_baselines(tmp_path, "--ops", "gelu_tanh,moe_gating_topk", "--kopt", TESTDATA, "--passes", "3")
    assert p.returncode == 0, p.stderr[-3000:]
    for name in ("gelu_tanh", "moe_gating_topk"):
        rec = json.loads((tmp_path / f"baselines-{name}-run1.json").read_text())
        op = load_op(os.path.join(SUITE, "ops", name))
        assert rec["ok"] and rec["scale"] == "small" and rec["backend"] == "interp"
        assert rec["initial"]["check"]["passed"] and rec["initial"]["median_ms"] > 0
        assert rec["eager"]["median_ms"] > 0 and rec["timing"]["clock"] == "cpu"
        assert "torch.compile on the CPU" in rec["compile"]["skipped"]
        assert rec["roofline"]["bytes"] == op.min_bytes("small") and rec["copy_gbps"] > 0
        assert rec["roofline"]["bound_ms"] == pytest.approx(op.min_bytes("small") / (rec["copy_gbps"] * 1e9) * 1e3)
        assert rec["roofline"]["copy_same_ms"] > 0      # a copy of the operator's own bytes, timed
        assert rec["baseline_class"] == "Model"           # no Peer in their ref.py: eager is the truth
    # gelu_tanh has a recorded kopt run 1 in testdata: its best kernel is timed side by side
    rec = json.loads((tmp_path / "baselines-gelu_tanh-run1.json").read_text())
    kopt = rec["kopt"]
    assert kopt["ok"] and kopt["check"]["passed"] and kopt["median_ms"] > 0
    # timed side by side in 3 interleaved passes: initial, eager and kopt each once per place,
    # their figure pooling the passes' samples
    assert rec["timing"]["passes"] == 3
    for stage in ("initial", "eager", "kopt"):
        passes = rec[stage]["passes"]
        assert sorted(x["place"] for x in passes) == [0, 1, 2], (stage, passes)
        assert rec[stage]["n"] >= 3 and all(x["median_ms"] > 0 for x in passes)
        assert min(x["median_ms"] for x in passes) <= rec[stage]["median_ms"] <= max(x["median_ms"] for x in passes)
        assert all("gpu" not in x for x in passes), passes    # the CPU: no GPU state to sample


def test_gpu_state_parse() -> None:
    """nvidia-smi's answer to gpustate.QUERY (csv, noheader, nounits), fields it cannot read
    ([N/A]) as None, and anything else refused."""
    st = gpustate.parse("1980, 654.32, 61")
    assert st.to_json() == {"sm_mhz": 1980, "power_w": 654.32, "temp_c": 61}
    assert gpustate.parse("345, [N/A], 30").to_json() == {"sm_mhz": 345, "power_w": None, "temp_c": 30}
    for bad in ("1980, 654.32", "fast, 654, 61", ""):
        with pytest.raises(ValueError):
            gpustate.parse(bad)


def test_gpu_state_without_nvidia_smi(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No nvidia-smi on PATH, or one that fails or prints nonsense: no state, no exception."""
    monkeypatch.setenv("PATH", str(tmp_path))
    assert gpustate.sample(0) is None
    smi = tmp_path / "nvidia-smi"
    smi.write_text("#!/bin/sh\necho 'No devices were found'\n")
    smi.chmod(0o755)
    assert gpustate.sample(0) is None
    smi.write_text(f"#!/bin/sh\necho \"$@\" > {tmp_path}/args; echo '1755, 700.01, 58'\n")
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "3,GPU-5f1c")
    st = gpustate.sample(1)
    assert st is not None and st.sm_mhz == 1755 and st.power_w == pytest.approx(700.01)
    assert (tmp_path / "args").read_text().split()[-2:] == ["-i", "GPU-5f1c"]
    smi.write_text("#!/bin/sh\nexit 9\n")
    assert gpustate.sample(0) is None


def test_pass_order_puts_each_implementation_in_each_place():
    names = ["initial", "eager", "compile", "kopt"]
    orders = [pass_order(names, p) for p in range(4)]
    assert orders[0] == names and orders[1] == ["eager", "compile", "kopt", "initial"]
    for n in names:
        assert sorted(o.index(n) for o in orders) == [0, 1, 2, 3]
    assert pass_order([], 3) == [] and pass_order(["a"], 5) == ["a"]


def test_baseline_class_from_the_syntax_tree(tmp_path):
    """ref.py's Peer (the production-dtype PyTorch beside a wider-typed truth) is found by
    parsing, not importing; without one eager times Model; a ref.py that does not parse is an
    OpSpecError naming the operator and the line."""
    assert load_op(os.path.join(SUITE, "unseen", "gemm_blockptr")).baseline_class() == "Peer"
    assert load_op(os.path.join(SUITE, "unseen", "attention")).baseline_class() == "Peer"
    assert load_op(os.path.join(SUITE, "ops", "matmul")).baseline_class() == "Model"
    src = os.path.join(SUITE, "ops", "gelu_tanh")
    bad = tmp_path / "gelu_tanh"
    bad.mkdir()
    for f in ("op.json", "kernel.py"):
        (bad / f).write_text(Path(src, f).read_text())
    (bad / "ref.py").write_text("class Peer(:\n")
    with pytest.raises(OpSpecError, match=r"gelu_tanh: ref.py line 1"):
        load_op(str(bad)).baseline_class()


def test_baselines_time_another_record_beside(tmp_path):
    """--also: another kopt record's best kernel (an older tree's, say) is checked and timed in
    the same interleaved passes as the rest, under also:<its file name>; a record of an
    operator not chosen, or no record at all, is refused before anything runs."""
    other = tmp_path / "older" / "kopt-gelu_tanh-run7.json"
    other.parent.mkdir()
    other.write_text((Path(TESTDATA) / "kopt-gelu_tanh-run1.json").read_text())
    out = tmp_path / "out"
    p = run_baselines(out, "--ops", "gelu_tanh", "--kopt", TESTDATA, "--also", str(other), "--passes", "2")
    assert p.returncode == 0, p.stderr[-3000:]
    rec = json.loads((out / "baselines-gelu_tanh-run1.json").read_text())
    also = rec["also:kopt-gelu_tanh-run7"]
    assert also["ok"] and also["check"]["passed"] and also["median_ms"] > 0
    assert len(also["passes"]) == len(rec["kopt"]["passes"]) == 2          # in both interleaved passes
    assert len({x["place"] for x in also["passes"]}) == 2                      # at a different place in each
    for bad, words in ((other, "'gelu_tanh' is not among --ops"),
                       (tmp_path / "none.json", "No such file")):
        p = run_baselines(tmp_path / "bad", "--ops", "silu", "--also", str(bad))
        assert p.returncode == 2 and f"--also {bad}" in p.stderr and words in p.stderr, p.stderr[-2000:]
    assert not (tmp_path / "bad").exists() or not list((tmp_path / "bad").iterdir())


def test_baselines_time_the_peer(tmp_path):
    """gemm_blockptr's Model multiplies in float32; baselines.py times its Peer (a @ b at
    float16) as eager, judged against the float32 truth like every implementation."""
    p = run_baselines(tmp_path, "--ops", "gemm_blockptr", ops_dir=os.path.join(SUITE, "unseen"))
    assert p.returncode == 0, p.stderr[-3000:]
    rec = json.loads((tmp_path / "baselines-gemm_blockptr-run1.json").read_text())
    assert rec["ok"] and rec["baseline_class"] == "Peer"
    assert rec["eager"]["check"]["passed"] and rec["eager"]["median_ms"] > 0


def test_baselines_time_a_peer_that_misses_the_judge(tmp_path, monkeypatch):
    """A Peer (what users run: PyTorch's own operator at the operator's dtype) whose output
    misses the judge is timed anyway and marked off_judge; the record stands on the initial
    kernel, and the report shows eager marked off-judge with the reason in a note (on the
    H100, groupnorm's float16 F.group_norm missed the budget by 1.3x and the whole record was
    a failure, with no eager or torch.compile figure)."""
    ops = tmp_path / "ops"
    shutil.copytree(os.path.join(SUITE, "unseen", "gemm_blockptr"), ops / "gemm_blockptr")
    ref = ops / "gemm_blockptr" / "ref.py"
    tree = ast.parse(ref.read_text())
    peer = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Peer")
    ret = next(n for n in ast.walk(peer) if isinstance(n, ast.Return))
    assert ret.value is not None
    ret.value = ast.BinOp(ret.value, ast.Mult(), ast.Constant(1.01))    # 1% off: past the fp16 budget
    ref.write_text(ast.unparse(ast.fix_missing_locations(tree)))
    p = run_baselines(tmp_path / "out", "--ops", "gemm_blockptr", ops_dir=str(ops))
    assert p.returncode == 0, p.stderr[-3000:]
    rec = json.loads((tmp_path / "out" / "baselines-gemm_blockptr-run1.json").read_text())
    assert rec["ok"] and rec["initial"]["ok"], rec
    eager = rec["eager"]
    assert not eager["ok"] and eager["off_judge"] and eager["mismatch"] and eager["median_ms"] > 0, eager
    monkeypatch.setattr(report, "OPS_DIR", ops)
    (row,), failures = report.build_rows([rec])
    assert not failures and "eager" in row.off_judge and row.eager is not None
    assert row.eager.median == eager["median_ms"]
    assert any("misses the judge" in n for n in row.notes), row.notes
    md = report.markdown([row], failures, report.summarize([row], failures), [rec], "t", [], ["x"])
    line = next(x for x in md.splitlines() if x.startswith("| gemm_blockptr"))
    assert line.count(report.OFF_JUDGE_MARK) == 1, line     # eager only: torch.compile is skipped on the CPU


def test_baselines_judge_the_updated_inputs(tmp_path):
    """adam_inplace updates p, m and v in place (op.json updates): baselines judge them after
    the returned p, so a first draft that leaves v unwritten fails its check on v while eager
    (the reference itself) passes."""
    ops = tmp_path / "ops"
    shutil.copytree(os.path.join(SUITE, "unseen", "adam_inplace"), ops / "adam_inplace")
    p = run_baselines(tmp_path / "good", "--ops", "adam_inplace", ops_dir=str(ops))
    assert p.returncode == 0, p.stderr[-3000:]
    rec = json.loads((tmp_path / "good" / "baselines-adam_inplace-run1.json").read_text())
    assert rec["initial"]["check"]["passed"] and rec["eager"]["check"]["passed"], rec
    ker = ops / "adam_inplace" / "kernel.py"
    tree = ast.parse(ker.read_text())
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "adamw_kernel")
    fn.body = [s for s in fn.body if "v_ptr" not in ast.unparse(s) or not ast.unparse(s).startswith("tl.store")]
    ker.write_text(ast.unparse(tree))
    p = run_baselines(tmp_path / "bad", "--ops", "adam_inplace", ops_dir=str(ops))
    rec = json.loads((tmp_path / "bad" / "baselines-adam_inplace-run1.json").read_text())
    assert rec["eager"]["check"]["passed"], rec
    assert not rec["initial"]["ok"] and rec["initial"]["mismatch"].startswith("output 3:"), rec["initial"]


def test_baselines_records_an_operator_that_hangs(tmp_path):
    p = run_baselines(tmp_path, "--ops", "moe_gating_topk", "--op-timeout", "0.3")
    assert p.returncode == 1, p.stderr[-3000:]
    rec = json.loads((tmp_path / "baselines-moe_gating_topk-run1.json").read_text())
    assert rec["ok"] is False and rec["failure"]["stage"] == "timeout"
    assert "--op-timeout 0.3" in rec["failure"]["reason"]


# ---------------------------------------------------------------------------- report

def _expected_speedups(records):
    """kopt speedup per operator from the records alone: baselines' side-by-side times."""
    by = {}
    for r in records:
        if r["kind"] == "baselines" and r["ok"] and (r.get("kopt") or {}).get("ok"):
            by.setdefault(r["operator"], []).append(r["initial"]["median_ms"] / r["kopt"]["median_ms"])
    return {k: statistics.median(v) for k, v in by.items()}


def test_report_on_recorded_results(tmp_path):
    assert report.main([TESTDATA, "--out", str(tmp_path), "--title", "recorded interp run"]) == 0
    text = (tmp_path / "report.md").read_text()
    summ = json.loads((tmp_path / "summary.json").read_text())
    records = [r for r in load_records([TESTDATA])]
    ops = sorted({r["operator"] for r in records})
    for op in ops:
        assert f"| {op} |" in text
    failed = [r for r in records if not r["ok"]]
    assert failed, "the recorded results include a failure (the denominator)"
    assert summ["summary"]["failures"] == len(failed)
    for r in failed:
        assert r["failure"]["reason"][:60].replace("|", "/") in text
    want = _expected_speedups(records)
    got = {o["name"]: o["speedup"]["median"] for o in summ["operators"] if o["speedup"]}
    assert want and all(got[k] == pytest.approx(v) for k, v in want.items())
    sp = [o["speedup"]["median"] for o in summ["operators"] if o["speedup"]]
    assert summ["summary"]["speedup_geomean"] == pytest.approx(math.exp(sum(map(math.log, sp)) / len(sp)))
    assert summ["summary"]["at_least_2x"] == sum(1 for x in sp if x >= 2)
    assert summ["summary"]["compared_with_optimum"] >= 1           # exhaustive records present
    for png in ("speedups.png", "roofline.png", "vs_compile.png"):
        assert (tmp_path / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png})" in text
    # round wall times: the first round apart (it also measures the initial kernel)
    firsts, laters = [], []
    for r in records:
        if r["kind"] == "kopt" and r["ok"]:
            rs = kopt_summary(r).round_seconds
            firsts += rs[:1]
            laters += rs[1:]
    assert firsts and laters
    assert summ["summary"]["round_seconds_first_median"] == pytest.approx(statistics.median(firsts))
    assert summ["summary"]["round_seconds_later_median"] == pytest.approx(statistics.median(laters))
    assert "round wall time (median over every round of the successful jobs): round 1" in text


def edited_testdata(dst: Path, edit) -> Path:
    """The recorded results of TESTDATA copied into dst/in, each record passed through
    edit(record) first (edited in place); returns the directory."""
    src = dst / "in"
    src.mkdir()
    for name in sorted(os.listdir(TESTDATA)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(TESTDATA, name)) as f:
            rec = json.load(f)
        edit(rec)
        (src / name).write_text(json.dumps(rec))
    return src


def test_report_same_size_copy_bound(tmp_path: Path) -> None:
    """Memory-bound operators are also set against a copy of their own bytes: per operator the
    copy's time over kopt's and compile's, in the summary their geometric means over the
    memory-bound operators whose baselines measured it."""
    copy_ms: dict[str, float] = {}

    def same_size(rec: dict) -> None:
        if rec.get("kind") == "baselines" and rec.get("roofline"):
            rec["roofline"]["copy_same_ms"] = copy_ms.setdefault(rec["operator"], 0.001 * (1 + len(copy_ms)))

    src = edited_testdata(tmp_path, same_size)
    assert copy_ms
    assert report.main([str(src), "--out", str(tmp_path / "out")]) == 0
    summ = json.loads((tmp_path / "out" / "summary.json").read_text())
    fracs = []
    for o in summ["operators"]:
        if o["name"] not in copy_ms or not o["kopt"]:
            continue
        assert o["copy_same_ms"] == pytest.approx(copy_ms[o["name"]])
        assert o["roofline"]["kopt_same_size"] == pytest.approx(copy_ms[o["name"]] / o["kopt"]["median"])
        if o["memory_bound"]:
            fracs.append(o["roofline"]["kopt_same_size"])
    assert fracs
    s = summ["summary"]
    assert s["memory_bound_same_size_measured"] == len(fracs)
    assert s["memory_bound_same_size_geomean"]["kopt"] == pytest.approx(math.exp(sum(map(math.log, fracs)) / len(fracs)))
    md = (tmp_path / "out" / "report.md").read_text()
    assert "against a copy of each operator's own bytes" in md
    rows = {line.split("|")[1].strip(): line for line in md.splitlines() if line.startswith("| ")}
    for o in summ["operators"]:            # the table's column: memory-bound operators only
        if o["name"] in copy_ms and o["kopt"]:
            assert ("; same size " in rows[o["name"]]) == bool(o["memory_bound"]), rows[o["name"]]


def test_report_says_how_baselines_were_timed(tmp_path: Path) -> None:
    """The report says how many baselines records were timed in interleaved passes and how
    many once each in the fixed order (records before baselines.py interleaved)."""
    n = {"fixed": 0, "passes": 0}

    def half_interleaved(rec: dict) -> None:
        if rec.get("kind") == "baselines" and rec.get("ok"):
            if n["fixed"] <= n["passes"]:
                rec["timing"].pop("passes", None)
                n["fixed"] += 1
            else:
                rec["timing"]["passes"] = 3
                n["passes"] += 1

    src = edited_testdata(tmp_path, half_interleaved)
    assert n["fixed"] and n["passes"]
    assert report.main([str(src), "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "report.md").read_text()
    line = next(x for x in md.splitlines() if x.startswith("- baselines' timing"))
    assert f"of {n['fixed'] + n['passes']} records" in line
    assert f"{n['passes']} in 3 interleaved passes" in line and f"{n['fixed']} once each in the order" in line


H200_UNSEEN = os.path.join(ROOT, "bench", "results", "h200-unseen-2026-12-02", "results")


def test_report_compares_kopt_with_the_peer_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """gemm_blockptr's H200 baselines of call AQ timed its float32 truth as eager and
    torch.compile (ref.py had no Peer then; the record is in results-superseded/ since call AT
    timed the Peer): the report names that run and compares nothing with it; the same record
    as baselines.py now writes it (the Peer timed) is compared, and so is call AT's."""
    monkeypatch.setattr(report, "OPS_DIR", Path(UNSEEN_DIR))
    kopt = json.loads(Path(H200_UNSEEN, "kopt-gemm_blockptr-run1.json").read_text())
    aq = json.loads(Path(H200_UNSEEN, "..", "results-superseded", "baselines-gemm_blockptr-run1-callAQ.json").read_text())
    at = json.loads(Path(H200_UNSEEN, "baselines-gemm_blockptr-run1.json").read_text())
    assert at["baseline_class"] == "Peer"
    (row,), _ = report.build_rows([kopt, at])
    assert row.kopt_vs_compile == pytest.approx(at["kopt"]["median_ms"] / at["compile"]["median_ms"])
    recs = [kopt, aq]
    assert "baseline_class" not in recs[1] and recs[1]["compile"]["ok"]
    (row,), _ = report.build_rows(recs)
    assert row.eager is None and row.compile is None and row.kopt_vs_compile is None
    assert any("run 1 timed ref.py's Model" in n and "not its Peer" in n for n in row.notes), row.notes
    assert row.kopt is not None and row.speedup is not None        # kopt against its initial kernel stands
    recs[1]["baseline_class"] = "Peer"
    (row,), _ = report.build_rows(recs)
    assert row.compile is not None and row.kopt is not None and row.kopt_vs_compile is not None
    assert row.kopt_vs_compile == pytest.approx(recs[1]["kopt"]["median_ms"] / recs[1]["compile"]["median_ms"])
    assert not any("timed ref.py's Model" in n for n in row.notes)


def test_report_merges_suite_and_unseen_operators(monkeypatch: pytest.MonkeyPatch) -> None:
    """One report over records of both operator directories (a device call runs one
    directory's operators; bench/results/h100-new-tree-2026-12-07 merges three calls): each
    operator's spec comes from whichever directory has it, whatever OPS_DIR says, so an unseen
    operator keeps its class, dtype and roofline beside the suite's."""
    suite_rec = json.loads(Path(TESTDATA, "kopt-col_sum-run1.json").read_text())
    unseen_rec = json.loads(Path(H200_UNSEEN, "kopt-gemm_blockptr-run1.json").read_text())
    for ops_dir in (SUITE_OPS_DIR, Path(UNSEEN_DIR)):
        monkeypatch.setattr(report, "OPS_DIR", ops_dir)
        rows, _ = report.build_rows([suite_rec, unseen_rec])
        by = {r.name: r for r in rows}
        for name, root in (("col_sum", SUITE_OPS_DIR), ("gemm_blockptr", Path(UNSEEN_DIR))):
            spec = load_op(root / name)
            assert (by[name].op_class, by[name].dtype) == (spec.op_class, spec.dtype), (ops_dir, name)
            assert not any("no op.json" in n for n in by[name].notes), by[name].notes
    monkeypatch.setattr(report, "OPS_DIR", SUITE_OPS_DIR)
    nobody = dict(suite_rec, operator="no_such_operator")
    (row,), _ = report.build_rows([nobody])
    assert row.op_class == "?" and any("no op.json" in n for n in row.notes), row.notes


def test_report_notes_noisy_timings(tmp_path: Path) -> None:
    """A baselines timing whose interquartile range is over a quarter of its median is named in
    the operator's notes; a tight one is not."""
    noisy = None

    def one_noisy(rec: dict) -> None:
        nonlocal noisy
        if rec.get("kind") == "baselines" and (rec.get("eager") or {}).get("ok"):
            c = rec["eager"]
            c["iqr_ms"] = c["median_ms"] * (0.5 if noisy is None else 0.01)
            noisy = noisy or (rec["operator"], rec["run"])

    src = edited_testdata(tmp_path, one_noisy)
    assert noisy
    assert report.main([str(src), "--out", str(tmp_path / "out")]) == 0
    md = (tmp_path / "out" / "report.md").read_text()
    hits = [line for line in md.splitlines() if "eager timing is noisy" in line]
    assert hits == [f"- {noisy[0]}: run {noisy[1]}: the eager timing is noisy (interquartile range 50%"
                    + hits[0].split("range 50%", 1)[1]], hits


def test_the_steadier_timing_is_kept() -> None:
    """A GPU timing taken twice (its spread was over NOISY_REL_IQR; baselines.py and the
    sweep): the steadier one is kept, the other's median and spread recorded under "retaken"
    (and named in the report's note when the kept one is still noisy)."""
    bimodal = {"median_ms": 0.320, "rel_iqr": 0.70, "p10_ms": 0.133, "p90_ms": 0.390, "n": 400}
    steady = {"median_ms": 0.124, "rel_iqr": 0.007, "p10_ms": 0.123, "p90_ms": 0.125, "n": 480}
    for first, again in ((bimodal, steady), (steady, bimodal)):
        kept = steadier(first, again)
        assert kept["median_ms"] == 0.124 and kept["n"] == 480
        assert kept["retaken"] == {"median_ms": 0.320, "rel_iqr": 0.70, "p10_ms": 0.133, "p90_ms": 0.390}
    takes = iter([bimodal, steady])
    seen: list[float] = []
    kept = retake_if_noisy(lambda: next(takes), True, lambda t: seen.append(t["median_ms"]))
    assert kept["median_ms"] == 0.124 and seen == [0.320]     # the disturbed one, taken again
    assert retake_if_noisy(lambda: bimodal, False) is bimodal  # on the CPU's clock: never again
    assert retake_if_noisy(lambda: steady, True) is steady
    assert report.NOISY_REL_IQR is NOISY_REL_IQR            # the report flags what the timers retake
    note = report._noisy_timings([{"run": 3, "compile": {"ok": True, "median_ms": 0.3, "iqr_ms": 0.15,
                                                         "retaken": {"median_ms": 0.28}}}])
    assert note == [("run 3: the compile timing is noisy (interquartile range 50% of its median 0.3 ms, p10-p90 "
                     "0-0 ms; taken twice, the other median 0.28 ms)")]


def test_round_seconds_from_the_records():
    """Each round's wall time runs from the job's start (round 1) or the previous round's
    record to its own record, in round order whatever order the records come in."""
    job = {"started_at": "2026-12-01T10:00:00Z", "finished_at": "2026-12-01T10:01:00Z",
           "best": {"round": 2, "speedup": 2.0}}
    rounds = [{"round": 3, "created_at": "2026-12-01T10:00:52.5Z"},
              {"round": 1, "created_at": "2026-12-01T10:00:40Z"},
              {"round": 2, "created_at": "2026-12-01T10:00:49Z"}]
    k = kopt_summary({"operator": "x", "run": 1, "ok": True, "job": job, "rounds": rounds})
    assert k.round_seconds == [40.0, 9.0, 3.5]
    assert k.seconds_to_best == 49.0 and k.job_seconds == 60.0
    # no start, or a round without its time: no round times at all rather than misattributed ones
    assert kopt_summary({"operator": "x", "run": 1, "ok": True, "job": {}, "rounds": rounds}).round_seconds == []
    rounds[0] = {"round": 3}
    assert kopt_summary({"operator": "x", "run": 1, "ok": True, "job": job, "rounds": rounds}).round_seconds == []


def test_report_refuses_a_bad_record(tmp_path):
    (tmp_path / "kopt-x-run1.json").write_text(json.dumps({"kind": "kopt", "format": 99, "operator": "x",
                                                           "run": 1, "ok": True}))
    assert report.main([str(tmp_path), "--out", str(tmp_path / "out")]) == 2


def test_exhaustive_end_to_end(tmp_path):
    """A few points of gelu_tanh's space through the repository's harness (knobs, rewrite,
    sweep, validate, bench on the interpreter)."""
    env = dict(os.environ, TRITON_INTERPRET="1")
    p = subprocess.run([PY, os.path.join(SUITE, "exhaustive.py"), "--ops", "gelu_tanh", "--backend", "interp",
                        "--cap", "6", "--batch", "3", "--correctness-cases", "1", "--out", str(tmp_path)],
                       capture_output=True, text=True, timeout=300, env=env, check=False)
    assert p.returncode == 0, p.stderr[-3000:]
    rec = json.loads((tmp_path / "exhaustive-gelu_tanh-run1.json").read_text())
    assert rec["ok"] and rec["space"]["size"] == 66 and rec["space"]["measured"] == 6 and rec["space"]["sampled"]
    assert rec["space"]["initial"] == {"BLOCK": 128, "num_stages": 3, "num_warps": 4}
    assert len(rec["points"]) == 5 and rec["sweep"]["sweeps"] == 2      # the initial point is the sweep's base
    # each batch says where its seconds went (the harness's phases)
    assert [b["candidates"] for b in rec["sweep"]["batches"]] == [3, 2]
    assert all(b["phases"]["screen_s"] >= 0 and b["phases"]["time_s"] >= 0 for b in rec["sweep"]["batches"])
    assert all(pt["status"] in ("ok", "refused", "compile-failed", "wrong", "error") for pt in rec["points"])
    assert rec["initial"]["median_ms"] > 0 and rec["best"]["median_ms"] > 0
    assert rec["best"]["speedup"] >= 1.0
    assert all(f["passed"] for f in rec["finalists"]), rec["finalists"]
