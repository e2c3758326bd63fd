"""Per-row symmetric int8 quantisation of float16 activations: s = absmax / 127,
q = x / s rounded half away from zero (as the kernel does), clamped to [-127, 127].

Sizes: 8192 x 4096 on a GPU; 10 x 200 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (10, 200) if SMALL else (8192, 4096)
class Model(nn.Module):
    def forward(self, x):
        s = x.float().abs().amax(dim=1).clamp_min(1e-8) / 127.0
        v = (x.float() / s[:, None]).clamp(-127, 127)
        q = (torch.sign(v) * torch.floor(v.abs() + 0.5)).to(torch.int8)
        return q, s
def get_inputs():
    return [torch.randn(M, N, dtype=torch.float16)]
def get_init_inputs():
    return []
