#!/bin/sh
# A stand-in coding agent that gives up (tests only): run by kopt-worker through
# KOPT_AGENT_CMD as `agent_silent.sh {dir}`, it looks at the round's directory, says on stderr
# that it has no idea, and exits 0 without writing new_kernel.py / hypothesis.json or printing
# an answer on stdout. The round must be rejected with a reason that says so.
[ -f "${1:-.}/kernel.py" ] || { echo "agent_silent: no kernel.py in ${1:-.}" >&2; exit 2; }
echo "agent_silent: read kernel.py; no idea this round, writing nothing" >&2
exit 0
