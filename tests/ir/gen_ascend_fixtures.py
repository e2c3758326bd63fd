#!/usr/bin/env python3
"""Compiles the kernels of ascend_kernels.py offline for Ascend910B3 with the pinned
triton-ascend (the .venv-ascend virtualenv that scripts/deps.sh builds; no NPU, no CANN) and
writes the L3/L4 fixtures that tests/unit/test_ir_ascend.c and
tests/harness/test_ascend_fixtures.py read:

    tests/unit/data/ir/ascend_<fixture>/kernel.ttir       TTIR: the input of the adapter pipeline
    tests/unit/data/ir/ascend_<fixture>/kernel.ttadapter  adapter IR (linalg/memref/scf + hivm attributes)
    tests/unit/data/ir/ascend_<fixture>/passes.mlir       the adapter pipeline rerun with IR printing
                                                          before and after every pass
    tests/unit/data/ir/ascend_<fixture>/meta.json         arguments, versions, the adapter command, the
                                                          stage the compile stopped at, and the source
                                                          lines marked `# @name`

Run from the repository root with the project venv (it lends torch to the compile driver):
    .venv/bin/python tests/ir/gen_ascend_fixtures.py [--out DIR] [--only a,b]
The compile is the one the harness runs for an Ascend target: the same driver
(harness/kharness/drivers/ascend_compile.py), the same binder and options, stopped by the
missing CANN at bishengir-compile. Locations in the written IR name the kernel file relative
to the repository root (`tests/ir/ascend_kernels.py`), so the fixtures do not depend on the
checkout's path."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS_REL = os.path.join("tests", "ir", "ascend_kernels.py")
DEFAULT_OUT = os.path.join(ROOT, "tests", "unit", "data", "ir")
DRIVER = os.path.join(ROOT, "harness", "kharness", "drivers", "ascend_compile.py")
TARGET = "npu:Ascend910B3"
TIMEOUT_S = 300
sys.path.insert(0, HERE)
# the same `# @name` convention as the cuda fixtures
from gen_fixtures import kernel_lines


def t(dtype: str) -> dict[str, Any]:
    return {"kind": "tensor", "dtype": dtype, "align16": True}


def i(v: int) -> dict[str, Any]:
    return {"kind": "int", "value": v}


F32 = t("float32")
# fixture -> (kernel, positional argument descriptors, keyword arguments)
FIXTURES: dict[str, tuple[str, list[dict[str, Any]], dict[str, dict[str, Any]]]] = {
    "vector_add": ("vector_add", [F32, F32, F32, i(100000)], {"BLOCK": i(1024)}),
    "gather": ("gather", [F32, t("int32"), F32, i(100000)], {"BLOCK": i(256)}),
    "row_sum": ("row_sum", [F32, F32, i(1000), i(200), i(200)], {"BM": i(4), "BN": i(256)}),
    "dot_tile": ("dot_tile", [t("float16"), t("float16"), F32], {"BM": i(32), "BN": i(32), "BK": i(32)}),
    "branch": ("branch", [F32, t("int32"), F32, i(100000)], {"BLOCK": i(1024)}),
    "even_mask": ("even_mask", [F32, F32, i(100000)], {"BLOCK": i(256)}),
}
FILES = {"ttir": "kernel.ttir", "ttadapter": "kernel.ttadapter", "passes": "passes.mlir"}


def ascend_python() -> str:
    py = os.environ.get("KOPT_ASCEND_PYTHON") or os.path.join(ROOT, ".venv-ascend", "bin", "python")
    if not os.access(py, os.X_OK):
        sys.exit(f"no triton-ascend python at {py}: run scripts/deps.sh (it builds .venv-ascend)")
    return py


def generate(fixture: str, out_root: str, python: str) -> dict[str, Any]:
    import torch
    kernel, args, kwargs = FIXTURES[fixture]
    out_dir = os.path.join(out_root, f"ascend_{fixture}")
    os.makedirs(out_dir, exist_ok=True)
    for fname in (*FILES.values(), "meta.json"):
        p = os.path.join(out_dir, fname)
        if os.path.exists(p):
            os.unlink(p)
    with tempfile.TemporaryDirectory() as td:
        spec: dict[str, Any] = {"module_path": KERNELS_REL, "kernel": kernel, "args": args, "kwargs": kwargs, "target": TARGET,
                "out_dir": os.path.join(td, "out"), "harness_dir": os.path.join(ROOT, "harness"),
                "torch_path": os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))), "per_pass": True}
        spec_path = os.path.join(td, "spec.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        env = dict(os.environ)
        env.pop("TRITON_INTERPRET", None)
        env.update({"TRITON_CACHE_DIR": os.path.join(td, "cache"), "TRITON_ALWAYS_COMPILE": "1",
                    "TRITON_DISABLE_LINE_INFO": "0", "MLIR_ENABLE_DUMP": "1", "HOME": td})
        r = subprocess.run([python, DRIVER, spec_path], capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=TIMEOUT_S, check=False)
        lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
        info: dict[str, Any] = json.loads(lines[-1]) if lines else {"ok": False,
                                                                    "error": f"driver exited {r.returncode}"}
        if not info.get("ok"):
            log = os.path.join(str(spec["out_dir"]), f"{kernel}.driver.log")
            tail = r.stderr[-3000:]
            if os.path.exists(log):
                with open(log) as f:
                    tail = f.read()[-3000:]
            raise RuntimeError(f"compiling {fixture} failed: {info.get('error')}\n{tail}")
        for kind, fname in FILES.items():
            # Locations name the kernel file relative to the repository root on every machine.
            with open(info["files"][kind]) as f, open(os.path.join(out_dir, fname), "w") as g:
                g.write(f.read().replace(f'loc("{ROOT}/', 'loc("'))
    with open(os.path.join(out_dir, "passes.mlir")) as f:
        dumps = sum(1 for ln in f if ln.startswith("// -----// IR Dump "))
    meta = {"fixture": fixture, "kernel": kernel, "target": TARGET, "triton": info["triton"],
            "source": KERNELS_REL, "args": args, "kwargs": kwargs, "signature": info["signature"],
            "constexprs": info["constexprs"], "adapter_cmd": info["adapter_cmd"], "stages": info["stages"],
            "stopped_at": info["stopped_at"], "stop_reason": info["stop_reason"], "metadata": info["metadata"],
            "lines": kernel_lines(os.path.join(ROOT, KERNELS_REL), kernel), "pass_dumps": dumps}
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    return meta


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    python = ascend_python()
    names = [n for n in a.only.split(",") if n] or list(FIXTURES)
    total = 0
    for n in names:
        if n not in FIXTURES:
            sys.exit(f"unknown fixture {n!r}; known: {', '.join(FIXTURES)}")
        meta = generate(n, a.out, python)
        d = os.path.join(a.out, f"ascend_{n}")
        size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
        total += size
        print(f"ascend_{n}: {size} bytes, {meta['pass_dumps']} pass dumps, triton-ascend {meta['triton']}, "
              f"stopped at {meta['stopped_at']}")
    print(f"total {total} bytes in {a.out}")


if __name__ == "__main__":
    main()
