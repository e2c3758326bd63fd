"""Transpose + add: first conversion. A 2-D grid of 16 x 16 tiles, tile sizes as constructor
defaults; x read through its strides (column-wise)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def tadd_kernel(x_ptr, y_ptr, o_ptr, M, N, sxm, sxn, sym, syn, TM: tl.constexpr, TN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    rm = pm * TM + tl.arange(0, TM)
    rn = pn * TN + tl.arange(0, TN)
    msk = (rm[:, None] < M) & (rn[None, :] < N)
    xt = tl.load(x_ptr + rn[None, :] * sxm + rm[:, None] * sxn, mask=msk)
    yv = tl.load(y_ptr + rm[:, None] * sym + rn[None, :] * syn, mask=msk)
    tl.store(o_ptr + rm[:, None] * N + rn[None, :], xt + yv, mask=msk)


class ModelNew(nn.Module):
    def __init__(self, TM=16, TN=16):
        super().__init__()
        self.TM, self.TN = TM, TN

    def forward(self, x, y):
        M, N = y.shape
        o = torch.empty((M, N), dtype=y.dtype, device=y.device)
        grid = (triton.cdiv(M, self.TM), triton.cdiv(N, self.TN))
        tadd_kernel[grid](x, y, o, M, N, x.stride(0), x.stride(1), y.stride(0), y.stride(1), TM=self.TM, TN=self.TN)
        return o
