"""A launch that passes its block and warps in a dict (`k[grid](..., **cfg)`) whose keys the
source shows: a dict display bound once and read only at the launch. Its entries are the
launch's keywords; a knob's change edits the entry, a keyword the dict lacks is added beside."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def _absmax(a, b):
    return tl.maximum(tl.abs(a), tl.abs(b))

@triton.jit
def absmax_kernel(x_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0)
        acc = tl.maximum(acc, tl.abs(x))
    tl.store(y_ptr + row, tl.reduce(acc, 0, _absmax))

class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty(x.shape[0], device=x.device, dtype=x.dtype)
        cfg = {"BLOCK": 128, "num_warps": 2}
        absmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), **cfg)
        return y
