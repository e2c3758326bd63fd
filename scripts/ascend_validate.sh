#!/usr/bin/env bash
# Validates, on a machine with an Ascend NPU, what kopt's CI cannot run (docs/ASCEND.md,
# "What has not run"): NPU event timing, msprof op profiles, bishengir-compile and the HIVM IR
# after sync injection, device faults -- by running the bundled examples through the harness
# on the device (tests/harness/npu_smoke.py) and checking the figures they give.
#
#   scripts/ascend_validate.sh [OUT_DIR [--sandboxed]]     (default var/ascend-validate)
#
# Needs: the CANN toolkit's environment (source <ascend-toolkit>/set_env.sh: ASCEND_HOME_PATH,
# bishengir-compile and msprof on PATH), npu-smi, and a Python with torch, torch_npu and
# triton-ascend (KOPT_HARNESS_PYTHON; default .venv/bin/python). Exit status 0 when every
# step behaved as expected; OUT_DIR/summary.json and OUT_DIR/figures.json say what was seen.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:-var/ascend-validate}
[ $# -gt 0 ] && shift  # the rest goes to npu_smoke.py (e.g. --sandboxed)
py=${KOPT_HARNESS_PYTHON:-$PWD/.venv/bin/python}
fail=0
need() {  # need WHAT CHECK...: runs CHECK, says what is missing
  local what=$1; shift
  if "$@" >/dev/null 2>&1; then echo "ok    $what"; else echo "MISSING $what" >&2; fail=1; fi
}
need "ASCEND_HOME_PATH (source <ascend-toolkit>/set_env.sh)" test -n "${ASCEND_HOME_PATH:-}"
need "npu-smi" command -v npu-smi
need "bishengir-compile on PATH (CANN)" command -v bishengir-compile
need "msprof on PATH (CANN)" command -v msprof
need "$py with torch_npu and an NPU" "$py" -c 'import torch, torch_npu; assert torch.npu.is_available()'
need "$py with triton-ascend" "$py" -c 'from triton.backends import backends; assert "ascend" in backends'
if [ "$fail" != 0 ]; then
  echo "ascend_validate: prerequisites missing (above); nothing was run" >&2
  exit 2
fi
mkdir -p "$out"
npu-smi info > "$out/npu-smi.txt" 2>&1 || true
"$py" tests/harness/npu_smoke.py --out "$out" "$@"
rc=$?
echo "ascend_validate: exit $rc; $out/summary.json (steps), $out/figures.json (bandwidth, speedups, HIVM counts, pipe ratios), $out/fixtures/ (real ttadapter and npuir)"
exit $rc
