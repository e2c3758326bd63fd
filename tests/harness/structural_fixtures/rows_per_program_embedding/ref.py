"""out[t] = table[ids[t]] (reference) for the suite's embedding kernel (kernel.py links to it):
13 tokens, a number no power of two divides, rows of 300 elements (three blocks of its 128,
the last partial)."""
import torch
import torch.nn as nn

V, D, T = 50, 300, 13


class Model(nn.Module):
    def forward(self, ids, table):
        return table[ids]


def get_inputs():
    return [torch.randint(0, V, (T,), dtype=torch.int64), torch.randn(V, D)]


def get_init_inputs():
    return []
