"""Column maxima times a per-column weight: one program per column, a running scalar maximum,
the grid in a local variable."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def col_max_kernel(x_ptr, w_ptr, out_ptr, n_rows, stride_row, BLOCK_R: tl.constexpr):
    c = tl.program_id(axis=0)
    best = -float("inf")
    for r0 in range(0, n_rows, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        v = tl.load(x_ptr + c + r * stride_row, mask=r < n_rows, other=-float("inf"))
        best = tl.maximum(best, tl.max(v, axis=0))
    w = tl.load(w_ptr + c)
    tl.store(out_ptr + c, best * w)


class ModelNew(nn.Module):
    def forward(self, x, w):
        n_rows, n_cols = x.shape
        out = torch.empty(n_cols, device=x.device, dtype=x.dtype)
        grid = (n_cols,)
        col_max_kernel[grid](x, w, out, n_rows, x.stride(0), BLOCK_R=32)
        return out
