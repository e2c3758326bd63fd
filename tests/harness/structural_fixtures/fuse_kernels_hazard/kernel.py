"""Row softmax as two kernels where the second reads what the first writes beside the
per-row sums: the first stores exp(x - max) into y, the second divides y by the row's sum.
In one kernel that is still right for a row, but the rewrite cannot see that y is read only
at the program's own row, so it refuses: y is written by the first and passed to the second."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def exp_kernel(x_ptr, y_ptr, s_ptr, N, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + r * N + c, mask=c < N, other=float("-inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(y_ptr + r * N + c, e, mask=c < N)
    tl.store(s_ptr + r, tl.sum(e, axis=0))


@triton.jit
def div_kernel(y_ptr, s_ptr, N, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    s = tl.load(s_ptr + r)
    v = tl.load(y_ptr + r * N + c, mask=c < N)
    tl.store(y_ptr + r * N + c, v / s, mask=c < N)


class ModelNew(nn.Module):
    def forward(self, x):
        M, N = x.shape
        y = torch.empty_like(x)
        s = torch.empty(M, dtype=torch.float32, device=x.device)
        exp_kernel[(M,)](x, y, s, N, BLOCK=256)
        div_kernel[(M,)](y, s, N, BLOCK=256)
        return y
