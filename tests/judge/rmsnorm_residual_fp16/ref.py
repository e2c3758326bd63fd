"""Fused residual add + RMSNorm in float16 (DESIGN section 7's H200 case, smaller): returns
(h, y) with h = x + r and y = h / sqrt(mean(h^2) + eps) * w, statistics in float32: 16 x
4096 (KOPT_JUDGE_SCALE=s: 16*s rows)."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
ROWS, HIDDEN = 16 * SCALE, 4096


class Model(nn.Module):
    def __init__(self, hidden=HIDDEN, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden).to(torch.float16) + 0.5)
        self.eps = eps

    def forward(self, x, r):
        h = x + r
        hf = h.float()
        y = hf * torch.rsqrt(hf.pow(2).mean(dim=-1, keepdim=True) + self.eps)
        return h, y.to(h.dtype) * self.weight


def get_inputs():
    return [torch.randn(ROWS, HIDDEN).to(torch.float16), torch.randn(ROWS, HIDDEN).to(torch.float16)]


def get_init_inputs():
    return []
