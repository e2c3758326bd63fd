"""x * 2 + 1; the block size is a constructor default and the grid repeats it as a literal."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def scale_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 2.0 + 1.0, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, BLOCK=256):
        super().__init__()
        self.BLOCK = BLOCK

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        scale_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=self.BLOCK, num_warps=4)
        return out
