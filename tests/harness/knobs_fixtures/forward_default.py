"""tanh-GELU whose block is a keyword default of forward itself (the harness calls forward
with the case's inputs only, so the default is what the launch gets)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def gelu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0     # tanh(z) = 2 sigmoid(2z) - 1
    tl.store(out_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, block=128):
        out = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, block),)](x, out, n, BLOCK=block)
        return out
