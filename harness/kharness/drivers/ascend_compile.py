"""Offline compile of one @triton.jit kernel for an Ascend NPU with triton-ascend, in its own
process under the Python of the Ascend virtualenv (.venv-ascend: triton-ascend installs a
package named `triton`, so it cannot share a process with upstream Triton).

    python ascend_compile.py spec.json

spec: {"module_path", "kernel", "args": [descriptors], "kwargs": {name: descriptor},
       "target": "npu:Ascend910B3", "out_dir", "harness_dir",
       "torch_path": directory that holds the `torch` package (the user's module imports torch;
                     the Ascend virtualenv has none of its own), or null,
       "per_pass": bool}

The compile is the one JITFunction.run makes on a device (same binder, specialization and
options), with triton.compile(..., target=GPUTarget("npu", arch, 0)):

    make_ttir (TTIR passes)  ->  ttir_to_linalg (triton-adapter-opt)  ->  bishengir-compile

Without CANN the last stage stops ("ASCEND_HOME_PATH is not set"): that is expected here, and
what the first two stages produced is kept. The driver observes the backend in two places,
because triton-ascend offers no hook for either (both wrappers only record, they change
nothing the compiler does):
  * subprocess.run: the exact triton-adapter-opt command (input TTIR, pass list with the
    options the backend chose, output path), so the adapter's input and output are copied
    before the backend's temporary directory disappears and the pipeline can be rerun with
    --mlir-print-ir-after-all;
  * make_ttir: with per_pass (MLIR_ENABLE_DUMP=1 set by the caller), file descriptor 2 is
    pointed at <kernel>.ttir_passes.mlir while the TTIR passes run, so that file holds only
    MLIR's `IR Dump Before` snapshots.

Writes into out_dir: <kernel>.ttir (the adapter's input), <kernel>.ttadapter (its output),
<kernel>.passes.mlir (the adapter pipeline rerun with IR printing before and after every
pass), <kernel>.ttir_passes.mlir, <kernel>.npuir.mlir (HIVM IR after
hivm-inject-sync, only where bishengir-compile exists), <kernel>.json; prints one JSON line."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from typing import Self

ADAPTER_TOOL = "triton-adapter-opt"
ADAPTER_TIMEOUT_S = 300
BISHENG_TIMEOUT_S = 600


class _Recorder:
    """Wraps subprocess.run to copy the adapter's input and output when the backend runs it."""

    def __init__(self, out_dir, kernel) -> None:
        self.out_dir, self.kernel = out_dir, kernel
        self.cmd: list[str] | None = None
        self.ttir: str | None = None
        self.ttadapter: str | None = None
        self.error: str | None = None
        self._real = subprocess.run

    def __call__(self, cmd, *args, **kwargs) -> subprocess.CompletedProcess[Any]:
        adapter = isinstance(cmd, (list, tuple)) and cmd and os.path.basename(str(cmd[0])) == ADAPTER_TOOL
        if adapter:
            self.cmd = [str(c) for c in cmd]
            self.ttir = os.path.join(self.out_dir, f"{self.kernel}.ttir")
            shutil.copyfile(self.cmd[1], self.ttir)
        try:
            r = self._real(cmd, *args, **kwargs)
        except subprocess.CalledProcessError as e:
            if adapter:
                err = e.stderr.decode("utf-8", "replace") if isinstance(e.stderr, bytes) else str(e.stderr or "")
                self.error = err.split("Stack dump without symbol names")[0][-4000:]
            raise
        if adapter and self.cmd is not None and "-o" in self.cmd:   # adapter: self.cmd was set above
            dst = self.cmd[self.cmd.index("-o") + 1]
            if os.path.exists(dst):
                self.ttadapter = os.path.join(self.out_dir, f"{self.kernel}.ttadapter")
                shutil.copyfile(dst, self.ttadapter)
        return r


class _Fd2To:
    """Points file descriptor 2 (where MLIR prints its pass dumps) at a file for a while."""

    def __init__(self, path) -> None:
        self.path = path

    def __enter__(self) -> Self:
        sys.stderr.flush()
        self.saved = os.dup(2)
        self.f = open(self.path, "w")
        os.dup2(self.f.fileno(), 2)
        return self

    def __exit__(self, *exc) -> Literal[False]:
        os.dup2(self.saved, 2)
        os.close(self.saved)
        self.f.close()
        return False


def parse_target(s) -> str:
    kind, _, arch = s.partition(":")
    if kind not in ("npu", "ascend"):
        raise ValueError(f"unsupported Ascend target {s!r} (npu:<arch>, e.g. npu:Ascend910B3)")
    return arch or "Ascend910B3"


def bind(jit, args, kwargs, backend) -> tuple[dict[str, str], dict[str, Any], Any, Any]:
    """(signature, constants, attrs, options) exactly as triton-ascend's JITFunction.run
    builds them for a launch with these arguments (triton 3.2 binder)."""
    from triton.runtime.jit import create_function_from_signature
    binder = create_function_from_signature(jit.signature, jit.params, backend)
    bound_args, sig_and_spec, _, _, excess = binder(*args, **kwargs)
    options = backend.parse_options(kwargs)
    for k in excess:
        if k not in options.__dict__:
            raise KeyError(f"keyword argument {k} is neither a kernel parameter nor a compile option")
    bound_vals = tuple(bound_args.values())
    sigkeys = [jit.params[i].name for i in range(len(jit.params)) if not jit.params[i].is_constexpr]
    sigvals = sig_and_spec[:len(sigkeys)]
    signature = {k: ("*i8" if v == "none" else v) for k, v in zip(sigkeys, sigvals)}
    attrs = backend.get_attrs_descriptor(jit.params, bound_vals)
    cparams = attrs.get_constants()
    constants = {p.name: v for v, p in zip(bound_vals, jit.params)
                 if p.is_constexpr or p.num in cparams or v is None}
    return signature, constants, attrs, options


def rerun_adapter(cmd, ttir, out_path) -> str | None:
    """The recorded pipeline on the same input with IR printing before and after every pass
    (whole module, without locations to keep it small): the Before/After pairs bracket the
    cse/canonicalize pipelines that some adapter passes run inside themselves. Returns an
    error string or None."""
    with tempfile.TemporaryDirectory() as td:
        argv = [cmd[0], ttir] + [c for c in cmd[2:] if c != "--mlir-print-debuginfo"]
        i = argv.index("-o")
        argv[i + 1] = os.path.join(td, "out.mlir")
        argv += ["--mlir-print-ir-before-all", "--mlir-print-ir-after-all"]
        with open(out_path, "w") as f:
            r = subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=f, timeout=ADAPTER_TIMEOUT_S)
    return None if r.returncode == 0 else f"{ADAPTER_TOOL} with IR printing exited {r.returncode}"


def hivm_after_sync(ttadapter, arch, out_path) -> int | None:
    """HIVM IR after hivm-inject-sync from bishengir-compile (CANN), as triton-ascend's
    TRITON_DEBUG=1 does. None when bishengir-compile is not installed. Not run here: this
    machine has no CANN (docs/ASCEND.md)."""
    bish = shutil.which("bishengir-compile")
    if not bish:
        return None
    with tempfile.TemporaryDirectory() as td:
        # bishengir-compile rejects the mix_mode attribute the backend strips before calling it.
        src = os.path.join(td, "kernel.ttadapter.mlir")
        with open(ttadapter) as f, open(src, "w") as g:
            g.write(re.sub(r', mix_mode\s*=\s*"[^"]*"', "", f.read()))
        with open(out_path, "w") as f:
            r = subprocess.run([bish, src, f"--target={arch}", "--enable-hfusion-compile=true",
                                "--enable-hivm-compile=true", "--enable-triton-kernel-compile=true",
                                "--bishengir-print-ir-after=hivm-inject-sync", "-o", os.path.join(td, "kernel")],
                               check=False, stdout=f, stderr=subprocess.STDOUT,
                               timeout=BISHENG_TIMEOUT_S)
    return r.returncode


def main() -> None:
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    out = spec["out_dir"]
    name = spec["kernel"]
    os.makedirs(out, exist_ok=True)
    # Python's own messages (warnings, tracebacks) go to a log; fd 2 stays MLIR's.
    sys.stderr = open(os.path.join(out, f"{name}.driver.log"), "w")  # noqa: SIM115 -- for the process's life
    sys.path.insert(0, spec["harness_dir"])
    os.environ.pop("TRITON_INTERPRET", None)
    import triton
    from triton.backends import backends as triton_backends
    if "ascend" not in triton_backends:
        raise RuntimeError(f"{sys.executable} runs triton {triton.__version__} without the ascend backend: "
                           "the Ascend virtualenv (scripts/deps.sh, .venv-ascend) has triton-ascend")
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    # After triton is imported: the user's module imports torch, which the Ascend virtualenv
    # lacks; the main venv's torch is borrowed (appended, so `triton` stays triton-ascend's).
    if spec.get("torch_path") and spec["torch_path"] not in sys.path:
        sys.path.append(spec["torch_path"])
    from kharness.drivers.compile_driver import find_jit, rebuild_arg
    mspec = importlib.util.spec_from_file_location("kopt_compile_target", spec["module_path"])
    mod = importlib.util.module_from_spec(mspec)  # type: ignore[arg-type]  # None fails here as before
    sys.modules["kopt_compile_target"] = mod
    mspec.loader.exec_module(mod)  # type: ignore[union-attr]
    jit = find_jit(mod, name)
    args = [rebuild_arg(a) for a in spec["args"]]
    kwargs = {k: rebuild_arg(v) for k, v in spec["kwargs"].items()}
    arch = parse_target(spec["target"])
    target = GPUTarget("npu", arch, 0)
    backend = make_backend(target)
    signature, constants, attrs, options = bind(jit, args, kwargs, backend)
    rec = _Recorder(out, name)
    per_pass = bool(spec.get("per_pass"))
    ttir_passes = os.path.join(out, f"{name}.ttir_passes.mlir")
    # The backend's compiler module is loaded by triton.backends from its file, under no
    # importable name: its globals are reached through the class.
    cglobals = type(backend).add_stages.__globals__
    real_make_ttir = cglobals["make_ttir"]

    def make_ttir(mod_, metadata, opt) -> Any:
        if not per_pass:
            return real_make_ttir(mod_, metadata, opt)
        with _Fd2To(ttir_passes):
            return real_make_ttir(mod_, metadata, opt)

    stages = {"ttir": "not run", "ttadapter": "not run", "npubin": "not run"}
    stopped_at = stop_reason = None
    subprocess.run, cglobals["make_ttir"] = rec, make_ttir  # type: ignore[assignment]  # deliberate wrap, restored below
    try:
        triton.compile(ASTSource(jit, signature, constants, attrs), target=target, options=options.__dict__)
        stages = {"ttir": "done", "ttadapter": "done", "npubin": "done"}
    except Exception as e:  # every compiler failure is reported by stage below
        stage = getattr(e, "stage_name", None)
        msg = str(e)
        lines = [ln.strip() for ln in msg.splitlines() if ln.strip() and not ln.startswith("///")
                 and "encounters error" not in ln and "compiled kernel cache" not in ln]
        stop_reason = (lines[0] if lines else type(e).__name__)[:500]
        if rec.ttadapter:
            stages.update(ttir="done", ttadapter="done", npubin="failed")
            stopped_at = "npubin"
        elif rec.ttir:
            stages.update(ttir="done", ttadapter="failed")
            stopped_at = "ttadapter"
            stop_reason = (rec.error or stop_reason)[-1500:]
        else:
            stages.update(ttir="failed")
            stopped_at = "ttir"
        if stage is None and stopped_at == "ttir":
            raise
    finally:
        subprocess.run, cglobals["make_ttir"] = rec._real, real_make_ttir
    if not rec.ttadapter:
        res = {"ok": False, "error": f"triton-ascend stopped at {stopped_at}: {stop_reason}", "stages": stages,
               "files": {k: v for k, v in (("ttir", rec.ttir),) if v}}
        sys.stdout.write(json.dumps(res) + "\n")
        sys.exit(1)
    files = {"ttir": rec.ttir, "ttadapter": rec.ttadapter}
    notes = {}
    if per_pass:
        if os.path.exists(ttir_passes) and os.path.getsize(ttir_passes):
            files["ttir_passes"] = ttir_passes
        else:
            notes["ttir_passes"] = "MLIR_ENABLE_DUMP=1 printed nothing during make_ttir"
        pp = os.path.join(out, f"{name}.passes.mlir")
        err = rerun_adapter(rec.cmd, rec.ttir, pp)
        if err:
            notes["passes"] = err
        else:
            files["passes"] = pp
    npuir = os.path.join(out, f"{name}.npuir.mlir")
    hv = hivm_after_sync(rec.ttadapter, arch, npuir)
    if hv is None:
        notes["npuir"] = "bishengir-compile (CANN) is not installed: no HIVM IR"
    elif hv == 0 and os.path.getsize(npuir):
        files["npuir"] = npuir
    else:
        notes["npuir"] = f"bishengir-compile exited {hv}"
    md = {}
    for k in ("num_warps", "multibuffer", "enable_auto_bind_sub_block", "compile_mode", "parallel_mode"):
        v = getattr(options, k, None)
        if v is not None:
            md[k] = v if isinstance(v, (int, float, str, bool)) else str(v)
    res = {"ok": True, "files": files, "stages": stages, "stopped_at": stopped_at, "stop_reason": stop_reason,
           "adapter_cmd": [os.path.basename(rec.cmd[0])] + rec.cmd[2:rec.cmd.index("-o")] if rec.cmd else None,
           "triton": triton.__version__, "arch": arch, "metadata": md, "notes": notes,
           "signature": {k: str(v) for k, v in signature.items()},
           "constexprs": {str(k): str(v) for k, v in constants.items()}}
    with open(os.path.join(out, f"{name}.json"), "w") as f:
        json.dump(res, f, indent=1)
    sys.stdout.write(json.dumps(res) + "\n")


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as e:  # noqa: BLE001 -- reported to the harness as one JSON line
        import traceback
        traceback.print_exc()
        sys.stdout.write(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}) + "\n")
        sys.exit(1)
