"""A loaded problem written as a JSON file, so that a subprocess (the ncu/msprof/compile
drivers) can rebuild exactly the same model and inputs of a case."""
from __future__ import annotations

import json
import os
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

    from .worker import Worker


def write_state(worker: Worker, path: str, source_path: str | None = None, tunables: dict[str, Any] | None = None,
                case: int | None = None) -> dict[str, Any]:
    p = worker._need_problem()
    st = {
        "backend": worker.backend,
        "jobdir": p.jobdir,
        "kernel_path": source_path or p.kernel_path,
        "ref_path": p.ref_path,
        "seed": p.seed,
        "form": p.cases.form,
        "count": p.cases.count,
        "case_objects": p.cases.case_objects,
        "tunables": tunables if tunables is not None else p.tunables,
        "case": case if case is not None else p.bench[0],
        "harness_dir": os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
    }
    with open(path, "w") as f:
        json.dump(st, f)
    return st


def rebuild(state: dict[str, Any]) -> tuple[Any, list[Any], torch.device]:
    """(model, inputs, torch device) in this process, from a state dict."""
    import importlib.util
    import sys

    from . import backend as bk
    from .cases import CaseSet, seed_all, to_device

    def imp(path: str, name: str) -> ModuleType:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot import {path!r} (not a Python source file)")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
        return mod

    ref = imp(state["ref_path"], "kopt_ref") if state.get("ref_path") else None
    ker = imp(state["kernel_path"], "kopt_kernel")
    src = ref if ref is not None else ker
    cases = CaseSet.build(src, state.get("case_objects"), state["seed"],
                          state["count"] if state["form"] == "kernelbench" else "all")
    init = list(src.get_init_inputs()) if hasattr(src, "get_init_inputs") else []
    device = bk.device_for(state["backend"])
    seed_all(state["seed"])
    model = ker.ModelNew(*init, **(state.get("tunables") or {}))
    import torch
    if isinstance(model, torch.nn.Module):
        model = model.to(device).eval()
    inputs = to_device(cases.inputs(state["case"]), device)
    return model, inputs, device
