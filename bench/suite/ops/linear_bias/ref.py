"""Linear layer with bias, y = x W^T + b, in float16 (an MLP up-projection; hidden 4096 ->
14336). The weights are the module's parameters, initialised by nn.Linear under the job's seed.

float16, not bfloat16: under Triton 3.6's interpreter tl.dot on bfloat16 tiles returns garbage
(bfloat16 is held as uint16 and multiplied as integers), so a bfloat16 tensor-core kernel
cannot be checked on the CPU.

Sizes: 8192 tokens, 4096 -> 14336 on a GPU; 64 tokens, 128 -> 96 under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
T, IN, OUT = (64, 128, 96) if SMALL else (8192, 4096, 14336)


class Model(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=True, dtype=torch.float16)

    def forward(self, x):
        return self.linear(x)


def get_inputs():
    return [torch.randn(T, IN, dtype=torch.float16)]


def get_init_inputs():
    return [IN, OUT]
