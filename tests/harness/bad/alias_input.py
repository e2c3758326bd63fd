"""Returns an alias of its input: stores the result in a and returns a view of a."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


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
        n = a.numel()
        tmp = torch.empty_like(a)
        add_kernel[(triton.cdiv(n, 1024),)](a, b, tmp, n, BLOCK_SIZE=1024)
        res = a.view(-1)
        # copies the result into a (zero-add) and returns a view of the input
        zero = torch.zeros_like(a)
        add_kernel[(triton.cdiv(n, 1024),)](tmp, zero, res, n, BLOCK_SIZE=1024)
        return res
