"""compile: offline cuda:90 compile of the intercepted launch (no GPU needed); per-pass IR
dumps; profile on the interpreter says it is unavailable."""
import os


def test_compile_cuda90(loaded):
    h, _ = loaded
    r = h.request("compile", target="cuda:90")
    assert r["ok"], r
    res = r["result"]
    assert res["target"] == "cuda:90"
    k = res["kernels"][0]
    assert k["kernel"] == "add_kernel"
    assert k["signature"]["a_ptr"] == "*fp32" and k["signature"]["n_elements"] == "i32"
    assert k["constexprs"] == {"(4,)": "128"}
    assert k["metadata"]["num_warps"] == 4
    for ext in ("ttir", "ttgir", "llir", "ptx", "cubin"):
        f = k["files"][ext]
        assert os.path.exists(f["path"]) and f["bytes"] > 0
    ptx = open(k["files"]["ptx"]["path"]).read()
    assert "ld.global" in ptx and ".target sm_90" in ptx
    ttgir = open(k["files"]["ttgir"]["path"]).read()
    assert "ttg.num-warps\" = 4" in ttgir and "tt.load" in ttgir
    assert k["ptx_stats"]["ld.global.32"] == 2          # BLOCK 128 x 4 warps: scalar loads
    assert "tt.load" in sum(k["ttgir_ops_by_source_line"].values(), [])
    if "sass" in k["files"]:                             # cuobjdump ships with triton
        assert "LDG" in open(k["files"]["sass"]["path"]).read()
        assert k["resource_usage"]["add_kernel"]["REG"] > 0


def test_compile_per_pass(loaded):
    h, _ = loaded
    r = h.request("compile", per_pass=True)
    assert r["ok"], r
    k = r["result"]["kernels"][0]
    assert k["pass_count"] > 20
    names = set(k["distinct_passes"])
    assert {"ConvertTritonToTritonGPU", "Canonicalizer", "CSE"} <= names
    assert any(n.startswith("TritonGPU") for n in names)
    text = open(k["files"]["passes"]["path"]).read()
    assert text.count("IR Dump Before") == k["pass_count"]
    first = k["passes"][0]
    assert text[first["offset"]:].startswith("// -----// IR Dump")


def test_compile_of_a_candidate_with_a_loop(loaded):
    h, _ = loaded
    from conftest import EXAMPLES, read
    # a different kernel than the loaded one: launches are recorded from a probe run
    cand = read(EXAMPLES, "vector_add", "kernel.py").replace("BLOCK_SIZE=self.BLOCK_SIZE", "BLOCK_SIZE=256")
    r = h.request("compile", candidate_source=cand)
    assert r["ok"], r
    assert r["result"]["kernels"][0]["constexprs"] == {"(4,)": "256"}


def test_profile_unavailable_on_interp(loaded):
    h, _ = loaded
    r = h.request("profile")
    assert r["ok"]
    assert r["result"]["available"] is False and "interpreter" in r["result"]["reason"]
