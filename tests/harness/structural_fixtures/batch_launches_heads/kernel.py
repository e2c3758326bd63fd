"""Per-head scale plus one: the first version launches the kernel once per head from a Python
loop, each launch on that head's row (x[h], y[h]) and the shared weight."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_kernel(x_ptr, w_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    w = tl.load(w_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * w + 1.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x, w):
        y = torch.empty_like(x)
        n = x.shape[1]
        for h in range(x.shape[0]):
            scale_kernel[(triton.cdiv(n, 128),)](x[h], w, y[h], n, BLOCK=128)
        return y
