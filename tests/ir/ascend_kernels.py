"""Kernels compiled offline for Ascend910B3 by gen_ascend_fixtures.py (triton-ascend, no NPU)
into the L3/L4 fixtures under tests/unit/data/ir/ascend_*/. A trailing `# @name` comment
marks a source line that the tests expect IR to be attributed to; the generator records its
line number in each fixture's meta.json. Moving code here changes those numbers, so
regenerate the fixtures after any edit."""
import triton
import triton.language as tl


@triton.jit
def vector_add(X, Y, Z, n, BLOCK: tl.constexpr):
    # Contiguous and masked by a bound: two copies in from global memory, one out.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)  # @load_x
    y = tl.load(Y + offs, mask=mask)  # @load_y
    tl.store(Z + offs, x + y, mask=mask)  # @store


@triton.jit
def gather(X, IDX, Y, n, BLOCK: tl.constexpr):
    # Indices loaded from memory: the adapter lowers the gather to a scalar loop.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    idx = tl.load(IDX + offs, mask=mask, other=0)  # @load_idx
    v = tl.load(X + idx, mask=mask)  # @gather
    tl.store(Y + offs, v, mask=mask)  # @store


@triton.jit
def row_sum(X, Y, M, N, stride, BM: tl.constexpr, BN: tl.constexpr):
    # A 2-D masked tile (runtime row stride) reduced along its rows.
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(X + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0)  # @load
    s = tl.sum(x, axis=1)  # @sum
    tl.store(Y + rows, s, mask=rows < M)  # @store


@triton.jit
def dot_tile(A, B, C, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # One tl.dot tile: cube work, so the kernel is a mix (cube + vector) kernel.
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rm[:, None] * BK + rk[None, :])  # @load_a
    b = tl.load(B + rk[:, None] * BN + rn[None, :])  # @load_b
    c = tl.dot(a, b)  # @dot
    tl.store(C + rm[:, None] * BN + rn[None, :], c)  # @store


@triton.jit
def branch(X, FLAG, Y, n, BLOCK: tl.constexpr):
    # A branch on a value loaded from memory: a scalar load and a scalar condition.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    f = tl.load(FLAG + pid)  # @flag
    x = tl.load(X + offs, mask=mask)  # @load
    if f > 0:  # @branch
        x = x * 2.0
    else:
        x = x - 1.0
    tl.store(Y + offs, x, mask=mask)  # @store


@triton.jit
def even_mask(X, Y, n, BLOCK: tl.constexpr):
    # A mask that is not a bound: the adapter loads and stores the whole block and selects.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = (offs < n) & (offs % 2 == 0)
    x = tl.load(X + offs, mask=mask, other=0.0)  # @load
    tl.store(Y + offs, x, mask=mask)  # @store
