"""torch.gather along the last axis: per row, values of a float32 matrix at int64 column
indices (as when scoring candidate tokens of each position).

Sizes: x 8192 x 4096, 8192 x 256 indices on a GPU; x 16 x 300, 16 x 40 indices under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N, K = (16, 300, 40) if SMALL else (8192, 4096, 256)


class Model(nn.Module):
    def forward(self, x, index):
        return torch.gather(x, 1, index)


def get_inputs():
    return [torch.randn(M, N), torch.randint(0, N, (M, K))]


def get_init_inputs():
    return []
