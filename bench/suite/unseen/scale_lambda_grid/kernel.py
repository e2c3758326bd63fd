"""x * alpha + beta: first conversion. The block a class attribute read as self.BLOCK, the grid
the user's own lambda over meta["BLOCK"]."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def axpb_kernel(x_ptr, y_ptr, n, alpha, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * alpha + beta, mask=mask)


class ModelNew(nn.Module):
    BLOCK = 256

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        grid = lambda META: (triton.cdiv(n, META["BLOCK"]),)
        axpb_kernel[grid](x, y, n, 1.5, 0.25, BLOCK=self.BLOCK)
        return y
