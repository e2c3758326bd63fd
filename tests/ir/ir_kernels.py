"""Kernels compiled offline (cuda:90) by gen_fixtures.py into the L3/L4 fixtures under
tests/unit/data/ir/. A trailing `# @name` comment marks a source line that the tests expect
IR to be attributed to; gen_fixtures records its line number in each fixture's meta.json.
Moving code here changes those numbers, so regenerate the fixtures after any edit."""
import triton
import triton.language as tl


@triton.jit
def copy_scalar(X, Y, n, stride, BLOCK: tl.constexpr):
    # Strided gather: the runtime stride hides contiguity, so every load stays 32-bit.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs * stride, mask=mask)  # @load
    tl.store(Y + offs, x, mask=mask)  # @store


@triton.jit
def copy_vec(X, Y, n, BLOCK: tl.constexpr):
    # Contiguous, 16-byte aligned pointers, n divisible by 16: loads become ld.global.v4.
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask)  # @load
    tl.store(Y + offs, x, mask=mask)  # @store


@triton.jit
def row_sum(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # The reduction result lives in a slice layout; storing it needs a layout conversion.
    pid = tl.program_id(0)
    rows = pid * BM + tl.arange(0, BM)
    cols = tl.arange(0, BN)
    x = tl.load(X + rows[:, None] * N + cols[None, :], mask=(rows[:, None] < M) & (cols[None, :] < N), other=0.0)  # @load
    s = tl.sum(x, axis=1)  # @sum
    tl.store(Y + rows, s, mask=rows < M)  # @store


@triton.jit
def matmul(A, B, C, M, N, K, sam, sbk, scm, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # num_stages=3: the pipeliner turns the loop's loads into cp.async; num_stages=1: it does not.
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):  # @loop
        a = tl.load(A + rm[:, None] * sam + (k + rk)[None, :])  # @load_a
        b = tl.load(B + (k + rk)[:, None] * sbk + rn[None, :])  # @load_b
        acc += tl.dot(a, b)  # @dot
    tl.store(C + rm[:, None] * scm + rn[None, :], acc.to(tl.float16))  # @store


@triton.jit
def scalar_loop(X, Y, n):
    # One program walks the row element by element: a loop with scalar loads only.
    acc = 0.0
    for i in range(0, n):  # @loop
        acc += tl.load(X + i)  # @load
    tl.store(Y, acc)  # @store


@triton.jit
def scatter_add(ids, src, out, dim, BLOCK: tl.constexpr, RELAXED: tl.constexpr):
    # One source row added into the row `ids` names (an embedding's backward): tl.atomic_add at
    # its default ordering (acq_rel) or relaxed.
    i = tl.program_id(0)
    dst = tl.load(ids + i)
    cols = tl.arange(0, BLOCK)
    v = tl.load(src + i * dim + cols, mask=cols < dim)  # @load
    if RELAXED:
        tl.atomic_add(out + dst * dim + cols, v, mask=cols < dim, sem="relaxed")  # @relaxed
    else:
        tl.atomic_add(out + dst * dim + cols, v, mask=cols < dim)  # @atomic
