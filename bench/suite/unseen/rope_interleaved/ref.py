"""Interleaved (GPT-J style) rotary embedding, float16 activations, float32 tables."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
T, H, D = (5, 3, 16) if SMALL else (8192, 32, 128)


class Model(nn.Module):
    def forward(self, x, cos, sin):
        xf = x.float()
        a, b = xf[..., 0::2], xf[..., 1::2]
        c, s = cos[:, None, :], sin[:, None, :]
        y = torch.stack((a * c - b * s, a * s + b * c), dim=-1).flatten(-2)
        return y.to(x.dtype)


def get_inputs():
    ang = torch.rand(T, D // 2) * 6.3
    return [torch.randn(T, H, D, dtype=torch.float16), ang.cos(), ang.sin()]


def get_init_inputs():
    return []
