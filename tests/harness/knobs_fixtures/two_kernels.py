"""x * 2 + y in two kernels: one launched from forward, one from a helper method."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, a + b, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, y):
        n = x.numel()
        BLOCK = 256
        t = torch.empty_like(x)
        scale_kernel[(triton.cdiv(n, BLOCK),)](x, t, n, BLOCK=BLOCK, num_warps=4)
        out = torch.empty_like(x)
        self._add(t, y, out, n)
        return out

    def _add(self, a, b, out, n):
        add_kernel[(triton.cdiv(n, 128),)](a, b, out, n, BLOCK=128)
