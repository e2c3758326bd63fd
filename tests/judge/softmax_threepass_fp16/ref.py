"""Softmax over wide float16 rows: 8 x 4096, values ~1/4096 < fp16's atol 1e-3, the shape of
KernelBench #165 where zeros pass a plain allclose (KOPT_JUDGE_SCALE=s: 8*s rows)."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
ROWS, COLS = 8 * SCALE, 4096


class Model(nn.Module):
    def forward(self, x):
        return torch.softmax(x, dim=-1)


def get_inputs():
    return [torch.randn(ROWS, COLS).to(torch.float16)]


def get_init_inputs():
    return []
