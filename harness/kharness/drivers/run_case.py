"""Re-run one case of a loaded problem in a fresh process (for ncu, msprof, proton and
triton-ascend's TRITON_DEBUG dumps).

    python run_case.py state.json [--reps N] [--proton OUT]

Runs ModelNew.forward once to compile/warm up, then N more times (default 1), synchronizing
after each."""
import argparse
import json
import os
import sys


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("state")
    ap.add_argument("--reps", type=int, default=1)
    ap.add_argument("--proton", default=None, help="profile the timed reps with triton.profiler into this file")
    a = ap.parse_args()
    with open(a.state) as f:
        state = json.load(f)
    sys.path.insert(0, state["harness_dir"])
    import torch

    from kharness import backend as bk
    from kharness.state import rebuild
    model, inputs, _device = rebuild(state)
    with torch.no_grad():
        model(*inputs)
        bk.sync(state["backend"])
        if a.proton:
            import triton.profiler as proton
            proton.start(os.path.splitext(a.proton)[0], hook="triton")
        for _ in range(a.reps):
            model(*inputs)
        bk.sync(state["backend"])
        if a.proton:
            proton.finalize()
    # on stderr: stdout belongs to the profiler's report (ncu --csv)
    sys.stderr.write(json.dumps({"ok": True, "reps": a.reps}) + "\n")


if __name__ == "__main__":
    main()
