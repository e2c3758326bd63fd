"""The supervisor: the process the kopt worker talks to (stdin/stdout, JSON Lines).

It imports neither torch nor Triton and never runs user code. It forwards each request to a
persistent worker process (kharness.worker), enforces a wall-clock timeout per request, and
when the worker dies (segfault, OOM kill, CPU limit) or times out (hang) it answers the
request with an error that says what happened, kills the worker's whole process group, and
starts a new worker on the next request, replaying the last successful `load` first.

So a bad kernel costs one failed request and a worker restart (seconds), never the
protocol stream. If the supervisor itself dies, the caller sees EOF and must restart the
harness (see PROTOCOL.md)."""
import argparse
import collections
import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any, cast

from . import rlimits
from .protocol import (
    DEFAULT_TIMEOUTS,
    LIMITS,
    HarnessError,
    configure_limits,
    encode,
    error,
    parse_request,
)

PROGRESS_PREFIX = "\x1ekopt-progress "
# KOPT_HARNESS_TRACE=1: every progress line also goes to the log (koptd's) with the time of
# day, to see where a long request spends its time. Off by default: a sweep writes several
# lines per candidate.
TRACE = os.environ.get("KOPT_HARNESS_TRACE") == "1"
HERE = os.path.dirname(os.path.abspath(__file__))
ENTRY = os.path.join(os.path.dirname(HERE), "kopt_harness.py")


def log(msg) -> None:
    sys.stderr.write(f"kopt-harness[supervisor {os.getpid()}]: {msg}\n")
    sys.stderr.flush()


def _signame(n) -> str:
    try:
        return signal.Signals(n).name
    except Exception:  # noqa: BLE001 -- only formats a name; any failure falls back to the number
        return f"signal {n}"


SIGNAL_MEANING = {
    "SIGSEGV": "segmentation fault", "SIGBUS": "bus error", "SIGILL": "illegal instruction",
    "SIGFPE": "floating-point exception", "SIGABRT": "aborted", "SIGKILL": "killed (often the kernel OOM killer "
    "or a cgroup memory limit)", "SIGXCPU": "CPU-time limit (RLIMIT_CPU) exceeded", "SIGXFSZ": "file-size limit exceeded",
}


class WorkerDied(Exception):
    def __init__(self, message, kind="crashed") -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class WorkerProc:
    def __init__(self, args, env, limits) -> None:
        self.args = args
        self.stderr_tail: collections.deque[str] = collections.deque(maxlen=60)
        self.progress: str | None = None
        cmd = [sys.executable, ENTRY, "--worker", "--backend", args.backend]
        if args.workdir:
            cmd += ["--workdir", args.workdir]
        # The worker applies its rlimits itself, first thing in worker.main (see rlimits.py): a
        # preexec_fn would run Python in the forked child, unsafe here because this process has
        # threads (each WorkerProc's stderr pump; an old worker's may still be draining).
        cmd += rlimits.format_args(limits)
        # own session and process group (setsid in the child, done by subprocess's C code):
        # kill() ends the worker's whole group
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     env=env, start_new_session=True, close_fds=True)
        # the three pipes exist (PIPE above): typed once here for the methods below
        self.stdin = cast(IO[bytes], self.proc.stdin)
        self.stdout = cast(IO[bytes], self.proc.stdout)
        self.stderr = cast(IO[bytes], self.proc.stderr)
        self.pid = self.proc.pid
        self._buf = b""
        self.sel = selectors.DefaultSelector()
        os.set_blocking(self.stdout.fileno(), False)
        self.sel.register(self.stdout, selectors.EVENT_READ)
        self.err_thread = threading.Thread(target=self._pump_stderr, daemon=True)
        self.err_thread.start()
        self.fresh = True          # no load replayed yet
        self.started = time.time()

    def _pump_stderr(self) -> None:
        for raw in iter(self.stderr.readline, b""):
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if line.startswith(PROGRESS_PREFIX):
                self.progress = line[len(PROGRESS_PREFIX):]
                if TRACE:
                    sys.stderr.write(f"kopt-harness: {time.strftime('%H:%M:%S')} {self.progress}\n")
                    sys.stderr.flush()
                continue
            self.stderr_tail.append(line)
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def read_line(self, deadline) -> str:
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line, self._buf = self._buf[:nl], self._buf[nl + 1:]
                return line.decode("utf-8")
            remaining = deadline - time.time()
            if remaining <= 0:
                raise TimeoutError()
            events = self.sel.select(timeout=min(remaining, 1.0))
            if not events:
                if self.proc.poll() is not None:
                    # drain whatever is left
                    try:
                        chunk = os.read(self.stdout.fileno(), 1 << 20)
                    except (BlockingIOError, OSError):
                        chunk = b""
                    if chunk:
                        self._buf += chunk
                        continue
                    raise EOFError()
                continue
            try:
                chunk = os.read(self.stdout.fileno(), 1 << 20)
            except BlockingIOError:
                continue
            if not chunk:
                raise EOFError()
            self._buf += chunk

    def send(self, obj) -> None:
        data = encode(obj).encode("utf-8")
        try:
            self.stdin.write(data)
            self.stdin.flush()
        except (BrokenPipeError, OSError):
            raise EOFError()

    def kill(self) -> None:
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        # best-effort cleanup of a worker that may already be gone: nothing to report either way
        try:
            self.proc.kill()
        except Exception:  # noqa: S110, BLE001
            pass
        try:
            self.proc.wait(timeout=10)
        except Exception:  # noqa: S110, BLE001
            pass
        self.err_thread.join(timeout=2)

    def death_reason(self) -> tuple[str, str | None]:
        try:
            rc = self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            rc = self.proc.returncode
        self.err_thread.join(timeout=2)
        if rc is not None and rc < 0:
            name = _signame(-rc)
            return f"killed by {name} ({SIGNAL_MEANING.get(name, 'signal')})", name
        return f"exited with status {rc}", None

    def tail(self, n=15) -> str:
        lines = [l for l in self.stderr_tail if l.strip()]
        return "\n".join(lines[-n:])


class Supervisor:
    def __init__(self, args) -> None:
        self.args = args
        self.worker: WorkerProc | None = None
        self.last_load: dict[str, Any] | None = None
        self.last_load_timeout = float(DEFAULT_TIMEOUTS["load"])   # the replay's limit: the load's own
        self.restarts = 0
        self.env = self._worker_env()
        self.limits = {
            "RLIMIT_AS": args.mem_mb * (1 << 20) if args.mem_mb else None,
            "RLIMIT_CPU": args.cpu_s or None,
            "RLIMIT_NOFILE": args.nofile or None,
            "RLIMIT_NPROC": args.nproc or None,
            "RLIMIT_FSIZE": args.fsize_mb * (1 << 20) if args.fsize_mb else None,
            "RLIMIT_CORE": 0,
        }

    def _worker_env(self) -> dict[str, str]:
        env = dict(os.environ)
        wd = self.args.workdir
        if wd:
            os.makedirs(wd, exist_ok=True)
            tmp = os.path.join(wd, "tmp")
            os.makedirs(tmp, exist_ok=True)
            env.setdefault("TMPDIR", tmp)
            env.setdefault("TRITON_CACHE_DIR", os.path.join(wd, ".triton", "cache"))
            env.setdefault("TRITON_DUMP_DIR", os.path.join(wd, ".triton", "dump"))
            env.setdefault("TRITON_HOME", wd)
            # library caches that would otherwise land in $HOME (outside the allowed roots)
            env.setdefault("XDG_CACHE_HOME", os.path.join(wd, ".cache"))
            env.setdefault("TORCHINDUCTOR_CACHE_DIR", os.path.join(wd, ".cache", "inductor"))
            env.setdefault("TORCH_EXTENSIONS_DIR", os.path.join(wd, ".cache", "torch_extensions"))
            env.setdefault("CUDA_CACHE_PATH", os.path.join(wd, ".cache", "nv"))
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONFAULTHANDLER"] = "1"
        return env

    # -------------------------------------------------------------- worker mgmt
    def _start_worker(self) -> WorkerProc:
        t0 = time.time()
        w = WorkerProc(self.args, self.env, self.limits)
        try:
            line = w.read_line(time.time() + self.args.start_timeout)
            msg = json.loads(line)
        except TimeoutError:
            w.kill()
            raise HarnessError("harness-start", f"the harness worker did not start within {self.args.start_timeout} s")
        except (EOFError, ValueError):
            reason, sig = w.death_reason()
            extra = {"cause": "killed"} if sig == "SIGKILL" else {}
            raise HarnessError("harness-start", f"the harness worker failed to start ({reason}): {w.tail()}",
                               **extra)
        if not msg.get("ready"):
            w.kill()
            raise HarnessError("harness-start", f"the harness worker failed to start: {msg.get('error')}",
                               detail=msg.get("traceback"))
        log(f"worker {w.pid} ready ({msg.get('backend')}) in {time.time() - t0:.1f}s")
        self.worker = w
        return w

    def _call(self, req, timeout) -> dict[str, Any]:
        """Send req to the worker and wait for its response, or raise WorkerDied."""
        w = self.worker
        assert w is not None   # callers start one first (_ensure_worker)
        w.progress = None
        t0 = time.time()
        try:
            w.send(req)
            while True:
                line = w.read_line(t0 + timeout)
                try:
                    resp = json.loads(line)
                except ValueError:
                    log(f"ignoring a non-JSON line from the worker: {line[:200]!r}")
                    continue
                if resp.get("id") == req.get("id"):
                    return resp
                log(f"ignoring a response with unexpected id {resp.get('id')!r}")
        except TimeoutError:
            where = f" (last progress: {w.progress})" if w.progress else ""
            w.kill()
            self.worker = None
            raise WorkerDied(f"did not finish within {timeout:g} s{where}; the kernel may hang (an infinite loop, "
                             f"a deadlock, or far too much work); the harness worker was killed and will be restarted",
                             kind="timeout")
        except EOFError:
            reason, sig = w.death_reason()
            where = f" during {w.progress}" if w.progress else ""
            tail = w.tail()
            self.worker = None
            kind = "crashed"
            if sig == "SIGXCPU":
                kind = "cpu-limit"
            elif sig == "SIGKILL":
                kind = "killed"
            raise WorkerDied(f"the harness worker {reason}{where}; it will be restarted" +
                             (f". Last worker log lines:\n{tail}" if tail else ""), kind=kind)

    def _ensure_worker(self, op) -> None:
        if self.worker is not None and self.worker.proc.poll() is not None:
            self.worker = None
        if self.worker is None:
            self._start_worker()
            self.restarts += 1 if self.restarts or self.last_load else 0
        w = self.worker
        assert w is not None   # started just above
        if w.fresh and op != "load" and self.last_load is not None:
            replay = dict(self.last_load)
            replay["id"] = -1
            log("replaying the last load in the new worker")
            try:
                resp = self._call(replay, self.last_load_timeout)
            except WorkerDied as e:
                # cause: the caller tells a kill -9 of the new worker from the kernel's fault
                raise HarnessError("reload-failed", f"reloading the problem in a new harness worker failed: {e.message}",
                                   cause=e.kind)
            if not resp.get("ok"):
                raise HarnessError("reload-failed", "reloading the problem in a new harness worker failed: "
                                   f"{resp.get('error', {}).get('message')}")
        w.fresh = False

    # -------------------------------------------------------------- main loop
    def handle_line(self, line) -> dict[str, Any]:
        try:
            req = parse_request(line)
        except HarnessError as e:
            return error(e.extra.get("id"), e.kind, e.message)
        rid, op = req["id"], req["op"]
        if op == "shutdown":
            if self.worker is not None:
                try:
                    self._call({"id": rid, "op": "shutdown"}, 10)
                except WorkerDied:
                    pass
                self.worker.kill() if self.worker else None
            return {"id": rid, "ok": True, "result": {"bye": True}}
        timeout = float(req.get("timeout_s") or DEFAULT_TIMEOUTS.get(op, 600))
        try:
            self._ensure_worker(op)
        except HarnessError as e:
            return error(rid, e.kind, e.message, **e.extra)
        what = op
        if op in ("validate", "bench"):
            what = f"{op} of the {'candidate' if req.get('candidate_source') else 'initial kernel'}"
        try:
            resp = self._call(req, timeout)
        except WorkerDied as e:
            if op == "load":
                self.last_load = None
            return error(rid, e.kind, f"{what}: {e.message}", restarted=True)
        body = resp.get("result") if resp.get("ok") else resp.get("error")
        if isinstance(body, dict) and body.get("worker_restarting") and self.worker is not None:
            # the worker exits after a device fault (its device context is unusable): wait for
            # it here so that the next request starts a fresh one instead of racing its exit
            w = self.worker
            try:
                w.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
            w.kill()
            self.worker = None
        if op == "load":
            if resp.get("ok"):
                self.last_load = {k: v for k, v in req.items() if k not in ("timeout_s",)}
                self.last_load_timeout = timeout
            else:
                self.last_load = None
        return resp


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="kopt device harness (JSON Lines on stdin/stdout)")
    ap.add_argument("--backend", default=os.environ.get("KOPT_BACKEND", "auto"),
                    help="cuda | ascend | interp | auto (default: auto)")
    ap.add_argument("--workdir", default=os.environ.get("KOPT_WORKDIR"),
                    help="the only directory user code may write (default: none; then load.workdir must be absolute)")
    ap.add_argument("--mem-mb", type=int, default=None, help="RLIMIT_AS of the worker in MiB (0: none). "
                    "Default 16384 for interp, none for cuda/ascend (their drivers reserve huge address space)")
    ap.add_argument("--cpu-s", type=int, default=0, help="RLIMIT_CPU of the worker in s (0: none)")
    ap.add_argument("--nofile", type=int, default=0, help="RLIMIT_NOFILE of the worker (0: inherited)")
    ap.add_argument("--nproc", type=int, default=0, help="RLIMIT_NPROC of the worker (0: inherited)")
    ap.add_argument("--fsize-mb", type=int, default=0, help="RLIMIT_FSIZE of the worker in MiB (0: inherited)")
    ap.add_argument("--start-timeout", type=float, default=300.0)
    ap.add_argument("--max-source-bytes", type=int, default=None,
                    help="largest source in a request (koptd's max_source_bytes; default 262144)")
    ap.add_argument("--max-line-bytes", type=int, default=None,
                    help="largest request line (the worker derives it from koptd's limits; default 16 MiB)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    try:
        configure_limits(args.max_source_bytes, args.max_line_bytes)
    except ValueError as e:
        ap.error(str(e))
    if args.workdir:
        args.workdir = os.path.realpath(args.workdir)
    if args.mem_mb is None:
        be = args.backend
        if be in ("auto", "any"):
            be = "interp" if os.environ.get("TRITON_INTERPRET") == "1" else be
        args.mem_mb = 16384 if be == "interp" else 0
    # stdout carries only protocol lines
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sup = Supervisor(args)
    log(f"ready (backend {args.backend}, workdir {args.workdir}, limits {sup.limits}, "
        f"max source {LIMITS.source_bytes} B, max request line {LIMITS.line_bytes} B)")
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline(LIMITS.line_bytes + 2)
        if not raw:
            break
        if not raw.endswith(b"\n") and len(raw) > LIMITS.line_bytes:
            # over-long line: drain it and answer
            while raw and not raw.endswith(b"\n"):
                raw = stdin.readline(1 << 20)
            out.write(encode(error(None, "bad-request", f"request line exceeds {LIMITS.line_bytes} bytes")))
            continue
        line = raw.decode("utf-8", "replace").strip()
        if not line:
            continue
        resp = sup.handle_line(line)
        out.write(encode(resp))
        out.flush()
        if resp.get("ok") and isinstance(resp.get("result"), dict) and resp["result"].get("bye"):
            break
    if sup.worker is not None:
        sup.worker.kill()
    return 0
