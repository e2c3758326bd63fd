"""Row sums of bfloat16 randn (terms cancel), bfloat16 out: 8 x 32768 (KOPT_JUDGE_SCALE=s:
8*s rows)."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
ROWS, COLS = 8 * SCALE, 32768


class Model(nn.Module):
    def forward(self, x):
        return x.sum(dim=-1)


def get_inputs():
    return [torch.randn(ROWS, COLS).to(torch.bfloat16)]


def get_init_inputs():
    return []
