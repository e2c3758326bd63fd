"""`compile`: the kernel's @triton.jit functions compiled offline for a target (default
cuda:90), with the signature/constexprs recorded from a real launch of ModelNew.forward on
the first benchmark case. Outputs TTIR, TTGIR, LLIR, PTX, cubin, SASS (cuobjdump/nvdisasm)
and, with per_pass, the IR before every MLIR pass (MLIR_ENABLE_DUMP=1).

For an Ascend target ("ascend:<arch>", "npu:<arch>", and always on the ascend backend) the
compile is triton-ascend's, offline: kharness/compile_ascend.py."""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from typing import Any

from .protocol import HarnessError

HERE = os.path.dirname(os.path.abspath(__file__))
PASS_RE = re.compile(r"^// -----// IR Dump (Before|After) (\S+) \(([^)]*)\)(?: \('([^']*)' operation(?:: @(\S+))?\))?",
                     re.MULTILINE)


def find_tool(name) -> str | None:
    p = shutil.which(name)
    if p:
        return p
    try:
        import triton
        cand = os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)
        if os.access(cand, os.X_OK):
            return cand
    except Exception:  # noqa: S110, BLE001 -- best effort: triton may be absent or fail to import; the next places are tried
        pass
    for d in (os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if d and os.access(os.path.join(d, "bin", name), os.X_OK):
            return os.path.join(d, "bin", name)
    return None


def parse_pass_dump(text) -> list[dict[str, Any]]:
    """Pass names, in order, from an MLIR_ENABLE_DUMP=1 stderr capture, with byte offsets."""
    out: list[dict[str, Any]] = []
    for m in PASS_RE.finditer(text):
        out.append({"when": m.group(1).lower(), "pass": m.group(2), "flag": m.group(3),
                    "scope": m.group(4), "function": m.group(5), "offset": m.start()})
    return out


def parse_res_usage(text) -> dict[str, dict[str, int]]:
    """cuobjdump -res-usage: {function: {REG, STACK, SHARED, LOCAL, ...}}."""
    res: dict[str, dict[str, int]] = {}
    cur = None
    for line in text.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            cur = m.group(1)
            continue
        if cur and "REG:" in line:
            res[cur] = {k: int(v) for k, v in re.findall(r"(\w+(?:\[\d+\])?):(\d+)", line)}
            cur = None
    return res


def ptx_stats(ptx) -> dict[str, int]:
    """Counts that the L3 diagnosis uses: global loads/stores by width (cache qualifiers such
    as ``L1::evict_last`` or ``L2::cache_hint`` between ``global`` and the width included),
    shared memory ops, barriers, L2 cache policies made (``createpolicy``: eviction hints)."""
    st: dict[str, int] = {}
    for m in re.finditer(r"\b(ld|st)\.global(?:\.[A-Za-z0-9_:]+)*?(?:\.(v2|v4|v8))?\.(b|f|u|s)(8|16|32|64|128)\b", ptx):
        key = f"{m.group(1)}.global{'.' + m.group(2) if m.group(2) else ''}.{m.group(4)}"
        st[key] = st.get(key, 0) + 1
    st["ld.shared"] = len(re.findall(r"\bld\.shared", ptx))
    st["st.shared"] = len(re.findall(r"\bst\.shared", ptx))
    st["bar.sync"] = len(re.findall(r"\bbar\.sync|\bbarrier\.sync", ptx))
    st["mma"] = len(re.findall(r"\b(?:mma|wgmma)\.", ptx))
    st["cp.async"] = len(re.findall(r"\bcp\.async", ptx))
    st["createpolicy"] = len(re.findall(r"\bcreatepolicy\.", ptx))
    return st


def ops_by_source_line(mlir, source_file) -> dict[str, list[str]]:
    """{source line: [op names]} from an MLIR file with loc() info, for ops located in
    source_file (L3 attribution of IR ops to kernel source lines)."""
    locs: dict[str, int] = {}
    alias: dict[str, str] = {}
    base = os.path.basename(source_file) if source_file else None
    for m in re.finditer(r'^#(loc\d*) = loc\("([^"]+)":(\d+):(\d+)\)', mlir, re.MULTILINE):
        if base is None or os.path.basename(m.group(2)) == base:
            locs[m.group(1)] = int(m.group(3))
    for m in re.finditer(r'^#(loc\d*) = loc\("[^"]*"\(#(loc\d*)\)\)', mlir, re.MULTILINE):
        alias[m.group(1)] = m.group(2)
    for a in list(alias):
        seen, cur = 0, a
        while cur in alias and seen < 16:
            cur = alias[cur]
            seen += 1
        if cur in locs:
            locs[a] = locs[cur]
    res: dict[int, list[str]] = {}
    for m in re.finditer(r'^\s*(?:%[\w#:, ]+ = )?"?([a-z_]+\.[a-z_.]+)"?.*loc\(#(loc\d*)\)\s*$', mlir, re.MULTILINE):
        line = locs.get(m.group(2))
        if line is not None:
            res.setdefault(line, []).append(m.group(1))
    return {str(k): v for k, v in sorted(res.items())}


def _file_entry(path) -> dict[str, Any] | None:
    return {"path": path, "bytes": os.path.getsize(path)} if path and os.path.exists(path) else None


def compile_op(worker, req) -> dict[str, Any]:
    from .usercode import UserCodeFailure
    p = worker._need_problem()
    target = req.get("target", "cuda:90")
    if not isinstance(target, str):
        raise HarnessError("bad-request", 'target must be a string such as "cuda:90"')
    per_pass = bool(req.get("per_pass", False))
    csrc = req.get("candidate_source")
    who = "candidate" if csrc is not None and csrc != p.kernel_src else "initial kernel"
    timeout = min(float(req.get("compile_timeout_s", 300)), float(req.get("timeout_s") or 600) - 15)
    try:
        mod, _src, path = worker._import_kernel(csrc, who)
    except UserCodeFailure as e:
        raise worker._fail(e)
    if worker.backend == "ascend" or target.startswith(("ascend", "npu")):
        from .compile_ascend import compile_ascend
        return compile_ascend(worker, req, mod, path, who, target if target.startswith(("ascend", "npu")) else "ascend",
                              per_pass, timeout)
    kernels, probe_case = worker.probe_launches(mod, who, req)
    if not kernels:
        raise HarnessError("compile-failed", f"{who}'s forward launched no Triton kernel on case {probe_case}")
    stamp = time.strftime("%Y%m%dT%H%M%S")
    base_dir = os.path.join(p.jobdir, "compile", f"{os.path.splitext(os.path.basename(path))[0]}_{target.replace(':', '')}_{stamp}")
    os.makedirs(base_dir, exist_ok=True)
    results = []
    for kinfo in kernels:
        name = kinfo["kernel"]
        mfile = kinfo.get("module_file") or path
        kdir = os.path.join(base_dir, name)
        os.makedirs(kdir, exist_ok=True)
        spec = {"module_path": mfile, "kernel": name, "args": kinfo["last"]["args"], "kwargs": kinfo["last"]["kwargs"],
                "target": target, "out_dir": kdir, "harness_dir": os.path.dirname(HERE)}
        spec_path = os.path.join(kdir, "spec.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        env = dict(os.environ)
        env.pop("TRITON_INTERPRET", None)
        env["TRITON_CACHE_DIR"] = os.path.join(kdir, "cache")
        env["TRITON_ALWAYS_COMPILE"] = "1"
        if per_pass:
            env["MLIR_ENABLE_DUMP"] = "1"
        passes_path = os.path.join(kdir, "passes.mlir") if per_pass else os.path.join(kdir, "compile.log")
        t0 = time.time()
        try:
            with open(passes_path, "w") as errf:
                r = subprocess.run([sys.executable, os.path.join(HERE, "drivers", "compile_driver.py"), spec_path],
                                   stdout=subprocess.PIPE, stderr=errf, env=env, timeout=timeout, text=True,
                                   cwd=kdir, check=False)
        except subprocess.TimeoutExpired:
            raise HarnessError("timeout", f"compiling {name} for {target} did not finish within {timeout:g} s")
        lines = [l for l in r.stdout.splitlines() if l.startswith("{")]
        info: dict[str, Any] = json.loads(lines[-1]) if lines else {"ok": False, "error": f"compile driver exited {r.returncode}"}
        entry = {"kernel": name, "launches": kinfo["launches"], "args": kinfo["last"]["args"],
                 "kwargs": kinfo["last"]["kwargs"], "grid": kinfo["last"].get("grid"),
                 "compile_s": round(time.time() - t0, 3)}
        if not info.get("ok"):
            with open(passes_path, errors="replace") as lf:
                tail = lf.read()[-3000:]
            entry["error"] = info.get("error")
            entry["log"] = _file_entry(passes_path)
            raise HarnessError("compile-failed", f"compiling {name} for {target} failed: {info.get('error')}",
                               detail=tail)
        files = {ext: _file_entry(pth) for ext, pth in info["files"].items()}
        entry.update({"signature": info["signature"], "constexprs": info["constexprs"], "attrs": info["attrs"],
                      "metadata": info["metadata"]})
        cubin = info["files"].get("cubin")
        if cubin:
            cuobjdump = find_tool("cuobjdump")
            nvdisasm = find_tool("nvdisasm")
            sass_path = os.path.join(kdir, f"{name}.sass")
            sass_ok = False
            if cuobjdump:
                s = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True, timeout=120,
                                   check=False)
                if s.returncode == 0 and s.stdout.strip():
                    with open(sass_path, "w") as sf:
                        sf.write(s.stdout)
                    sass_ok = True
                    entry["sass_tool"] = cuobjdump
                ru = subprocess.run([cuobjdump, "-res-usage", cubin], capture_output=True, text=True, timeout=60,
                                    check=False)
                if ru.returncode == 0:
                    entry["resource_usage"] = parse_res_usage(ru.stdout)
            if not sass_ok and nvdisasm:
                s = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, timeout=120,
                                   check=False)
                if s.returncode == 0 and s.stdout.strip():
                    with open(sass_path, "w") as sf:
                        sf.write(s.stdout)
                    sass_ok = True
                    entry["sass_tool"] = nvdisasm
            if sass_ok:
                files["sass"] = _file_entry(sass_path)
            else:
                entry["sass_unavailable"] = "neither cuobjdump nor nvdisasm found (PATH, triton's bundled bin, CUDA_HOME)"
        if "ptx" in info["files"]:
            with open(info["files"]["ptx"]) as pf:
                entry["ptx_stats"] = ptx_stats(pf.read())
        if "ttgir" in info["files"]:
            with open(info["files"]["ttgir"]) as gf:
                entry["ttgir_ops_by_source_line"] = ops_by_source_line(gf.read(), mfile)
        if per_pass:
            with open(passes_path, errors="replace") as lf:
                text = lf.read()
            passes = parse_pass_dump(text)
            files["passes"] = _file_entry(passes_path)
            entry["passes"] = passes
            entry["pass_count"] = len(passes)
            entry["distinct_passes"] = sorted({x["pass"] for x in passes})
        else:
            files["log"] = _file_entry(passes_path)
        entry["files"] = files
        results.append(entry)
    return {"target": target, "who": who, "probe_case": probe_case, "dir": base_dir, "per_pass": per_pass,
            "kernels": results}
