"""Vector add, KernelBench form: the PyTorch reference.

Size: KOPT_VECTOR_ADD_N elements (default 16384 under TRITON_INTERPRET=1, where one forward of
the example kernel takes about 0.2 s on a CPU core, and 1 << 24 on a GPU)."""
import os

import torch
import torch.nn as nn

N = int(os.environ.get("KOPT_VECTOR_ADD_N", "16384" if os.environ.get("TRITON_INTERPRET") == "1" else str(1 << 24)))


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return a + b


def get_inputs():
    return [torch.randn(N), torch.randn(N)]


def get_init_inputs():
    return []
