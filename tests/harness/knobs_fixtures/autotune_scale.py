"""x * 2 + 1 with @triton.autotune choosing the block size and the warps."""
import torch
import triton
import triton.language as tl
from torch import nn


def bench_on_cpu(kernel_call, quantiles):
    """The Triton interpreter has no device to time on: every config costs the same, so the
    first one wins (on a GPU, leave do_bench out)."""
    kernel_call()
    return [1.0, 1.0, 1.0]


@triton.autotune(
    configs=[
        triton.Config({"BLOCK": 64}, num_warps=2),
        triton.Config({"BLOCK": 128}, num_warps=4),
    ],
    key=["n_elements"],
    do_bench=bench_on_cpu,
)
@triton.jit
def scale_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * 2.0 + 1.0, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        scale_kernel[grid](x, out, n)
        return out
