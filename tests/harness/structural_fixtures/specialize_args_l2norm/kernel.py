"""Row L2 normalisation written to be compiled once for every shape: the stride, the row length
and epsilon are kept from specialisation. One program per row walks it twice in blocks of 256."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["stride", "n_cols", "eps"])
def l2norm_kernel(x_ptr, y_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * stride
    ss = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + idx, mask=idx < n_cols, other=0.0).to(tl.float32)
        ss += v * v
    scale = 1.0 / tl.sqrt(tl.sum(ss, axis=0) + eps)
    for start in range(0, n_cols, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        keep = idx < n_cols
        v = tl.load(x_ptr + base + idx, mask=keep, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + idx, (v * scale).to(tl.float16), mask=keep)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        l2norm_kernel[(x.shape[0],)](x, y, x.stride(0), x.shape[1], 1e-12, BLOCK=256, num_warps=1)
        return y
