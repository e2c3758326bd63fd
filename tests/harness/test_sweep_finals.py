"""The sweep's finals (kharness.sweep._finals): the leading candidates timed again in
interleaved passes and ranked by that, on the interpreter (where the quick and sustained
timings are a few CPU repetitions, so this checks the mechanics, not the GPU's behaviour)."""
import os
from pathlib import Path

from conftest import ROOT, start_harness

OP = os.path.join(ROOT, "bench", "suite", "ops", "linear_bias")
CANDS = [{"id": f"c{i}", "changes": ch} for i, ch in
         enumerate([{"BLOCK_M": 32}, {"BLOCK_N": 32}, {"BLOCK_K": 16}])]


def _load(h):
    with open(os.path.join(OP, "ref.py")) as f:
        ref = f.read()
    with open(os.path.join(OP, "kernel.py")) as f:
        ker = f.read()
    r = h.request("load", reference_source=ref, kernel_source=ker, workdir="lb", seed=0,
                  correctness_cases=1, benchmark_cases=1)
    assert r["ok"], r


def test_finals_rank_the_leaders(tmp_path: Path) -> None:
    h = start_harness(tmp_path)
    try:
        _load(h)
        # the interpreter's default: no finals
        r = h.request("sweep", candidates=CANDS, return_sources=False, timeout_s=600)
        assert r["ok"], r
        res = r["result"]
        assert res["finals"]["passes"] == 0 and all(not c["final"] for c in res["candidates"])
        assert res["phases"]["finals_s"] >= 0
        # two finalists at most, from those within the window of the fastest (all three
        # here: CPU timings differ by more than the device default of 10%)
        r = h.request("sweep", candidates=CANDS, return_sources=False, finals=2, final_window=1.0,
                      timeout_s=600)
        assert r["ok"], r
        res = r["result"]
        fin = res["finals"]
        quick = sorted((c for c in res["candidates"] if c["status"] == "ok"), key=lambda c: c["time_ms"])
        best = quick[0]["time_ms"]
        leaders = [c["id"] for c in quick if c["time_ms"] <= best * 2.0][:2]
        assert len(leaders) == 2 and fin["ids"] == leaders and fin["window"] == 1.0
        assert fin["passes"] == 3 and sorted(fin["by_final"]) == sorted(leaders)
        byid = {c["id"]: c for c in res["candidates"]}
        for i in leaders:
            f = byid[i]["final"]
            assert len(f["passes"]) == 3 and {p["place"] for p in f["passes"]} == {0, 1}, f
            assert f["n"] >= 3 and f["median_ms"] > 0
        # `order`: the finalists first by their final time, then the rest by the quick time
        assert res["order"][:2] == fin["by_final"]
        assert fin["reordered"] == (fin["by_final"] != leaders)
        rest = [c["id"] for c in quick if c["id"] not in leaders]
        assert res["order"][2:] == rest
        # a window of 0 keeps the fastest alone: nothing to rank, and said so
        r = h.request("sweep", candidates=CANDS, return_sources=False, finals=2, final_window=0,
                      timeout_s=600)
        assert r["ok"], r
        fin = r["result"]["finals"]
        assert fin["passes"] == 0 and len(fin["ids"]) == 1 and "fewer than two" in fin["why"]
    finally:
        h.close()


def test_finals_bad_request(tmp_path: Path) -> None:
    h = start_harness(tmp_path)
    try:
        _load(h)
        for bad in (9, -1, True, "2"):
            r = h.request("sweep", candidates=CANDS[:1], finals=bad, timeout_s=120)
            assert not r["ok"] and r["error"]["kind"] == "bad-request", r
            assert "finals must be an integer in [0, 8]" in r["error"]["message"]
        for bad in (1.5, -0.1, "0.1", False):
            r = h.request("sweep", candidates=CANDS[:1], final_window=bad, timeout_s=120)
            assert not r["ok"] and "final_window must be a number in [0, 1]" in r["error"]["message"], r
    finally:
        h.close()
