"""LayerNorm: first conversion through block pointers. One program per row: a 1-D block
pointer over the row advanced by 512 per step (boundary_check, zero padding) for the sums of
x and x^2, then a second walk normalising with weight and bias."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def layernorm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, N, stride_row, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_blk = tl.make_block_ptr(base=x_ptr + row * stride_row, shape=(N,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK_N,), order=(0,))
    s = tl.zeros([BLOCK_N], dtype=tl.float32)
    sq = tl.zeros([BLOCK_N], dtype=tl.float32)
    for _ in range(0, N, BLOCK_N):
        x = tl.load(x_blk, boundary_check=(0,), padding_option="zero").to(tl.float32)
        s += x
        sq += x * x
        x_blk = tl.advance(x_blk, (BLOCK_N,))
    mean = tl.sum(s, axis=0) / N
    var = tl.sum(sq, axis=0) / N - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    x_blk = tl.make_block_ptr(base=x_ptr + row * stride_row, shape=(N,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK_N,), order=(0,))
    y_blk = tl.make_block_ptr(base=y_ptr + row * stride_row, shape=(N,), strides=(1,), offsets=(0,),
                              block_shape=(BLOCK_N,), order=(0,))
    w_blk = tl.make_block_ptr(base=w_ptr, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK_N,),
                              order=(0,))
    b_blk = tl.make_block_ptr(base=b_ptr, shape=(N,), strides=(1,), offsets=(0,), block_shape=(BLOCK_N,),
                              order=(0,))
    for _ in range(0, N, BLOCK_N):
        x = tl.load(x_blk, boundary_check=(0,), padding_option="zero").to(tl.float32)
        w = tl.load(w_blk, boundary_check=(0,), padding_option="zero").to(tl.float32)
        b = tl.load(b_blk, boundary_check=(0,), padding_option="zero").to(tl.float32)
        y = (x - mean) * rstd * w + b
        tl.store(y_blk, y.to(y_ptr.dtype.element_ty), boundary_check=(0,))
        x_blk = tl.advance(x_blk, (BLOCK_N,))
        y_blk = tl.advance(y_blk, (BLOCK_N,))
        w_blk = tl.advance(w_blk, (BLOCK_N,))
        b_blk = tl.advance(b_blk, (BLOCK_N,))


class ModelNew(nn.Module):
    def forward(self, x, weight, bias):
        x = x.contiguous()
        y = torch.empty_like(x)
        m, n = x.shape
        layernorm_fwd[(m,)](x, weight, bias, y, n, x.stride(0), 1e-5, BLOCK_N=512)
        return y
