"""Residual add + RMSNorm over the last dimension (reference)."""
import torch
import torch.nn as nn

ROWS, COLS = 6, 300          # small: runs under TRITON_INTERPRET=1 in a fraction of a second


class Model(nn.Module):
    def __init__(self, eps=1e-6):
        super().__init__()
        self.eps = eps

    def forward(self, x, res, w):
        h = x + res
        return h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.eps) * w


def get_inputs():
    return [torch.randn(ROWS, COLS), torch.randn(ROWS, COLS), torch.randn(COLS)]


def get_init_inputs():
    return []
