"""Column sums, first version: one program per column walks down its column; consecutive
lanes read addresses a whole row apart (uncoalesced)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def col_sum_kernel(x_ptr, out_ptr, n_rows, stride_row, BLOCK: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        rows = start + tl.arange(0, BLOCK)
        mask = rows < n_rows
        x = tl.load(x_ptr + rows * stride_row + col, mask=mask, other=0.0)
        acc += x.to(tl.float32)
    tl.store(out_ptr + col, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.empty(n_cols, device=x.device, dtype=x.dtype)
        col_sum_kernel[(n_cols,)](x, out, n_rows, x.stride(0), BLOCK=64)
        return out
