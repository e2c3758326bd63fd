"""Histogram with a segment maximum, first conversion: each program takes a block of values and
adds one to its bins' counts and raises their maxima with atomics."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def hist_kernel(bins_ptr, vals_ptr, counts_ptr, top_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    b = tl.load(bins_ptr + offs, mask=mask, other=0)
    v = tl.load(vals_ptr + offs, mask=mask, other=0)
    dst = counts_ptr + b
    tl.atomic_add(dst, tl.full([BLOCK], 1, tl.int32), mask=mask)
    tl.atomic_max(pointer=tl.multiple_of(top_ptr, 4) + b, val=v, mask=mask)


class ModelNew(nn.Module):
    def forward(self, bins, vals):
        n = bins.numel()
        counts = torch.zeros(37, dtype=torch.int32, device=bins.device)
        top = torch.full((37,), -1, dtype=torch.int32, device=bins.device)
        hist_kernel[(triton.cdiv(n, 256),)](bins, vals, counts, top, n, BLOCK=256)
        return counts, top
