"""Running maximum along each row (the values of torch.cummax), 4096 x 8192 bfloat16.

Sizes: 4096 x 8192 on a GPU; 6 x 700 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (6, 700) if SMALL else (4096, 8192)


class Model(nn.Module):
    def forward(self, x):
        return torch.cummax(x, dim=1).values


def get_inputs():
    return [torch.randn(M, N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
