"""leaky_relu: the module keeps its kernel and block in attributes set in __init__; the
kernel does not specialise on the length."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit(do_not_specialize=["n"])
def leaky_relu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.where(x >= 0, x, x * slope)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.fn = leaky_relu_kernel
        self.block = 256
        self.slope = 0.01

    @torch.no_grad()
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, self.block),)
        self.fn[grid](x, y, n, self.slope, BLOCK=self.block)
        return y
