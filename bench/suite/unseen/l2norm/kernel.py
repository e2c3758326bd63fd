"""L2 normalisation: first conversion. One program per row; one loop sums squares, a second
scales; the block is a module-level constant passed by keyword."""
import torch
import triton
import triton.language as tl
from torch import nn

COLS_PER_STEP = 64


@triton.jit
def l2norm_fwd(X, Y, stride, N, eps, BLOCK: tl.constexpr):
    r = tl.program_id(axis=0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        c = off + tl.arange(0, BLOCK)
        v = tl.load(X + r * stride + c, mask=c < N, other=0.0).to(tl.float32)
        acc += v * v
    inv = 1.0 / tl.maximum(tl.sqrt(tl.sum(acc, axis=0)), eps)
    for off in range(0, N, BLOCK):
        c = off + tl.arange(0, BLOCK)
        v = tl.load(X + r * stride + c, mask=c < N, other=0.0).to(tl.float32)
        tl.store(Y + r * stride + c, (v * inv).to(tl.float16), mask=c < N)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        m, n = x.shape
        grid = (m,)
        l2norm_fwd[grid](X=x, Y=y, stride=x.stride(0), N=n, eps=1e-6, BLOCK=COLS_PER_STEP)
        return y
