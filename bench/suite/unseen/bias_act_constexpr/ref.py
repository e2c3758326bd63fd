"""A linear layer's epilogue: y = silu(x + bias), bias per column, 16384 x 8192 float16.

Sizes: 16384 x 8192 on a GPU; 5 x 300 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
import torch.nn.functional as F
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (5, 300) if SMALL else (16384, 8192)


class Model(nn.Module):
    def __init__(self, activation):
        super().__init__()
        self.activation = activation

    def forward(self, x, bias):
        return F.silu(x.float() + bias.float()).to(x.dtype)


def get_inputs():
    return [torch.randn(M, N, dtype=torch.float16), torch.randn(N, dtype=torch.float16)]


def get_init_inputs():
    return ["silu"]
