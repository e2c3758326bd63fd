"""Row sums that assume the row length is a multiple of BLOCK: the loads carry no mask, so a
block wider than the row would read past its end. row_single_block must refuse it."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        acc += tl.load(x_ptr + row * stride + off + tl.arange(0, BLOCK))
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        rows, n = x.shape
        out = torch.empty(rows, dtype=x.dtype, device=x.device)
        row_sum_kernel[(rows,)](x, out, x.stride(0), n, BLOCK=64)
        return out
