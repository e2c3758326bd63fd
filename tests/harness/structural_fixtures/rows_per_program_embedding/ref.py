"""out[t] = table[ids[t]] (reference): 13 tokens, rows of 40 elements."""
import torch
import torch.nn as nn

V, D, T = 50, 40, 13


class Model(nn.Module):
    def forward(self, ids, table):
        return table[ids]


def get_inputs():
    return [torch.randint(0, V, (T,), dtype=torch.int64), torch.randn(V, D)]


def get_init_inputs():
    return []
