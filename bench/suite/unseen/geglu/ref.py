"""GeGLU on float16 (the gated MLP of T5/Gemma-style models)."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (6, 100) if SMALL else (8192, 8192)


class Model(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2, dim=-1)
        return (torch.nn.functional.gelu(a.float(), approximate="tanh") * b.float()).to(x.dtype)


def get_inputs():
    return [torch.randn(M, 2 * N, dtype=torch.float16)]


def get_init_inputs():
    return []
