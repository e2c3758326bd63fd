"""AdamW step, first draft: one kernel reads the gradient, the moments and the parameters and
writes the three back in place; blocks of 256."""
import torch
import triton
import triton.language as tl
from torch import nn

LR, BETA1, BETA2, EPS, WEIGHT_DECAY, STEP = 1e-3, 0.9, 0.999, 1e-8, 0.01, 10


@triton.jit
def adamw_kernel(p_ptr, g_ptr, m_ptr, v_ptr, n, lr, beta1, beta2, eps, decay, bc1, bc2, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask=mask)
    m = tl.load(m_ptr + offs, mask=mask) * beta1 + (1 - beta1) * g
    v = tl.load(v_ptr + offs, mask=mask) * beta2 + (1 - beta2) * g * g
    tl.store(m_ptr + offs, m, mask=mask)
    tl.store(v_ptr + offs, v, mask=mask)
    p = tl.load(p_ptr + offs, mask=mask) * (1 - lr * decay)
    p = p - (lr / bc1) * m / (tl.sqrt(v / bc2) + eps)
    tl.store(p_ptr + offs, p, mask=mask)


class ModelNew(nn.Module):
    @torch.no_grad()
    def forward(self, p, g, m, v):
        n = p.numel()
        block = 256
        adamw_kernel[(triton.cdiv(n, block),)](p, g, m, v, n, LR, BETA1, BETA2, EPS, WEIGHT_DECAY,
                                                1 - BETA1 ** STEP, 1 - BETA2 ** STEP, BLOCK=block)
        return p
