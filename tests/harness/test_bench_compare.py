"""bench (median and spread, reference time) and compare (ABBA) on the CPU clock."""
from conftest import vector_add


def test_bench_returns_median_and_spread(loaded):
    h, res = loaded
    r = h.request("bench", warmup_ms=0, rep_ms=200, min_reps=3, max_reps=5)
    assert r["ok"], r
    b = r["result"]
    assert b["clock"] == "cpu" and b["l2_flush"] is False
    assert [c["case"] for c in b["cases"]] == res["benchmark_cases"]
    for c in b["cases"]:
        k = c["kernel"]
        for key in ("median_ms", "p10_ms", "p90_ms", "iqr_ms", "stdev_ms", "mean_ms", "min_ms", "max_ms", "n"):
            assert key in k
        assert 3 <= k["n"] <= 5
        assert k["min_ms"] <= k["p10_ms"] <= k["median_ms"] <= k["p90_ms"] <= k["max_ms"]
        assert k["median_ms"] > 0
        assert c["reference"]["median_ms"] > 0          # PyTorch eager on the same device
        assert c["speedup_vs_reference"] > 0
    assert b["env"]["backend"] == "interp" and b["env"]["triton"] == "3.6.0"
    assert b["summary"]["geomean_median_ms"] > 0


def test_bench_of_a_candidate_and_bad_request(loaded):
    h, _ = loaded
    _, ker = vector_add()
    r = h.request("bench", candidate_source=ker.replace("BLOCK_SIZE=128", "BLOCK_SIZE=1024"), cases=[0],
                  warmup_ms=0, rep_ms=50, min_reps=3, max_reps=3, reference=False)
    assert r["ok"], r
    assert r["result"]["who"] == "candidate" and "reference" not in r["result"]["cases"][0]
    r = h.request("bench", cases=[99])
    assert r["error"]["kind"] == "bad-request"


def test_compare_abba(loaded):
    h, _ = loaded
    _, ker = vector_add()
    fast = ker.replace("BLOCK_SIZE=128", "BLOCK_SIZE=1024")  # 8x fewer interpreted programs
    r = h.request("compare", incumbent_source=ker, candidate_source=fast, rounds=3, cases=[0])
    assert r["ok"], r
    c = r["result"]
    assert c["order"] == "ABBA" and c["rounds"] == 3 and c["clock"] == "cpu"
    assert len(c["slots"]["A1"]) == len(c["slots"]["B1"]) == len(c["slots"]["B2"]) == len(c["slots"]["A2"]) == 3
    assert c["incumbent_median_ms"] > c["candidate_median_ms"] > 0
    assert c["ratio"] < 1 and c["speedup"] > 1
    assert c["noise"] >= 0
    assert c["faster_beyond_noise"] is True
    # the reverse direction is never "faster"
    r = h.request("compare", incumbent_source=fast, candidate_source=ker, rounds=3, cases=[0])
    assert r["ok"] and r["result"]["faster_beyond_noise"] is False
    assert r["result"]["ratio"] > 1


def test_tunables_reach_modelnew(loaded):
    """Declared tunables are passed to ModelNew(**tunables) without touching the source."""
    h, _ = loaded
    r = h.request("validate", tunables={"BLOCK_SIZE": 256, "num_warps": 2})
    assert r["ok"] and r["result"]["passed"], r
    assert r["result"]["kernels"][0]["last"]["kwargs"]["BLOCK_SIZE"]["value"] == 256
    r = h.request("compile", tunables={"BLOCK_SIZE": 512})
    assert r["ok"] and r["result"]["kernels"][0]["constexprs"] == {"(4,)": "512"}
    r = h.request("compare", candidate_source=vector_add()[1], candidate_tunables={"BLOCK_SIZE": 1024}, rounds=2,
                  cases=[0])
    assert r["ok"] and r["result"]["speedup"] > 1
    r = h.request("validate", tunables={"NOT_A_PARAM": 1})
    assert r["result"]["passed"] is False and "NOT_A_PARAM" in r["result"]["failure"]["message"]
