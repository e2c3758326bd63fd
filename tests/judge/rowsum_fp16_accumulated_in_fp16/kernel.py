"""Wrong: block sums accumulated in a float16 running sum (the reference accumulates in
float32 and returns float32)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rowsum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([1], dtype=tl.float16)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        acc = (acc + tl.sum(v.to(tl.float32), axis=0)).to(tl.float16)
    tl.store(out_ptr + row + tl.arange(0, 1), acc.to(tl.float32))


class ModelNew(nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.empty(n_rows, dtype=torch.float32, device=x.device)
        rowsum_kernel[(n_rows,)](x, out, n_cols, BLOCK=64)
        return out
