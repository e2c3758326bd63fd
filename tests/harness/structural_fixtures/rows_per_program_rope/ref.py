"""Rotary position embedding ("rotate half") on float16 heads, float32 cos/sin (reference) for
the suite's RoPE kernel (kernel.py links to it): 7 tokens x 3 heads = 21 programs, a number no
power of two divides, half heads of 16."""
import torch
import torch.nn as nn

T, H, D = 7, 3, 32


class Model(nn.Module):
    def forward(self, x, cos, sin):
        half = x.shape[-1] // 2
        xf = x.float()
        x1, x2 = xf[..., :half], xf[..., half:]
        c, s = cos[:, None, :], sin[:, None, :]
        return torch.cat([x1 * c - x2 * s, x2 * c + x1 * s], dim=-1).to(x.dtype)


def get_inputs():
    ang = torch.arange(T, dtype=torch.float32)[:, None] * torch.rand(D // 2)[None, :]
    return [torch.randn(T, H, D, dtype=torch.float16), torch.cos(ang), torch.sin(ang)]


def get_init_inputs():
    return []
