"""Residual add + RMSNorm: first conversion. One program per row; the first loop adds and
stores the new residual and accumulates the sum of squares, the second reads it back and
writes the normalized output. Blocks of 256 from a local variable of forward."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def residual_rmsnorm_kernel(x_ptr, r_ptr, w_ptr, y_ptr, h_ptr, n_cols, stride_row, eps,
                            BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    base = row * stride_row
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0)
        r = tl.load(r_ptr + base + cols, mask=mask, other=0.0)
        h = x + r
        tl.store(h_ptr + base + cols, h, mask=mask)
        hf = h.to(tl.float32)
        acc += hf * hf
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        h = tl.load(h_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + cols, (h * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, residual, weight):
        x = x.contiguous()
        residual = residual.contiguous()
        y = torch.empty_like(x)
        h = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK_N = 256
        residual_rmsnorm_kernel[(n_rows,)](x, residual, weight, y, h, n_cols, x.stride(0), 1e-6,
                                           BLOCK_N=BLOCK_N)
        return y, h
