"""Per-row absmax scaling: first conversion. One program per row, a max loop then a scale
loop over the row; the launch takes BLOCK and num_warps from a dict literal (`**cfg`)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def absmax_scale_kernel(x_ptr, y_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    amax = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        amax = tl.maximum(amax, tl.abs(x))
    s = tl.maximum(tl.max(amax, axis=0), 1e-6)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        tl.store(y_row + cols, (x / s).to(tl.bfloat16), mask=cols < n_cols)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        cfg = {"BLOCK": 128, "num_warps": 4}
        absmax_scale_kernel[(M,)](x, y, x.stride(0), N, **cfg)
        return y
