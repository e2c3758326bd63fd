"""Writes the fuzzers' seed corpora, tests/fuzz/corpus/<target>/, from the project's real
inputs: the examples' kernels and job specs, the compiler-output fixtures of tests/unit/data/ir
(TTGIR, PTX, SASS, per-pass MLIR, triton-ascend's adapter IR and pass dumps), the profiler captures of tests/harness/data
run through the harness's own parsers, and the wire formats koptd, the LLM server and agents
speak. Deterministic; the corpus it writes is committed, so run it only to change the seeds:

    .venv/bin/python tests/fuzz/seeds.py      (or any python3 >= 3.9; needs no packages)

Large fixtures are cut to a few dumps or a few KiB (TTGIR/PTX/SASS prefixes, whole pass dumps)
so the committed corpus stays small and every seed runs fast.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fuzz" / "corpus"
IR = ROOT / "tests" / "unit" / "data" / "ir"
PROFILES = ROOT / "tests" / "harness" / "data"
IR_TEXT_CAP = 6 << 10       # bytes of one TTGIR/PTX/SASS seed text
PASS_DUMP_CAP = 3 << 10     # bytes kept of one pass dump
PASS_SEED_CAP = 20 << 10    # bytes of one per-pass seed
PASS_HEADER = "// -----// IR Dump"

sys.path.insert(0, str(ROOT / "harness"))
from kharness import parsers


@dataclass
class Corpus:
    """One target's seeds, written as name -> bytes."""

    target: str
    seeds: dict[str, bytes]

    def add(self, name: str, data: bytes | str) -> None:
        self.seeds[name] = data.encode() if isinstance(data, str) else data

    def write(self) -> int:
        d = CORPUS / self.target
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        for name, data in sorted(self.seeds.items()):
            (d / name).write_bytes(data)
        return sum(len(v) for v in self.seeds.values())


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def cut(text: str, cap: int) -> str:
    """A prefix of at most cap bytes that ends at a line end."""
    raw = text.encode()
    if len(raw) <= cap:
        return text
    head = raw[:cap].decode("utf-8", errors="ignore")
    return head[: head.rfind("\n") + 1]


# ------------------------------------------------------------------ job specs (POST bodies)

def specs() -> dict[str, dict[str, object]]:
    va_k = read(ROOT / "examples" / "vector_add" / "kernel.py")
    va_r = read(ROOT / "examples" / "vector_add" / "ref.py")
    sm_k = read(ROOT / "examples" / "softmax_npu" / "kernel.py")
    sm_r = read(ROOT / "examples" / "softmax_npu" / "ref.py")
    cases = [json.loads(line) for line in read(ROOT / "examples" / "softmax_npu" / "cases.jsonl").splitlines()
             if line.strip()]
    return {
        "vector_add": {"name": "vector add", "kernel": {"source": va_k}, "reference": {"source": va_r},
                       "backend": "interp", "rounds": 3},
        "softmax_npu": {"name": "softmax", "kernel": {"source": sm_k, "filename": "softmax.py"},
                        "reference": {"source": sm_r}, "cases": cases, "backend": "ascend"},
        "every_field": {"name": "all of it", "operator": "vector_add", "kernel": {"source": va_k},
                        "reference": {"source": va_r}, "backend": "cuda", "rounds": 15,
                        "policy": "always_deep", "proposer": "llm", "priority": -5, "benchmark_cases": 3,
                        "correctness_cases": 2, "seed": 7, "tunables": {"BLOCK_SIZE": [128, 256, 1024]},
                        "tolerances": {"float16": {"rtol": 0.001, "atol": 0.001}},
                        "pattern_index": 4, "exclude_same_operator": True},
        "refused": {"name": "", "kernel": {"source": "print(1)", "filename": "../x.py", "extra": 1},
                    "backend": "tpu", "rounds": 101, "tunables": {"1bad": [], "ok": [-1]},
                    "tolerances": {"float64": {"rtol": 2}}, "unknown": None, "correctness_cases": "some"},
    }


def spec_bodies() -> dict[str, bytes]:
    out = {name: json.dumps(s).encode() for name, s in specs().items()}
    out["unicode_name"] = json.dumps({"name": "n\u00e9\u4e2d\U0001f600", "kernel": {"source": "class ModelNew: pass"},
                                      "k\u00e9y" * 22: 1}, ensure_ascii=False).encode()
    return out


# ------------------------------------------------------------------------- request lines

def router_seeds() -> dict[str, str]:
    uuid = "8c0d6b3e-1f2a-4b5c-9d8e-7f6a5b4c3d2e"
    lines = {
        "list": ("GET", "/v1/jobs", "state=queued,running&state=failed&limit=20&cursor=c123", ""),
        "get": ("GET", f"/v1/jobs/{uuid}", "", ""),
        "events": ("GET", f"/v1/jobs/{uuid.upper()}/events", "", "42"),
        "artifact": ("GET", f"/v1/jobs/{uuid}/artifacts/3/ttgir", "round=3", ""),
        "cancel": ("POST", f"/v1/jobs/{uuid}/cancel", "", ""),
        "kernel": ("GET", f"/v1/jobs/{uuid}/kernel", "round=2", ""),
        "not_uuid": ("DELETE", "/v1/jobs/not-a-uuid/rounds", "limit=0&cursor=x&state=", "-1"),
        "other": ("PATCH", "/v1/workers", "limit=99999999999999999999999&cursor", "abc"),
        "probes": ("HEAD", "/healthz", "", ""),
    }
    return {k: "\0".join(v) for k, v in lines.items()}


# -------------------------------------------------------------------------- event streams

def sse_seeds() -> dict[str, bytes]:
    job = json.dumps({"id": "8c0d6b3e-1f2a-4b5c-9d8e-7f6a5b4c3d2e", "state": "running", "rounds_done": 2})
    koptd = (f"retry: 2000\nid: 7\nevent: state\ndata: {job}\n\n: keepalive\n\n"
             "id: 8\nevent: round\ndata: {\"round\": 3, \"accepted\": true}\n\n"
             "event: shutdown\ndata: {\"reason\": \"server stopping\"}\n\n")
    crlf = "\ufeffdata: first\r\ndata: second\r\nid: 9\r\n\r\nevent: x\rdata\r\r"
    # data[0]: cap selector, data[1]: number of piece sizes that follow.
    return {
        "koptd_stream": bytes([200, 3, 1, 7, 64]) + koptd.encode(),
        "crlf_bom": bytes([8, 2, 2, 3]) + crlf.encode(),
        "long_line": bytes([0, 0]) + b"data: " + b"x" * 300 + b"\n\n",
        # the same bytes are a kopt_job_events NOTIFY payload for sse_on_notify
        "notify": bytes([200, 0]) + json.dumps({"job_id": "8c0d6b3e-1f2a-4b5c-9d8e-7f6a5b4c3d2e",
                                                "event_id": 12}).encode(),
    }


# ------------------------------------------------------------------------------ IR texts

def ir_cuda_seeds() -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for fx in sorted(p for p in IR.iterdir() if (p / "kernel.ttgir").exists()):
        texts = [cut(read(fx / f"kernel.{k}"), IR_TEXT_CAP) for k in ("ttgir", "ptx", "sass")]
        # data[0] bit i: text i present; bits 4-7: the L2 class L3 reads it with.
        for i, kind in enumerate(("ttgir", "ptx", "sass")):
            parts = ["", "", ""]
            parts[i] = texts[i]
            out[f"{fx.name}.{kind}"] = bytes([(1 << i) | (i << 4)]) + "\0".join(parts).encode()
        if fx.name in ("copy_vec", "scalar_loop"):
            out[f"{fx.name}.all"] = bytes([0x17]) + "\0".join(texts).encode()
    return out


def ir_ascend_seeds() -> dict[str, bytes]:
    """triton-ascend's adapter IR of each Ascend fixture, read by the adapter reader (byte 0 bit
    7 clear; the low bits the L2 class); the gather's also by the HIVM reader (bit 7 set)."""
    out: dict[str, bytes] = {}
    for i, fx in enumerate(sorted(p for p in IR.iterdir() if (p / "kernel.ttadapter").exists())):
        text = cut(read(fx / "kernel.ttadapter"), IR_TEXT_CAP).encode()
        out[f"{fx.name}.adapter"] = bytes([i]) + text
        if fx.name == "ascend_gather":
            out[f"{fx.name}.hivm"] = bytes([0x80 | i]) + text
    return out


def pass_dumps(text: str) -> list[str]:
    starts = [m.start() for m in re.finditer(re.escape(PASS_HEADER), text)]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


def ir_passes_seeds() -> dict[str, str]:
    """The dumps just before and after the passes L4 traces (the pipeliner, layout conversion,
    coalescing), each cut to PASS_DUMP_CAP (a cut dump still parses: its header is whole)."""
    out: dict[str, str] = {}
    wanted = ("tritongpu-pipeline", "tritongpu-remove-layout-conversions", "tritongpu-coalesce",
              "discrete-mask-access-conversion", "triton-to-unstructure", "triton-to-linalg")
    for fx in sorted(p for p in IR.iterdir() if (p / "passes.mlir").exists()):
        dumps = pass_dumps(read(fx / "passes.mlir"))
        keep: list[int] = []
        for i, d in enumerate(dumps):
            if any(f"({w})" in d.split("\n", 1)[0] for w in wanted):
                keep += [i - 1, i, i + 1]
        seed = ""
        for i in sorted({k for k in keep if 0 <= k < len(dumps)}):
            d = cut(dumps[i], PASS_DUMP_CAP)
            if len((seed + d).encode()) <= PASS_SEED_CAP:
                seed += d
        out[fx.name] = seed
    return out


# ------------------------------------------------------------------------------ profiles

def profile_seeds() -> dict[str, str]:
    """Profile results as harness/kharness/profile.py builds them, from the sample captures."""
    out: dict[str, str] = {}
    for name in ("ncu_h200_add_kernel", "ncu_details"):
        launches = parsers.parse_ncu_csv(read(PROFILES / f"{name}.csv"))
        prof = {"available": True, "tool": "ncu", "case": 0, "who": "candidate",
                "kernels": [{"kernel": k["kernel"], "block": k["block"], "grid": k["grid"],
                             "summary": k["summary"], "rules": k["rules"][:3]} for k in launches]}
        out[name] = json.dumps(prof)
    for pipe in ("msprof_PipeUtilization", "msprof_PipeUtilization_cube"):
        pr = parsers.parse_msprof_csv(read(PROFILES / f"{pipe}.csv"))
        br = parsers.parse_msprof_csv(read(PROFILES / "msprof_OpBasicInfo.csv"))
        out[pipe] = json.dumps({"available": True, "tool": "msprof op", "case": 0, "who": "candidate",
                                "kernels": [{"kernel": "softmax_kernel",
                                             "summary": parsers.summarize_msprof(pr, br)}]})
    out["proton"] = json.dumps({"available": True, "tool": "proton",
                                "kernels": [{"kernel": "add_kernel", "time_ns": 5120.0, "count": 10}]})
    out["unavailable"] = json.dumps({"available": False, "reason": "ncu not found; triton.profiler missing"})
    # A compile result: what evidence_launch reads (kernels[0].kwargs as launches.py describes them).
    out["compile"] = json.dumps({"kernels": [{"kernel": "add_kernel", "kwargs": {
        "BLOCK_SIZE": {"kind": "int", "value": 128}, "num_warps": {"kind": "int", "value": 4},
        "flag": {"kind": "bool", "value": True}}}]})
    return out


# --------------------------------------------------------------------- proposers' answers

def answer(family: str = "block_size") -> dict[str, str]:
    kernel = read(ROOT / "examples" / "vector_add" / "kernel.py").replace("BLOCK_SIZE=128", "BLOCK_SIZE=1024")
    return {"hypothesis": "One element per thread leaves the loads scalar; a 1024-wide block "
                          "lets each thread move 128 bits.", "rewrite_family": family, "kernel": kernel}


def proposal_seeds() -> dict[str, str]:
    a = json.dumps(answer(), indent=1)
    return {
        "bare": a,
        "fenced": f"```json\n{a}\n```\n",
        "prose_around": f"Here is my rewrite:\n```json\n{a}\n```\nHope it helps.",
        "two_objects": a + "\n" + a,
        "bad_family": json.dumps(answer("make_it_fast")),
        "missing_kernel": json.dumps({"hypothesis": "h", "rewrite_family": "num_warps"}),
    }


def llm_seeds() -> dict[str, str]:
    content = "```json\n" + json.dumps(answer("vectorize_access")) + "\n```"
    ok = {"id": "c1", "object": "chat.completion", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 5123, "completion_tokens": 812}}
    cut_off = {"choices": [{"message": {"content": content[:200]}, "finish_reason": "length"}]}
    err = {"error": {"message": "Incorrect API key provided: sk-test-1234", "type": "invalid_request_error"}}
    # body \0 Retry-After \0 key
    return {
        "ok": json.dumps(ok) + "\0 7\0sk-test-1234",
        "truncated": json.dumps(cut_off) + "\0Wed, 21 Oct 2015 07:28:00 GMT\0k",
        "error_401": json.dumps(err) + "\0\0sk-test-1234",
        "html_502": "<html><body><h1>502 Bad Gateway</h1></body></html>\0" + "120\0x",
    }


def agent_seeds() -> dict[str, bytes]:
    a = answer("num_warps")
    stdout = "reading kernel.py\nthinking...\n```json\n" + json.dumps(a) + "\n```\n"
    hyp = json.dumps({"hypothesis": a["hypothesis"], "rewrite_family": a["rewrite_family"]})
    # data[0]: number of piece sizes that follow; then stdout \0 new_kernel.py \0 hypothesis.json
    return {
        "stdout_answer": bytes([2, 3, 40]) + f"{stdout}\0\0".encode(),
        "files": bytes([0]) + f"done\n\0{a['kernel']}\0{hyp}".encode(),
        "failed": bytes([1, 250]) + b"Traceback (most recent call last):\nError: no model\n\0\0{}",
    }


def main() -> int:
    bodies = spec_bodies()
    corpora = [
        Corpus("jsonlim", dict(bodies, deep=b"[" * 40 + b"]" * 40, escaped=b'{"a": "\\"[[[[", "b": [[]]}')),
        Corpus("spec", dict(bodies)),
        Corpus("router", {k: v.encode() for k, v in router_seeds().items()}),
        Corpus("problem", {"validation": bytes([3, 0]) + b"body\0kernel.source\0must define ModelNew\0"
                                                        b"tunables.x\0must be an array\0name\0too long",
                           "cut_url": bytes([0x45, 12]) + "/v1/j\u00f6bs/\u4e2d\u6587\0f\0m".encode()}),
        Corpus("sse", sse_seeds()),
        Corpus("ir_cuda", ir_cuda_seeds()),
        Corpus("ir_ascend", ir_ascend_seeds()),
        Corpus("ir_passes", {k: v.encode() for k, v in ir_passes_seeds().items()}),
        Corpus("profile", {k: v.encode() for k, v in profile_seeds().items()}),
        Corpus("llm", {k: v.encode() for k, v in llm_seeds().items()}),
        Corpus("proposal", {k: v.encode() for k, v in proposal_seeds().items()}),
        Corpus("agent", agent_seeds()),
    ]
    total = 0
    for c in corpora:
        n = c.write()
        total += n
        print(f"{c.target:10} {len(c.seeds):3} seeds {n:8} bytes")
    print(f"{'total':10} {'':9} {total:8} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
