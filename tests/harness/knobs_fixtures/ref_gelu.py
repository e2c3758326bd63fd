import torch
from torch import nn


class Model(nn.Module):
    def forward(self, x):
        return torch.nn.functional.gelu(x, approximate="tanh")


def get_inputs():
    return [torch.randn(3000)]


def get_init_inputs():
    return []
