"""Mean over dim 0 of a float16 matrix (a batch mean of activations).

Sizes: 16384 x 4096 on a GPU; 50 x 30 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (50, 30) if SMALL else (16384, 4096)
class Model(nn.Module):
    def forward(self, x):
        return x.float().mean(dim=0).to(x.dtype)
def get_inputs():
    return [torch.randn(M, N, dtype=torch.float16)]
def get_init_inputs():
    return []
