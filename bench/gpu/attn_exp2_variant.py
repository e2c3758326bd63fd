"""The unseen attention's kernel as even_bounds writes it, with the softmax scale folded into
exp2 by hand: the scores are kept in base-2 units (``s = dot * (scale * log2 e)``), so each
exponential is one ``exp2`` of a difference, where ``tl.exp`` multiplies by log2 e again
inside. The maximum commutes with the positive factor, and exp(a - b) = exp2((a - b) log2 e).
A measurement for bench/gpu/even_bounds_probe.py (variant even_exp2) of what a rewrite
folding the scale would give, before writing one; no rewrite produces this yet."""
import triton
import triton.language as tl


@triton.heuristics({"EVEN_S": lambda args: args["S"] % args["BLOCK_N"] == 0})
@triton.jit
def attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, S, scale, D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
             EVEN_S: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh * S * D
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + base + rm[:, None] * D + rd[None, :], mask=rm[:, None] < S, other=0.0)
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start in range(0, S, BLOCK_N):
        rn = start + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + base + rn[:, None] * D + rd[None, :], mask=((rn[:, None] < S) | EVEN_S), other=0.0)
        v = tl.load(v_ptr + base + rn[:, None] * D + rd[None, :], mask=((rn[:, None] < S) | EVEN_S), other=0.0)
        s = tl.dot(q, tl.trans(k)) * (scale * 1.4426950408889634)
        s = tl.where(((rn[None, :] < S) | EVEN_S), s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + rm[:, None] * D + rd[None, :], acc.to(tl.float16), mask=rm[:, None] < S)
