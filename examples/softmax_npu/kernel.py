"""Softmax over the last dimension: a Triton kernel with a runtime-length loop over column
blocks (online max/sum), masks, and reductions (tl.max, tl.sum). One program per row."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, stride_x, stride_o, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    o_row = out_ptr + row * stride_o
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alive = m_new > float("-inf")
        alpha = tl.where(alive, tl.exp(m - m_new), 0.0)
        e = tl.where(alive, tl.exp(x - m_new), 0.0)
        s = s * alpha + e
        m = m_new
    row_max = tl.max(m, axis=0)
    row_sum = tl.sum(tl.where(m > float("-inf"), s * tl.exp(m - row_max), 0.0), axis=0)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        y = tl.exp(x - row_max) / row_sum
        tl.store(o_row + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, BLOCK=128, num_warps=4):
        super().__init__()
        self.BLOCK = BLOCK
        self.num_warps = num_warps

    def forward(self, x, dim=-1):
        if dim not in (-1, x.dim() - 1):
            raise ValueError("this kernel handles the last dimension only")
        x2 = x.contiguous().view(-1, x.shape[-1])
        out = torch.empty_like(x2)
        n_rows, n_cols = x2.shape
        softmax_kernel[(n_rows,)](x2, out, n_cols, x2.stride(0), out.stride(0), BLOCK=self.BLOCK,
                                  num_warps=self.num_warps)
        return out.view(x.shape)
