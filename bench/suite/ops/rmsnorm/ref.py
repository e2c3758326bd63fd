"""RMSNorm (Llama) over the hidden dimension, bfloat16 activations and weight, statistics in
float32, eps 1e-6.

Sizes: 8192 x 4096 on a GPU; 16 x 1000 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (16, 1000) if SMALL else (8192, 4096)
EPS = 1e-6


class Model(nn.Module):
    def forward(self, x, weight):
        xf = x.float()
        rstd = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + EPS)
        return (xf * rstd * weight.float()).to(x.dtype)


def get_inputs():
    return [torch.randn(M, N, dtype=torch.bfloat16), torch.randn(N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
