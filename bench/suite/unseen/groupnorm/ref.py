"""GroupNorm (32 groups, eps 1e-5) of a 32 x 512 x 32 x 32 float16 tensor with per-channel
weight and bias: Model computes the truth in float32; Peer is what a user runs (float16
through torch's group_norm), which baselines time as eager and torch.compile.

Sizes: 32 x 512 x 32 x 32 on a GPU; 2 x 8 x 5 x 7 (4 groups) under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
import torch.nn.functional as F
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, C, H, W = (2, 8, 5, 7) if SMALL else (32, 512, 32, 32)
GROUPS = 4 if SMALL else 32
EPS = 1e-5


class Model(nn.Module):
    def __init__(self, groups, eps):
        super().__init__()
        self.groups, self.eps = groups, eps

    def forward(self, x, weight, bias):
        return F.group_norm(x.float(), self.groups, weight.float(), bias.float(), self.eps).to(x.dtype)


class Peer(Model):
    def forward(self, x, weight, bias):
        return F.group_norm(x, self.groups, weight, bias, self.eps)


def get_inputs():
    return [torch.randn(B, C, H, W, dtype=torch.float16) * 2 + 0.5, torch.rand(C, dtype=torch.float16) + 0.5,
            torch.randn(C, dtype=torch.float16)]


def get_init_inputs():
    return [GROUPS, EPS]
