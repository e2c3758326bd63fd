"""x * 2 + 1; the block size is a module-level constant."""
import torch
import triton
import triton.language as tl
from torch import nn

BLOCK_SIZE = 512  # elements per program


@triton.jit
def scale_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 2.0 + 1.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        grid = ((x.numel() + BLOCK_SIZE - 1) // BLOCK_SIZE,)
        scale_kernel[grid](x, out, x.numel(), BLOCK=BLOCK_SIZE, num_warps=4)
        return out
