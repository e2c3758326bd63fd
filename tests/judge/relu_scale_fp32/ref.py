"""y = relu(x) * 0.5 in float32, elementwise: 64 x 256 (KOPT_JUDGE_SCALE=s: 64*s rows)."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
ROWS, COLS = 64 * SCALE, 256


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 0.5


def get_inputs():
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
