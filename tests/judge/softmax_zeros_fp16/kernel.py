"""Wrong: writes zeros. Every softmax value here (~1/4096) is below fp16's atol of 1e-3, so
a plain allclose would pass it (KernelBench #165)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def zeros_kernel(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32).to(out_ptr.dtype.element_ty), mask=offs < n)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = out.numel()
        zeros_kernel[(triton.cdiv(n, 4096),)](out, n, BLOCK=4096)
        return out
