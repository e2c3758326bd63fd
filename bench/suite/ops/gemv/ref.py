"""Decode-time matrix-vector product y = W x in bfloat16 (one token through an MLP
projection, 4096 -> 14336): memory-bound, the weight is read once.

Sizes: W 14336 x 4096 on a GPU; 96 x 512 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N, K = (96, 512) if SMALL else (14336, 4096)


class Model(nn.Module):
    def forward(self, w, x):
        return torch.mv(w, x)


def get_inputs():
    return [torch.randn(N, K, dtype=torch.bfloat16), torch.randn(K, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
