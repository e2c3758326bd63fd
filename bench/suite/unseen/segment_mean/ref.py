"""Mean of each segment of a jagged float16 tensor: `values` holds the segments' rows one
after another, segment i being rows offsets[i]:offsets[i+1] (recommendation models' pooled
embedding bags, variable-length sequences). Segment lengths (i * 37) % 128: 0 to 127 rows,
every 128th segment empty (its mean 0).

Sizes: 8192 segments (520192 rows) of 256 on a GPU; 5 segments (lengths (i * 37) % 7, 13 rows)
of 24 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import itertools
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, D, LMAX = (5, 24, 7) if SMALL else (8192, 256, 128)


class Model(nn.Module):
    def forward(self, values, offsets):
        lengths = offsets[1:] - offsets[:-1]
        seg = torch.repeat_interleave(torch.arange(lengths.numel(), device=values.device), lengths,
                                      output_size=values.shape[0])
        sums = torch.zeros(lengths.numel(), values.shape[1], dtype=torch.float32, device=values.device)
        sums.index_add_(0, seg, values.float())
        return (sums / lengths.clamp(min=1).unsqueeze(1).float()).to(values.dtype)


def get_inputs():
    ends = list(itertools.accumulate((i * 37) % LMAX for i in range(B)))
    return [torch.randn(ends[-1], D, dtype=torch.float16), torch.tensor([0, *ends], dtype=torch.int64)]


def get_init_inputs():
    return []
