"""Scatter-add: first conversion. The output is zero-filled, then one program per source row
adds it into its destination row with atomics, looping over the row in blocks of 128."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def scatter_add_kernel(ids_ptr, src_ptr, out_ptr, dim, BLOCK: tl.constexpr):
    i = tl.program_id(0)
    dst = tl.load(ids_ptr + i)
    for start in range(0, dim, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < dim
        v = tl.load(src_ptr + i * dim + cols, mask=mask)
        tl.atomic_add(out_ptr + dst * dim + cols, v, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_rows):
        super().__init__()
        self.num_rows = num_rows

    def forward(self, ids, src):
        src = src.contiguous()
        n, dim = src.shape
        out = torch.zeros(self.num_rows, dim, dtype=src.dtype, device=src.device)
        scatter_add_kernel[(n,)](ids, src, out, dim, BLOCK=128)
        return out
