"""leaky_relu(x, 0.01) of a float16 vector (reference)."""
import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.leaky_relu(x, 0.01)


def get_inputs():
    return [torch.randn(3000, dtype=torch.float16)]


def get_init_inputs():
    return []
