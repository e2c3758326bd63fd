"""Bias + GELU over a 2-D grid (row, column block): BLOCK_N is named like a tile of a matmul
but the kernel has no tl.dot, so its domain is that of a 1-D block (rows of thousands), not
16..256."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def bias_gelu_2d(x_ptr, b_ptr, y_ptr, N, stride, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cb = tl.program_id(1)
    cols = cb * BLOCK_N + tl.arange(0, BLOCK_N)
    m = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=m) + tl.load(b_ptr + cols, mask=m)
    y = 0.5 * x * (1 + tl.erf(x * 0.7071067811865476))
    tl.store(y_ptr + row * stride + cols, y, mask=m)

class ModelNew(nn.Module):
    def forward(self, x, b):
        M, N = x.shape
        y = torch.empty_like(x)
        BLOCK_N = 128
        bias_gelu_2d[(M, triton.cdiv(N, BLOCK_N))](x, b, y, N, x.stride(0), BLOCK_N=BLOCK_N)
        return y
