"""Scatter-add of rows (the embedding backward): out = zeros(V, D).index_add_(0, ids, src),
float32 gradients, with repeated ids accumulating.

Sizes: V 32000, D 1024, 8192 source rows on a GPU; V 100, D 64, 256 rows (many repeats) under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
V, D, T = (100, 64, 256) if SMALL else (32000, 1024, 8192)


class Model(nn.Module):
    def __init__(self, num_rows):
        super().__init__()
        self.num_rows = num_rows

    def forward(self, ids, src):
        out = torch.zeros(self.num_rows, src.shape[1], dtype=src.dtype, device=src.device)
        return out.index_add_(0, ids, src)


def get_inputs():
    return [torch.randint(0, V, (T,)), torch.randn(T, D)]


def get_init_inputs():
    return [V]
