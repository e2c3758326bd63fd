"""relu(x + 0.5) on a float32 vector of 1e8 elements (not a power of two)."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N = 3000 if SMALL else 100_000_000


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x + 0.5)


def get_inputs():
    return [torch.randn(N, dtype=torch.float32)]


def get_init_inputs():
    return []
