"""MoE router: softmax over the experts of each token, the top-k experts (sorted, descending)
and their probabilities renormalized to sum to one (Qwen3-MoE: 128 experts, top 8).

Sizes: 16384 tokens x 128 experts, k 8 on a GPU; 32 tokens under TRITON_INTERPRET=1 or
KOPT_SUITE_SCALE=small."""
import os

import torch
from torch import nn

SMALL = os.environ.get("KOPT_SUITE_SCALE", "small" if os.environ.get("TRITON_INTERPRET") == "1" else "full") == "small"
T, E, K = (32, 128, 8) if SMALL else (16384, 128, 8)


class Model(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k

    def forward(self, logits):
        p = torch.softmax(logits, dim=-1)
        w, idx = torch.topk(p, self.k, dim=-1)
        return w / w.sum(dim=-1, keepdim=True), idx


def get_inputs():
    return [torch.randn(T, E)]


def get_init_inputs():
    return [K]
