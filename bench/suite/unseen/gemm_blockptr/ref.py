"""fp16 GEMM."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N, K = (48, 40, 64) if SMALL else (4096, 4096, 4096)


class Model(nn.Module):
    def forward(self, a, b):
        return (a.float() @ b.float()).to(a.dtype)


class Peer(nn.Module):
    """What a user runs: the fp16 product (tensor cores, float32 accumulation). Model, the
    truth, multiplies in float32; timed as eager it would measure the CUDA cores."""

    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(M, K, dtype=torch.float16), torch.randn(K, N, dtype=torch.float16)]


def get_init_inputs():
    return []
