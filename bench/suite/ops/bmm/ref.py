"""Batched float16 matrix product C[i] = A[i] @ B[i] (float32 accumulation).

Sizes: 8 x 2048 x 2048 x 2048 on a GPU; 2 x 64 x 64 x 64 under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, M, N, K = (2, 64, 64, 64) if SMALL else (8, 2048, 2048, 2048)


class Model(nn.Module):
    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(B, M, K, dtype=torch.float16), torch.randn(B, K, N, dtype=torch.float16)]


def get_init_inputs():
    return []
