import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N = 5000 if SMALL else 1 << 27
class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.leaky_relu(x, 0.01)
def get_inputs():
    return [torch.randn(N, dtype=torch.float16)]
def get_init_inputs():
    return []
