"""Causal depthwise conv1d (Mamba's causal_conv1d: width 4, zero history) with bias, then
SiLU, over a float16 B x D x L tensor: Model computes the truth in float32; Peer is what a
user runs (float16 F.conv1d, then F.silu), which baselines time as eager and torch.compile.

Sizes: 8 x 4096 x 2048 on a GPU; 2 x 3 x 37 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
import torch.nn.functional as F
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, D, L = (2, 3, 37) if SMALL else (8, 4096, 2048)
K = 4


def conv(x, weight, bias):
    length = x.shape[-1]
    y = F.conv1d(x, weight.unsqueeze(1), bias, padding=weight.shape[1] - 1, groups=x.shape[1])[..., :length]
    return F.silu(y)


class Model(nn.Module):
    def forward(self, x, weight, bias):
        return conv(x.float(), weight.float(), bias.float()).to(x.dtype)


class Peer(nn.Module):
    def forward(self, x, weight, bias):
        return conv(x, weight, bias)


def get_inputs():
    return [torch.randn(B, D, L, dtype=torch.float16), torch.randn(D, K, dtype=torch.float16) * 0.5,
            torch.randn(D, dtype=torch.float16) * 0.1]


def get_init_inputs():
    return []
