"""Softmax over the last dimension, NPUKernelBench form.

Like NPUKernelBench, the cases are JSON Lines (cases.jsonl next to this file, one case per
line: {"inputs": [{"name", "type": "tensor"|"attr", "dtype", "shape"|"value"}]}) and
get_input_groups() builds one input list per case. The case list is also embedded below so
that the module works when the harness receives it as a string (without its directory);
the harness can equally be given the JSON cases directly in `load` ("cases")."""
import json
import os

import torch
import torch.nn as nn

_EMBEDDED = [
    {"inputs": [{"name": "x", "type": "tensor", "dtype": "float32", "shape": [4, 300]}, {"name": "dim", "type": "attr", "value": -1}]},
    {"inputs": [{"name": "x", "type": "tensor", "dtype": "float16", "shape": [8, 1000]}, {"name": "dim", "type": "attr", "value": -1}]},
    {"inputs": [{"name": "x", "type": "tensor", "dtype": "bfloat16", "shape": [2, 3, 130]}, {"name": "dim", "type": "attr", "value": -1}]},
    {"inputs": [{"name": "x", "type": "tensor", "dtype": "float32", "shape": [16, 64]}, {"name": "dim", "type": "attr", "value": -1}]},
    {"inputs": [{"name": "x", "type": "tensor", "dtype": "float32", "shape": [3, 17]}, {"name": "dim", "type": "attr", "value": -1}]},
]
_DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}


class Model(nn.Module):
    """y = softmax(x, dim). x: any shape, float32/float16/bfloat16; dim: int (-1 here)."""

    def __init__(self):
        super().__init__()

    def forward(self, x, dim=-1):
        return torch.softmax(x, dim=dim)


def _cases():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.jsonl")
    if os.path.exists(path):
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    return _EMBEDDED


def get_input_groups():
    groups = []
    for case in _cases():
        inputs = []
        for spec in case["inputs"]:
            if spec["type"] == "tensor":
                inputs.append(torch.randn(spec["shape"], dtype=_DTYPES[spec["dtype"]]))
            else:
                inputs.append(spec["value"])
        groups.append(inputs)
    return groups


def get_init_inputs():
    return []
