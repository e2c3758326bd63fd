"""LayerNorm over rows whose mean (1000) is large against their spread (1), float32: 16 x
2048 (KOPT_JUDGE_SCALE=s: 16*s rows). The one-pass variance E[x^2] - E[x]^2 loses ~6 digits
to cancellation here."""
import os

import torch
from torch import nn

SCALE = int(os.environ.get("KOPT_JUDGE_SCALE", "1"))
ROWS, HIDDEN = 16 * SCALE, 2048


class Model(nn.Module):
    def __init__(self, hidden=HIDDEN):
        super().__init__()
        self.norm = nn.LayerNorm(hidden, eps=1e-5)
        with torch.no_grad():
            self.norm.weight.copy_(torch.rand(hidden) + 0.5)
            self.norm.bias.copy_(torch.randn(hidden) * 0.1)

    def forward(self, x):
        return self.norm(x)


def get_inputs():
    return [torch.randn(ROWS, HIDDEN) + 1000.0]


def get_init_inputs():
    return []
