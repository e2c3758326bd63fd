"""Row sum: first conversion. One program per row, a loop over the row in blocks of 128
(a module-level constant), a vector accumulator reduced at the end."""
import torch
import triton
import triton.language as tl
from torch import nn

BLOCK = 128


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=0.0)
        acc += x
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty(n_rows, dtype=x.dtype, device=x.device)
        row_sum_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK=BLOCK)
        return out
