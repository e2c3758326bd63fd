"""SwiGLU of a fused gate/up projection output: out = silu(gate) * up, where x = [gate | up]
along the last axis (bfloat16, computed in float32 and rounded once).

Sizes: 8192 x 2*14336 (Llama-3-8B MLP) on a GPU; 16 x 2*500 under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, I = (16, 500) if SMALL else (8192, 14336)


class Model(nn.Module):
    def forward(self, x):
        gate, up = x.float().chunk(2, dim=-1)
        return (torch.nn.functional.silu(gate) * up).to(x.dtype)


def get_inputs():
    return [torch.randn(M, 2 * I, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
