#!/usr/bin/env python3
"""A stand-in coding agent for the round loop's `agent` proposer (tests only).

Run by kopt-worker through KOPT_AGENT_CMD as `agent_faster.py {dir}`: the round's directory
holds contract.md, kernel.py (the incumbent), evidence.json and prompt.md (workers/agent.h).
It checks that those files are there, then writes new_kernel.py (the incumbent with the
ModelNew constructor's BLOCK_SIZE default raised to 1024: more elements per thread, far fewer
programs, a large win under the Triton interpreter) and hypothesis.json citing the evidence.
Standard library only. Exit 0 on success; 2 with a message on stderr when the round's
material is missing or the kernel has no BLOCK_SIZE default to change.
"""
import json
import os
import re
import sys

FAMILIES = ("block_size", "num_warps", "num_stages", "vectorize_access")


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "."
    missing = [f for f in ("contract.md", "kernel.py", "evidence.json", "prompt.md")
               if not os.path.isfile(os.path.join(d, f))]
    if missing:
        print("agent_faster: missing in %s: %s" % (d, ", ".join(missing)), file=sys.stderr)
        return 2
    if os.path.abspath(os.getcwd()) != os.path.abspath(d):
        print("agent_faster: not run in the round's directory (cwd %s)" % os.getcwd(),
              file=sys.stderr)
        return 2
    with open(os.path.join(d, "kernel.py")) as f:
        src = f.read()
    with open(os.path.join(d, "evidence.json")) as f:
        ev = json.load(f)
    new, n = re.subn(r"\bBLOCK_SIZE=(\d+)", "BLOCK_SIZE=1024", src, count=1)
    if n != 1 or new == src:
        print("agent_faster: no BLOCK_SIZE default below 1024 in kernel.py", file=sys.stderr)
        return 2
    family = ev.get("family") if ev.get("family") in FAMILIES else "block_size"
    diag = str(ev.get("diagnosis", ""))[:400]
    hyp = ("agent_faster: the evidence at L%s says: %s So BLOCK_SIZE 1024 gives each thread "
           "more contiguous elements and launches far fewer programs." % (ev.get("level"), diag))
    with open(os.path.join(d, "new_kernel.py"), "w") as f:
        f.write(new)
    with open(os.path.join(d, "hypothesis.json"), "w") as f:
        json.dump({"hypothesis": hyp, "rewrite_family": family}, f)
    print("agent_faster: wrote new_kernel.py and hypothesis.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
