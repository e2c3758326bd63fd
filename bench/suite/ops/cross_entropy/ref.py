"""Per-token cross-entropy loss of float32 logits over a vocabulary (reduction 'none', the
form fused loss kernels produce before the mean).

Sizes: 4096 x 32000 on a GPU; 8 x 3000 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, V = (8, 3000) if SMALL else (4096, 32000)


class Model(nn.Module):
    def forward(self, logits, target):
        return torch.nn.functional.cross_entropy(logits, target, reduction="none")


def get_inputs():
    return [torch.randn(M, V), torch.randint(0, V, (M,))]


def get_init_inputs():
    return []
