"""RMSNorm (Llama) over the hidden axis of a batch of sequences, bfloat16 activations and
weight, statistics in float32, eps 1e-6.

Sizes: 16 x 1024 x 2048 on a GPU; 3 x 8 x 300 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, T, D = (3, 8, 300) if SMALL else (16, 1024, 2048)
EPS = 1e-6


class Model(nn.Module):
    def forward(self, x, weight):
        xf = x.float()
        rstd = torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + EPS)
        return (xf * rstd * weight.float()).to(x.dtype)


def get_inputs():
    return [torch.randn(B, T, D, dtype=torch.bfloat16), torch.randn(D, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
