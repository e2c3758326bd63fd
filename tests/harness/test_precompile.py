"""The sweep's compile pool (harness/kharness/precompile.py) against the real Triton compiler,
offline for cuda:90 (no GPU needed): a compile past its limit is given up with a reason the
sweep recognises, the pool's processes and what they started are killed, and the next
compile gets a fresh pool."""
import os
import textwrap
import time

import pytest
from kharness.precompile import (
    TIMED_OUT,
    CompilePool,
    CompileRequest,
    _children,
    _outlier_limit,
)

triton = pytest.importorskip("triton")
from triton.backends.compiler import GPUTarget
from triton.compiler.compiler import make_backend
from triton.runtime.jit import serialize_specialization_data

TARGET = ("cuda", 90, 32)
KERNEL = textwrap.dedent('''
    import triton
    import triton.language as tl
    {prelude}

    @triton.jit
    def scale_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)
''')
# Stands in for a compiler that runs for minutes (ptxas on a tile far past the register
# file): the pool process imports the module and waits on a child process that sleeps.
SLOW = "import subprocess\nsubprocess.run(['sleep', '120'])"


def pool_processes() -> list[str]:
    """This process's descendants that are pool workers or their sleepers (not
    multiprocessing's resource tracker, which outlives any pool)."""
    out = []
    for pid in _children(os.getpid()):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "resource_tracker" not in cmd:
            out.append(cmd)
    return out


def request(tmp_path, name: str, prelude: str, block: int) -> CompileRequest:
    path = tmp_path / f"{name}.py"
    path.write_text(KERNEL.format(prelude=prelude))
    opts = make_backend(GPUTarget(*TARGET)).parse_options({})
    spec = serialize_specialization_data(
        "scale_kernel", {"x_ptr": "*fp32", "y_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
        {(3,): triton.language.constexpr(block)}, {}, opts, "test")
    return CompileRequest(str(path), name, "scale_kernel", spec)


def test_compile_past_the_limit_is_given_up_and_killed(tmp_path, monkeypatch):
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)   # the pool compiles for the GPU
    pool = CompilePool(2)
    try:
        # both processes compile once first: a process's first compile imports Triton (seconds
        # on a loaded machine), which would count against the limit below
        ok, ok2 = request(tmp_path, "kfast", "", 1024), request(tmp_path, "kfast2", "", 2048)
        out = pool.compile_all([ok, ok2], TARGET)
        assert out[ok.key()].ok and out[ok2.key()].ok, out

        # Two processes: the sleeper holds one; `first` takes the other for 5 s, then `second`
        # for 7 s. The sleeper passes the 10 s limit while `second` runs (its own clock
        # started when it got the process, at about 5 s, so it stays under the limit; counted
        # from its submission it would pass it), and the pool must still be killed once
        # `second` is done. Each compile adds its own seconds to its sleep: under a loaded CI
        # machine's 2 cores a margin of 1.2 s (2.8 s of sleep, a 4 s limit) was not enough.
        slow = request(tmp_path, "kslow", SLOW, 1024)
        first = request(tmp_path, "kfirst", "import time\ntime.sleep(5)", 2048)
        second = request(tmp_path, "ksecond", "import time\ntime.sleep(7)", 4096)
        t0 = time.monotonic()
        out = pool.compile_all([slow, first, second], TARGET, limit_s=10.0)
        took = time.monotonic() - t0
        assert out[slow.key()].error.startswith(TIMED_OUT), out[slow.key()]
        assert not out[slow.key()].ok
        for r in (first, second):                     # the other compiles were not lost
            assert out[r.key()].ok, out[r.key()]
        assert took < 30, took                        # not the sleeper's 120 s
        # the pool's processes and the sleeper they started are gone
        deadline = time.monotonic() + 10
        while pool_processes() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert pool_processes() == []

        ok3 = request(tmp_path, "kfast", "", 512)     # a fresh pool
        out = pool.compile_all([ok3], TARGET)
        assert out[ok3.key()].ok, out[ok3.key()]
    finally:
        pool.close()


def test_outlier_limit():
    """The batch's limit falls to 10x the median of its finished compiles (not below the floor)
    once three, and half of the batch, have finished; otherwise it is the fixed limit."""
    assert _outlier_limit([0.4, 0.4], 4, 60.0, 25.0) == (60.0, "")          # two done: too few
    assert _outlier_limit([0.4] * 3, 8, 60.0, 25.0) == (60.0, "")           # under half of 8
    lim, why = _outlier_limit([0.3, 0.4, 0.5, 0.4], 8, 60.0, 25.0)
    assert lim == 25.0 and "median" in why and "0.40 s" in why               # the floor
    assert _outlier_limit([3.0, 4.0, 5.0], 4, 60.0, 25.0)[0] == 40.0        # 10 x 4.0
    assert _outlier_limit([7.0, 8.0, 9.0], 4, 60.0, 25.0) == (60.0, "")      # never above the limit


def test_a_compile_far_slower_than_its_batch_is_given_up(tmp_path, monkeypatch):
    """Four quick compiles and one that never ends, under the default 60 s limit: once the
    quick ones are done, the slow one is given up at the outlier limit (its floor lowered for
    the test), not after 60 s, and its message says why."""
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    pool = CompilePool(2)
    try:
        warm = [request(tmp_path, f"kw{b}", "", b) for b in (64, 32)]   # each process imports Triton
        assert all(o.ok for o in pool.compile_all(warm, TARGET).values())
        quick = [request(tmp_path, f"kq{b}", "", b) for b in (128, 256, 512, 1024)]
        slow = request(tmp_path, "kslow2", SLOW, 2048)
        t0 = time.monotonic()
        out = pool.compile_all([*quick, slow], TARGET, outlier_floor_s=8.0)
        took = time.monotonic() - t0
        assert all(out[r.key()].ok for r in quick), out
        err = out[slow.key()].error
        assert not out[slow.key()].ok and err.startswith(TIMED_OUT) and "median" in err, err
        assert took < 40, took
    finally:
        pool.close()
