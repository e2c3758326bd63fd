"""persistent_grid_scale's kernel (ref.py is its), the block's start computed by a
@triton.jit helper that reads tl.program_id itself: a rewrite that changes which program runs
which elements rewrites the kernel's own reads only, so it must refuse. The kernel also reads
tl.program_id (the `pid >= 0` term, always true), so the rewrites get past "never calls
tl.program_id" to the helper."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def block_start(BLOCK: tl.constexpr):
    return tl.program_id(axis=0) * BLOCK


@triton.jit
def scale_shift_kernel(x_ptr, s_ptr, b_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = block_start(BLOCK) + tl.arange(0, BLOCK)
    pid = tl.program_id(axis=0)
    mask = (offs < n) & (pid >= 0)
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
