"""Rotary position embedding (NeoX / Llama "rotate half" form) applied to bfloat16 query
heads with per-position float32 cos/sin tables: out = x * cos + rotate_half(x) * sin.

Sizes: 8192 tokens x 32 heads x 128 head dim on a GPU; 16 x 4 x 64 under TRITON_INTERPRET=1
or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
T, H, D = (16, 4, 64) if SMALL else (8192, 32, 128)


class Model(nn.Module):
    def forward(self, x, cos, sin):
        half = x.shape[-1] // 2
        xf = x.float()
        x1, x2 = xf[..., :half], xf[..., half:]
        c, s = cos[:, None, :], sin[:, None, :]
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def get_inputs():
    pos = torch.arange(T, dtype=torch.float32)
    inv_freq = 1.0 / (10000.0 ** (torch.arange(0, D, 2, dtype=torch.float32) / D))
    ang = pos[:, None] * inv_freq[None, :]
    return [torch.randn(T, H, D, dtype=torch.bfloat16), torch.cos(ang), torch.sin(ang)]


def get_init_inputs():
    return []
