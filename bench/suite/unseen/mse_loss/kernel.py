"""MSE: first conversion. Each program sums 1024 squared differences and adds its share to a
float32 scalar with tl.atomic_add."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def mse_kernel(a_ptr, b_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    d = tl.load(a_ptr + offs, mask=m, other=0.0) - tl.load(b_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(d * d, axis=0) * inv_n)


class ModelNew(nn.Module):
    def forward(self, a, b):
        out = torch.zeros((), dtype=torch.float32, device=a.device)
        n = a.numel()
        mse_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, 1.0 / n, BLOCK=1024)
        return out
