"""Square float16 matrix product C = A @ B (float32 accumulation).

Sizes: 4096 x 4096 x 4096 on a GPU; 128 x 128 x 128 under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M = N = K = 128 if SMALL else 4096


class Model(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16), torch.randn(K, N, dtype=torch.float16)]


def get_init_inputs():
    return []
