"""One program per row (the row in one block): writes x * w, and adds the row's squares into a
column sum and its total into a scalar, with tl.atomic_add."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def row_stats_kernel(x_ptr, w_ptr, y_ptr, colsum_ptr, total_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, x * w, mask=mask)
    tl.atomic_add(colsum_ptr + cols, x * x, mask=mask)
    tl.atomic_add(total_ptr, tl.sum(x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x, w):
        m, n = x.shape
        y = torch.empty_like(x)
        colsum = torch.zeros(n, dtype=torch.float32, device=x.device)
        total = torch.zeros(1, dtype=torch.float32, device=x.device)
        row_stats_kernel[(m,)](x, w, y, colsum, total, n, x.stride(0), BLOCK=triton.next_power_of_2(n))
        return y, colsum, total
