"""RMSNorm: first conversion. One program per row, two loops over the row in blocks of 128
(constructor default): the sum of squares, then the scaled output."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, y_ptr, n_cols, stride_row, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * stride_row + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, BLOCK=128):
        super().__init__()
        self.BLOCK = BLOCK

    def forward(self, x, weight):
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        rmsnorm_kernel[(n_rows,)](x, weight, y, n_cols, x.stride(0), 1e-6, BLOCK=self.BLOCK)
        return y
