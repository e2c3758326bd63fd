"""out[r] = argmax over the row, the first column on ties (reference) for the suite's argmax
kernel (kernel.py, a link to bench/suite/ops/argmax/kernel.py) at 3 rows: few rows, as a decode
batch has. Small integers as values, so every row holds its maximum several times: the tie
rule is what is checked."""
import torch
import torch.nn as nn

ROWS, COLS = 3, 1000          # COLS not a multiple of the block: the mask matters


class Model(nn.Module):
    def forward(self, x):
        return torch.argmax(x, dim=1)


def get_inputs():
    return [torch.randint(-40, 40, (ROWS, COLS)).to(torch.float32)]


def get_init_inputs():
    return []
