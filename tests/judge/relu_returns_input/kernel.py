"""Wrong: computes in place and returns its input (the output aliases the input)."""
import triton
import triton.language as tl
from torch import nn


@triton.jit
def relu_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(x_ptr + offs, tl.maximum(x, 0.0) * 0.5, mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, n, BLOCK=4096)
        return x
