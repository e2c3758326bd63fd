"""Complex multiplication of interleaved (re, im) rows: 6 rows of 50 pairs, float32."""
import torch
from torch import nn

R, N = 6, 50


class Model(nn.Module):
    def forward(self, x, w):
        z = torch.view_as_complex(x.view(R, N, 2)) * torch.view_as_complex(w.view(R, N, 2))
        return torch.view_as_real(z).reshape(R, 2 * N)


def get_inputs():
    return [torch.randn(R, 2 * N), torch.randn(R, 2 * N)]


def get_init_inputs():
    return []
