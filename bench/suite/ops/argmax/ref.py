"""Greedy decoding: the index of the largest logit of each row (bfloat16 logits over a
Llama-3 vocabulary). Ties go to the first index, as torch.argmax documents.

Sizes: 256 x 128256 on a GPU; 4 x 3000 under TRITON_INTERPRET=1 or KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
B, V = (4, 3000) if SMALL else (256, 128256)


class Model(nn.Module):
    def forward(self, logits):
        return torch.argmax(logits, dim=-1)


def get_inputs():
    return [torch.randn(B, V, dtype=torch.bfloat16)]


def get_init_inputs():
    return []
