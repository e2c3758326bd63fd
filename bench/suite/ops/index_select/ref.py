"""index_select of rows: rows of a float16 matrix (e.g. cached key/value rows of selected
positions) gathered by an int64 index.

Sizes: x 65536 x 1024, 16384 indices on a GPU; x 512 x 96, 40 indices under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
R, D, K = (512, 96, 40) if SMALL else (65536, 1024, 16384)


class Model(nn.Module):
    def forward(self, x, index):
        return torch.index_select(x, 0, index)


def get_inputs():
    return [torch.randn(R, D, dtype=torch.float16), torch.randint(0, R, (K,))]


def get_init_inputs():
    return []
