"""Masked softmax: first conversion. One program per row, three loops over it in blocks of
128: the maximum of the unmasked scores, the sum of their exponentials, then the write (zeros
where the row has no unmasked score)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def masked_softmax_kernel(x_ptr, m_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    mx = tl.full([BLOCK], float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=inb, other=float("-inf")).to(tl.float32)
        masked = tl.load(m_ptr + base + cols, mask=inb, other=1) != 0
        mx = tl.maximum(mx, tl.where(masked, float("-inf"), x))
    row_max = tl.max(mx, axis=0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=inb, other=float("-inf")).to(tl.float32)
        masked = tl.load(m_ptr + base + cols, mask=inb, other=1) != 0
        acc += tl.where(masked, 0.0, tl.exp(x - row_max))
    total = tl.sum(acc, axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=inb, other=0.0).to(tl.float32)
        masked = tl.load(m_ptr + base + cols, mask=inb, other=1) != 0
        y = tl.where(masked, 0.0, tl.exp(x - row_max) / tl.where(total == 0.0, 1.0, total))
        tl.store(y_ptr + base + cols, y.to(tl.float16), mask=inb)


class ModelNew(nn.Module):
    def forward(self, x, mask):
        x = x.contiguous()
        mask = mask.contiguous()
        y = torch.empty_like(x)
        m, n = x.shape
        masked_softmax_kernel[(m,)](x, mask, y, n, BLOCK=128)
        return y
