"""Softmax over the last dim of scores with a bool mask of the same shape (True: masked, as
masked_fill), float16, 16384 x 2048; a row whose every entry is masked gives zeros.

Sizes: 16384 x 2048 on a GPU; 6 x 200 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
M, N = (6, 200) if SMALL else (16384, 2048)


class Model(nn.Module):
    def forward(self, x, mask):
        s = x.float().masked_fill(mask, float("-inf"))
        y = torch.softmax(s, dim=-1)
        return torch.nan_to_num(y, nan=0.0).to(x.dtype)


def get_inputs():
    mask = torch.rand(M, N) < 0.3
    mask[1] = True                  # one row fully masked
    return [torch.randn(M, N, dtype=torch.float16) * 3, mask]


def get_init_inputs():
    return []
