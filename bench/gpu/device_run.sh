#!/usr/bin/env bash
# The whole stack on a GPU machine without a package registry (the device tool's H200):
# PostgreSQL 15 and the C runtime libraries come from Debian .debs carried in .devdeps/
# (see bench/gpu/README.md), koptd/kopt-worker/koptctl are the binaries built on the
# development machine (bin/), and the harness runs on the machine's own python3 (torch,
# Triton). Submits the bundled example RUNS times on cuda and summarizes the baselines.
#   OUT=/tmp/out RUNS=3 bash bench/gpu/device_run.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BIN=${BIN:-bin}
OUT=${OUT:-/tmp/kopt-device-out}
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-0}
POLICIES=${POLICIES:-hierarchy}
EXAMPLES=${EXAMPLES:-examples/vector_add}
mkdir -p "$OUT"
log() { echo "device_run: $*" >&2; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv \
  | tee "$OUT/gpu.txt"
python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)' \
  | tee -a "$OUT/gpu.txt"
command -v ncu >/dev/null && ncu --version | tail -1 | tee -a "$OUT/gpu.txt"

bash bench/gpu/unpack_devdeps.sh /opt/deps || exit 1
export LD_LIBRARY_PATH=/opt/deps/usr/lib/x86_64-linux-gnu
if ldd $BIN/koptd $BIN/kopt-worker $BIN/koptctl | grep "not found"; then
  log "missing libraries (above)"; exit 1
fi
id kopt >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin kopt
PGBIN=/opt/deps/usr/lib/postgresql/15/bin
rm -rf /tmp/kpg && mkdir -p /tmp/kpg && chown kopt /tmp/kpg
runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/initdb" -D /tmp/kpg/data \
  -U kopt --auth=trust >/dev/null || { log "initdb failed"; exit 1; }
runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_ctl" -D /tmp/kpg/data -w \
  -o "-c listen_addresses='' -k /tmp/kpg -c jit=off" -l /tmp/kpg/log start >/dev/null \
  || { cat /tmp/kpg/log; exit 1; }

export KOPT_DATABASE_URL="postgresql:///postgres?host=/tmp/kpg&user=kopt"
export KOPT_LISTEN=127.0.0.1:18470 KOPT_URL=http://127.0.0.1:18470
export KOPT_DEVICES=${KOPT_DEVICES:-auto} KOPT_HARNESS_PYTHON=$(command -v python3)
export KOPT_HARNESS_DIR=$PWD/harness KOPT_WORK_DIR=/tmp/kopt-work KOPT_LEASE_S=30
$BIN/koptd migrate || exit 1
KOPT_TOKEN=$($BIN/koptd token create --role admin | tail -1); export KOPT_TOKEN
$BIN/koptd >"$OUT/koptd.log" 2>&1 &
kpid=$!
# /readyz waits for each worker's start-up check (harness start: torch import, device init)
for _ in $(seq 1 900); do
  python3 -c 'import urllib.request,sys; urllib.request.urlopen(sys.argv[1]+"/readyz")' "$KOPT_URL" \
    2>/dev/null && break
  sleep 0.2
done

n=0
for ex in $EXAMPLES; do
  for pol in $POLICIES; do
    for r in $(seq 1 "$RUNS"); do
      n=$((n + 1))
      cases=(); [ -f "$ex/cases.jsonl" ] && cases=(--cases "$ex/cases.jsonl")
      J=$($BIN/koptctl submit --reference "$ex/ref.py" --kernel "$ex/kernel.py" "${cases[@]}" \
          --backend cuda --rounds "$ROUNDS" --policy "$pol" --name "$(basename "$ex")-$pol-run$r" | tail -1)
      log "job $n ($ex, $pol, run $r): $J"
      timeout 500 $BIN/koptctl watch "$J" | tail -2
      $BIN/koptctl status "$J" --json >"$OUT/job-$n.json"
      python3 - "$KOPT_URL" "$KOPT_TOKEN" "$J" >"$OUT/rounds-$n.json" <<'PY'
import sys, urllib.request
req = urllib.request.Request(f"{sys.argv[1]}/v1/jobs/{sys.argv[3]}/rounds",
                             headers={"Authorization": "Bearer " + sys.argv[2]})
print(urllib.request.urlopen(req).read().decode())
PY
    done
  done
done
python3 - "$KOPT_URL" "$KOPT_TOKEN" >"$OUT/workers.json" <<'PY'
import sys, urllib.request
req = urllib.request.Request(sys.argv[1] + "/v1/workers", headers={"Authorization": "Bearer " + sys.argv[2]})
print(urllib.request.urlopen(req).read().decode())
PY
kill -TERM "$kpid"; wait "$kpid"; log "koptd exit $?"
python3 bench/gpu/summarize.py "$OUT"/job-*.json | tee "$OUT/summary.txt"
runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_ctl" -D /tmp/kpg/data stop >/dev/null
# The device tool brings back at most 8 files: pack everything, keep the summary beside it.
if [ "${PACK:-1}" = 1 ]; then
  tar -czf /tmp/kopt-results.tgz -C "$OUT" . && find "$OUT" -mindepth 1 -delete &&
    mv /tmp/kopt-results.tgz "$OUT/results.tgz" && tar -xzf "$OUT/results.tgz" -C "$OUT" ./summary.txt
fi
