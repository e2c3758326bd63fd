"""One program per row: the mean, then the variance of (x - mean), in float32 lanes:
correct."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(acc, axis=0) / n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        d = tl.where(cols < n_cols, tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0) - mean, 0.0)
        acc += d * d
    inv = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0)
        tl.store(y_ptr + base + cols, (x - mean) * inv * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden=2048):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)
        with torch.no_grad():
            self.norm.weight.copy_(torch.rand(hidden) + 0.5)
            self.norm.bias.copy_(torch.randn(hidden) * 0.1)

    def forward(self, x):
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        layernorm_kernel[(n_rows,)](x, self.norm.weight, self.norm.bias, y, n_cols, self.norm.eps, BLOCK=1024)
        return y
