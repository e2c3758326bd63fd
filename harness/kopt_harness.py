#!/usr/bin/env python3
"""kopt device harness. Speaks JSON Lines on stdin/stdout; see harness/PROTOCOL.md.

    python harness/kopt_harness.py --backend interp --workdir /var/lib/kopt/work/cpu0

Sandboxed (own user, no network, rlimits, private work directory):

    python harness/launch.py --backend cuda --workdir /var/lib/kopt/work/cuda0
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    if "--worker" in sys.argv[1:]:
        from kharness.worker import main
    else:
        from kharness.supervisor import main
    sys.exit(main(sys.argv[1:]))
