"""C = A @ B in float16 with a long K: A 32 x 4096, B 4096 x 32 (KOPT_JUDGE_SCALE=s: M = N =
32*s)."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
M, K, N = 32 * SCALE, 4096, 32 * SCALE


class Model(nn.Module):
    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(M, K).to(torch.float16), torch.randn(K, N).to(torch.float16)]


def get_init_inputs():
    return []
