"""Inclusive prefix sum along each row of float32 probabilities, as in top-p sampling (the
cumulative mass of sorted token probabilities). Values uniform in [0, 1): the partial sums
grow, so the elementwise tolerance judges them fairly.

Sizes: 1024 x 32000 on a GPU; 8 x 3000 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, V = (8, 3000) if SMALL else (1024, 32000)


class Model(nn.Module):
    def forward(self, p):
        return torch.cumsum(p, dim=-1)


def get_inputs():
    return [torch.rand(B, V)]


def get_init_inputs():
    return []
