"""Reads every other element (a strided 1-D access): no block size gives 128-bit loads, so
elementwise_vector must refuse it."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def double_even_kernel(x_ptr, y_ptr, n_out, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    x = tl.load(x_ptr + offs * 2, mask=mask)
    tl.store(y_ptr + offs, x * 2, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        n_out = (x.numel() + 1) // 2
        y = torch.empty(n_out, device=x.device, dtype=x.dtype)
        double_even_kernel[(triton.cdiv(n_out, 256),)](x, y, n_out, BLOCK=256)
        return y
