#!/usr/bin/env python3
"""Compiles the kernels of ir_kernels.py offline for cuda:90 (no GPU needed) and writes the
L3/L4 fixtures that tests/unit/test_ir.c and tests/harness/test_ir_fixtures.py read:

    tests/unit/data/ir/<fixture>/kernel.ttgir   TTGIR as triton.compile returns it
    tests/unit/data/ir/<fixture>/kernel.ptx     PTX
    tests/unit/data/ir/<fixture>/kernel.sass    cuobjdump -sass of the cubin (when cuobjdump is found)
    tests/unit/data/ir/<fixture>/passes.mlir    MLIR_ENABLE_DUMP=1 stderr: the IR before every pass
    tests/unit/data/ir/<fixture>/meta.json      options, versions, and the source lines marked `# @name`

Run with the project venv:  .venv/bin/python tests/ir/gen_fixtures.py [--out DIR] [--only a,b]
Each kernel compiles in a child process (MLIR prints its dumps on fd 2, so the child's stderr
is the dump). To keep the committed fixtures small, the dumps of the three larger kernels stop
at the IR before ConvertTritonGPUToLLVM (the LLVM-dialect dumps after it are ~2 MB each for the
matmul); the file says so in its first line. The compile is the same one
harness/kharness/compile.py runs (ASTSource + GPUTarget("cuda", 90, 32))."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
KERNELS = os.path.join(HERE, "ir_kernels.py")
DEFAULT_OUT = os.path.join(ROOT, "tests", "unit", "data", "ir")
D16 = [["tt.divisibility", 16]]
MM_SIG = {"A": "*fp16", "B": "*fp16", "C": "*fp16", "M": "i32", "N": "i32", "K": "i32",
          "sam": "i32", "sbk": "i32", "scm": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"}
SCATTER_SIG = {"ids": "*i64", "src": "*fp32", "out": "*fp32", "dim": "i32", "BLOCK": "constexpr",
               "RELAXED": "constexpr"}

# fixture -> (kernel, signature, constexprs, divisible-by-16 argument indices, options,
#             keep per-pass dump, trim the dump after ConvertTritonGPUToLLVM's input)
FIXTURES = {
    "copy_scalar": ("copy_scalar", {"X": "*fp32", "Y": "*fp32", "n": "i32", "stride": "i32", "BLOCK": "constexpr"},
                    {"BLOCK": 1024}, (0, 1), {"num_warps": 4}, True, False),
    "copy_vec": ("copy_vec", {"X": "*fp32", "Y": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                 {"BLOCK": 1024}, (0, 1, 2), {"num_warps": 4}, True, False),
    "row_sum": ("row_sum", {"X": "*fp32", "Y": "*fp32", "M": "i32", "N": "i32", "BM": "constexpr", "BN": "constexpr"},
                {"BM": 4, "BN": 256}, (0, 1), {"num_warps": 4}, True, True),
    "mm_pipelined": ("matmul", MM_SIG, {"BM": 64, "BN": 64, "BK": 32}, tuple(range(9)),
                     {"num_warps": 4, "num_stages": 3}, True, True),
    "mm_nopipe": ("matmul", MM_SIG, {"BM": 64, "BN": 64, "BK": 32}, tuple(range(9)),
                  {"num_warps": 4, "num_stages": 1}, True, True),
    "scalar_loop": ("scalar_loop", {"X": "*fp32", "Y": "*fp32", "n": "i32"}, {}, (0, 1), {"num_warps": 1},
                    False, False),
    "scatter_acq_rel": ("scatter_add", SCATTER_SIG, {"BLOCK": 1024, "RELAXED": False}, (0, 1, 2),
                        {"num_warps": 8}, False, False),
    "scatter_relaxed": ("scatter_add", SCATTER_SIG, {"BLOCK": 1024, "RELAXED": True}, (0, 1, 2),
                        {"num_warps": 8}, False, False),
}
TRIM_AT = "// -----// IR Dump Before ConvertTritonGPUToLLVM "
HEADER = "// -----// IR Dump "


def find_tool(name):
    p = shutil.which(name)
    if p:
        return p
    try:
        import triton
        cand = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
        if os.access(cand, os.X_OK):
            return cand
    except Exception:
        pass
    return None


def kernel_lines(path, kernel):
    """The markers inside one @triton.jit function (markers are unique per function)."""
    lines = open(path).read().split("\n")
    start = None
    for i, line in enumerate(lines):
        if re.match(rf"def {kernel}\(", line):
            start = i
            break
    if start is None:
        raise LookupError(f"no def {kernel} in {path}")
    out = {"def": start + 1}
    for j in range(start + 1, len(lines)):
        if lines[j].startswith("def ") or lines[j].startswith("@triton.jit"):
            break
        m = re.search(r"#\s*@(\w+)\s*$", lines[j])
        if m:
            out[m.group(1)] = j + 1
    return out


def child(fixture, out_dir):
    """Runs in the child process: compile one fixture, write its files, print one JSON line."""
    os.environ.pop("TRITON_INTERPRET", None)
    import importlib.util
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    kernel, sig, cx, div, opts, _, _ = FIXTURES[fixture]
    spec = importlib.util.spec_from_file_location("ir_kernels", KERNELS)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    fn = getattr(mod, kernel)
    attrs = {(i,): D16 for i in div}
    k = triton.compile(ASTSource(fn, sig, cx, attrs), target=GPUTarget("cuda", 90, 32), options=dict(opts))
    os.makedirs(out_dir, exist_ok=True)
    for ext in ("ttgir", "ptx"):
        with open(os.path.join(out_dir, f"kernel.{ext}"), "w") as f:
            f.write(k.asm[ext])
    sass_tool = find_tool("cuobjdump")
    if sass_tool:
        with tempfile.TemporaryDirectory() as td:
            cub = os.path.join(td, "kernel.cubin")
            with open(cub, "wb") as f:
                f.write(k.asm["cubin"])
            r = subprocess.run([sass_tool, "-sass", cub], capture_output=True, text=True, timeout=120)
            if r.returncode == 0 and r.stdout.strip():
                with open(os.path.join(out_dir, "kernel.sass"), "w") as f:
                    f.write(r.stdout)
            else:
                sass_tool = None
    md = {}
    for key in ("name", "num_warps", "num_stages", "shared", "arch", "ptx_version"):
        v = getattr(k.metadata, key, None)
        if v is not None:
            md[key] = v if isinstance(v, (int, float, str, bool)) else str(v)
    meta = {"fixture": fixture, "kernel": kernel, "target": "cuda:90", "triton": triton.__version__,
            "source": os.path.relpath(KERNELS, ROOT), "signature": sig, "constexprs": cx,
            "divisible_by_16": list(div), "options": opts, "metadata": md,
            "lines": kernel_lines(KERNELS, kernel), "sass_tool": os.path.basename(sass_tool) if sass_tool else None}
    sys.stdout.write(json.dumps(meta) + "\n")


def trim_dump(text):
    """Cuts the dump after the IR printed before ConvertTritonGPUToLLVM (the last TTGIR-level
    snapshot); returns (text, number of dumps removed)."""
    i = text.find(TRIM_AT)
    if i < 0:
        return text, 0
    j = text.find(HEADER, i + len(TRIM_AT))
    if j < 0:
        return text, 0
    removed = text.count(HEADER, j) - text.count("// -----// SoftwarePipeliner internal", j)
    note = (f"// kopt fixture: trimmed after the IR before ConvertTritonGPUToLLVM; {removed} later LLVM-dialect "
            f"dumps ({len(text) - j} bytes) removed to keep the fixture small\n")
    return note + text[:j], removed


def generate(fixture, out_root):
    kernel, sig, cx, div, opts, per_pass, trim = FIXTURES[fixture]
    out_dir = os.path.join(out_root, fixture)
    if os.path.isdir(out_dir):
        for fname in ("kernel.ttgir", "kernel.ptx", "kernel.sass", "passes.mlir", "meta.json"):
            p = os.path.join(out_dir, fname)
            if os.path.exists(p):
                os.unlink(p)
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    env["MLIR_ENABLE_DUMP"] = "1"
    env["TRITON_ALWAYS_COMPILE"] = "1"
    with tempfile.TemporaryDirectory() as cache:
        env["TRITON_CACHE_DIR"] = cache
        r = subprocess.run([sys.executable, os.path.abspath(__file__), "--child", fixture, "--out", out_dir],
                           capture_output=True, text=True, env=env, timeout=600)
    lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
    if r.returncode != 0 or not lines:
        raise RuntimeError(f"compiling {fixture} failed (exit {r.returncode}):\n{r.stderr[-4000:]}")
    meta = json.loads(lines[-1])
    meta["pass_dumps"] = None
    meta["passes_trimmed"] = False
    if per_pass:
        text = r.stderr
        if "IR Dump Before" not in text:
            raise RuntimeError(f"{fixture}: MLIR_ENABLE_DUMP=1 printed no pass dumps")
        removed = 0
        if trim:
            text, removed = trim_dump(text)
            meta["passes_trimmed"] = removed > 0
            meta["passes_removed"] = removed
        with open(os.path.join(out_dir, "passes.mlir"), "w") as f:
            f.write(text)
        meta["pass_dumps"] = len(re.findall(r"^// -----// IR Dump (?:Before|After) ", text, re.M))
    with open(os.path.join(out_dir, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")
    return meta


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--only", default="")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child, a.out)
        return
    names = [n for n in a.only.split(",") if n] or list(FIXTURES)
    total = 0
    for n in names:
        if n not in FIXTURES:
            sys.exit(f"unknown fixture {n!r}; known: {', '.join(FIXTURES)}")
        meta = generate(n, a.out)
        d = os.path.join(a.out, n)
        size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
        total += size
        print(f"{n}: {size} bytes, {meta['pass_dumps']} pass dumps, triton {meta['triton']}")
    print(f"total {total} bytes in {a.out}")


if __name__ == "__main__":
    main()
