"""LayerNorm as two kernels: row mean (kept in float64) and reciprocal standard deviation
(the program id through a 64-bit name, the first block from a parameter default), then the
normalisation; the grid in a local name."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_stats(x_ptr, mean_ptr, rstd_ptr, stride, N, eps, BLOCK: tl.constexpr = 64):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0)
    mean = tl.sum(acc, axis=0) / N
    var = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        d = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0) - mean
        var += tl.where(cols < N, d * d, 0.0)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(tl.sum(var, axis=0) / N + eps))


@triton.jit
def ln_apply(x_ptr, y_ptr, mean_ptr, rstd_ptr, stride, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    mean = tl.load(mean_ptr + row)
    rstd = tl.load(rstd_ptr + row).to(tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0)
        tl.store(y_ptr + row * stride + cols, (v - mean) * rstd, mask=cols < N)


class ModelNew(nn.Module):
    def forward(self, x):
        rows, n = x.shape
        mean = torch.empty(rows, dtype=torch.float64, device=x.device)
        rstd = torch.empty(rows, dtype=torch.float32, device=x.device)
        y = torch.empty_like(x)
        grid = (rows,)
        ln_stats[grid](x, mean, rstd, x.stride(0), n, 1e-5)
        ln_apply[grid](x, y, mean, rstd, x.stride(0), n, BLOCK=128)
        return y
