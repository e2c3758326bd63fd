"""Offline compile of one @triton.jit kernel for a GPU target, in its own process (no
TRITON_INTERPRET, so @triton.jit builds real JITFunctions; MLIR_ENABLE_DUMP=1 set by the
caller makes the compiler print the IR before every pass on stderr).

    python compile_driver.py spec.json

spec: {"module_path", "kernel", "args": [descriptors], "kwargs": {name: descriptor},
       "target": "cuda:90", "out_dir"}
Writes out_dir/<kernel>.{ttir,ttgir,llir,ptx,cubin,json} and prints one JSON line."""
from __future__ import annotations

import importlib.util
import json
import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from triton.backends.compiler import GPUTarget
    from triton.runtime.jit import JITFunction


def rebuild_arg(d: dict[str, Any]) -> Any:
    import torch
    k = d.get("kind")
    if k == "tensor":
        from kharness.cases import dtype_of
        dt = dtype_of(d["dtype"])
        t = torch.empty(64, dtype=dt)
        if not d.get("align16", True) and t.element_size() < 16:
            t = t[1:]
        return t
    if k in ("int", "float", "bool", "str"):
        return d["value"]
    if k == "none":
        return None
    if k == "tuple":
        return tuple(rebuild_arg(x) for x in d["items"])
    if k == "tl_dtype":
        import triton.language as tl
        return tl.dtype(d["name"])
    raise ValueError(f"cannot rebuild a kernel argument of kind {k!r} ({d.get('repr')})")


def find_jit(module: ModuleType, name: str) -> JITFunction:
    from triton.runtime.jit import JITFunction

    def unwrap(o: object) -> JITFunction | None:
        seen = 0
        while o is not None and not isinstance(o, JITFunction) and seen < 8:
            o = getattr(o, "fn", None)
            seen += 1
        return o if isinstance(o, JITFunction) else None

    j = unwrap(getattr(module, name, None))
    if j is not None:
        return j
    for v in vars(module).values():
        j = unwrap(v)
        if j is not None and j.fn.__name__ == name:
            return j
    raise LookupError(f"no @triton.jit function named {name} at module level of {module.__file__}")


def parse_target(s: str) -> GPUTarget:
    from triton.backends.compiler import GPUTarget
    kind, _, arch = s.partition(":")
    if kind == "cuda":
        return GPUTarget("cuda", int(arch or 90), 32)
    if kind == "hip":
        return GPUTarget("hip", arch or "gfx942", 64)
    raise ValueError(f"unsupported target {s!r} (cuda:<cc> or hip:<gfx>)")


def main() -> None:
    with open(sys.argv[1]) as f:
        spec = json.load(f)
    sys.path.insert(0, spec["harness_dir"])
    os.environ.pop("TRITON_INTERPRET", None)
    import triton
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature
    mspec = importlib.util.spec_from_file_location("kopt_compile_target", spec["module_path"])
    if mspec is None or mspec.loader is None:
        raise ImportError(f"cannot import {spec['module_path']!r} (not a Python source file)")
    mod = importlib.util.module_from_spec(mspec)
    sys.modules["kopt_compile_target"] = mod
    mspec.loader.exec_module(mod)
    jit = find_jit(mod, spec["kernel"])
    args = [rebuild_arg(a) for a in spec["args"]]
    kwargs = {k: rebuild_arg(v) for k, v in spec["kwargs"].items()}
    target = parse_target(spec["target"])
    backend = make_backend(target)
    binder = create_function_from_signature(jit.signature, jit.params, backend)
    bound, specialization, opts = binder(*args, **kwargs)
    options, signature, constexprs, attrs = jit._pack_args(backend, kwargs, bound, specialization, opts)
    src = ASTSource(jit, signature, constexprs, attrs)
    k = triton.compile(src, target=target, options=options.__dict__)
    out = spec["out_dir"]
    os.makedirs(out, exist_ok=True)
    files: dict[str, str] = {}
    for ext, val in k.asm.items():
        if ext == "source":
            continue
        path = os.path.join(out, f"{spec['kernel']}.{ext}")
        mode = "wb" if isinstance(val, bytes) else "w"
        with open(path, mode) as f:
            f.write(val)
        files[ext] = path
    md: dict[str, Any] = {}
    for key in ("name", "num_warps", "num_stages", "num_ctas", "shared", "tmem_size", "global_scratch_size",
                "cluster_dims", "maxnreg", "enable_fp_fusion", "arch", "ptx_version"):
        v = getattr(k.metadata, key, None)
        if v is not None:
            md[key] = v if isinstance(v, (int, float, str, bool)) else str(v)
    res = {"ok": True, "files": files, "metadata": md,
           "signature": {kk: str(v) for kk, v in signature.items()},
           "constexprs": {str(kk): str(v) for kk, v in constexprs.items()},
           "attrs": {str(kk): str(v) for kk, v in attrs.items()}}
    with open(os.path.join(out, f"{spec['kernel']}.json"), "w") as f:
        json.dump(res, f, indent=1)
    sys.stdout.write(json.dumps(res) + "\n")


if __name__ == "__main__":
    try:
        main()
    # the driver's boundary: every failure (Triton's compiler raises many types) is answered
    # as {"ok": false, "error"} on stdout with the traceback on stderr, exit status 1
    except Exception as e:  # noqa: BLE001
        import traceback
        traceback.print_exc()
        sys.stdout.write(json.dumps({"ok": False, "error": f"{type(e).__name__}: {e}"}) + "\n")
        sys.exit(1)
