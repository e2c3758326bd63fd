#!/usr/bin/env python3
"""NPU smoke run of the harness (backend ascend): what docs/ASCEND.md lists as not run yet,
run on a real Ascend device and checked against the figures it should give. Not collected by
pytest (needs an NPU, CANN, torch_npu and triton-ascend); scripts/ascend_validate.sh checks
those and runs it.

    python3 tests/harness/npu_smoke.py --out var/ascend-validate [--sandboxed]

Steps: hello; load + validate examples/vector_add (N = KOPT_VECTOR_ADD_N, default 1<<24) and a
faster candidate; bench (NPU events; achieved bandwidth); compare BLOCK 128 vs 1024 and A vs A
(ABBA); compile (all three stages: ttir, ttadapter and, with CANN, npubin, with the HIVM IR
after hivm-inject-sync) and compile per_pass; profile (msprof op: pipe ratios); bad kernels;
examples/softmax_npu load, validate, bench. Every response goes to OUT/responses.jsonl, a
verdict per step to OUT/summary.json, the figures to OUT/figures.json, and the real IR of the
vector add (ttadapter, npuir) to OUT/fixtures/ (candidates for a committed HIVM fixture).
Exit status 0 when every step behaved as expected."""
import argparse
import json
import os
import re
import shutil
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "harness"))

from kharness.client import HarnessClient

# Plausibility bounds for the vector add's achieved bandwidth (3 x 4 bytes per element): a
# working kernel on an Atlas A2 is far above the lower one; nothing reaches the upper one.
MIN_GBPS = 1.0
MAX_GBPS = 4000.0


def read(*p: str) -> str:
    with open(os.path.join(*p)) as f:
        return f.read()


def ratios_ok(prof: dict[str, Any]) -> bool:
    """msprof op's pipe ratios: present and fractions in [0, 1]."""
    ks = prof.get("kernels") or []
    if not ks:
        return False
    r = ((ks[0].get("summary") or {}).get("ratios")) or {}
    vals = [v for v in r.values() if isinstance(v, (int, float))]
    return bool(vals) and all(0.0 <= v <= 1.0 for v in vals)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--sandboxed", action="store_true", help="start through harness/run-sandboxed")
    ap.add_argument("--workdir", default="/tmp/kopt-npu-smoke")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "fixtures"), exist_ok=True)
    os.makedirs(a.workdir, exist_ok=True)
    os.chmod(a.workdir, 0o755)
    log = os.path.join(a.out, "harness.log")
    if a.sandboxed:
        cmd = [os.path.join(ROOT, "harness", "run-sandboxed"), "--backend", "ascend", "--workdir", a.workdir]
        h = HarnessClient(cmd=cmd, stderr_path=log)
    else:
        h = HarnessClient(["--backend", "ascend", "--workdir", a.workdir], stderr_path=log)
    summary: list[dict[str, Any]] = []
    figures: dict[str, Any] = {}
    n = int(os.environ.get("KOPT_VECTOR_ADD_N", str(1 << 24)))

    with open(os.path.join(a.out, "responses.jsonl"), "w") as resp_f:
        def step(name: str, op: str, expect: Callable[[dict[str, Any]], Any], **fields: Any) -> dict[str, Any]:
            t0 = time.time()
            r = h.request(op, **fields)
            dt = time.time() - t0
            resp_f.write(json.dumps({"step": name, "seconds": dt, "response": r}) + "\n")
            resp_f.flush()
            try:
                good = bool(expect(r))
            except (KeyError, IndexError, TypeError, ValueError) as e:
                good = False
                r = {"check_error": repr(e), **r}
            summary.append({"step": name, "ok": good, "seconds": round(dt, 2), "error": r.get("error"),
                            "failure": (r.get("result") or {}).get("failure")})
            print(f"{'PASS' if good else 'FAIL'} {name} ({dt:.1f}s)", flush=True)
            return r

        ref = read(ROOT, "examples", "vector_add", "ref.py")
        ker = read(ROOT, "examples", "vector_add", "kernel.py")
        fast = ker.replace("BLOCK_SIZE=128, num_warps=4", "BLOCK_SIZE=1024, num_warps=4")
        try:
            r = step("hello", "hello", lambda r: r["ok"] and r["result"]["backend"] == "ascend"
                     and r["result"]["device"]["name"])
            figures["env"] = r.get("result")
            step("load vector_add", "load", lambda r: r["ok"] and r["result"]["static_check"]["ok"],
                 reference_source=ref, kernel_source=ker, workdir="va", seed=0)
            step("validate initial", "validate", lambda r: r["ok"] and r["result"]["passed"])
            step("validate BLOCK 1024", "validate", lambda r: r["ok"] and r["result"]["passed"], candidate_source=fast)

            def bench_ok(r: dict[str, Any]) -> bool:
                med = r["result"]["cases"][0]["kernel"]["median_ms"]
                gbps = 3 * 4 * n / (med * 1e-3) / 1e9
                figures["vector_add"] = {"n": n, "median_ms": med, "gbps": gbps}
                return r["ok"] and r["result"]["clock"] == "npu-events" and MIN_GBPS < gbps < MAX_GBPS

            step("bench (NPU events, bandwidth)", "bench", bench_ok)
            r = step("compare 128 vs 1024", "compare", lambda r: r["ok"] and "faster_beyond_noise" in r["result"],
                     incumbent_source=ker, candidate_source=fast, rounds=10)
            figures["compare_128_vs_1024"] = {k: (r.get("result") or {}).get(k) for k in ("speedup", "noise")}
            step("compare A vs A", "compare", lambda r: r["ok"] and not r["result"]["faster_beyond_noise"],
                 incumbent_source=ker, candidate_source=ker, rounds=10)

            def compile_ok(r: dict[str, Any]) -> bool:
                k = r["result"]["kernels"][0]
                figures["compile"] = {"stages": k["stages"], "stopped_at": k["stopped_at"], "notes": k["notes"]}
                for kind in ("ttadapter", "npuir"):
                    if kind in k["files"]:
                        shutil.copy(k["files"][kind]["path"], os.path.join(a.out, "fixtures", f"add_kernel.{kind}"))
                npuir = read(k["files"]["npuir"]["path"])
                figures["hivm"] = {op: len(re.findall(r"\bhivm\.hir\." + op + r"\b", npuir))
                                   for op in ("set_flag", "wait_flag", "pipe_barrier", "load", "store")}
                return (k["stages"] == {"ttir": "done", "ttadapter": "done", "npubin": "done"}
                        and figures["hivm"]["load"] > 0 and figures["hivm"]["set_flag"] > 0)

            step("compile (ttir, ttadapter, npubin, HIVM IR)", "compile", compile_ok)
            step("compile per_pass (adapter pipeline)", "compile",
                 lambda r: r["ok"] and r["result"]["kernels"][0]["pass_count"] > 10, per_pass=True)

            def profile_ok(r: dict[str, Any]) -> bool:
                res = r["result"]
                figures["profile"] = res.get("kernels")
                return r["ok"] and res["available"] and res["tool"] == "msprof op" and ratios_ok(res)

            step("profile (msprof op, pipe ratios)", "profile", profile_ok, timeout_s=600)
            for name, expect in (
                    ("wrong_result.py", lambda r: r["ok"] and r["result"]["failure"]["kind"] == "wrong-result"),
                    ("segfault.py", lambda r: not r["ok"] and r["error"]["kind"] == "crashed"),
                    ("hang.py", lambda r: not r["ok"] and r["error"]["kind"] == "timeout")):
                step(f"bad {name}", "validate", expect, candidate_source=read(HERE, "bad", name), timeout_s=60)
            step("validate after restarts", "validate", lambda r: r["ok"] and r["result"]["passed"], timeout_s=300)
            sref = read(ROOT, "examples", "softmax_npu", "ref.py")
            sker = read(ROOT, "examples", "softmax_npu", "kernel.py")
            step("load softmax_npu", "load", lambda r: r["ok"], reference_source=sref, kernel_source=sker,
                 workdir="sm")
            step("validate softmax_npu", "validate", lambda r: r["ok"] and r["result"]["passed"])
            step("bench softmax_npu", "bench", lambda r: r["ok"] and r["result"]["clock"] == "npu-events")
        except Exception:  # noqa: BLE001 -- any failure ends the run; the summary says where
            traceback.print_exc()
            summary.append({"step": "(run)", "ok": False, "exception": traceback.format_exc()[-2000:]})
        finally:
            h.close()
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    with open(os.path.join(a.out, "figures.json"), "w") as f:
        json.dump(figures, f, indent=1, default=str)
    bad = [s for s in summary if not s["ok"]]
    print(f"{len(summary) - len(bad)}/{len(summary)} steps as expected; figures in {a.out}/figures.json")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
