"""Paged KV gather, first conversion: one program per (sequence, token); the token's block
is read from the table, then the token's row of the cache copied to the output in steps of
256."""
import torch
import triton
import triton.language as tl
from torch import nn


@triton.jit
def paged_gather_kernel(cache_ptr, table_ptr, out_ptr, max_blocks, seq_tokens, W, BS: tl.constexpr,
                        BLOCK: tl.constexpr):
    seq = tl.program_id(0)
    tok = tl.program_id(1)
    blk = tl.load(table_ptr + seq * max_blocks + tok // BS)
    src = cache_ptr + (blk.to(tl.int64) * BS + tok % BS) * W
    dst = out_ptr + (seq * seq_tokens + tok).to(tl.int64) * W
    for off in range(0, W, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        v = tl.load(src + cols, mask=cols < W)
        tl.store(dst + cols, v, mask=cols < W)


class ModelNew(nn.Module):
    def forward(self, cache, table):
        s, nb = table.shape
        bs, w = cache.shape[1], cache.shape[2]
        out = torch.empty(s, nb * bs, w, dtype=cache.dtype, device=cache.device)
        paged_gather_kernel[(s, nb * bs)](cache, table, out, nb, nb * bs, w, BS=bs, BLOCK=256)
        return out
