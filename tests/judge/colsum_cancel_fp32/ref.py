"""Column sums of a 32768 x 64 float32 matrix whose columns nearly cancel (issue 10): each
column is 10 * randn minus its float64 mean, so the true sum is ~1e-5 while the sum of
|terms| is ~2.6e5. PyTorch's own float32 sum is ~7e-4 away from the float64 sum.
KOPT_JUDGE_SCALE=s widens to 64*s columns (s=128: 32768 x 8192 on a GPU)."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
ROWS, COLS = 32768, 64 * SCALE


class Model(nn.Module):
    def forward(self, x):
        return x.sum(dim=0)


def get_inputs():
    x = torch.randn(ROWS, COLS, dtype=torch.float64) * 10
    return [(x - x.mean(dim=0)).to(torch.float32)]


def get_init_inputs():
    return []
