"""Wrong: float32 data accumulated in float16 lanes (a lower precision than the
reference's float32 accumulation)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def colsum_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK_R: tl.constexpr):
    col = tl.program_id(0)
    acc = tl.zeros([BLOCK_R], dtype=tl.float16)
    for r0 in range(0, n_rows, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        v = tl.load(x_ptr + rows * n_cols + col, mask=rows < n_rows, other=0.0)
        acc = (acc + v.to(tl.float16)).to(tl.float16)
    tl.store(out_ptr + col, tl.sum(acc.to(tl.float32), axis=0))


class ModelNew(nn.Module):
    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.empty(n_cols, dtype=x.dtype, device=x.device)
        colsum_kernel[(n_cols,)](x, out, n_rows, n_cols, BLOCK_R=2048)
        return out
