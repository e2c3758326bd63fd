"""Row L2 normalisation in float16, as before a cosine-similarity or a QK-norm.

Sizes: 16384 x 2048 on a GPU; 12 x 300 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (12, 300) if SMALL else (16384, 2048)
class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.normalize(x.float(), dim=-1, eps=1e-6).to(x.dtype)
def get_inputs():
    return [torch.randn(M, N, dtype=torch.float16)]
def get_init_inputs():
    return []
