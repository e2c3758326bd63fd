"""Row normalisation: first conversion. 64-bit row offsets (program_id(0).to(tl.int64)), two
tl.range loops over the row, BLOCK 64."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rownorm_kernel(x_ptr, y_ptr, stride_m, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_m
    y_row = y_ptr + row * stride_m
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.abs(tl.load(x_row + cols, mask=cols < N, other=0.0))
    inv = N / tl.sum(acc, axis=0)
    for start in tl.range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_row + cols, mask=cols < N, other=0.0)
        tl.store(y_row + cols, v * inv, mask=cols < N)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        rownorm_kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1], BLOCK=64)
        return y
