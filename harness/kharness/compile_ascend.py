"""`compile` for an Ascend NPU target: triton-ascend's compiler front half, offline, on any
machine (no NPU, no CANN). The kernels and their arguments come from the same launch probe as
the cuda path; each kernel compiles in a child process under the Python of the Ascend
virtualenv (drivers/ascend_compile.py), which writes the TTIR, the adapter IR (ttadapter) and,
with per_pass, the IR before each TTIR pass and around each adapter pass. The last stage,
bishengir-compile, needs CANN; without it the compile stops there, as expected, and what was
produced is the IR evidence (docs/ASCEND.md).

Which Python: $KOPT_ASCEND_PYTHON (the sandbox launcher sets it to the bound copy of
.venv-ascend), else this process's own when its triton is triton-ascend (an NPU host, where
the same compile then runs bishengir-compile too), else <repo>/.venv-ascend/bin/python
(scripts/deps.sh)."""
import json
import os
import re
import subprocess
import sys
import time
from typing import Any

from .compile import HERE, _file_entry, ops_by_source_line, parse_pass_dump
from .protocol import HarnessError

DEFAULT_ARCH = "Ascend910B3"
ARCH_RE = re.compile(r"^Ascend[0-9A-Za-z_]{1,32}$")
REPO = os.path.dirname(os.path.dirname(HERE))
FILE_KINDS = ("ttir", "ttadapter", "passes", "ttir_passes", "npuir")


def ascend_target(target: str) -> str:
    """"ascend", "ascend:910B3", "npu:Ascend910B3" -> "npu:Ascend910B3" (KOPT_ASCEND_ARCH is the
    default architecture)."""
    kind, _, arch = target.partition(":")
    if kind not in ("ascend", "npu"):
        raise HarnessError("bad-request", f'target {target!r} is not an Ascend target ("ascend:<arch>", "npu:<arch>")')
    arch = arch or os.environ.get("KOPT_ASCEND_ARCH") or DEFAULT_ARCH
    if not arch.startswith("Ascend"):
        arch = "Ascend" + arch
    if not ARCH_RE.match(arch):
        raise HarnessError("bad-request", f"Ascend architecture {arch!r} must look like Ascend910B3")
    return f"npu:{arch}"


def _has_ascend_triton() -> bool:
    try:
        from triton.backends import backends
    except ImportError:
        return False
    return "ascend" in backends


def ascend_python() -> str:
    """The interpreter that runs triton-ascend, or HarnessError saying how to get one."""
    env = os.environ.get("KOPT_ASCEND_PYTHON")
    if env:
        if not os.access(env, os.X_OK):
            raise HarnessError("compile-failed", f"KOPT_ASCEND_PYTHON={env} is not an executable")
        return env
    if _has_ascend_triton():  # an NPU host: the harness's own triton is triton-ascend
        return sys.executable
    cand = os.path.join(REPO, ".venv-ascend", "bin", "python")
    if os.access(cand, os.X_OK):
        return cand
    raise HarnessError("compile-failed", "no Ascend compiler: scripts/deps.sh builds the triton-ascend virtualenv "
                       "(.venv-ascend), or set KOPT_ASCEND_PYTHON to a Python that has triton-ascend")


def _torch_path() -> str | None:
    """The directory holding the torch package this harness runs (the driver borrows it)."""
    try:
        import torch
    except ImportError:
        return None
    return os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))


def _run_driver(python: str, spec_path: str, kdir: str, per_pass: bool, timeout: float,
                name: str, target: str) -> dict[str, Any]:
    env = dict(os.environ)
    env.pop("TRITON_INTERPRET", None)
    env.update({"TRITON_CACHE_DIR": os.path.join(kdir, "cache"), "TRITON_ALWAYS_COMPILE": "1",
                "TRITON_DISABLE_LINE_INFO": "0"})
    if per_pass:
        env["MLIR_ENABLE_DUMP"] = "1"
    else:
        env.pop("MLIR_ENABLE_DUMP", None)
    log_path = os.path.join(kdir, "compile.log")
    try:
        with open(log_path, "w") as errf:
            r = subprocess.run([python, os.path.join(HERE, "drivers", "ascend_compile.py"), spec_path],
                               check=False, stdout=subprocess.PIPE, stderr=errf, env=env, timeout=timeout, text=True,
                               cwd=kdir)
    except subprocess.TimeoutExpired:
        raise HarnessError("timeout", f"compiling {name} for {target} did not finish within {timeout:g} s")
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("{")]
    info: dict[str, Any] = json.loads(lines[-1]) if lines else {"ok": False,
                                                                "error": f"ascend compile driver exited {r.returncode}"}
    if not info.get("ok"):
        tail = ""
        for logf in (os.path.join(kdir, f"{name}.driver.log"), log_path):
            if not tail and os.path.exists(logf):
                with open(logf, errors="replace") as f:
                    tail = f.read()[-3000:]
        raise HarnessError("compile-failed", f"compiling {name} for {target} failed: {info.get('error')}",
                           detail=tail)
    return info


def compile_ascend(worker: Any, req: dict[str, Any], mod: Any, path: str, who: str, target: str,
                   per_pass: bool, timeout: float) -> dict[str, Any]:
    target = ascend_target(target)
    python = ascend_python()
    p = worker.problem
    kernels, probe_case = worker.probe_launches(mod, who, req)
    if not kernels:
        raise HarnessError("compile-failed", f"{who}'s forward launched no Triton kernel on case {probe_case}")
    stamp = time.strftime("%Y%m%dT%H%M%S")
    stem = os.path.splitext(os.path.basename(path))[0]
    base_dir = os.path.join(p.jobdir, "compile", f"{stem}_{target.replace(':', '_')}_{stamp}")
    os.makedirs(base_dir, exist_ok=True)
    torch_path = None if python == sys.executable else _torch_path()
    results = []
    triton_version = None
    for kinfo in kernels:
        name = kinfo["kernel"]
        mfile = kinfo.get("module_file") or path
        kdir = os.path.join(base_dir, name)
        os.makedirs(kdir, exist_ok=True)
        spec = {"module_path": mfile, "kernel": name, "args": kinfo["last"]["args"], "kwargs": kinfo["last"]["kwargs"],
                "target": target, "out_dir": kdir, "harness_dir": os.path.dirname(HERE), "torch_path": torch_path,
                "per_pass": per_pass}
        spec_path = os.path.join(kdir, "spec.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f)
        t0 = time.time()
        info = _run_driver(python, spec_path, kdir, per_pass, timeout, name, target)
        triton_version = info.get("triton")
        files = {k: _file_entry(info["files"][k]) for k in FILE_KINDS if info["files"].get(k)}
        entry: dict[str, Any] = {
            "kernel": name, "launches": kinfo["launches"], "args": kinfo["last"]["args"],
            "kwargs": kinfo["last"]["kwargs"], "grid": kinfo["last"].get("grid"),
            "compile_s": round(time.time() - t0, 3), "signature": info.get("signature"),
            "constexprs": info.get("constexprs"), "metadata": info.get("metadata"), "stages": info.get("stages"),
            "stopped_at": info.get("stopped_at"), "stop_reason": info.get("stop_reason"),
            "adapter_cmd": info.get("adapter_cmd"), "notes": info.get("notes"), "files": files}
        with open(info["files"]["ttadapter"], errors="replace") as f:
            entry["ttadapter_ops_by_source_line"] = ops_by_source_line(f.read(), mfile)
        pass_file = files.get("passes")
        if per_pass and pass_file:
            with open(pass_file["path"], errors="replace") as f:
                passes = parse_pass_dump(f.read())
            entry["passes"] = passes
            entry["pass_count"] = len(passes)
            entry["distinct_passes"] = sorted({x["pass"] for x in passes})
        ttir_pass_file = files.get("ttir_passes")
        if per_pass and ttir_pass_file:
            with open(ttir_pass_file["path"], errors="replace") as f:
                entry["ttir_pass_count"] = len(parse_pass_dump(f.read()))
        results.append(entry)
    return {"target": target, "ir": "ascend", "who": who, "probe_case": probe_case, "dir": base_dir,
            "per_pass": per_pass, "kernels": results,
            "compiler": {"triton_ascend": triton_version, "python": python},
            "note": "triton-ascend compiled offline: TTIR and adapter IR are real compiler output; the last stage "
                    "(bishengir-compile, HIVM) runs only where CANN is installed"}
