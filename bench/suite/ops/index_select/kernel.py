"""index_select: first conversion. A 2-D grid: one program per (selected row, block of 64
columns); 64 written in the grid and at the launch."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def index_select_kernel(x_ptr, idx_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < dim
    src = tl.load(idx_ptr + i)
    v = tl.load(x_ptr + src * dim + cols, mask=mask)
    tl.store(out_ptr + i * dim + cols, v, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, index):
        x = x.contiguous()
        k = index.numel()
        dim = x.shape[1]
        out = torch.empty(k, dim, dtype=x.dtype, device=x.device)
        index_select_kernel[(k, triton.cdiv(dim, 64))](x, index, out, dim, BLOCK=64)
        return out
