"""The structural rewrites as the harness offers them: the package (built separately, so it
may be absent), its survey of a module as the `knobs` op reports it, and what the worker's
device rules out (tensor descriptors need a tensor memory accelerator)."""
from __future__ import annotations

import dataclasses
import importlib
from types import ModuleType
from typing import Any

TMA_MIN_CAPABILITY = (9, 0)      # CUDA parts with the tensor memory accelerator (Hopper on)


def structural_module() -> ModuleType | None:
    """kharness.structural when this harness has it (built separately), else None."""
    name = f"{__package__}.structural"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name != name:
            raise           # the package exists but one of its imports is missing: a real error
        return None


def tma_refusal(backend: str, device: Any) -> str | None:
    """Why tensor descriptors (tma_loads) cannot run on this backend's device, or None: CUDA
    parts from compute capability 9.0 (Hopper) have the tensor memory accelerator, Triton's
    interpreter emulates descriptors, triton-ascend's are not used."""
    if backend == "interp":
        return None
    if backend != "cuda":
        return f"tensor descriptors are not used on the {backend} backend"
    import torch
    cap = tuple(torch.cuda.get_device_capability(device))
    if cap < TMA_MIN_CAPABILITY:
        return (f"this device (compute capability {cap[0]}.{cap[1]}) has no tensor memory accelerator "
                f"(from {TMA_MIN_CAPABILITY[0]}.{TMA_MIN_CAPABILITY[1]})")
    return None


# Backends whose devices count streaming multiprocessors: a persistent tile loop sizes its grid
# from that count (tile_grid's PERSISTENT twins; the interpreter stands in with 4 programs).
PERSISTENT_TILE_BACKENDS = ("cuda", "interp")


def structural_survey(src: str, recs: list[dict[str, Any]], tma_why: str | None = None,
                      backend: str = "cuda") -> list[dict[str, Any]]:
    """The structural rewrites' fits as records; tma_why (tma_refusal's answer) turns a fitting
    tma_loads into a refusal: the survey reads the source and launches only, the device is the
    worker's, and it also takes tile_grid's descriptor twins (TMA=1) out of its configurations.
    On a backend without SMs (PERSISTENT_TILE_BACKENDS) tile_grid's persistent twins leave its
    configurations: their grid would fall back to the interpreter's 4 programs, where an
    Ascend part wants its core count (not built)."""
    mod = structural_module()
    if mod is None:
        return []
    out = []
    for fit in mod.survey(src, recs):
        if dataclasses.is_dataclass(fit) and not isinstance(fit, type):
            out.append(dataclasses.asdict(fit))
        elif hasattr(fit, "to_json"):
            out.append(fit.to_json())
        else:
            out.append(dict(fit))
    for f in out:
        if f.get("name") == "tma_loads" and f.get("fits") and tma_why:
            f.update(fits=False, why=tma_why, params={}, domain={})
        if f.get("name") == "tile_grid" and f.get("fits"):
            drop = [flag for flag, off in (("PERSISTENT", backend not in PERSISTENT_TILE_BACKENDS),
                                           ("TMA", bool(tma_why))) if off]
            configs = (f.get("domain") or {}).get("configs")
            if drop and isinstance(configs, list):
                f["domain"]["configs"] = [c for c in configs
                                          if not (isinstance(c, dict) and any(c.get(d) for d in drop))]
    return out
