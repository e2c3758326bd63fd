"""RMSNorm backward (y = x * rstd * w, rstd = 1/sqrt(mean(x^2) + eps) saved by the forward)
over an 8192 x 4096 bfloat16 input: dx = rstd * (w*dy - x * rstd^2 * mean(w*dy*x)) in bfloat16,
dw = sum over rows of dy * x * rstd in float32. Model computes in float32 (the truth is float64
through the judge).

Sizes: 8192 x 4096 on a GPU; 6 x 300 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (6, 300) if SMALL else (8192, 4096)
EPS = 1e-6


class Model(nn.Module):
    def forward(self, x, weight, dy, rstd):
        xf, wf, gf, r = x.float(), weight.float(), dy.float(), rstd.float().unsqueeze(1)
        wdy = wf * gf
        c = (wdy * xf).mean(dim=1, keepdim=True)
        dx = r * (wdy - xf * r * r * c)
        dw = (gf * xf * r).sum(dim=0)
        return dx.to(x.dtype), dw


def get_inputs():
    x = torch.randn(M, N, dtype=torch.bfloat16)
    rstd = torch.rsqrt(x.float().pow(2).mean(dim=1) + EPS)
    return [x, torch.rand(N, dtype=torch.bfloat16) + 0.5, torch.randn(M, N, dtype=torch.bfloat16), rstd]


def get_init_inputs():
    return []
