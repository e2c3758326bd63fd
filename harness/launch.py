#!/usr/bin/env python3
"""Start the kopt harness sandboxed. The harness then speaks JSON Lines on this process's
stdin/stdout (this process execs into the sandbox; nothing stays in between).

    python3 harness/launch.py --backend cuda --workdir /var/lib/kopt/work/cuda0 [options]

What it does, in order (each step logs one line on stderr, and says so when it falls back):

1. User. As root: creates the system user `kopt-sandbox` (useradd -r) if absent, gives it
   the work directory (chown -R, mode 0700), and the harness later runs as that user with
   no supplementary groups and PR_SET_NO_NEW_PRIVS. Not root: runs as the calling user.
2. Isolation, first that works (probed with a trial run, not assumed):
   a. bubblewrap: new network (only loopback), IPC, UTS, PID and cgroup namespaces; a root
      assembled from an allowlist of read-only binds (sandbox_view.py: /usr, the interpreter
      and its packages wherever they are, the linker's and toolchain's library directories,
      a few /etc entries, a generated /etc/passwd, /sys, the harness), each at its own path,
      then remounted read-only; /proc and a minimal /dev (plus /dev/nvidia* or /dev/davinci*
      for the device); the work directory the only writable path; --die-with-parent. The
      rest of the host (/etc, /home, /root, /srv, /var, /opt, /tmp) is not there.
      triton-ascend's virtualenv, when there is one, is bound the same way (KOPT_ASCEND_PYTHON
      names its python).
   b. `unshare --net --ipc --uts` (root, or a user namespace when not root): no network;
      the filesystem is protected only by the sandbox user's permissions (it can still
      read what any user may read, and write world-writable directories such as /tmp): the
      allowlist above is enforced only with bubblewrap. Logged as a fallback.
   c. none: logged as a WARNING; only the harness's in-process guard and rlimits remain.
3. rlimits for the whole harness: RLIMIT_NOFILE, RLIMIT_NPROC (per user: bounds fork bombs
   when not root), RLIMIT_FSIZE, RLIMIT_CORE=0; RLIMIT_AS and RLIMIT_CPU are applied by the
   harness supervisor to each worker it starts (so a restarted worker gets a fresh CPU budget).
   RLIMIT_AS defaults to none on cuda/ascend (their drivers reserve huge address ranges).
4. A clean environment: HOME and TMPDIR inside the work directory, Triton caches there,
   device selection and toolchain variables passed through.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import pwd
import shutil
import stat
import subprocess
import sys
from typing import NoReturn

import sandbox_view

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(HERE)
# The only variables that cross into the sandbox: an allowlist of exact names, never a
# prefix, so that no secret of the worker's (KOPT_DATABASE_URL, KOPT_LLM_API_KEY, tokens) can
# reach submitted code by sharing a prefix with something the harness needs. Anything else
# a problem needs is passed explicitly with --env NAME=VALUE.
PASS_ENV = (
    # devices and drivers
    "CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "CUDA_HOME", "CUDA_PATH", "CUDA_MODULE_LOADING",
    "CUDA_LAUNCH_BLOCKING", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
    "ASCEND_RT_VISIBLE_DEVICES", "ASCEND_HOME_PATH", "ASCEND_TOOLKIT_HOME", "ASCEND_OPP_PATH",
    "ASCEND_AICPU_PATH", "ASCEND_CUSTOM_OPP_PATH",
    # compilers and runtimes
    "TRITON_INTERPRET", "TRITON_PTXAS_PATH", "TRITON_CUOBJDUMP_PATH", "TRITON_NVDISASM_PATH",
    "TRITON_DEBUG", "TRITON_DISABLE_LINE_INFO", "TRITON_ALWAYS_COMPILE", "TRITON_PRINT_AUTOTUNING",
    "TRITON_LIBDEVICE_PATH", "MLIR_ENABLE_DUMP", "LLVM_IR_ENABLE_DUMP", "TORCH_CUDA_ARCH_LIST",
    "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_NO_CUDA_MEMORY_CACHING", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
    # the harness's own settings (no secrets)
    "KOPT_BACKEND", "KOPT_ASCEND_ARCH", "KOPT_HARNESS_TRACE",
    # problem sizes read by the bundled examples, the operator suite and the judge fixtures
    "KOPT_VECTOR_ADD_N", "KOPT_SUITE_SCALE", "KOPT_JUDGE_SCALE",
    # locale and libraries
    "LANG", "LC_ALL", "TZ", "LD_LIBRARY_PATH", "TERM",
)


def log(msg) -> None:
    sys.stderr.write(f"kopt-launch: {msg}\n")
    sys.stderr.flush()


def parse_args(argv) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backend", default="auto", help="cuda | ascend | interp | auto")
    ap.add_argument("--workdir", required=True, help="private work directory (created; the only writable path)")
    ap.add_argument("--user", default="kopt-sandbox", help="unprivileged user to run as when started as root")
    ap.add_argument("--no-user", action="store_true", help="do not switch user even when root")
    ap.add_argument("--isolation", default="auto", choices=["auto", "bwrap", "unshare", "none"])
    ap.add_argument("--python", default=None, help="python of the harness virtualenv (default: <repo>/.venv/bin/python)")
    ap.add_argument("--ascend-python", default=None,
                    help="python of the triton-ascend virtualenv that compiles for Ascend targets (default: "
                         "$KOPT_ASCEND_PYTHON, else <repo>/.venv-ascend/bin/python when it exists)")
    ap.add_argument("--mem-mb", type=int, default=None, help="RLIMIT_AS per worker, MiB (default 16384 interp, none otherwise)")
    ap.add_argument("--cpu-s", type=int, default=6 * 3600, help="RLIMIT_CPU per worker, s (default 21600)")
    ap.add_argument("--nofile", type=int, default=4096)
    ap.add_argument("--nproc", type=int, default=1024, help="RLIMIT_NPROC (processes+threads of the sandbox user)")
    ap.add_argument("--fsize-mb", type=int, default=4096, help="RLIMIT_FSIZE, MiB")
    ap.add_argument("--device", action="append", default=[], help="extra device node to expose (bwrap), repeatable")
    ap.add_argument("--env", action="append", default=[], help="NAME=VALUE to set in the sandbox, repeatable")
    ap.add_argument("--dry-run", action="store_true", help="print the command instead of running it")
    ap.add_argument("--stage2", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--stage2-uid", type=int, default=-1, help=argparse.SUPPRESS)
    ap.add_argument("--stage2-gid", type=int, default=-1, help=argparse.SUPPRESS)
    ap.add_argument("--stage2-isolation", default="none", help=argparse.SUPPRESS)
    ap.add_argument("harness_args", nargs="*", help="extra arguments for kopt_harness.py (after --)")
    return ap.parse_args(argv)


# ------------------------------------------------------------------------------ stage 1

def venv_root(python) -> str | None:
    d = os.path.dirname(os.path.dirname(python))
    return d if os.path.exists(os.path.join(d, "pyvenv.cfg")) else None


def traversable_by_others(path) -> bool:
    """Every ancestor directory has o+x and the path itself o+r (rough check of whether an
    unrelated user can use it)."""
    p = os.path.realpath(path)
    parts = p.split(os.sep)
    for i in range(2, len(parts) + 1):
        d = os.sep.join(parts[:i]) or "/"
        try:
            st = os.stat(d)
        except OSError:
            return False
        if stat.S_ISDIR(st.st_mode) and not st.st_mode & stat.S_IXOTH:
            return False
    return bool(os.stat(p).st_mode & stat.S_IROTH)


def readable_harness(workdir) -> str:
    """The harness directory the sandbox user can read. Without bubblewrap nothing re-binds
    it, and a clone under a private home (/root is 0700) is out of the sandbox user's reach:
    then the harness is copied once (by content) beside the work directory, whose parent is
    world-traversable (checked above), and run from there."""
    if traversable_by_others(HERE):
        return HERE
    import hashlib
    h = hashlib.sha256()
    files = []
    for d, dirs, names in os.walk(HERE):
        dirs[:] = sorted(x for x in dirs if x != "__pycache__")
        for n in sorted(names):
            if not n.endswith((".pyc", ".pyo")):
                f = os.path.join(d, n)
                files.append(f)
                h.update(os.path.relpath(f, HERE).encode())
                with open(f, "rb") as fh:
                    h.update(fh.read())
    dest = os.path.join(os.path.dirname(workdir), f".kopt-harness-{h.hexdigest()[:16]}")
    if not os.path.isdir(dest):
        tmp = f"{dest}.tmp{os.getpid()}"
        shutil.copytree(HERE, tmp, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        for d, dirs, names in os.walk(tmp):
            os.chmod(d, 0o755)
            for n in names:
                os.chmod(os.path.join(d, n), 0o755 if os.access(os.path.join(d, n), os.X_OK) else 0o644)
        os.replace(tmp, dest)
    log(f"{HERE} is not readable by other users: running the harness from a copy at {dest}")
    return dest


def traversable_dirs(path) -> bool:
    p = os.path.realpath(path)
    parts = p.split(os.sep)
    for i in range(1, len(parts) + 1):
        d = os.sep.join(parts[:i]) or "/"
        try:
            if not os.stat(d).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
    return True


def ensure_user(name) -> tuple[int, int]:
    try:
        pw = pwd.getpwnam(name)
        return pw.pw_uid, pw.pw_gid
    except KeyError:
        pass
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    nologin = "/usr/sbin/nologin" if os.path.exists("/usr/sbin/nologin") else "/bin/false"
    r = subprocess.run([useradd, "-r", "-M", "-d", "/nonexistent", "-s", nologin, "-U", name],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise RuntimeError(f"useradd {name} failed: {r.stderr.strip()}")
    log(f"created system user {name}")
    pw = pwd.getpwnam(name)
    return pw.pw_uid, pw.pw_gid


def chown_tree(path, uid, gid) -> None:
    for root, dirs, files in os.walk(path):
        for n in [root] + [os.path.join(root, x) for x in dirs + files]:
            try:
                os.lchown(n, uid, gid)
            except OSError:
                pass
    os.chmod(path, 0o700)


def device_nodes(backend, extra) -> list[str]:
    nodes = []
    import glob
    if backend in ("cuda", "auto"):
        nodes += sorted(glob.glob("/dev/nvidia*"))
        nodes += [p for p in ("/dev/dri",) if os.path.exists(p) and backend == "cuda"]
    if backend in ("ascend", "auto"):
        nodes += sorted(glob.glob("/dev/davinci*")) + [p for p in ("/dev/devmm_svm", "/dev/hisi_hdc", "/dev/svm0")
                                                      if os.path.exists(p)]
    nodes += extra
    return [n for n in dict.fromkeys(nodes) if os.path.exists(n)]


def ascend_venv(args) -> tuple[str | None, str | None]:
    """(venv root, python) of the triton-ascend virtualenv, or (None, None)."""
    py = args.ascend_python or os.environ.get("KOPT_ASCEND_PYTHON") or os.path.join(REPO, ".venv-ascend", "bin", "python")
    if not os.access(py, os.X_OK):
        if args.ascend_python:
            raise SystemExit(f"kopt-launch: --ascend-python {py} is not an executable")
        return None, None
    root = venv_root(py)
    return (os.path.realpath(root) if root else None), py


def bwrap_cmd(bwrap, args, workdir, view, ident: tuple[str, int, int], inner) -> tuple[list[str], tuple[int, int]]:
    """The bubblewrap command line; also returns the descriptors it reads (its generated
    /etc/passwd and /etc/group), which the caller passes on and closes."""
    cmd = [bwrap, "--die-with-parent", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-pid",
           "--unshare-cgroup-try", "--hostname", "kopt-sandbox"]
    if os.geteuid() != 0:
        cmd.append("--unshare-user")
    passwd, group = sandbox_view.passwd_lines(*ident, workdir)
    fds = (sandbox_view.data_fd(passwd), sandbox_view.data_fd(group))
    cmd += sandbox_view.bwrap_args(view, workdir, device_nodes(args.backend, args.device), fds)
    return cmd + ["--"] + inner, fds


def close_fds(fds) -> None:
    for fd in fds:
        os.close(fd)


def sandbox_identity(args, uid, gid) -> tuple[str, int, int]:
    """(name, uid, gid) the harness runs as, for the generated /etc/passwd."""
    if uid >= 0:
        return args.user, uid, gid
    try:
        return pwd.getpwuid(os.getuid()).pw_name, os.getuid(), os.getgid()
    except KeyError:
        return "kopt", os.getuid(), os.getgid()


def probe(cmd_prefix, fds=()) -> tuple[bool, str]:
    try:
        r = subprocess.run(cmd_prefix + ["/bin/true"], capture_output=True, text=True, timeout=30,
                           pass_fds=fds, check=False)
        return r.returncode == 0, (r.stderr or "").strip()
    except (OSError, subprocess.SubprocessError) as e:
        return False, str(e)


def stage1(args) -> int:
    workdir = os.path.realpath(args.workdir)
    os.makedirs(workdir, exist_ok=True)
    python = args.python or os.path.join(REPO, ".venv", "bin", "python")
    if args.python and not os.path.exists(python):
        raise SystemExit(f"kopt-launch: interpreter {python} does not exist")
    if not os.path.exists(python):
        log(f"{python} does not exist; using {sys.executable}")
        python = sys.executable
    venv = venv_root(python)
    venv_real = os.path.realpath(venv) if venv else None
    # Run through the real directory of a virtualenv (.venv is often a symlink), not through
    # its interpreter's own symlinks: Python finds its pyvenv.cfg beside the path it ran as.
    run_python = os.path.join(venv_real, "bin", os.path.basename(python)) if venv_real else python
    root = os.geteuid() == 0
    uid = gid = -1
    if root and not args.no_user:
        uid, gid = ensure_user(args.user)
        parent = os.path.dirname(workdir)
        if not traversable_dirs(parent):
            raise SystemExit(f"kopt-launch: {args.user} cannot reach {workdir}: a parent directory of it is not "
                             f"world-traversable (o+x); choose a work directory such as /var/lib/kopt/work/<device>")
        chown_tree(workdir, uid, gid)
        log(f"harness will run as {args.user} (uid {uid}); work directory {workdir} owned by it, mode 0700")
    elif root:
        log("--no-user: harness runs as root (not recommended)")
    else:
        log(f"not root: harness runs as the calling user (uid {os.getuid()})")
    isolation = args.isolation
    bwrap = shutil.which("bwrap")
    chosen: list[str] | None = None
    # triton-ascend's interpreter (Ascend compiles), bound at its own path like the main one
    aroot, apy = ascend_venv(args)
    if aroot and apy:
        apy = os.path.join(aroot, "bin", os.path.basename(apy))   # through the real directory, as above
    env_real = list(args.env) + ([f"KOPT_ASCEND_PYTHON={apy}"] if apy else [])
    stage2 = lambda py, launch, iso, envs: [py, launch, "--stage2", "--stage2-uid", str(uid), "--stage2-gid", str(gid),
                                      "--stage2-isolation", iso, "--backend", args.backend, "--workdir", workdir,
                                      "--nofile", str(args.nofile), "--nproc", str(args.nproc),
                                      "--fsize-mb", str(args.fsize_mb), "--cpu-s", str(args.cpu_s)] + \
        (["--mem-mb", str(args.mem_mb)] if args.mem_mb is not None else []) + \
        [x for e in envs for x in ("--env", e)] + ["--"] + list(args.harness_args)
    if isolation in ("auto", "bwrap"):
        if not bwrap:
            log("bubblewrap (bwrap) not found" + ("; falling back" if isolation == "auto" else ""))
        else:
            view = sandbox_view.build(run_python, HERE, {k: os.environ[k] for k in PASS_ENV if k in os.environ},
                                      extra_pythons=[apy] if apy else [])
            for note in view.notes:
                log(note)
            ident = sandbox_identity(args, uid, gid)
            trial, fds = bwrap_cmd(bwrap, args, workdir, view, ident, ["/bin/true"])
            ok, err = probe(trial[:-1], fds)
            close_fds(fds)
            if ok:
                chosen, _fds = bwrap_cmd(bwrap, args, workdir, view, ident,
                                             stage2(run_python, os.path.join(HERE, "launch.py"), "bwrap", env_real))
                log("isolation: bubblewrap (network: loopback only; filesystem: an allowlist, read-only except the "
                    "work directory; new PID/IPC/UTS namespaces)")
                log("sandbox view: " + " ".join(view.ro))
            else:
                log(f"bubblewrap does not work here ({err[:300]})" + ("; falling back" if isolation == "auto" else ""))
        if chosen is None and isolation == "bwrap":
            raise SystemExit("kopt-launch: --isolation bwrap requested but bubblewrap does not work")
    if chosen is None and isolation in ("auto", "unshare"):
        unshare = shutil.which("unshare")
        flags = ["--net", "--ipc", "--uts"] + ([] if root else ["--map-root-user"])
        if unshare:
            ok, err = probe([unshare] + flags + ["--"])
            if ok:
                py = run_python
                hdir = readable_harness(workdir) if uid >= 0 else HERE
                if uid >= 0 and not (traversable_by_others(venv_real or python) and traversable_by_others(hdir)):
                    log(f"WARNING: {python} or {hdir} is not readable by {args.user} and bwrap is unavailable to "
                        f"re-bind it: the harness runs as root. Install the venv where {args.user} can read it.")
                    uid = gid = -1
                chosen = [unshare] + flags + ["--"] + stage2(py, os.path.join(hdir, "launch.py"), "unshare", env_real)
                log("isolation: unshare --net --ipc --uts (fallback: no network, but the filesystem is protected only "
                    "by user permissions; world-writable directories such as /tmp stay writable)")
            else:
                log(f"unshare does not work here ({err[:300]})")
        if chosen is None and isolation == "unshare":
            raise SystemExit("kopt-launch: --isolation unshare requested but unshare does not work")
    if chosen is None:
        py = run_python
        hdir = readable_harness(workdir) if uid >= 0 else HERE
        if uid >= 0 and not (traversable_by_others(venv_real or python) and traversable_by_others(hdir)):
            log(f"WARNING: {python} is not readable by {args.user}: the harness runs as root")
            uid = gid = -1
        chosen = stage2(py, os.path.join(hdir, "launch.py"), "none", env_real)
        log("WARNING: isolation: none (no network or filesystem isolation; only rlimits, the sandbox user and the "
            "harness's in-process guard apply)")
    if args.dry_run:
        print(" ".join(chosen))
        return 0
    os.execvp(chosen[0], chosen)     # bwrap inherits and reads the descriptors of its generated files


# ------------------------------------------------------------------------------ stage 2

def interpreter_dirs() -> list[str]:
    """What this interpreter needs (it runs the harness next), seen while still root."""
    return [p for p in dict.fromkeys([sys.prefix, sys.base_prefix] + sys.path) if p and os.path.isdir(p)]


def refuse_unreadable(dirs: list[str]) -> None:
    """After the switch to the sandbox user: exit with a sentence naming the first part of
    the interpreter that user cannot use (else Python would die later with a bare EACCES or
    a missing module)."""
    try:
        name = pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        name = f"uid {os.getuid()}"
    for path, mode in [(sys.executable, os.X_OK)] + [(d, os.R_OK | os.X_OK) for d in dirs]:
        if not os.access(path, mode):
            raise SystemExit(f"kopt-launch: {path} cannot be read by user {name} "
                             f"(uid {os.getuid()}): make it and the directories above it readable by that user "
                             f"(o+rX), or use an interpreter it can read")

def stage2(args) -> NoReturn:
    import resource
    lims = {resource.RLIMIT_NOFILE: args.nofile, resource.RLIMIT_NPROC: args.nproc,
            resource.RLIMIT_FSIZE: args.fsize_mb * (1 << 20) if args.fsize_mb else None, resource.RLIMIT_CORE: 0}
    for rl, v in lims.items():
        if v is None:
            continue
        try:
            _soft, hard = resource.getrlimit(rl)
            v = v if hard == resource.RLIM_INFINITY else min(v, hard)
            resource.setrlimit(rl, (v, v))
        except (ValueError, OSError) as e:
            log(f"could not set rlimit {rl}: {e}")
    workdir = os.path.realpath(args.workdir)
    tmp = os.path.join(workdir, "tmp")
    env = {"PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/local/cuda/bin", "/usr/local/sbin",
                                    "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"]),
           "HOME": workdir, "TMPDIR": tmp, "TRITON_CACHE_DIR": os.path.join(workdir, ".triton", "cache"),
           "TRITON_DUMP_DIR": os.path.join(workdir, ".triton", "dump"), "TRITON_HOME": workdir,
           "XDG_CACHE_HOME": os.path.join(workdir, ".cache"), "PYTHONDONTWRITEBYTECODE": "1",
           "KOPT_SANDBOX": args.stage2_isolation + ("+user" if args.stage2_uid >= 0 else "")}
    for k in PASS_ENV:
        if k in os.environ:
            env.setdefault(k, os.environ[k])
    for assignment in args.env:
        k, _, v = assignment.partition("=")
        env[k] = v
    if args.stage2_uid >= 0:
        os.makedirs(tmp, exist_ok=True)
        for d in (tmp,):
            try:
                os.chown(d, args.stage2_uid, args.stage2_gid)
            except OSError:
                pass
        needed = interpreter_dirs()
        os.setgroups([])
        os.setgid(args.stage2_gid)
        os.setuid(args.stage2_uid)
        if os.getuid() == 0 or os.geteuid() == 0:
            raise SystemExit("kopt-launch: failed to drop root privileges")
        refuse_unreadable(needed)
    else:
        os.makedirs(tmp, exist_ok=True)
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_NO_NEW_PRIVS = 38
        if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            log("could not set PR_SET_NO_NEW_PRIVS")
    except Exception as e:  # noqa: BLE001 -- best effort, logged: libc or prctl may be missing (non-Linux, odd libc)
        log(f"could not set PR_SET_NO_NEW_PRIVS: {e}")
    harness = os.path.join(HERE, "kopt_harness.py")
    cmd = [sys.executable, harness, "--backend", args.backend, "--workdir", workdir, "--cpu-s", str(args.cpu_s)]
    if args.mem_mb is not None:
        cmd += ["--mem-mb", str(args.mem_mb)]
    cmd += list(args.harness_args)
    os.chdir(workdir)
    try:
        os.execve(sys.executable, cmd, env)
    except BlockingIOError:
        raise SystemExit(f"kopt-launch: cannot start the harness: RLIMIT_NPROC ({args.nproc}) is already reached by "
                         f"the processes and threads of uid {os.getuid()} (another harness or a runaway kernel of the "
                         f"same user); give each harness its own --user")


def main(argv=None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.stage2:
        return stage2(args)
    return stage1(args)


if __name__ == "__main__":
    sys.exit(main())
