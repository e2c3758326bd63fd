"""Backend selection and the environment record (versions, device, driver, clocks) that
every figure is taken under."""
import os
import platform
import re
import shutil
import subprocess


def choose_backend(requested):
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


def _probe():
    try:
        import torch
        if torch.cuda.is_available():
            return "cuda"
    except Exception:
        pass
    try:
        import torch
        import torch_npu  # noqa: F401
        if torch.npu.is_available():
            return "ascend"
    except Exception:
        pass
    return "interp"


def device_for(backend):
    import torch
    if backend == "cuda":
        return torch.device("cuda", torch.cuda.current_device())
    if backend == "ascend":
        import torch_npu  # noqa: F401
        return torch.device("npu", torch.npu.current_device())
    return torch.device("cpu")


def sync(backend):
    import torch
    if backend == "cuda":
        torch.cuda.synchronize()
    elif backend == "ascend":
        torch.npu.synchronize()


def _run(cmd, timeout=10):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return r.stdout if r.returncode == 0 else None
    except Exception:
        return None


def nvidia_smi_query(index=0):
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


def cpu_info():
    info = {"model": platform.processor() or None, "cores": os.cpu_count()}
    try:
        txt = open("/proc/cpuinfo").read()
        m = re.search(r"model name\s*:\s*(.+)", txt)
        if m:
            info["model"] = m.group(1).strip()
        mhz = [float(x) for x in re.findall(r"cpu MHz\s*:\s*([\d.]+)", txt)]
        if mhz:
            info["mhz_now_mean"] = round(sum(mhz) / len(mhz), 1)
    except Exception:
        pass
    try:
        info["affinity"] = len(os.sched_getaffinity(0))
    except Exception:
        pass
    return info


def environment(backend):
    """The record of where figures are taken: hello's result, and `env` in bench/compare."""
    import numpy
    import torch
    import triton

    from . import HARNESS_VERSION, PROTOCOL_VERSION
    env = {
        "harness_version": HARNESS_VERSION, "protocol_version": PROTOCOL_VERSION,
        "backend": backend, "python": platform.python_version(), "torch": torch.__version__,
        "triton": triton.__version__, "numpy": numpy.__version__, "platform": platform.platform(),
        "torch_cuda": torch.version.cuda, "interpreter": os.environ.get("TRITON_INTERPRET") == "1",
    }
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
        except Exception:
            pass
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


def sandbox_info():
    import resource
    info = {"uid": os.getuid(), "gid": os.getgid(), "launcher": os.environ.get("KOPT_SANDBOX", "none")}
    try:
        import pwd
        info["user"] = pwd.getpwuid(os.getuid()).pw_name
    except Exception:
        info["user"] = None
    try:
        import socket
        names = [n for _, n in socket.if_nameindex()]
        info["network_interfaces"] = names
        info["network"] = "isolated" if set(names) <= {"lo"} else "shared"
    except Exception as e:
        info["network"] = f"unknown ({e})"
    lim = {}
    for name in ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NOFILE", "RLIMIT_NPROC", "RLIMIT_FSIZE"):
        soft, hard = resource.getrlimit(getattr(resource, name))
        lim[name] = None if soft == resource.RLIM_INFINITY else soft
    info["rlimits"] = lim
    info["no_new_privs"] = _no_new_privs()
    return info


def _no_new_privs():
    try:
        for line in open("/proc/self/status"):
            if line.startswith("NoNewPrivs:"):
                return line.split()[1] == "1"
    except Exception:
        pass
    return None
