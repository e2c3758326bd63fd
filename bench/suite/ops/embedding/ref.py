"""Token embedding lookup: rows of a bfloat16 table (Llama-2 vocabulary x hidden) picked by
int64 token ids.

Sizes: table 32000 x 4096, 8192 tokens on a GPU; table 1000 x 256, 64 tokens under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
V, D, T = (1000, 256, 64) if SMALL else (32000, 4096, 8192)


class Model(nn.Module):
    def forward(self, ids, table):
        return torch.nn.functional.embedding(ids, table)


def get_inputs():
    return [torch.randint(0, V, (T,)), torch.randn(V, D, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
