"""Illegal address (GPU only): stores far outside the output without a mask. On a GPU this is
"an illegal memory access"; the CUDA context is then unusable and the worker must restart.
Not run on the interpreter (there it would scribble on the harness's own memory)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bad_store_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets + (1 << 40), tl.zeros([BLOCK_SIZE], tl.float32))


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
        out = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK_SIZE=1024)
        bad_store_kernel[(4,)](out, n, BLOCK_SIZE=1024)
        return out
