"""y = 1.5 x + 0.25."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N = 5000 if SMALL else 1 << 26


class Model(nn.Module):
    def forward(self, x):
        return x * 1.5 + 0.25


def get_inputs():
    return [torch.randn(N, dtype=torch.float32)]


def get_init_inputs():
    return []
