"""Intercepts Triton kernel launches (JITFunction.run, and InterpretedFunction.run under
TRITON_INTERPRET=1) to record which kernels a forward launched and with which arguments, so
that the kernel can be compiled offline with the same signature/constexprs, and so that the
runtime part of the static check can ignore torch calls made by Triton itself."""
import contextlib
import inspect
import os
import threading
from collections.abc import Iterator
from typing import Any

_tls = threading.local()
_installed = {"done": False}
# marks a run method as ours, so that install() twice does not wrap the wrapper
_WRAPPED_MARK = "_kopt_wrapped"


def depth() -> int:
    return getattr(_tls, "depth", 0)


def _describe(v: object) -> dict[str, Any]:
    import torch
    if isinstance(v, torch.Tensor):
        try:
            return {"kind": "tensor", "dtype": str(v.dtype).replace("torch.", ""),
                    "align16": v.data_ptr() % 16 == 0, "shape": list(v.shape)}
        # Broad on purpose: a tensor without a plain storage (fake, sparse, a user's tensor
        # subclass) raises what torch or the subclass raises; it is recorded as unsupported, with why
        except Exception as e:  # noqa: BLE001
            return {"kind": "unsupported", "repr": f"{type(v).__name__} tensor",
                    "reason": f"{type(e).__name__}"}
    if isinstance(v, bool):
        return {"kind": "bool", "value": v}
    if isinstance(v, int):
        return {"kind": "int", "value": v}
    if isinstance(v, float):
        return {"kind": "float", "value": v}
    if v is None:
        return {"kind": "none"}
    if isinstance(v, str):
        return {"kind": "str", "value": v}
    if isinstance(v, (tuple, list)):
        return {"kind": "tuple", "items": [_describe(x) for x in v]}
    # triton.language dtypes and constexpr wrappers
    cls = type(v).__name__
    if cls == "constexpr":
        return _describe(getattr(v, "value", None))
    if cls == "dtype" or hasattr(v, "primitive_bitwidth"):
        return {"kind": "tl_dtype", "name": str(v)}
    return {"kind": "unsupported", "repr": repr(v)[:120]}


def _defaults(py_fn: Any) -> dict[str, Any]:
    try:
        sig = inspect.signature(py_fn)
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in sig.parameters.values() if p.default is not inspect.Parameter.empty}


def _record(fn_obj: object, args: tuple[Any, ...], kwargs: dict[str, Any], grid: Any) -> None:
    recs = getattr(_tls, "records", None)
    if recs is None:
        return
    py_fn = getattr(fn_obj, "fn", None)
    name = getattr(py_fn, "__name__", None) or getattr(fn_obj, "__name__", "?")
    arg_names = list(getattr(fn_obj, "arg_names", []))
    try:
        g = grid
        if callable(grid):
            # what Triton passes a grid function: every argument by name, defaults included
            bound = _defaults(py_fn)
            bound.update(zip(arg_names, args))
            bound.update(kwargs)
            g = grid(bound)
        g = [int(x) for x in g]
    # Broad on purpose: a grid function is user code and may raise anything; the launch is
    # then recorded with grid None (the launch itself reports the error when it runs)
    except Exception:  # noqa: BLE001
        g = None
    rec = {
        "kernel": name,
        "module_file": getattr(getattr(py_fn, "__code__", None), "co_filename", None),
        "args": [_describe(a) for a in args],
        "kwargs": {k: _describe(v) for k, v in kwargs.items() if k not in ("warmup",)},
        "grid": g,
    }
    recs.append(rec)


def _wrap(cls: type[Any]) -> None:
    orig = cls.run
    if getattr(orig, _WRAPPED_MARK, False):
        return

    def run(self: object, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
        if not warmup:
            try:
                _record(self, args, kwargs, grid)
            # Broad on purpose: recording is diagnostics and runs inside every kernel launch,
            # on every device; it must never stop the launch. A launch it could not describe is
            # only missing from the record.
            except Exception:  # noqa: BLE001, S110
                pass
        _tls.depth = depth() + 1
        try:
            # The guard stays active: under the interpreter the kernel body is Python run
            # in this process. Triton's own subprocesses (ptxas) are allowed by the guard.
            return orig(self, *args, grid=grid, warmup=warmup, **kwargs)
        finally:
            _tls.depth -= 1

    setattr(run, _WRAPPED_MARK, True)
    cls.run = run


def install() -> None:
    if _installed["done"]:
        return
    from triton.runtime.jit import JITFunction
    _wrap(JITFunction)
    try:
        from triton.runtime.interpreter import InterpretedFunction
        _wrap(InterpretedFunction)
    # Broad on purpose: the interpreter only runs under TRITON_INTERPRET=1, where a failure is
    # raised (launch recording would be silently empty); a GPU or Ascend build of Triton may
    # fail to import it in ways not visible here, and that must not stop the worker.
    except Exception:
        if os.environ.get("TRITON_INTERPRET") == "1":
            raise
    _installed["done"] = True


@contextlib.contextmanager
def recording() -> Iterator[list[dict[str, Any]]]:
    prev = getattr(_tls, "records", None)
    recs: list[dict[str, Any]] = []
    _tls.records = recs
    try:
        yield recs
    finally:
        _tls.records = prev


def summarize(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Distinct kernels launched, with launch count and the last launch's arguments."""
    out: dict[str, dict[str, Any]] = {}
    for r in recs:
        e = out.setdefault(r["kernel"], {"kernel": r["kernel"], "launches": 0, "module_file": r["module_file"]})
        e["launches"] += 1
        e["last"] = {"args": r["args"], "kwargs": r["kwargs"], "grid": r["grid"]}
    return list(out.values())
