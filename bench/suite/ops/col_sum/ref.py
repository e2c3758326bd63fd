"""Sum of each column of a float32 matrix: a reduction along the strided axis.

Values uniform in [0, 1) (see row_sum for why not cancelling).

Sizes: 8192 x 8192 on a GPU; 500 x 48 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (500, 48) if SMALL else (8192, 8192)


class Model(nn.Module):
    def forward(self, x):
        return x.sum(dim=0)


def get_inputs():
    return [torch.rand(M, N)]


def get_init_inputs():
    return []
