"""Correct: one program per row, k rounds of "take the largest, remove it", the lowest id
first on a tie (the reverse of the reference's order)."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def topk_kernel(x_ptr, w_ptr, idx_ptr, n, k, BLOCK: tl.constexpr, BLOCK_K: tl.constexpr):
    row = tl.program_id(0)
    e = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + e, mask=e < n, other=float("-inf"))
    ks = tl.arange(0, BLOCK_K)
    vals = tl.zeros([BLOCK_K], dtype=tl.float32)
    ids = tl.zeros([BLOCK_K], dtype=tl.int64)
    for j in range(k):
        m = tl.max(x, axis=0)
        i = tl.min(tl.where(x == m, e, BLOCK), axis=0)
        vals = tl.where(ks == j, m, vals)
        ids = tl.where(ks == j, i.to(tl.int64), ids)
        x = tl.where(e == i, float("-inf"), x)
    tl.store(w_ptr + row * k + ks, vals, mask=ks < k)
    tl.store(idx_ptr + row * k + ks, ids, mask=ks < k)


class ModelNew(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, x):
        n_rows, n = x.shape
        w = torch.empty(n_rows, self.k, dtype=x.dtype, device=x.device)
        idx = torch.empty(n_rows, self.k, dtype=torch.int64, device=x.device)
        topk_kernel[(n_rows,)](x, w, idx, n, self.k, BLOCK=triton.next_power_of_2(n),
                               BLOCK_K=triton.next_power_of_2(self.k))
        return w, idx
