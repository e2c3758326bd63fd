"""One program per row: h = x + r stored in float16, the sum of squares of the float32 h in
float32 lanes, then y = h * rsqrt(mean + eps) * w; another order and rounding sequence than
PyTorch's (the weight is applied in float32 before the one rounding): correct."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rmsnorm_kernel(x_ptr, r_ptr, w_ptr, h_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    sq = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        h = tl.load(x_ptr + base + cols, mask=mask, other=0.0) + tl.load(r_ptr + base + cols, mask=mask, other=0.0)
        tl.store(h_ptr + base + cols, h, mask=mask)
        hf = h.to(tl.float32)
        sq += hf * hf
    inv = 1.0 / tl.sqrt(tl.sum(sq, axis=0) / n_cols + eps)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        hf = tl.load(h_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + cols, (hf * inv * w).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden=4096, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden).to(torch.float16) + 0.5)
        self.eps = eps

    def forward(self, x, r):
        n_rows, n_cols = x.shape
        h = torch.empty_like(x)
        y = torch.empty_like(x)
        rmsnorm_kernel[(n_rows,)](x, r, self.weight, h, y, n_cols, self.eps, BLOCK=1024)
        return h, y
