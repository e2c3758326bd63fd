"""Interleaved RoPE after rows_per_program (kopt's round 1 on the H200): 4 rows of a
[4, 64] tile per program, 15 rows so the last program's fourth row is masked out; the odd
lanes' offsets named (`odd = base + 2 * i + 1`), the mask passed by position."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def rope_i_kernel(x_ptr, cos_ptr, sin_ptr, y_ptr, H, D, HALF: tl.constexpr, n_rows, ROWS: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_mask = rows[:, None] < n_rows
    pid = rows[:, None]
    t = pid // H
    i = tl.arange(0, HALF)
    base = pid * D
    a = tl.load(x_ptr + base + 2 * i, row_mask).to(tl.float32)
    odd = base + 2 * i + 1
    b = tl.load(x_ptr + odd, row_mask).to(tl.float32)
    c = tl.load(cos_ptr + t * HALF + i, mask=row_mask)
    s = tl.load(sin_ptr + t * HALF + i, mask=row_mask)
    tl.store(y_ptr + base + 2 * i, (a * c - b * s).to(tl.float16), mask=row_mask)
    tl.store(y_ptr + odd, (a * s + b * c).to(tl.float16), mask=row_mask)


class ModelNew(nn.Module):
    def forward(self, x, cos, sin):
        x = x.contiguous()
        T, H, D = x.shape
        y = torch.empty_like(x)
        rope_i_kernel[(triton.cdiv(T * H, 4),)](x, cos, sin, y, H, D, HALF=D // 2, n_rows=T * H, ROWS=4,
                                                num_warps=2)
        return y
