"""fp16 GEMM (reference); 48 x 64 times 64 x 40: neither M nor N a multiple of 32."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).to(a.dtype)


def get_inputs():
    return [torch.randn(48, 64, dtype=torch.float16), torch.randn(64, 40, dtype=torch.float16)]


def get_init_inputs():
    return []
