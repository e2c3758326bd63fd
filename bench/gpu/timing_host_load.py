#!/usr/bin/env python3
"""Does the harness's timer measure the device or the host? A benchmark for a GPU machine.

The harness times a kernel with device events around each call, an L2 flush before each
(harness/kharness/timing.py). Were the host to take longer to launch a call than the device
takes to run the flush, the device would wait between the start event and the kernel, and
the host's launch would be timed with it. This script times small Triton kernels
(elementwise over N elements) with Timer.measure:

  quiet      no load on the host
  contended  HOGS processes spinning on the host's cores, and a thread of this process
             holding the interpreter lock in bursts (as the harness's own threads may)

REPEATS times each, and prints the median and the 10th-90th percentile of each and the ratio
contended / quiet (1.0: the load is not seen).

On the H200 (call U, tree 31df5d1, when the script also tried a device spin queued ahead of
the calls: bench/results/h200-suite-2026-12-01/logs/callU/prequeue.txt) the ratio was
0.93-0.98 for 4.5-37 us kernels; the spin changed nothing and was removed.

    python3 bench/gpu/timing_host_load.py [--sizes 65536,1048576] [--repeats 5] [--json OUT]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.synchronize
import os
import statistics
import sys
import threading
import time
from dataclasses import asdict, dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "harness"))

from kharness.timing import Timer, quantile

REPS = 200                # calls per measurement (the sweep's most)
GIL_BURST_S = 0.002       # the lock-holding thread's busy burst, then a pause as long


@dataclass
class Row:
    size: int
    load: str
    repeat: int
    median_ms: float
    p10_ms: float
    p90_ms: float


def _hog(stop: multiprocessing.synchronize.Event) -> None:
    x = 0
    while not stop.is_set():
        for _ in range(100000):
            x += 1


def _gil_hog(stop: threading.Event) -> None:
    while not stop.is_set():
        t = time.perf_counter()
        while time.perf_counter() - t < GIL_BURST_S:
            pass
        time.sleep(GIL_BURST_S)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="65536,1048576,16777216")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--hogs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--json", default=None)
    a = ap.parse_args()

    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def scale(x_ptr, y_ptr, n, BLOCK: tl.constexpr) -> None:
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        m = offs < n
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=m) * 2.0, mask=m)

    timer = Timer("cuda")
    rows: list[Row] = []
    for size in (int(s) for s in a.sizes.split(",")):
        x = torch.randn(size, device="cuda")
        y = torch.empty_like(x)

        def fn(_k: int, x: torch.Tensor = x, y: torch.Tensor = y, n: int = size) -> None:
            scale[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)

        fn(0)
        timer.estimate(fn)
        for load in ("quiet", "contended"):
            stop_p = multiprocessing.Event()
            stop_t = threading.Event()
            hogs: list[multiprocessing.Process] = []
            gil: threading.Thread | None = None
            if load == "contended":
                hogs = [multiprocessing.Process(target=_hog, args=(stop_p,), daemon=True) for _ in range(a.hogs)]
                for h in hogs:
                    h.start()
                gil = threading.Thread(target=_gil_hog, args=(stop_t,), daemon=True)
                gil.start()
                time.sleep(0.5)
            try:
                for rep in range(a.repeats):
                    t = sorted(timer.measure(fn, REPS))
                    rows.append(Row(size, load, rep, statistics.median(t), quantile(t, 0.1), quantile(t, 0.9)))
            finally:
                stop_p.set()
                stop_t.set()
                for h in hogs:
                    h.join(5)
                if gil:
                    gil.join(5)

    print(f"{'size':>10} {'quiet median [p10-p90] ms':>34} {'contended median [p10-p90] ms':>36} contended/quiet")
    for size in sorted({r.size for r in rows}):
        cell = {}
        for load in ("quiet", "contended"):
            rs = [r for r in rows if r.size == size and r.load == load]
            cell[load] = (statistics.median(r.median_ms for r in rs), min(r.p10_ms for r in rs),
                          max(r.p90_ms for r in rs))
        q, c = cell["quiet"], cell["contended"]
        print(f"{size:>10} {q[0]:>12.5f} [{q[1]:.5f}-{q[2]:.5f}] "
              f"{c[0]:>14.5f} [{c[1]:.5f}-{c[2]:.5f}] {c[0] / q[0]:>10.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"reps": REPS, "hogs": a.hogs, "rows": [asdict(r) for r in rows]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
