"""Interleaved RoPE: first conversion (bench/suite/unseen/rope_interleaved). One program per
(token, head); even and odd elements loaded with stride 2 and written back the same way."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rope_i_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, H, D, HALF: tl.constexpr):
    pid = tl.program_id(0)
    t = pid // H
    i = tl.arange(0, HALF)
    base = pid * D
    a = tl.load(x_ptr + base + 2 * i).to(tl.float32)
    b = tl.load(x_ptr + base + 2 * i + 1).to(tl.float32)
    c = tl.load(cos_ptr + t * HALF + i)
    s = tl.load(sin_ptr + t * HALF + i)
    tl.store(y_ptr + base + 2 * i, (a * c - b * s).to(tl.float16))
    tl.store(y_ptr + base + 2 * i + 1, (a * s + b * c).to(tl.float16))


class ModelNew(nn.Module):
    def forward(self, x, cos, sin):
        x = x.contiguous()
        T, H, D = x.shape
        y = torch.empty_like(x)
        rope_i_kernel[(T * H,)](x, cos, sin, y, H, D, HALF=D // 2)
        return y
