"""Batched matmul of float32 matrices (reference)."""
import torch
import torch.nn as nn

H, M, N, K = 4, 48, 40, 32


class Model(nn.Module):
    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(H, M, K), torch.randn(H, K, N)]


def get_init_inputs():
    return []
