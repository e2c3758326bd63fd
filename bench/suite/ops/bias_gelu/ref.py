"""Fused bias add + exact (erf) GELU in float16, as after the first linear layer of an MLP
whose matmul ran without its bias.

Sizes: x 8192 x 11008, bias 11008 (Llama-2-7B intermediate size) on a GPU; 16 x 1000 under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (16, 1000) if SMALL else (8192, 11008)


class Model(nn.Module):
    def forward(self, x, bias):
        return torch.nn.functional.gelu(x + bias)


def get_inputs():
    return [torch.randn(M, N, dtype=torch.float16), torch.randn(N, dtype=torch.float16)]


def get_init_inputs():
    return []
