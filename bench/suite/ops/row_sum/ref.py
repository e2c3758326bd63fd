"""Sum of each row of a float32 matrix (a reduction along the contiguous axis).

The values are uniform in [0, 1): a sum whose terms cancel has a tiny result with a large
legitimate rounding error, which an elementwise tolerance cannot judge (DESIGN.md section 7).

Sizes: 8192 x 8192 on a GPU; 16 x 1000 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (16, 1000) if SMALL else (8192, 8192)


class Model(nn.Module):
    def forward(self, x):
        return x.sum(dim=1)


def get_inputs():
    return [torch.rand(M, N)]


def get_init_inputs():
    return []
