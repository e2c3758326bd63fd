"""Triton interpreter gaps (DESIGN section 8): loops with a runtime bound, masks and
reductions must work under TRITON_INTERPRET=1 with the pinned versions."""
import os

import numpy
import pytest
import torch

assert os.environ.get("TRITON_INTERPRET") == "1"   # set by conftest before triton is imported
import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):                 # runtime bound
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
        acc += x.to(tl.float32)
    tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def masked_max_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, STEPS: tl.constexpr):
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    for i in tl.static_range(STEPS):                    # compile-time loop
        offs = i * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=float("-inf"))
        m = tl.where(x > m, x, m)
    tl.store(out_ptr, tl.max(m, axis=0))


def test_pinned_versions():
    assert triton.__version__ == "3.6.0"
    major, minor = (int(p) for p in numpy.__version__.split(".")[:2])
    assert (major, minor) < (2, 5), "numpy >= 2.5 breaks runtime-bound loops in the Triton 3.6 interpreter"


@pytest.mark.parametrize("n_cols", [1, 37, 128, 300])
def test_runtime_loop_reduction_mask(n_cols):
    x = torch.randn(5, n_cols)
    out = torch.empty(5)
    row_sum_kernel[(5,)](x, out, n_cols, x.stride(0), BLOCK=64)
    torch.testing.assert_close(out, x.sum(dim=1), rtol=1e-5, atol=1e-5)


def test_static_loop_where_max():
    x = torch.randn(200)
    out = torch.empty(1)
    masked_max_kernel[(1,)](x, out, 200, BLOCK=64, STEPS=4)
    assert out.item() == x.max().item()
