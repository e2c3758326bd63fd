"""Leaky ReLU whose kernel asks Triton not to specialise the length, the slope and the output
pointer's alignment (a user keeping one compiled kernel for every size)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit(do_not_specialize=["n", "slope"], do_not_specialize_on_alignment=(1,))
def leaky_relu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * slope), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        leaky_relu_kernel[(triton.cdiv(n, 256),)](x, y, n, 0.01, BLOCK=256)
        return y
