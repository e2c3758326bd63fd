#!/usr/bin/env python3
"""GPU smoke run of the harness (backend cuda). Not collected by pytest (needs a GPU).

    python3 tests/harness/gpu_smoke.py --out /tmp/smoke [--sandboxed]

Runs hello, load+validate of examples/vector_add (N = 1<<24) and examples/softmax_npu,
bench, compare (BLOCK 128 vs 1024), compile (cuda:90, per_pass), profile (ncu or proton), and
a few bad kernels; writes every response to OUT/responses.jsonl and a verdict per step to
OUT/summary.json. Exit status 0 when every step behaved as expected."""
import argparse
import json
import os
import shutil
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "harness"))

from kharness.client import HarnessClient  # noqa: E402


def read(*p):
    return open(os.path.join(*p)).read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--sandboxed", action="store_true", help="start through harness/run-sandboxed")
    ap.add_argument("--workdir", default="/tmp/kopt-gpu-smoke")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    os.makedirs(a.workdir, exist_ok=True)
    os.chmod(a.workdir, 0o755)
    if a.sandboxed:
        cmd = [os.path.join(ROOT, "harness", "run-sandboxed"), "--backend", "cuda", "--workdir", a.workdir]
        h = HarnessClient(cmd=cmd, stderr_path=os.path.join(a.out, "harness.log"))
    else:
        h = HarnessClient(["--backend", "cuda", "--workdir", a.workdir], stderr_path=os.path.join(a.out, "harness.log"))
    resp_f = open(os.path.join(a.out, "responses.jsonl"), "w")
    summary = []

    def step(name, op, expect, **fields):
        t0 = time.time()
        try:
            r = h.request(op, **fields)
        except Exception as e:
            summary.append({"step": name, "ok": False, "exception": repr(e)})
            raise
        dt = time.time() - t0
        resp_f.write(json.dumps({"step": name, "seconds": dt, "response": r}) + "\n")
        resp_f.flush()
        try:
            good = bool(expect(r))
        except Exception as e:
            good = False
            r = {"check_error": repr(e), **r}
        summary.append({"step": name, "ok": good, "seconds": round(dt, 2),
                        "error": r.get("error"), "failure": (r.get("result") or {}).get("failure")})
        print(f"{'PASS' if good else 'FAIL'} {name} ({dt:.1f}s)", flush=True)
        return r

    ref = read(ROOT, "examples", "vector_add", "ref.py")
    ker = read(ROOT, "examples", "vector_add", "kernel.py")
    fast = ker.replace("BLOCK_SIZE=128, num_warps=4", "BLOCK_SIZE=1024, num_warps=4")
    try:
        step("hello", "hello", lambda r: r["ok"] and r["result"]["backend"] == "cuda")
        step("load vector_add", "load", lambda r: r["ok"] and r["result"]["static_check"]["ok"],
             reference_source=ref, kernel_source=ker, workdir="va", seed=0)
        step("validate initial", "validate", lambda r: r["ok"] and r["result"]["passed"])
        step("validate fast candidate", "validate", lambda r: r["ok"] and r["result"]["passed"], candidate_source=fast)
        step("bench", "bench", lambda r: r["ok"] and r["result"]["clock"] == "cuda-events"
             and r["result"]["cases"][0]["kernel"]["median_ms"] > 0 and r["result"]["cases"][0].get("roofline_fraction"))
        step("compare 128 vs 1024", "compare", lambda r: r["ok"] and "faster_beyond_noise" in r["result"],
             incumbent_source=ker, candidate_source=fast, rounds=10)
        step("compare A vs A", "compare", lambda r: r["ok"] and not r["result"]["faster_beyond_noise"],
             incumbent_source=ker, candidate_source=ker, rounds=10)
        step("compile cuda:90 per_pass", "compile", lambda r: r["ok"] and r["result"]["kernels"][0]["pass_count"] > 20,
             per_pass=True)
        r = step("profile", "profile", lambda r: r["ok"], timeout_s=300)
        csv_path = (r.get("result") or {}).get("csv")
        if csv_path and os.path.exists(csv_path):
            shutil.copy(csv_path, os.path.join(a.out, "ncu.csv"))
        for name, expect in (("wrong_result.py", lambda r: r["ok"] and r["result"]["failure"]["kind"] == "wrong-result"),
                             ("mutates_input.py", lambda r: r["ok"] and r["result"]["failure"]["kind"] == "mutated-input"),
                             ("segfault.py", lambda r: not r["ok"] and r["error"]["kind"] == "crashed"),
                             ("oom.py", lambda r: r["ok"] and r["result"]["failure"]["kind"] == "oom"),
                             ("illegal_address.py", lambda r: r["ok"] and r["result"]["failure"]["kind"] == "device-fault"
                              and r["result"].get("worker_restarting")),
                             ("hang.py", lambda r: not r["ok"] and r["error"]["kind"] == "timeout")):
            step(f"bad {name}", "validate", expect, candidate_source=read(HERE, "bad", name), timeout_s=20)
        step("validate after restarts", "validate", lambda r: r["ok"] and r["result"]["passed"], timeout_s=300)
        sref = read(ROOT, "examples", "softmax_npu", "ref.py")
        sker = read(ROOT, "examples", "softmax_npu", "kernel.py")
        step("load softmax", "load", lambda r: r["ok"], reference_source=sref, kernel_source=sker, workdir="sm")
        step("validate softmax", "validate", lambda r: r["ok"] and r["result"]["passed"])
        step("bench softmax", "bench", lambda r: r["ok"])
    except Exception:
        traceback.print_exc()
    finally:
        try:
            h.close()
        except Exception:
            pass
        json.dump(summary, open(os.path.join(a.out, "summary.json"), "w"), indent=1)
    bad = [s for s in summary if not s["ok"]]
    print(f"{len(summary) - len(bad)}/{len(summary)} steps as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
