"""Batched matmul (reference)."""
import torch
import torch.nn as nn

B, M, K, N = 2, 24, 16, 20


class Model(nn.Module):
    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(B, M, K), torch.randn(B, K, N)]


def get_init_inputs():
    return []
