"""tanh-approximated GELU (GPT-2 / BERT MLP activation) on one large float32 vector.

Sizes: 2^28 elements (1 GiB) on a GPU; 2^14 under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small (the CPU interpreter)."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N = 1 << 14 if SMALL else 1 << 28


class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x, approximate="tanh")


def get_inputs():
    return [torch.randn(N)]


def get_init_inputs():
    return []
