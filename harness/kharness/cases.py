"""Cases: KernelBench (`get_inputs()`, one case per seed), NPUKernelBench (`get_input_groups()`
or JSON Lines case objects). Inputs are generated on the CPU under a recorded seed and moved
to the device per evaluation, so every evaluation gets fresh, identical inputs."""
from __future__ import annotations

import copy
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, Literal

import torch

from .protocol import HarnessError

DEFAULT_KB_CASES = 5            # get_inputs() form: number of seeds when correctness_cases is "all"
DEFAULT_BENCH_CASES = 5
MAX_CASE_ELEMENTS = 1 << 34     # one generated tensor

_DTYPES = {
    "float32": torch.float32, "fp32": torch.float32, "float": torch.float32,
    "float16": torch.float16, "fp16": torch.float16, "half": torch.float16,
    "bfloat16": torch.bfloat16, "bf16": torch.bfloat16,
    "float64": torch.float64, "fp64": torch.float64, "double": torch.float64,
    "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
    "uint8": torch.uint8, "bool": torch.bool,
    "complex64": torch.complex64, "complex128": torch.complex128,
}


def dtype_of(name: str | torch.dtype) -> torch.dtype:
    if isinstance(name, torch.dtype):
        return name
    d = _DTYPES.get(str(name).lower().replace("torch.", ""))
    if d is None:
        raise HarnessError("bad-request", f"unknown dtype {name!r}; known: {', '.join(sorted(_DTYPES))}")
    return d


def case_seed(seed: int, index: int) -> int:
    """Seed for case `index` of a job with seed `seed` (documented in PROTOCOL.md)."""
    return (int(seed) * 1000003 + int(index) * 7919 + 12345) % (2 ** 31)


def seed_all(s: int) -> None:
    random.seed(s)
    torch.manual_seed(s)
    try:
        import numpy as np
    except ImportError:
        return                      # numpy is optional: without it there is nothing more to seed
    np.random.seed(s % (2 ** 32))


def _gen_tensor(shape: Any, dtype: torch.dtype, spec: dict[str, Any], where: str) -> torch.Tensor:
    if not isinstance(shape, (list, tuple)) or not all(isinstance(s, int) and s >= 0 for s in shape):
        raise HarnessError("bad-request", f"{where}: shape must be a list of non-negative integers, got {shape!r}")
    n = 1
    for s in shape:
        n *= s
    if n > MAX_CASE_ELEMENTS:
        raise HarnessError("bad-request", f"{where}: {n} elements exceeds the limit {MAX_CASE_ELEMENTS}")
    rng = spec.get("range") or spec.get("range_values")
    if dtype == torch.bool:
        return torch.rand(shape) > 0.5
    if dtype.is_floating_point or dtype.is_complex:
        if rng is not None:
            lo, hi = float(rng[0]), float(rng[1])
            return (torch.rand(shape, dtype=torch.float64) * (hi - lo) + lo).to(dtype)
        return torch.randn(shape, dtype=dtype)
    lo, hi = (int(rng[0]), int(rng[1])) if rng is not None else (0, 100)
    if hi <= lo:
        hi = lo + 1
    return torch.randint(lo, hi, tuple(shape), dtype=dtype)


def inputs_from_case(case: Any, where: str = "case") -> list[Any]:
    """Build the positional input list of one NPUKernelBench case object
    {"inputs": [{"name", "type": "tensor"|"attr"|"tensor_list", "dtype", "shape"|"value"}]}."""
    if not isinstance(case, dict) or not isinstance(case.get("inputs"), list):
        raise HarnessError("bad-request", f'{where}: a case must be an object with an "inputs" list')
    out: list[Any] = []
    for j, spec in enumerate(case["inputs"]):
        w = f"{where} input {j} ({spec.get('name', '?') if isinstance(spec, dict) else '?'})"
        if not isinstance(spec, dict):
            raise HarnessError("bad-request", f"{w}: must be an object")
        typ = spec.get("type", "tensor")
        if typ == "tensor":
            if "value" in spec and "shape" not in spec:
                out.append(torch.tensor(spec["value"], dtype=dtype_of(spec.get("dtype", "float32"))))
            else:
                out.append(_gen_tensor(spec.get("shape"), dtype_of(spec.get("dtype", "float32")), spec, w))
        elif typ == "tensor_list":
            shapes = spec.get("shapes")
            if not isinstance(shapes, list):
                raise HarnessError("bad-request", f'{w}: tensor_list needs "shapes" (a list of shapes)')
            dts = spec.get("dtypes") or [spec.get("dtype", "float32")] * len(shapes)
            out.append([_gen_tensor(s, dtype_of(d), spec, f"{w}[{k}]") for k, (s, d) in enumerate(zip(shapes, dts))])
        elif typ == "attr":
            v = spec.get("value")
            if isinstance(v, str) and spec.get("dtype") in ("dtype", "torch.dtype"):
                v = dtype_of(v)
            out.append(copy.deepcopy(v))
        else:
            raise HarnessError("bad-request", f"{w}: unknown input type {typ!r} (tensor, attr, tensor_list)")
    return out


def parse_jsonl_cases(text: str) -> list[Any]:
    import json
    cases: list[Any] = []
    for k, line in enumerate(text.splitlines()):
        line = line.strip()
        if line:
            try:
                cases.append(json.loads(line))
            except ValueError as e:
                raise HarnessError("bad-request", f"cases line {k + 1} is not JSON: {e}")
    return cases


class CaseSet:
    """The cases of one loaded problem.

    form: "kernelbench" (get_inputs per seed), "input_groups" (get_input_groups once, under
    the seed, kept on the CPU), "cases" (JSON case objects, one seeded generation per case)."""

    def __init__(self, form, seed, count, source_module=None, case_objects=None, groups=None) -> None:
        self.form = form
        self.seed = int(seed)
        self.count = count
        self.module = source_module
        self.case_objects = case_objects
        self.groups = groups

    @classmethod
    def build(cls, source_module: ModuleType | None, case_objects: list[Any] | None, seed: int,
              correctness_cases: int | Literal["all"]) -> CaseSet:
        if case_objects:
            return cls("cases", seed, len(case_objects), source_module, case_objects=case_objects)
        if source_module is not None and hasattr(source_module, "get_input_groups"):
            seed_all(seed)
            groups = source_module.get_input_groups()
            groups = [list(g) if isinstance(g, (list, tuple)) else [g] for g in groups]
            if not groups:
                raise HarnessError("load-failed", "get_input_groups() returned no cases")
            return cls("input_groups", seed, len(groups), source_module, groups=groups)
        if source_module is not None and hasattr(source_module, "get_inputs"):
            n = correctness_cases if isinstance(correctness_cases, int) else DEFAULT_KB_CASES
            return cls("kernelbench", seed, max(1, n), source_module)
        raise HarnessError("load-failed", "no cases: give `cases`, or define get_inputs() or get_input_groups() "
                           "in the reference (or, without a reference, in the kernel module)")

    def inputs(self, i: int) -> list[Any]:
        """Fresh CPU inputs of case i (deterministic)."""
        if not 0 <= i < self.count:
            raise HarnessError("bad-request", f"case {i} does not exist (0..{self.count - 1})")
        s = case_seed(self.seed, i)
        if self.form == "cases":
            seed_all(s)
            return inputs_from_case(self.case_objects[i], where=f"case {i}")
        if self.form == "input_groups":
            return clone_tree(self.groups[i])
        seed_all(s)
        inp = self.module.get_inputs()
        return list(inp) if isinstance(inp, (list, tuple)) else [inp]

    def describe(self, i: int) -> list[dict[str, Any] | int | float | str | None]:
        inp = self.inputs(i) if self.form != "input_groups" else self.groups[i]
        return [describe_value(v) for v in inp]


def describe_value(v: object) -> dict[str, Any] | int | float | str | None:
    if isinstance(v, torch.Tensor):
        return {"tensor": list(v.shape), "dtype": str(v.dtype).replace("torch.", "")}
    if isinstance(v, (list, tuple)) and v and all(isinstance(x, torch.Tensor) for x in v):
        return {"tensor_list": [describe_value(x) for x in v]}
    if isinstance(v, (int, float, str, bool)) or v is None:
        return v
    return repr(v)[:80]


def clone_tree(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return v.clone()
    if isinstance(v, list):
        return [clone_tree(x) for x in v]
    if isinstance(v, tuple):
        return tuple(clone_tree(x) for x in v)
    if isinstance(v, dict):
        return {k: clone_tree(x) for k, x in v.items()}
    try:
        return copy.deepcopy(v)
    # Broad on purpose: v is a user's object and its __deepcopy__/__reduce__ may raise anything;
    # such a value is then shared, not copied
    except Exception:  # noqa: BLE001
        return v


def to_device(v: Any, device: torch.device | str, dtype64: bool = False) -> Any:
    if isinstance(v, torch.Tensor):
        t = v.to(device)
        if dtype64 and t.is_floating_point():
            t = t.to(torch.float64)
        return t
    if isinstance(v, list):
        return [to_device(x, device, dtype64) for x in v]
    if isinstance(v, tuple):
        return tuple(to_device(x, device, dtype64) for x in v)
    return v


# fn is Callable[..., Tensor], not [[Tensor], Tensor]: callers bind a loop variable as a default
# argument (lambda t, s=scale: ...), which mypy cannot infer against a one-argument callable
def map_float_tensors(v: Any, fn: Callable[..., torch.Tensor]) -> Any:
    """v with fn(tensor) applied to every floating tensor (in lists and tuples), at once; the rest as is."""
    if isinstance(v, torch.Tensor):
        return fn(v) if v.is_floating_point() or v.is_complex() else v
    if isinstance(v, list):
        return [map_float_tensors(x, fn) for x in v]
    if isinstance(v, tuple):
        return tuple(map_float_tensors(x, fn) for x in v)
    return v


def sample_indices(n: int, k: int | Literal["all"] | None, seed: int, salt: int) -> list[int]:
    """k indices out of range(n), sampled with the recorded seed (sorted)."""
    if k is None or k == "all" or k >= n:
        return list(range(n))
    rng = random.Random(case_seed(seed, salt))
    return sorted(rng.sample(range(n), int(k)))
