"""Reusing a built model for sweep candidates whose construction is the same code.

A sweep builds one ModelNew per candidate. The harness seeds every construction alike, so
candidates whose constructor is the same code hold the same parameters; building each anew
only repeats the initialisation. For a layer with large weights that is most of a round's
preparation: building 32 candidates with nn.Linear(4096, 14336) took 11-14 s of each round on
the H200 host (linear_bias, bench/results/h200-suite-2026-12-01, the sweeps' prepare_s).

Two candidates construct alike when their modules, with every Triton kernel (a function
under ``@triton.jit``, autotuned or not) and ModelNew's ``forward`` left out, have the same syntax
tree, and their tunables (constructor arguments) are equal: launch sites and kernel bodies,
which is what a sweep varies, live only in what is left out. A candidate that constructs
alike gets a deep copy of the first such model (parameters and buffers copied on the device)
under its own class, so its own ``forward`` runs.

The copy is refused, and the candidate built as usual, when the first model holds anything
whose behaviour comes from its module: a submodule of a class that is not torch's (its
methods would still see the first candidate's kernels), or an attribute that is not plain
data (a function, a class, an object of the user's). Why not construct on the meta device
and load a state dict: tensors kept as plain attributes are not in the state dict, so they
would stay unset."""
from __future__ import annotations

import ast
import copy
import json
from typing import Any

import torch

from .pyflow import is_jit

TORCH_MODULE_ROOT = "torch"
PLAIN_TYPES = (bool, int, float, complex, str, bytes, type(None), torch.dtype, torch.device, torch.Tensor)


def construction_key(source: str, class_name: str, tunables: dict[str, Any] | None) -> str | None:
    """What decides a model's construction: the module's syntax tree without its Triton
    kernels and without class_name.forward, and the tunables. None when the source does not
    parse or defines no class_name (the caller builds as usual)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    body: list[ast.stmt] = []
    found = False
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and is_jit(node):
            continue
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            found = True
            node = copy.copy(node)
            node.body = [s for s in node.body if not (isinstance(s, ast.FunctionDef) and s.name == "forward")]
        body.append(node)
    if not found:
        return None
    try:
        tun = json.dumps(tunables or {}, sort_keys=True)
    except (TypeError, ValueError):
        return None
    return ast.dump(ast.Module(body=body, type_ignores=[])) + "\n" + tun


def _plain(value: Any, depth: int = 0) -> bool:
    if isinstance(value, PLAIN_TYPES):
        return True
    if depth < 4 and isinstance(value, (tuple, list)):
        return all(_plain(v, depth + 1) for v in value)
    if depth < 4 and isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


def reusable(model: Any) -> bool:
    """Whether a deep copy of model under another class behaves as that class's own build:
    torch's submodules only, plain data in every other attribute."""
    if not isinstance(model, torch.nn.Module):
        return False
    for sub in model.modules():
        if sub is not model and type(sub).__module__.split(".")[0] != TORCH_MODULE_ROOT:
            return False
        if any(isinstance(v, dict) and v for k, v in vars(sub).items() if "hook" in k):
            return False            # a hook is a function of the first candidate's module
    internals = set(vars(torch.nn.Module()))    # what nn.Module itself keeps in an instance
    return all(_plain(v) for k, v in vars(model).items() if k not in internals)


def copy_as(model: torch.nn.Module, cls: type[torch.nn.Module]) -> torch.nn.Module:
    """A deep copy of model's state as an instance of cls (no constructor run)."""
    new = object.__new__(cls)      # nn.Module defines no __new__ of its own
    new.__dict__.update(copy.deepcopy(model.__dict__))
    return new
