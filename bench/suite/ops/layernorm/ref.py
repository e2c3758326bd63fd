"""LayerNorm over the hidden dimension with weight and bias (float16 activations, eps 1e-5).

Sizes: 8192 x 4096 (tokens x hidden) on a GPU; 16 x 1000 under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (16, 1000) if SMALL else (8192, 4096)
EPS = 1e-5


class Model(nn.Module):
    def forward(self, x, weight, bias):
        return torch.nn.functional.layer_norm(x, (x.shape[-1],), weight, bias, EPS)


def get_inputs():
    return [torch.randn(M, N, dtype=torch.float16), torch.randn(N, dtype=torch.float16),
            torch.randn(N, dtype=torch.float16)]


def get_init_inputs():
    return []
