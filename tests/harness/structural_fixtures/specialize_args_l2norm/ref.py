"""Each row scaled to unit L2 norm, float16 rows of 256 (reference)."""
import torch
import torch.nn as nn

ROWS, COLS = 12, 256      # the row length and stride multiples of 16, as real sizes are


class Model(nn.Module):
    def forward(self, x):
        x32 = x.float()
        return (x32 * torch.rsqrt((x32 * x32).sum(dim=1, keepdim=True) + 1e-12)).to(x.dtype)


def get_inputs():
    return [torch.randn(ROWS, COLS, dtype=torch.float16)]


def get_init_inputs():
    return []
