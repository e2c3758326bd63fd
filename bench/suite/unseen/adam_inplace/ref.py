"""One AdamW step (torch.optim.AdamW's update at step 10), in place: the moments m and v and
the parameters p are updated where they lie, p is returned. N is a 4096 x 14336 weight."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
N = 5000 if SMALL else 4096 * 14336
LR, BETA1, BETA2, EPS, WEIGHT_DECAY, STEP = 1e-3, 0.9, 0.999, 1e-8, 0.01, 10


class Model(nn.Module):
    def forward(self, p, g, m, v):
        m.mul_(BETA1).add_(g, alpha=1 - BETA1)
        v.mul_(BETA2).addcmul_(g, g, value=1 - BETA2)
        denom = (v / (1 - BETA2 ** STEP)).sqrt().add_(EPS)
        p.mul_(1 - LR * WEIGHT_DECAY).addcdiv_(m, denom, value=-LR / (1 - BETA1 ** STEP))
        return p


def get_inputs():
    return [torch.randn(N), torch.randn(N), torch.randn(N) * 1e-2, torch.rand(N) * 1e-3]


def get_init_inputs():
    return []
