"""Returns an output tensor of 256 GiB: more than the harness worker's address-space limit
(RLIMIT_AS, 16 GiB on interp) or any GPU's memory. The allocation fails inside the kernel's
forward, which is an out-of-memory verdict; the harness itself is untouched."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def add_kernel(a_ptr, b_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    a = tl.load(a_ptr + offsets, mask=mask)
    b = tl.load(b_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a + b, mask=mask)


class ModelNew(nn.Module):
    def forward(self, a, b):
        out = torch.empty((1 << 36,), dtype=torch.float32, device=a.device)     # 256 GiB
        n = a.numel()
        add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK_SIZE=1024)
        return out
