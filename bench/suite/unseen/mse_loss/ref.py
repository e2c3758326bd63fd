"""Mean squared error of two float32 vectors (2^26 elements): a full reduction to a scalar."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N = 4000 if SMALL else 1 << 26


class Model(nn.Module):
    def forward(self, a, b):
        return torch.nn.functional.mse_loss(a, b)


def get_inputs():
    return [torch.randn(N, dtype=torch.float32), torch.randn(N, dtype=torch.float32)]


def get_init_inputs():
    return []
