"""LayerNorm, written the way libraries that serve many shapes write it: the kernel is compiled
once for every row count, length, stride and eps (do_not_specialize). One program per row walks
it in blocks of 512: mean and variance, then the normalised row with weight and bias."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit(do_not_specialize=["M", "N", "stride", "eps"])
def layer_norm_kernel(X, Y, W, B, M, N, stride, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    acc2 = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        acc += x
        acc2 += x * x
    mean = tl.sum(acc, axis=0) / N
    var = tl.sum(acc2, axis=0) / N - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
        b = tl.load(B + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(Y + cols, ((x - mean) * rstd * w + b).to(Y.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, weight, bias):
        M, N = x.shape
        y = torch.empty_like(x)
        layer_norm_kernel[(M,)](x, y, weight, bias, M, N, x.stride(0), 1e-5, BLOCK_N=512)
        return y
