"""y = x * scale + shift with a tiny block: one program per 64 elements, so the launch is
mostly program start-up."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, s_ptr, b_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    s = tl.load(s_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * s + b, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, scale, shift):
        y = torch.empty_like(x)
        n = x.numel()
        scale_shift_kernel[(triton.cdiv(n, 64),)](x, scale, shift, y, n, BLOCK=64)
        return y
