"""Backend selection and the environment record (versions, device, driver, clocks) that
every figure is taken under."""
from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch


def choose_backend(requested: str | None) -> str:
    """Decide the backend *before* triton is imported (TRITON_INTERPRET must be set first)."""
    requested = (requested or "auto").lower()
    if requested not in ("auto", "any", "cuda", "ascend", "interp"):
        raise ValueError(f"unknown backend {requested!r} (cuda, ascend, interp, auto)")
    if requested in ("auto", "any"):
        if os.environ.get("TRITON_INTERPRET") == "1":
            requested = "interp"
        else:
            requested = _probe()
    if requested == "interp":
        os.environ["TRITON_INTERPRET"] = "1"
    else:
        os.environ.pop("TRITON_INTERPRET", None)
    return requested


# Why `auto` did not pick a device backend: one line per failed probe, reported by hello as
# `backend_probe_failures` (a GPU machine that silently fell back to interp is a puzzle).
PROBE_FAILURES: list[str] = []


def _probe() -> str:
    try:
        import torch
        if torch.cuda.is_available():
            return "cuda"
    # Broad on purpose: a broken CUDA/torch install raises whatever its driver or library loader
    # raises (not all of it visible here); auto must then fall through to the next backend
    except Exception as e:  # noqa: BLE001
        PROBE_FAILURES.append(f"cuda: {type(e).__name__}: {e}"[:400])
    try:
        import torch
        import torch_npu  # noqa: F401
    except ImportError as e:
        if not (isinstance(e, ModuleNotFoundError) and e.name in ("torch", "torch_npu")):
            # installed but broken (e.g. a CANN library it links is missing): worth saying
            PROBE_FAILURES.append(f"ascend: {type(e).__name__}: {e}"[:400])
        return "interp"             # no Ascend stack installed: the common case, nothing to report
    # Broad on purpose: torch_npu/CANN initialisation errors are not visible here (no NPU); auto
    # must then fall back to interp, with the reason kept
    except Exception as e:  # noqa: BLE001
        PROBE_FAILURES.append(f"ascend: {type(e).__name__}: {e}"[:400])
        return "interp"
    try:
        if torch.npu.is_available():
            return "ascend"
    except Exception as e:  # noqa: BLE001 - as above: an NPU runtime error must not stop auto
        PROBE_FAILURES.append(f"ascend: {type(e).__name__}: {e}"[:400])
    return "interp"


def device_for(backend: str) -> torch.device:
    import torch
    if backend == "cuda":
        return torch.device("cuda", torch.cuda.current_device())
    if backend == "ascend":
        import torch_npu  # noqa: F401
        return torch.device("npu", torch.npu.current_device())
    return torch.device("cpu")


def sync(backend: str) -> None:
    import torch
    if backend == "cuda":
        torch.cuda.synchronize()
    elif backend == "ascend":
        torch.npu.synchronize()


def _run(cmd: list[str], timeout: float = 10) -> str | None:
    """stdout of cmd, or None when it cannot run, times out, fails or prints undecodable text
    (the callers record "not available" then)."""
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return r.stdout if r.returncode == 0 else None


def nvidia_smi_query(index: int | str = 0) -> dict[str, str] | None:
    exe = shutil.which("nvidia-smi")
    if not exe:
        return None
    fields = ["name", "driver_version", "clocks.sm", "clocks.mem", "clocks.max.sm", "clocks.max.mem",
              "clocks.applications.graphics", "power.draw", "power.limit", "temperature.gpu",
              "persistence_mode", "memory.total", "pstate"]
    out = _run([exe, "-i", str(index), "--query-gpu=" + ",".join(fields), "--format=csv,noheader,nounits"])
    if not out:
        return None
    vals = [v.strip() for v in out.strip().splitlines()[0].split(",")]
    return dict(zip(fields, vals))


def cpu_info() -> dict[str, Any]:
    info: dict[str, Any] = {"model": platform.processor() or None, "cores": os.cpu_count()}
    try:
        with open("/proc/cpuinfo") as f:
            txt = f.read()
        m = re.search(r"model name\s*:\s*(.+)", txt)
        if m:
            info["model"] = m.group(1).strip()
        mhz = [float(x) for x in re.findall(r"cpu MHz\s*:\s*([\d.]+)", txt)]
        if mhz:
            info["mhz_now_mean"] = round(sum(mhz) / len(mhz), 1)
    except (OSError, ValueError) as e:     # no /proc, or a malformed MHz figure
        info["cpuinfo_error"] = f"{type(e).__name__}: {e}"
    try:
        info["affinity"] = len(os.sched_getaffinity(0))
    except (OSError, AttributeError):      # AttributeError: a platform without sched_getaffinity
        info["affinity"] = None
    return info


def environment(backend: str) -> dict[str, Any]:
    """The record of where figures are taken: hello's result, and `env` in bench/compare."""
    import numpy
    import torch
    import triton

    from . import HARNESS_VERSION, PROTOCOL_VERSION
    env: dict[str, Any] = {
        "harness_version": HARNESS_VERSION, "protocol_version": PROTOCOL_VERSION,
        "backend": backend, "python": platform.python_version(), "torch": torch.__version__,
        "triton": triton.__version__, "numpy": numpy.__version__, "platform": platform.platform(),
        "torch_cuda": torch.version.cuda, "interpreter": os.environ.get("TRITON_INTERPRET") == "1",
    }
    if PROBE_FAILURES:
        env["backend_probe_failures"] = list(PROBE_FAILURES)
    if backend == "cuda":
        i = torch.cuda.current_device()
        p = torch.cuda.get_device_properties(i)
        env["device"] = {
            "name": torch.cuda.get_device_name(i), "index": i, "capability": f"{p.major}.{p.minor}",
            "sm_count": p.multi_processor_count, "memory_bytes": p.total_memory,
            "l2_cache_bytes": getattr(p, "L2_cache_size", None),
            "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        }
        q = nvidia_smi_query(i) if os.environ.get("CUDA_VISIBLE_DEVICES") in (None, "") else nvidia_smi_query(
            os.environ["CUDA_VISIBLE_DEVICES"].split(",")[0])
        env["driver"] = (q or {}).get("driver_version")
        if q:
            env["clocks"] = {"sm_mhz": q.get("clocks.sm"), "mem_mhz": q.get("clocks.mem"),
                             "max_sm_mhz": q.get("clocks.max.sm"), "max_mem_mhz": q.get("clocks.max.mem"),
                             "applications_sm_mhz": q.get("clocks.applications.graphics"),
                             "pstate": q.get("pstate"), "power_w": q.get("power.draw"),
                             "power_limit_w": q.get("power.limit"), "temperature_c": q.get("temperature.gpu"),
                             "persistence_mode": q.get("persistence_mode"), "source": "nvidia-smi"}
        else:
            env["clocks"] = {"available": False, "reason": "nvidia-smi not found or failed"}
        try:
            env["cudnn"] = torch.backends.cudnn.version()
        # Broad on purpose: cuDNN's loader/version check raises torch/driver errors not visible here;
        # a missing cuDNN version must not fail hello, so the reason is recorded instead
        except Exception as e:  # noqa: BLE001
            env["cudnn"] = None
            env["cudnn_error"] = f"{type(e).__name__}: {e}"[:400]
    elif backend == "ascend":
        import torch_npu
        env["torch_npu"] = getattr(torch_npu, "__version__", None)
        i = torch.npu.current_device()
        env["device"] = {"name": torch.npu.get_device_name(i), "index": i}
        smi = shutil.which("npu-smi")
        out = _run([smi, "info"]) if smi else None
        env["driver"] = None
        if out:
            m = re.search(r"Version:\s*([\w.\-]+)", out)
            env["driver"] = m.group(1) if m else None
            env["npu_smi"] = out[:4000]
        env["clocks"] = {"available": False, "reason": "read `npu-smi info -t common` on the host"}
        env["cann"] = os.environ.get("ASCEND_TOOLKIT_HOME") or os.environ.get("ASCEND_HOME_PATH")
    else:
        env["device"] = {"name": "cpu (Triton interpreter, TRITON_INTERPRET=1)", "cpu": cpu_info()}
        env["driver"] = None
        env["clocks"] = {"cpu_mhz_now_mean": env["device"]["cpu"].get("mhz_now_mean"), "source": "/proc/cpuinfo"}
        env["timing_note"] = "CPU timings of the Triton interpreter; not representative of any GPU"
    env["sandbox"] = sandbox_info()
    return env


def sandbox_info() -> dict[str, Any]:
    import resource
    info: dict[str, Any] = {"uid": os.getuid(), "gid": os.getgid(), "launcher": os.environ.get("KOPT_SANDBOX", "none")}
    try:
        import pwd
        info["user"] = pwd.getpwuid(os.getuid()).pw_name
    except KeyError:                       # a uid without a passwd entry (common in sandboxes)
        info["user"] = None
    try:
        import socket
        names = [n for _, n in socket.if_nameindex()]
        info["network_interfaces"] = names
        info["network"] = "isolated" if set(names) <= {"lo"} else "shared"
    except OSError as e:
        info["network"] = f"unknown ({e})"
    lim: dict[str, int | None] = {}
    for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_FSIZE"):
        soft, _hard = resource.getrlimit(getattr(resource, name))
        lim[name] = None if soft == resource.RLIM_INFINITY else soft
    info["rlimits"] = lim
    info["no_new_privs"] = _no_new_privs()
    return info


def _no_new_privs() -> bool | None:
    """True/False from /proc/self/status; None when that cannot be read or has no such line."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("NoNewPrivs:"):
                    return line.split()[1:2] == ["1"]
    except OSError:
        return None
    return None
