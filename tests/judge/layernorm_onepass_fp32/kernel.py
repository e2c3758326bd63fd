"""Wrong here: the one-pass variance E[x^2] - E[x]^2 in float32; with a mean of 1000 and a
spread of 1 it cancels away most of its digits (a numerically unstable formula, not a
reordering)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / n_cols
    var = tl.maximum(tl.sum(acc2, axis=0) / n_cols - mean * mean, 0.0)
    inv = 1.0 / tl.sqrt(var + eps)
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
