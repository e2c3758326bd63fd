"""Batched matmul: the first version launches a 16 x 16 tile kernel (2-D grid) once per batch
element from a Python loop, on a[h], b[h], c[h], the strides read from the whole tensors."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
              BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    acc = tl.zeros([BM, BN], dtype=tl.float32)
    for k0 in range(0, K, BK):
        rk = k0 + tl.arange(0, BK)
        a = tl.load(a_ptr + rm[:, None] * sam + rk[None, :] * sak,
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * sbk + rn[None, :] * sbn,
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, a, b):
        H, M, K = a.shape
        N = b.shape[2]
        c = torch.empty((H, M, N), device=a.device, dtype=torch.float32)
        for h in range(H):
            mm_kernel[(triton.cdiv(M, 16), triton.cdiv(N, 16))](
                a[h], b[h], c[h], M, N, K, a.stride(1), a.stride(2), b.stride(1), b.stride(2),
                c.stride(1), c.stride(2), BM=16, BN=16, BK=16)
        return c
