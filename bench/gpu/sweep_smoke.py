"""GPU smoke test of the harness's `sweep` op: parallel precompile vs compiling in the
harness, on examples/vector_add (N = 2^24 fp32) with a block x warps grid of constructor
tunables. Prints one JSON document per configuration and a summary; no koptd involved.

    python3 bench/gpu/sweep_smoke.py --out DIR [--backend cuda]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "harness"))

from kharness.client import HarnessClient


def _read(path: str) -> str:
    with open(path) as f:
        return f.read()


def run(backend: str, precompile: bool, out: str) -> dict:
    wd = tempfile.mkdtemp(prefix="kopt-sweep-")
    env = dict(os.environ)
    env["TRITON_CACHE_DIR"] = os.path.join(wd, "cache")          # a cold cache each time
    h = HarnessClient(["--backend", backend, "--workdir", wd], env=env,
                      stderr_path=os.path.join(out, f"harness-{'pre' if precompile else 'serial'}.log"))
    ref = _read(os.path.join(ROOT, "examples/vector_add/ref.py"))
    ker = _read(os.path.join(ROOT, "examples/vector_add/kernel.py"))
    t0 = time.time()
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir="va", correctness_cases=2,
                  benchmark_cases=2)
    assert r["ok"], r
    cands = [{"id": f"b{b}w{w}", "source": ker, "tunables": {"BLOCK_SIZE": b, "num_warps": w}}
             for b in (256, 512, 1024, 2048, 4096, 8192) for w in (1, 2, 4, 8)]
    t1 = time.time()
    r = h.request("sweep", candidates=cands, precompile=precompile)
    t2 = time.time()
    assert r["ok"], r
    res = r["result"]
    best = res["order"][0] if res["order"] else None
    cmp = None
    if best:
        bc = next(c for c in res["candidates"] if c["id"] == best)
        cmp = h.request("compare", candidate_source=ker, candidate_tunables=bc["tunables"], adaptive=True)
    h.close()
    shutil.rmtree(wd, ignore_errors=True)
    return {"precompile": precompile, "load_s": round(t1 - t0, 2), "sweep_wall_s": round(t2 - t1, 2),
            "phases": res["phases"], "counts": res["counts"], "incumbent_ms": res["incumbent"]["time_ms"],
            "best": best, "order": res["order"][:6],
            "times": {c["id"]: c["time_ms"] for c in res["candidates"]},
            "compile": {c["id"]: c["compile"] for c in res["candidates"][:3]},
            "compare": {k: (cmp or {}).get("result", {}).get(k) for k in ("speedup", "noise", "rounds",
                                                                           "faster_beyond_noise")}}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--backend", default="cuda")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    res = [run(a.backend, True, a.out), run(a.backend, False, a.out)]
    with open(os.path.join(a.out, "sweep_smoke.json"), "w") as f:
        json.dump(res, f, indent=1)
    for r in res:
        print(json.dumps({k: r[k] for k in ("precompile", "load_s", "sweep_wall_s", "phases", "counts",
                                             "incumbent_ms", "best", "compare")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
