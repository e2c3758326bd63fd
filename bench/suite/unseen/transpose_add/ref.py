"""out = x.T + y in float16 (a transposed residual).

Sizes: 8192 x 8192 on a GPU; 40 x 72 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (40, 72) if SMALL else (8192, 8192)
class Model(nn.Module):
    def forward(self, x, y):
        return x.t() + y
def get_inputs():
    return [torch.randn(N, M, dtype=torch.float16), torch.randn(M, N, dtype=torch.float16)]
def get_init_inputs():
    return []
