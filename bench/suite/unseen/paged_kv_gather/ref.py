"""Gathering a paged KV cache into contiguous per-sequence keys (what a prefix-cache or a
non-paged attention kernel needs): cache is [blocks, 16 tokens, 8 heads x 128] float16, table
[sequences, blocks per sequence] int32 names each sequence's blocks in order (every block
full, each used once).

Sizes: 64 sequences x 128 blocks of 16 tokens x 1024 on a GPU; 3 x 4 blocks of 4 x 40 under
TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
S, NB, BS, W = (3, 4, 4, 40) if SMALL else (64, 128, 16, 1024)


class Model(nn.Module):
    def forward(self, cache, table):
        s, nb = table.shape
        return cache[table.long()].reshape(s, nb * cache.shape[1], cache.shape[2])


def get_inputs():
    return [torch.randn(S * NB, BS, W, dtype=torch.float16), torch.randperm(S * NB).reshape(S, NB).to(torch.int32)]


def get_init_inputs():
    return []
