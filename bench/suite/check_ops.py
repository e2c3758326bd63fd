"""Checks the suite's operators through the real harness (harness/kopt_harness.py, the same
process the worker drives): for each operator `load` (the static check must pass), `validate`
of the initial kernel against ref.py, and the shapes and dtypes of the inputs and outputs
against op.json. Optionally compiles each kernel offline for a GPU target (`--compile cuda:90`,
no GPU needed), and with `--rewrites` applies every structural rewrite whose precondition the
kernel meets, at its default parameters, and checks each candidate the same way.

    .venv/bin/python bench/suite/check_ops.py [--ops all|a,b] [--backend interp] [--compile cuda:90] [--rewrites]

On the CPU it runs the interpreter at the small sizes (every operator in about 2-4 minutes on
2 cores); tests/harness/test_suite_ops.py runs the same check in `make test`.
Ends with one line "N passed, N failed".
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from opspec import OpSpec, ops_arg

ROOT = Path(__file__).resolve().parents[2]
HARNESS_DIR = ROOT / "harness"
LOAD_TIMEOUT_S = 300
VALIDATE_TIMEOUT_S = 300
COMPILE_TIMEOUT_S = 300


@dataclass
class OpCheck:
    op: str
    passed: bool = False
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0
    checked: list[str] = field(default_factory=list)    # check_rewrites: the rewrites it ran
    launches: list[Any] | None = None   # check_op: what the harness recorded at its load


def _load(client: Any, op: OpSpec, workdir: str, correctness_cases: int = 2) -> dict[str, Any]:
    """The harness's `load` of the operator's reference and initial kernel (its response)."""
    return client.request("load", reference_source=op.ref_source(), kernel_source=op.kernel_source(),
                          workdir=workdir, seed=0, correctness_cases=correctness_cases, benchmark_cases=1,
                          timeout_s=LOAD_TIMEOUT_S, tolerances=op.tolerances)


def start_client(workdir: str, backend: str) -> Any:
    """A harness process like the worker's (unsandboxed), its log in the work directory."""
    sys.path.insert(0, str(HARNESS_DIR))
    from kharness.client import HarnessClient
    env = dict(os.environ)
    if backend == "interp":
        env["TRITON_INTERPRET"] = "1"
    return HarnessClient(["--backend", backend, "--workdir", workdir], env=env,
                         stderr_path=os.path.join(workdir, "harness.log"))


def _error(resp: dict[str, Any]) -> str:
    err = resp.get("error") or {}
    return f"{err.get('kind')}: {str(err.get('message'))[:600]}"


def _shapes_problems(op: OpSpec, scale: str, load: dict[str, Any], val: dict[str, Any]) -> list[str]:
    problems = []
    got_in = load.get("inputs_of_probe_case") or []
    tensors_in = [d for d in got_in if isinstance(d, dict) and "tensor" in d]
    want_in = [(list(op.shape(t, scale)), t.dtype) for t in op.inputs]
    have_in = [(list(d["tensor"]), d.get("dtype")) for d in tensors_in]
    if have_in != want_in:
        problems.append(f"inputs {have_in} differ from op.json at scale {scale}: {want_in}")
    cases = val.get("cases") or []
    outs = cases[0].get("outputs", []) if cases else []
    have_out = [(o.get("shape"), o.get("dtype")) for o in outs]
    want_out = [(list(op.shape(t, scale)), t.dtype) for t in op.judged]
    if have_out != want_out:
        problems.append(f"outputs {have_out} differ from op.json at scale {scale}: {want_out}")
    if list(load.get("updated_inputs") or []) != list(op.updates):
        problems.append(f"the reference updates inputs {load.get('updated_inputs')} in place; op.json.updates "
                        f"names {list(op.updates)}")
    return problems


def check_op(client: Any, op: OpSpec, scale: str, correctness_cases: int = 2,
             compile_target: str | None = None) -> OpCheck:
    res = OpCheck(op.name)
    t0 = time.monotonic()
    r = _load(client, op, f"suite-{op.name}", correctness_cases)
    if not r.get("ok"):
        res.problems.append(f"load failed: {_error(r)}")
        res.seconds = time.monotonic() - t0
        return res
    load = r["result"]
    res.launches = load.get("kernels")
    sc = load.get("static_check") or {}
    if not sc.get("ok"):
        res.problems.append(f"static check: {sc.get('violations')}")
    v = client.request("validate", timeout_s=VALIDATE_TIMEOUT_S)
    if not v.get("ok"):
        res.problems.append(f"validate failed: {_error(v)}")
    else:
        val = v["result"]
        if not val.get("passed"):
            res.problems.append(f"initial kernel refused: {(val.get('failure') or {}).get('message')}")
        res.problems += _shapes_problems(op, scale, load, val)
    if compile_target:
        c = client.request("compile", target=compile_target, timeout_s=COMPILE_TIMEOUT_S)
        if not c.get("ok"):
            res.problems.append(f"compile for {compile_target} failed: {_error(c)}")
    res.passed = not res.problems
    res.seconds = time.monotonic() - t0
    return res


def check_rewrites(client: Any, op: OpSpec, compile_target: str | None = None,
                   launches: list[Any] | None = None) -> OpCheck:
    """Every structural rewrite whose precondition the operator's initial kernel meets (the
    survey, on the launches the harness records when it loads the operator), applied at its
    default parameters: the candidate must pass `validate` (and compile for compile_target)
    as the initial kernel does. A rewrite's fixtures test it on kernels written for it; this
    runs each on every operator it claims to fit (the unseen groupnorm's Welford reduction
    broke rows_per_program's candidates, found first on a GPU). launches: check_op's, when the
    harness still holds that load of the operator (then it is not loaded again)."""
    sys.path.insert(0, str(HARNESS_DIR))
    from kharness.srcedit import RewriteRefused
    from kharness.structural import apply, survey
    res = OpCheck(op.name)
    t0 = time.monotonic()
    if launches is None:
        r = _load(client, op, f"rewrites-{op.name}")
        if not r.get("ok"):
            res.problems.append(f"load failed: {_error(r)}")
            res.seconds = time.monotonic() - t0
            return res
        launches = r["result"]["kernels"]
    for fit in survey(op.kernel_source(), launches):
        if not fit.fits:
            continue
        try:
            cand = apply(op.kernel_source(), fit.name, {}, launches)
        except RewriteRefused as e:
            res.problems.append(f"{fit.name}: fits, but apply refuses: {e}")
            continue
        v = client.request("validate", candidate_source=cand, timeout_s=VALIDATE_TIMEOUT_S)
        if not v.get("ok"):
            res.problems.append(f"{fit.name}: validate failed: {_error(v)}")
        elif not v["result"].get("passed"):
            res.problems.append(f"{fit.name}: candidate refused: {(v['result'].get('failure') or {}).get('message')}")
        if compile_target:
            c = client.request("compile", target=compile_target, candidate_source=cand, timeout_s=COMPILE_TIMEOUT_S)
            if not c.get("ok"):
                res.problems.append(f"{fit.name}: compile for {compile_target} failed: {_error(c)}")
        res.checked.append(fit.name)
    res.passed = not res.problems
    res.seconds = time.monotonic() - t0
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ops", default="all", type=ops_arg, help="all, or a comma-separated list of operators")
    ap.add_argument("--backend", default="interp", choices=("interp", "cuda"))
    ap.add_argument("--correctness-cases", type=int, default=2)
    ap.add_argument("--compile", default=None, metavar="TARGET", help="also compile offline, e.g. cuda:90")
    ap.add_argument("--rewrites", action="store_true",
                    help="also apply every structural rewrite that fits, at its defaults, and check its candidate "
                         "the same way (check_rewrites)")
    args = ap.parse_args(argv)
    ops = args.ops
    if args.backend == "interp":
        os.environ.setdefault("KOPT_SUITE_SCALE", "small")
    scale = os.environ.get("KOPT_SUITE_SCALE", "full")
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="kopt-suite-check-") as wd:
        client = start_client(wd, args.backend)
        try:
            for op in ops:
                results = [check_op(client, op, scale, args.correctness_cases, args.compile)]
                if args.rewrites:
                    results.append(check_rewrites(client, op, args.compile, results[0].launches))
                for res in results:
                    word = "ok  " if res.passed else "FAIL"
                    what = f"rewrites {','.join(res.checked) or '(none fits)'}  " if res is not results[0] else ""
                    print(f"{word} {op.name:18s} {res.seconds:6.1f} s  {what}{'; '.join(res.problems)}", flush=True)
                    passed += res.passed
                    failed += not res.passed
        finally:
            client.close()
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
