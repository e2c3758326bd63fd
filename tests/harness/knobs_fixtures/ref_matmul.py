import torch
from torch import nn


class Model(nn.Module):
    def forward(self, a, b):
        return a @ b


def get_inputs():
    return [torch.randn(64, 64), torch.randn(64, 128)]


def get_init_inputs():
    return []
