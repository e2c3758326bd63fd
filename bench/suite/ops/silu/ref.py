"""SiLU (the activation of gated MLPs) on a bfloat16 activation matrix.

Sizes: 8192 x 14336 (tokens x Llama-3-8B intermediate size) on a GPU; 16 x 1000 under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (16, 1000) if SMALL else (8192, 14336)


class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.silu(x)


def get_inputs():
    return [torch.randn(M, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
