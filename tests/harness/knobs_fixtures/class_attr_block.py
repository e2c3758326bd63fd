"""x * 2 + 1; the block size is a class attribute of the model (no __init__) read as
self.BLOCK, and the grid is the user's own lambda over meta['BLOCK']."""
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
    BLOCK = 256

    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
        scale_kernel[grid](x, out, n, BLOCK=self.BLOCK)
        return out
