"""Batched matmul whose row tile index is computed from the batch index too (here a term
that is always zero): the grouped order would replace that definition and drop the batch, so
tile_grid must refuse."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bmm_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sab, sam, sak, sbb, sbk, sbn, scb, scm, scn,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    bid = tl.program_id(2)
    pid_m = tl.program_id(0) + bid * 0
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        a = tl.load(a_ptr + bid * sab + offs_m[:, None] * sam + (k + offs_k[None, :]) * sak,
                    mask=(offs_m[:, None] < M) & (k + offs_k[None, :] < K), other=0.0)
        b = tl.load(b_ptr + bid * sbb + (k + offs_k[:, None]) * sbk + offs_n[None, :] * sbn,
                    mask=(k + offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + bid * scb + offs_m[:, None] * scm + offs_n[None, :] * scn, acc,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def forward(self, a, b):
        nb, M, K = a.shape
        N = b.shape[2]
        c = torch.empty((nb, M, N), device=a.device, dtype=a.dtype)
        grid = (triton.cdiv(M, 16), triton.cdiv(N, 16), nb)
        bmm_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), a.stride(2), b.stride(0), b.stride(1),
                         b.stride(2), c.stride(0), c.stride(1), c.stride(2), BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
        return c
