"""Column mean: first conversion. One program per column walking down the rows, 32 rows per
step (a literal at the launch)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def colmean_kernel(x_ptr, y_ptr, n_rows, n_cols, ROWS: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros([ROWS], dtype=tl.float32)
    for r0 in range(0, n_rows, ROWS):
        r = r0 + tl.arange(0, ROWS)
        acc += tl.load(x_ptr + r * n_cols + col, mask=r < n_rows, other=0.0).to(tl.float32)
    tl.store(y_ptr + col, (tl.sum(acc, axis=0) / n_rows).to(tl.float16))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty(x.shape[1], dtype=x.dtype, device=x.device)
        colmean_kernel[(x.shape[1],)](x, y, x.shape[0], x.shape[1], ROWS=32)
        return y
