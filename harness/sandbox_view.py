"""What the harness sees of the host under bubblewrap (harness/launch.py, PROTOCOL.md §7).

An allowlist, never the host's top level: each entry is bound read-only at its own path into
an otherwise empty root, which is then remounted read-only, so that the work directory is
the only writable place and a kernel that opens anything else finds nothing there
(FileNotFoundError) or cannot write it (Read-only file system).

- the operating system's programs and shared libraries: /usr and the merged-/usr links
  (/bin, /sbin, /lib, /lib64, ...), which is where libc, the compilers Triton runs, and the
  CUDA toolkit (/usr/local/cuda*) and driver libraries live on Debian-like systems;
- the interpreter and its packages, as the interpreter itself reports them (sys.prefix,
  sys.base_prefix, sys.path: the virtualenv AND the Python installation it was made from,
  wherever they are, e.g. under /root/.pyenv);
- the library directories the dynamic linker is configured for (/etc/ld.so.conf*) and the
  toolchain directories named by the passed-through environment (CUDA_HOME, ASCEND_*,
  LD_LIBRARY_PATH, ...), where they lie outside /usr; /opt/nvidia when present;
- a few /etc entries that libraries read: the linker cache and configuration, the
  compiler alternatives (/usr/bin/cc -> /etc/alternatives/cc), the local time zone; and a
  generated /etc/passwd and /etc/group naming only root and the sandbox user;
- /sys read-only (drivers and torch read device topology there);
- the harness directory, the work directory (read-write), /proc, a minimal /dev with the
  device nodes, a private /dev/shm.

Not there: the rest of /etc (koptd's configuration, its secrets file, ssh keys), /home,
/root (beyond an interpreter installed there), /srv, /var, /opt, /tmp, other checkouts.

Standard library only: launch.py may run under any python3.
"""
from __future__ import annotations

import glob
import json
import os
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

SYSTEM_DIRS = ("/usr",)
SYSTEM_LINKS = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
ETC_ENTRIES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
               "/etc/localtime")
DRIVER_DIRS = ("/opt/nvidia", "/run/nvidia-persistenced")
SYSFS = "/sys"
# Passed-through variables (launch.PASS_ENV) that name toolchain directories or files.
PATH_VARS = ("CUDA_HOME", "CUDA_PATH", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH",
             "ASCEND_AICPU_PATH", "ASCEND_CUSTOM_OPP_PATH", "TRITON_PTXAS_PATH", "TRITON_CUOBJDUMP_PATH",
             "TRITON_NVDISASM_PATH", "TRITON_LIBDEVICE_PATH")
LAYOUT_TIMEOUT_S = 60
# Asked of the interpreter on the host: where it and its packages are.
LAYOUT_CODE = ("import json, sys; print(json.dumps({'prefix': sys.prefix, 'base_prefix': sys.base_prefix, "
               "'exec_prefix': sys.exec_prefix, 'base_exec_prefix': sys.base_exec_prefix, 'path': sys.path}))")


@dataclass
class View:
    """The read-only binds of one sandbox, each at its own path."""
    ro: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)   # (target, path): merged-/usr links
    notes: list[str] = field(default_factory=list)               # what could not be found out


def interpreter_paths(python: str) -> tuple[list[str], str | None]:
    """The directories python needs, as it reports them (run on the host with -I: no user
    site directory, no PYTHON* variables). On failure: a guess from the path, and why."""
    guess = [os.path.dirname(os.path.dirname(python))]
    try:
        r = subprocess.run([python, "-I", "-c", LAYOUT_CODE], capture_output=True, text=True,
                           timeout=LAYOUT_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        return guess, f"{python} did not run: {e}"
    if r.returncode != 0:
        return guess, f"{python} exited with status {r.returncode}: {(r.stderr or '').strip()[-300:]}"
    try:
        info = json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError) as e:
        return guess, f"{python} printed no layout: {e}"
    paths = [info[k] for k in ("prefix", "base_prefix", "exec_prefix", "base_exec_prefix")]
    paths += [p for p in info.get("path", []) if isinstance(p, str) and p]
    return paths, None


def ld_config_dirs(conf: str = "/etc/ld.so.conf") -> list[str]:
    """Directories named in the dynamic linker's configuration (with its `include` globs)."""
    out: list[str] = []
    seen: set[str] = set()
    todo = [conf]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            continue
        for line in lines:
            line = line.split("#", 1)[0].strip()
            if line.startswith("include"):
                pattern = line.split(None, 1)[1] if len(line.split(None, 1)) == 2 else ""
                if pattern and not os.path.isabs(pattern):
                    pattern = os.path.join(os.path.dirname(path), pattern)
                todo += sorted(glob.glob(pattern))
            elif line.startswith("/"):
                out.append(line)
    return out


def env_paths(env: Mapping[str, str]) -> list[str]:
    """Toolchain paths named by the environment the harness will get."""
    out = [env[k] for k in PATH_VARS if env.get(k, "").startswith("/")]
    out += [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p.startswith("/")]
    return out


def under(path: str, roots: Iterable[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots)


def minimal(paths: Iterable[str]) -> list[str]:
    """Existing paths, normalized, without those inside another one."""
    keep: list[str] = []
    for p in sorted({os.path.normpath(p) for p in paths if os.path.isabs(p) and os.path.exists(p)}, key=len):
        if not under(p, keep):
            keep.append(p)
    return keep


def build(python: str, harness_dir: str, env: Mapping[str, str], extra_pythons: Iterable[str] = ()) -> View:
    """The view for a harness run with python (a path as it will be run in the sandbox);
    extra_pythons are other interpreters the harness starts (triton-ascend's, for Ascend
    compiles), each bound with its packages too."""
    v = View()
    for p in SYSTEM_LINKS:
        if os.path.islink(p):
            v.links.append((os.readlink(p), p))
    interp, why = interpreter_paths(python)
    if why:
        v.notes.append(f"could not ask the interpreter where its packages are ({why}); binding "
                       f"{interp[0]} only")
    for extra in extra_pythons:
        more, why = interpreter_paths(extra)
        if why:
            v.notes.append(f"could not ask {extra} where its packages are ({why}); binding {more[0]} only")
        interp += more
    wanted = list(SYSTEM_DIRS) + [p for p in SYSTEM_LINKS if os.path.isdir(p) and not os.path.islink(p)]
    wanted += interp + ld_config_dirs() + env_paths(env) + list(ETC_ENTRIES) + list(DRIVER_DIRS)
    wanted += [SYSFS, harness_dir]
    # Paths through the merged-/usr links (/lib/x86_64-linux-gnu) are inside /usr already.
    wanted = [os.path.realpath(p) if under(p, [ln for _, ln in v.links]) else p for p in wanted]
    v.ro = minimal(wanted)
    return v


def parents(paths: Iterable[str], bound: Iterable[str]) -> list[str]:
    """The directories above paths, outermost first, except those inside a bound one."""
    out: list[str] = []
    bound = list(bound)
    for p in paths:
        d = os.path.dirname(os.path.normpath(p))
        chain = []
        while d not in ("/", "") and not under(d, bound):
            chain.append(d)
            d = os.path.dirname(d)
        out += [c for c in reversed(chain) if c not in out]
    return sorted(out, key=lambda d: d.count("/"))


def passwd_lines(user: str, uid: int, gid: int, home: str) -> tuple[str, str]:
    """/etc/passwd and /etc/group naming only root and the sandbox user."""
    passwd = "root:x:0:0:root:/:/usr/sbin/nologin\n"
    group = "root:x:0:\n"
    if uid != 0:
        passwd += f"{user}:x:{uid}:{gid}:kopt sandbox:{home}:/usr/sbin/nologin\n"
        group += f"{user}:x:{gid}:\n"
    return passwd, group


def data_fd(text: str) -> int:
    """A readable, inheritable descriptor holding text (for bwrap's --ro-bind-data)."""
    r, w = os.pipe()
    try:
        os.write(w, text.encode())     # far below a pipe's capacity
    finally:
        os.close(w)
    os.set_inheritable(r, True)
    return r


def bwrap_args(v: View, workdir: str, devices: Iterable[str], fds: tuple[int, int]) -> list[str]:
    """bwrap options for the view (after the namespace options, before `--`). fds: the
    descriptors of the generated /etc/passwd and /etc/group (data_fd)."""
    cmd: list[str] = []
    for target, path in v.links:
        cmd += ["--symlink", target, path]
    # bwrap makes missing parents of a mount point mode 0700: make them 0755 first, or the
    # sandbox user could not reach what is bound below them.
    for d in parents(v.ro + [workdir, "/etc/passwd"], v.ro):
        cmd += ["--perms", "0755", "--dir", d]
    for p in v.ro:
        cmd += ["--ro-bind", p, p]
    cmd += ["--perms", "0444", "--ro-bind-data", str(fds[0]), "/etc/passwd",
            "--perms", "0444", "--ro-bind-data", str(fds[1]), "/etc/group"]
    cmd += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm"]
    for n in devices:
        cmd += ["--dev-bind", n, n]
    cmd += ["--dir", "/tmp", "--bind", workdir, workdir]
    # Everything not bound stays read-only, writes outside the work directory fail with EROFS.
    cmd += ["--remount-ro", "/", "--chdir", workdir]
    return cmd
