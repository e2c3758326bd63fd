"""Importing and running user code (reference, kernels) under the guard, turning failures
into messages a submitter can act on."""
import ast
import hashlib
import importlib.util
import os
import resource
import sys
from collections.abc import Callable, Iterable, Sequence
from types import ModuleType
from typing import Any, TypeVar

import torch

from . import guard
from .cases import seed_all

T = TypeVar("T")


class UserCodeFailure(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


# Errors whose text names no cause a submitter can act on, with what to say beside them.
# Triton's interpreter has no driver: the autotuner's benchmark (and do_bench, warmup) asks
# for one and fails with "0 active drivers".
ERROR_HINTS = {
    "active drivers": "the Triton interpreter has no device to measure on: @triton.autotune with "
                      "several configs (or triton.testing.do_bench, kernel.warmup) needs a GPU; "
                      "keep one config to run on the interpreter",
}

CUDA_FATAL = ("illegal memory access", "unspecified launch failure", "device-side assert", "CUDA error: misaligned",
              "an illegal instruction", "CUDA error: unknown error", "ECC error", "ACL_ERROR", "aicore exception",
              "AICORE", "device unavailable")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_source(directory: str, stem: str, source: str) -> tuple[str, str]:
    os.makedirs(directory, exist_ok=True)
    h = sha(source)[:12]
    path = os.path.join(directory, f"{stem}_{h}.py")
    if not os.path.exists(path):
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(source)
        os.replace(tmp, path)
    return path, h


def import_module(path: str, name: str, what: str, user_dirs: Iterable[str], variant: bool = True) -> ModuleType:
    """Import a user file as module `name` (under the guard), with the custom-operator
    namespaces it defines renamed for this module (opns: the initial kernel and its
    candidates, imported side by side, would otherwise replace each other's operators).
    A `variant` (a kernel module: one of many versions loaded together) that registers an
    operator under a computed name is refused, since its registrations cannot be kept apart."""
    from .opns import IsolatingLoader, isolation_gaps
    if variant:
        try:
            with open(path, encoding="utf-8") as f:
                gaps = isolation_gaps(ast.parse(f.read()))
        except (OSError, SyntaxError, ValueError):
            gaps = []       # the import below reports it, with the user's location
        if gaps:
            raise UserCodeFailure("exception", f"importing the {what}: {gaps[0]}; kopt imports each candidate "
                                  "beside the initial kernel and keeps their operators apart by renaming "
                                  "the namespaces they name literally (harness/PROTOCOL.md, load: custom operators)")
    spec = importlib.util.spec_from_file_location(name, path, loader=IsolatingLoader(name, path))
    if spec is None or spec.loader is None:   # not a file name Python has a loader for (not *.py)
        raise ImportError(f"cannot import the {what} from {path}: not a Python source file")
    loader = spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod

    def _load() -> ModuleType:
        loader.exec_module(mod)
        return mod

    try:
        return run_user(f"importing the {what}", _load, user_dirs, verb="failed")
    except UserCodeFailure:
        sys.modules.pop(name, None)
        raise


def forget_module(name: str) -> None:
    sys.modules.pop(name, None)


def _mem_limit() -> int | None:
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


MAIN_PID = os.getpid()


def _forked_child_exit() -> None:
    # user code forked through libc (bypassing the guard): the child must never continue
    # running harness code (it would answer requests on the protocol pipe)
    if os.getpid() != MAIN_PID:
        os._exit(70)


def run_user(what: str, fn: Callable[[], T], user_dirs: Iterable[str], verb: str = "raised") -> T:
    """Run fn() as user code. Raises UserCodeFailure(kind, message) with kind in
    sandbox-violation, oom, exception, device-fault."""
    guard.take_violations()
    try:
        with guard.active():
            result = fn()
        _forked_child_exit()
    # user code may raise anything, SystemExit/KeyboardInterrupt too: each becomes a UserCodeFailure
    except BaseException as e:  # noqa: BLE001
        _forked_child_exit()
        v = guard.take_violations()
        if v:
            raise UserCodeFailure("sandbox-violation", f"{what}: {v[0]['message']}") from None
        if guard.is_oom(e):
            lim = _mem_limit()
            extra = f" (address-space limit {lim // (1 << 20)} MiB)" if lim else ""
            raise UserCodeFailure("oom", f"{what} ran out of memory{extra}: {guard.short_exc(e, 300)}") from None
        loc = guard.user_location(e, user_dirs)
        msg = f"{what} {verb}: {guard.short_exc(e)}" + (f" ({loc})" if loc else "")
        msg += "".join(f"; {hint}" for needle, hint in ERROR_HINTS.items() if needle in str(e))
        if any(s in str(e) for s in CUDA_FATAL):
            raise UserCodeFailure("device-fault", msg + "; the device context is unusable, the harness worker restarts") from None
        raise UserCodeFailure("exception", msg) from None
    v = guard.take_violations()
    if v:
        raise UserCodeFailure("sandbox-violation", f"{what}: {v[0]['message']}")
    return result


def build_model(module: ModuleType, class_name: str, init_inputs: Sequence[Any], tunables: dict[str, Any] | None,
                device: Any, seed: int, user_dirs: Iterable[str], what: str, dtype: Any = None) -> Any:
    cls = getattr(module, class_name, None)
    if cls is None:
        raise UserCodeFailure("exception", f"the {what} defines no class {class_name}")

    def _build() -> Any:
        seed_all(seed)
        m = cls(*init_inputs, **(tunables or {}))
        if isinstance(m, torch.nn.Module):
            m = m.to(device)
            if dtype is not None:
                m = m.to(dtype)
            m.eval()
        return m

    return run_user(f"constructing {class_name} ({what})", _build, user_dirs, verb="failed")


def call_forward(model: Callable[..., Any], inputs: Sequence[Any]) -> Any:
    with torch.no_grad():
        return model(*inputs)
