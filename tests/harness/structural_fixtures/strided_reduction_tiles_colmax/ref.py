"""Column maxima scaled by a per-column weight (reference)."""
import torch
import torch.nn as nn

ROWS, COLS = 50, 21


class Model(nn.Module):
    def forward(self, x, w):
        return x.amax(0) * w


def get_inputs():
    return [torch.randn(ROWS, COLS), torch.randn(COLS)]


def get_init_inputs():
    return []
