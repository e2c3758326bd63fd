"""In-process guard for user code (reference, kernels, LLM output) run by the worker.

This is defence in depth, not the security boundary: the boundary is the sandbox made by
harness/launch.py (own user, no network, read-only filesystem except the work directory,
rlimits). The guard turns the common misbehaviours into clear verdicts instead of obscure
OS errors:

* writing a file outside the allowed roots (the work directory, its tmp and Triton cache),
* opening a network socket,
* starting a process (fork/exec/subprocess/system) from user code,
* running out of memory (classified from the exception).

It is a sys.audit hook that does nothing unless user code is running (`active()` context).
What installed libraries do on their own behalf while user code runs (Triton compiling
with ptxas and gcc in temporary directories, caches) is allowed: the decision looks at the
innermost frame that is neither the standard library nor this package; a frame of an
installed library (site-packages) is trusted, anything else (the user's modules, including
@triton.jit bodies run by the interpreter) is not.
"""
import contextlib
import os
import sys
import sysconfig
import threading
import traceback
from collections.abc import Iterable, Iterator
from types import FrameType
from typing import Any, Never, TypedDict


class _State(TypedDict):
    active: int                        # nesting depth of active(); 0 = user code is not running
    roots: list[str]                   # real paths user code may write under
    violations: list[dict[str, str]]   # {"kind", "message"} recorded since take_violations()
    installed: bool                    # the audit hook is installed (it cannot be removed)


_lock = threading.Lock()
_state: _State = {"active": 0, "roots": [], "violations": [], "installed": False}

_STDLIB = tuple(p for p in {sysconfig.get_paths().get("stdlib"), sysconfig.get_paths().get("platstdlib")} if p)
_HERE = os.path.dirname(os.path.abspath(__file__))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_TRUNC
_DEV_OK = ("/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random", "/dev/tty", "/dev/shm")

_PROC_EVENTS = {
    "os.fork": "os.fork()", "os.forkpty": "os.forkpty()", "os.system": "os.system()",
    "os.posix_spawn": "os.posix_spawn()", "os.spawn": "os.spawn*()", "os.exec": "os.exec*()",
    "subprocess.Popen": "subprocess", "pty.spawn": "pty.spawn()",
}
_FS_EVENTS = {"os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.symlink", "os.link", "os.chmod",
              "os.chown", "os.truncate", "shutil.rmtree", "shutil.move", "shutil.copyfile"}
_NET_EVENTS = {"socket.__new__", "socket.connect", "socket.bind", "socket.sendto", "socket.getaddrinfo",
               "socket.gethostbyname", "socket.gethostbyaddr"}


class SandboxViolation(PermissionError):
    pass


def set_roots(roots: Iterable[str | None]) -> None:
    _state["roots"] = [os.path.realpath(r) for r in roots if r]


def roots() -> list[str]:
    return list(_state["roots"])


def install() -> None:
    if not _state["installed"]:
        sys.addaudithook(_hook)
        _state["installed"] = True


@contextlib.contextmanager
def active() -> Iterator[None]:
    """Run user code under the guard. Violations recorded while active are read with
    take_violations() (they are recorded even when user code swallows the exception)."""
    with _lock:
        _state["active"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["active"] -= 1


@contextlib.contextmanager
def suspended() -> Iterator[None]:
    """Harness code called from inside user code (e.g. our launch interceptor)."""
    with _lock:
        saved = _state["active"]
        _state["active"] = 0
    try:
        yield
    finally:
        with _lock:
            _state["active"] = saved


def take_violations() -> list[dict[str, str]]:
    v = list(_state["violations"])
    _state["violations"].clear()
    return v


def _allowed_path(path: Any) -> bool:
    try:
        p = os.path.realpath(os.fsdecode(os.fspath(path)))
    # not a path (TypeError) or one with a NUL byte (ValueError): the call itself rejects it,
    # nothing is opened; anything a user's __fspath__ raises reaches the user code that called
    except (TypeError, ValueError):
        return True
    if p.startswith((*_DEV_OK, "/proc/self/")):
        return True
    for r in _state["roots"]:
        if p == r or p.startswith(r + os.sep):
            return True
    return False


def _caller_is_library() -> bool:
    """True when the innermost frame outside the standard library and this package belongs
    to an installed library (triton, torch, ...) rather than to user code."""
    f: FrameType | None = sys._getframe(2)
    while f is not None:
        fn = f.f_code.co_filename
        if fn.startswith(_STDLIB) and "site-packages" not in fn and "dist-packages" not in fn:
            f = f.f_back
            continue
        if fn.startswith((_HERE, "<")):
            f = f.f_back
            continue
        return "site-packages" in fn or "dist-packages" in fn
    return False


def _violate(kind: str, message: str) -> Never:
    _state["violations"].append({"kind": kind, "message": message})
    raise SandboxViolation(message)


def _hook(event: str, args: tuple[Any, ...]) -> None:
    if not _state["active"]:
        return
    if event == "open":
        path, mode, flags = (list(args) + [None, None, None])[:3]
        if path is None or isinstance(path, int):
            return
        writing = False
        if isinstance(mode, str):
            writing = any(c in mode for c in "wax+")
        elif isinstance(flags, int):
            writing = bool(flags & _WRITE_FLAGS)
        if writing and not _allowed_path(path) and not _caller_is_library():
            _violate("write-outside", f"kernel tried to write outside its work directory: {os.fsdecode(os.fspath(path))}")
    elif event in _FS_EVENTS:
        for a in args[:2]:
            if isinstance(a, (str, bytes, os.PathLike)) and not _allowed_path(a) and not _caller_is_library():
                _violate("write-outside", f"kernel tried to modify a path outside its work directory ({event}): {os.fsdecode(os.fspath(a))}")
    elif event in _NET_EVENTS:
        if event == "socket.__new__":
            import socket as _s
            fam = args[1] if len(args) > 1 else None
            if fam == getattr(_s, "AF_UNIX", -1):
                _violate("network", "kernel tried to open a socket (AF_UNIX); kernels may not use sockets")
        _violate("network", f"kernel tried to use the network ({event}); network access is not allowed for kernels")
    elif event in _PROC_EVENTS:
        if _caller_is_library():
            return
        _violate("process", f"kernel tried to start a process ({_PROC_EVENTS[event]}); kernels may not fork or run programs")


def is_oom(exc: BaseException) -> bool:
    import re
    name = type(exc).__name__
    if isinstance(exc, MemoryError) or name in ("OutOfMemoryError",):
        return True
    msg = str(exc)
    return bool(re.search(r"out of memory|can't allocate memory|Cannot allocate memory|DefaultCPUAllocator|"
                          r"CUDA error: out of memory|NPU out of memory|std::bad_alloc", msg))


def user_location(exc: BaseException, user_dirs: Iterable[str]) -> str | None:
    """file:line of the innermost traceback frame in user code, or None."""
    loc = None
    tb = exc.__traceback__
    dirs = tuple(os.path.realpath(d) + os.sep for d in user_dirs)
    for fs in traceback.extract_tb(tb):
        if os.path.realpath(fs.filename).startswith(dirs):
            loc = f"{os.path.basename(fs.filename)}:{fs.lineno}"
    return loc


def short_exc(exc: BaseException, limit: int = 400) -> str:
    """The exception's type and its message, the message capped at `limit` characters and
    quoted (JSON escapes, whitespace collapsed), so that text a kernel chose can neither
    pass for the harness's own words nor break a log line."""
    import json
    msg = " ".join(str(exc).split())
    if len(msg) > limit:
        msg = msg[:limit] + "..."
    return f"{type(exc).__name__}: {json.dumps(msg, ensure_ascii=False)}"
