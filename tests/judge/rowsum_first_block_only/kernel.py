"""Wrong on some cases: sums only the first block of 256 columns, which is the whole row in
case 0 (256 columns) but not in cases 1 and 2."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rowsum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(v, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.empty(n_rows, dtype=x.dtype, device=x.device)
        rowsum_kernel[(n_rows,)](x, out, n_cols, BLOCK=256)
        return out
