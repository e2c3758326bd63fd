"""Raises an exception whose text is long and not ASCII: the job's error quotes it, cut to
the worker's buffer, which must not split a character (the database refuses invalid UTF-8,
and the job could not be finished)."""
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
        out = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK_SIZE=1024)
        # "x" then three-byte characters: a cut at any byte count lands inside one two times in
        # three; with this prefix the worker's 1023-byte cut does.
        raise ValueError("x" + "\u20ac" * 500)
