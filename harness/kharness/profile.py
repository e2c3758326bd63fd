"""`profile`: L2 evidence for the hot kernels of one case.

cuda:   Nsight Compute (`ncu --clock-control none --csv --page details`) on a fresh process
        re-running the case (drivers/run_case.py), parsed by parsers.parse_ncu_csv; if ncu is
        missing or cannot read the counters (ERR_NVGPUCTRPERM), Triton's proton (kernel times
        only) when importable.
ascend: `msprof op --kernel-name=<k> --output=<dir> python run_case.py` and the
        PipeUtilization/OpBasicInfo CSVs, parsed by parsers.parse_msprof_csv (not run on
        hardware).
interp: not available (the interpreter has no counters): {"available": false, "reason"}."""
import glob
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any

from .parsers import parse_msprof_csv, parse_ncu_csv, summarize_msprof
from .protocol import HarnessError

HERE = os.path.dirname(os.path.abspath(__file__))
NCU_SECTIONS = ["SpeedOfLight", "Occupancy", "LaunchStats", "MemoryWorkloadAnalysis", "WarpStateStats",
                "ComputeWorkloadAnalysis"]


def find_ncu() -> str | None:
    p = shutil.which("ncu")
    if p:
        return p
    for d in (os.environ.get("CUDA_HOME"), "/usr/local/cuda", "/opt/nvidia/nsight-compute"):
        if d:
            for cand in [os.path.join(d, "bin", "ncu"), os.path.join(d, "ncu")] + sorted(glob.glob(os.path.join(d, "*", "ncu"))):
                if os.access(cand, os.X_OK):
                    return cand
    return None


def profile_op(worker: Any, req: dict[str, Any]) -> dict[str, Any]:
    p = worker._need_problem()
    case = req.get("case", p.bench[0])
    if not isinstance(case, int) or not 0 <= case < p.cases.count:
        raise HarnessError("bad-request", f"case must be a case index in [0, {p.cases.count - 1}]")
    if worker.backend == "interp":
        return {"available": False, "backend": "interp",
                "reason": "the Triton interpreter runs on the CPU and has no hardware counters; escalate past L2 "
                          "(use compile for L3/L4 evidence)"}
    csrc = req.get("candidate_source")
    who = "candidate" if csrc is not None and csrc != p.kernel_src else "initial kernel"
    from .usercode import UserCodeFailure
    try:
        mod, _src, path = worker._import_kernel(csrc, who)
    except UserCodeFailure as e:
        raise worker._fail(e)
    # leave the supervisor's request timeout room to answer
    timeout = min(float(req.get("profile_timeout_s", 600)), float(req.get("timeout_s") or 900) - 15)
    stamp = time.strftime("%Y%m%dT%H%M%S")
    out_dir = os.path.join(p.jobdir, "profile", f"{worker.backend}_{stamp}")
    os.makedirs(out_dir, exist_ok=True)
    from .state import write_state
    state_path = os.path.join(out_dir, "state.json")
    write_state(worker, state_path, source_path=path, tunables=worker._tunables(req), case=case)
    launched, _ = worker.probe_launches(mod, who, req)
    names = req.get("kernels") or [k["kernel"] for k in launched]
    per_forward = sum(k["launches"] for k in launched if k["kernel"] in names) or len(names)
    if worker.backend == "cuda":
        return _profile_cuda(worker, out_dir, state_path, names, per_forward, timeout, case, who)
    if worker.backend == "ascend":
        return _profile_ascend(worker, out_dir, state_path, names, timeout, case, who)
    raise HarnessError("unsupported", f"profile is not implemented for backend {worker.backend}")


def _write_text(path: str, text: str) -> None:
    with open(path, "w") as f:
        f.write(text)


def _read_text(path: str) -> str:
    with open(path) as f:
        return f.read()


def _driver_cmd(state_path: str, extra: Sequence[str] = ()) -> list[str]:
    return [sys.executable, os.path.join(HERE, "drivers", "run_case.py"), state_path, *extra]


def _profile_cuda(worker: Any, out_dir: str, state_path: str, names: list[str], per_forward: int, timeout: float,
                  case: int, who: str) -> dict[str, Any]:
    ncu = find_ncu()
    attempts = []
    if ncu:
        csv_path = os.path.join(out_dir, "ncu.csv")
        cmd = [ncu, "--clock-control", "none", "--csv", "--page", "details", "--target-processes", "all",
               # run_case.py runs forward twice: skip the first (compile/warm-up) forward's launches
               "--launch-skip", str(per_forward), "--launch-count", str(max(1, per_forward))]
        for s in NCU_SECTIONS:
            cmd += ["--section", s]
        cmd += ["--metrics", "dram__bytes_read.sum,dram__bytes_write.sum"]
        if names:
            cmd += ["--kernel-name", "regex:^(" + "|".join(sorted(set(names))) + ")$"]
        cmd += _driver_cmd(state_path)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=out_dir, check=False)
            text = r.stdout
            _write_text(csv_path, text)
            launches = parse_ncu_csv(text)
            if r.returncode == 0 and launches:
                return {"available": True, "tool": "ncu", "tool_path": ncu, "command": cmd, "case": case, "who": who,
                        "csv": csv_path, "kernels": [{"kernel": k["kernel"], "block": k["block"], "grid": k["grid"],
                                                      "summary": k["summary"], "rules": k["rules"][:20]}
                                                     for k in launches]}
            log = r.stdout[-4000:] + r.stderr
            _write_text(os.path.join(out_dir, "ncu.log"), r.stderr)
            reason = f"ncu exited {r.returncode} with no parsable metrics"
            if "ERR_NVGPUCTRPERM" in log:
                reason = ("ncu: no permission to read GPU performance counters (ERR_NVGPUCTRPERM): run as root or set "
                          "NVreg_RestrictProfilingToAdminUsers=0")
            attempts.append({"tool": "ncu", "reason": reason, "log_tail": log[-2000:]})
        except subprocess.TimeoutExpired:
            attempts.append({"tool": "ncu", "reason": f"ncu did not finish within {timeout:g} s"})
    else:
        attempts.append({"tool": "ncu", "reason": "ncu not found (PATH, CUDA_HOME, /usr/local/cuda)"})
    # fallback: proton (kernel times only)
    try:
        import triton.profiler  # noqa: F401
        out = os.path.join(out_dir, "proton.hatchet")
        r = subprocess.run(_driver_cmd(state_path, ["--reps", "10", "--proton", out]), capture_output=True, text=True,
                           timeout=timeout, cwd=out_dir, check=False)
        found = sorted(glob.glob(os.path.join(out_dir, "proton*.hatchet")))
        if r.returncode == 0 and found:
            with open(found[0]) as f:
                data = json.load(f)
            return {"available": True, "tool": "proton", "case": case, "who": who, "file": found[0],
                    "kernels": _proton_kernels(data), "fallback_from": attempts,
                    "note": "proton gives kernel times only, no hardware counters"}
        attempts.append({"tool": "proton", "reason": f"exit {r.returncode}", "log_tail": (r.stdout + r.stderr)[-2000:]})
    except ImportError:
        attempts.append({"tool": "proton", "reason": "triton.profiler is not importable"})
    except subprocess.TimeoutExpired:
        attempts.append({"tool": "proton", "reason": f"did not finish within {timeout:g} s"})
    return {"available": False, "reason": "; ".join(a["reason"] for a in attempts), "attempts": attempts}


def _proton_kernels(data: object) -> list[dict[str, Any]]:
    """Flatten a proton hatchet JSON tree into [{name, time_ns, count}]."""
    out: list[dict[str, Any]] = []

    def walk(node: dict[str, Any]) -> None:
        frame = node.get("frame", {})
        metrics = node.get("metrics", {})
        if frame.get("type") in ("function", None) and ("time (ns)" in metrics or "time" in metrics) \
                and not node.get("children"):
            out.append({"kernel": frame.get("name"), "time_ns": metrics.get("time (ns)", metrics.get("time")),
                        "count": metrics.get("count")})
        for c in node.get("children", []):
            walk(c)

    for root in (data if isinstance(data, list) else [data]):
        if isinstance(root, dict):
            walk(root)
    return out


def _profile_ascend(worker: Any, out_dir: str, state_path: str, names: list[str], timeout: float, case: int,
                    who: str) -> dict[str, Any]:
    msprof = shutil.which("msprof")
    if not msprof:
        return {"available": False, "reason": "msprof not found on PATH (source the CANN set_env.sh)"}
    results: list[dict[str, Any]] = []
    todo: list[str | None] = [*names] if names else [None]  # None: every kernel
    for name in todo:
        odir = os.path.join(out_dir, name or "all")
        os.makedirs(odir, exist_ok=True)
        cmd = [msprof, "op", f"--output={odir}"]
        if name:
            cmd.append(f"--kernel-name={name}")
        cmd += _driver_cmd(state_path)
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=odir, check=False)
        except subprocess.TimeoutExpired:
            results.append({"kernel": name, "error": f"msprof did not finish within {timeout:g} s"})
            continue
        pipe = sorted(glob.glob(os.path.join(odir, "OPPROF_*", "**", "PipeUtilization.csv"), recursive=True))
        basic = sorted(glob.glob(os.path.join(odir, "OPPROF_*", "**", "OpBasicInfo.csv"), recursive=True))
        if not pipe and not basic:
            results.append({"kernel": name, "error": f"msprof exited {r.returncode} without OPPROF_* CSVs",
                            "log_tail": (r.stdout + r.stderr)[-2000:]})
            continue
        pr = parse_msprof_csv(_read_text(pipe[-1])) if pipe else []
        br = parse_msprof_csv(_read_text(basic[-1])) if basic else []
        results.append({"kernel": name, "files": pipe[-1:] + basic[-1:], "summary": summarize_msprof(pr, br)})
    ok = any("summary" in r for r in results)
    return {"available": ok, "tool": "msprof op", "case": case, "who": who, "kernels": results,
            "note": "Ascend path: written from the CANN/triton-ascend documentation, not run on hardware",
            **({} if ok else {"reason": "; ".join(r.get("error", "") for r in results)})}
