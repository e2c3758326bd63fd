"""Writes outside its directory through libc (bypasses audit hooks): only the sandbox stops it."""
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


import ctypes
import os

libc = ctypes.CDLL(None, use_errno=True)


class ModelNew(nn.Module):
    def forward(self, a, b):
        out = torch.empty_like(a)
        n = a.numel()
        add_kernel[(triton.cdiv(n, 1024),)](a, b, out, n, BLOCK_SIZE=1024)
        path = os.environ.get("KOPT_TEST_ESCAPE_PATH", "/tmp/outside_libc").encode()
        fd = libc.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        if fd < 0:
            e = ctypes.get_errno()
            raise OSError(e, "libc open failed: " + os.strerror(e))
        libc.close(fd)
        return out
