"""compile: offline cuda:90 compile of the intercepted launch (no GPU needed); per-pass IR
dumps; profile on the interpreter says it is unavailable."""
import os

from conftest import EXAMPLES, ROOT, read


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


# ------------------------------------------------------------------------------ ascend
# triton-ascend in its own virtualenv (.venv-ascend, scripts/deps.sh): the compile stops at
# bishengir-compile (no CANN here) and keeps the TTIR and the adapter IR.

def test_compile_ascend_offline(loaded):
    h, _ = loaded
    assert os.access(os.path.join(ROOT, ".venv-ascend", "bin", "python"), os.X_OK), \
        "no .venv-ascend: scripts/deps.sh builds the triton-ascend virtualenv"
    r = h.request("compile", target="ascend:910B3")
    assert r["ok"], r
    res = r["result"]
    assert res["target"] == "npu:Ascend910B3" and res["ir"] == "ascend"
    assert res["compiler"]["triton_ascend"] == "3.2.0"
    k = res["kernels"][0]
    assert k["kernel"] == "add_kernel"
    assert k["signature"]["a_ptr"] == "*fp32" and k["constexprs"] == {"BLOCK_SIZE": "128"}
    assert k["stages"] == {"ttir": "done", "ttadapter": "done", "npubin": "failed"}
    assert k["stopped_at"] == "npubin" and "ASCEND_HOME_PATH" in k["stop_reason"]
    assert k["adapter_cmd"][0] == "triton-adapter-opt" and "--triton-to-unstructure" in " ".join(k["adapter_cmd"])
    adapter = read(k["files"]["ttadapter"]["path"])
    assert 'mix_mode = "aiv"' in adapter and "memref.copy" in adapter and "DiscreteMemAccess" not in adapter
    assert "tt.load" in read(k["files"]["ttir"]["path"])
    # line info is on: the copies in from global memory sit on the two tl.load lines
    lines = {int(n) for n, ops in k["ttadapter_ops_by_source_line"].items() if "memref.copy" in ops}
    src = read(EXAMPLES, "vector_add", "kernel.py").split("\n")
    assert lines == {i + 1 for i, t in enumerate(src) if "= tl.load(" in t}, k["ttadapter_ops_by_source_line"]
    assert "npuir" not in k["files"] and "CANN" in k["notes"]["npuir"]


def test_compile_ascend_per_pass(loaded):
    h, _ = loaded
    r = h.request("compile", target="npu:Ascend910B3", per_pass=True)
    assert r["ok"], r
    k = r["result"]["kernels"][0]
    names = [p["pass"] for p in k["passes"]]
    assert names[0] == "DiscreteMaskAccessConversion" and k["passes"][0]["when"] == "before"
    assert {"TritonToUnstructure", "TritonToHIVM", "TritonToLinalg"} <= set(names)
    # printed before and after every pass: each Before dump has its After (brackets)
    whens = [p["when"] for p in k["passes"]]
    assert whens.count("before") == whens.count("after") == k["pass_count"] // 2
    assert k["ttir_pass_count"] >= 8          # the TTIR passes of make_ttir, before each
    ttir_dump = read(k["files"]["ttir_passes"]["path"])
    assert ttir_dump.startswith("// -----// IR Dump Before Inliner") and "IR Dump After" not in ttir_dump


def test_compile_ascend_bad_arch(loaded):
    h, _ = loaded
    r = h.request("compile", target="ascend:../../x")
    assert not r["ok"] and r["error"]["kind"] == "bad-request" and "Ascend910B3" in r["error"]["message"]
