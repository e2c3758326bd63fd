"""LayerNorm (eps 1e-5) with weight and bias over the last dim of an 8192 x 4096 bfloat16
tensor, statistics in float32.

Sizes: 8192 x 4096 on a GPU; 7 x 300 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
import torch.nn.functional as F
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (7, 300) if SMALL else (8192, 4096)


class Model(nn.Module):
    def forward(self, x, weight, bias):
        return F.layer_norm(x.float(), (x.shape[-1],), weight.float(), bias.float(), 1e-5).to(x.dtype)


def get_inputs():
    return [torch.randn(M, N, dtype=torch.bfloat16), torch.rand(N, dtype=torch.bfloat16) + 0.5,
            torch.randn(N, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
