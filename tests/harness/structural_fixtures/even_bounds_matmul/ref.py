"""C = A @ B (reference) for the suite's first-draft matmul: K = 64 is a multiple of its
BLOCK_K of 32 (even_bounds' flag true for the K loop), M and N are not multiples of the tiles
(their masks stay)."""
import torch
import torch.nn as nn

M, K, N = 72, 64, 56


class Model(nn.Module):
    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
