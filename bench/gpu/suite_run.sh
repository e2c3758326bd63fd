#!/usr/bin/env bash
# The operator suite on a GPU machine (the device tool's H200s), like device_run.sh: the whole
# stack from the carried binaries (bin/) and Debian runtime packages (.devdeps/), the harness
# on the machine's own python3 (torch, Triton). Then, for the operators in OPS:
#   kopt        bench/suite/run.py: RUNS jobs per operator, ROUNDS rounds, POLICY, rules
#   baselines   bench/suite/baselines.py (koptd stopped first, so the GPU is free): the initial
#               kernel, PyTorch eager, torch.compile and kopt's best kernels side by side,
#               copy bandwidth, peak tensor throughput
#   exhaustive  bench/suite/exhaustive.py, only when the harness has the knobs/rewrite/sweep
#               ops: the optimum of each initial kernel's launch space (EXH_CAP points at most)
#   heldout     `koptctl heldout` on OPS (docs/PATTERNS.md): HO_SPLIT (0.5), HO_SEED (7),
#               ROUNDS; writes results/heldout.json and heldout.txt. With STATE_DIR the run
#               spans device calls: PostgreSQL's data (packed when the stack stops) and the
#               protocol's --state file live there (an ignored path of the checkout, kept while
#               the machine stays warm), so the next call with the same settings resumes the
#               batches where the last one stopped (RUN_TIMEOUT bounds each call's wait). The
#               state is also dumped there as kopt.dump (pg_dump): a STATE_DIR holding only
#               kopt.dump and heldout-state.json (e.g. copied from a committed results
#               directory's state/) resumes in a fresh cluster
# and bench/suite/report.py (Markdown; plots only where matplotlib is installed: otherwise
# run report.py again on the development machine with the results).
#
#   OUT=/tmp/out OPS=gelu_tanh,softmax RUNS=3 ROUNDS=5 bash bench/gpu/suite_run.sh
#
# Environment: OPS (default all), RUNS (3), ROUNDS (5), POLICY (hierarchy), PROPOSER (rules),
# BACKEND (cuda; interp runs every phase on a development machine's CPU interpreter, at the
# operators' small sizes, with PATH's python3 the one that has torch and Triton; torch.compile is
# skipped there),
# FIRST_RUN (number of the first run; give it when results of several invocations of the same
# operators are merged), PHASES (default "kopt baselines exhaustive report"), EXH_CAP (256),
# SANDBOX_BWRAP (1: the carried bubblewrap, bench/gpu/README.md), JOB_TIMEOUT (s per job,
# 900), RUN_TIMEOUT (s for all kopt jobs together; jobs unfinished by
# then are cancelled and recorded as timed out, so a device call ends with its results packed),
# BASE_TIMEOUT (s for the baselines phase), EXH_TIMEOUT (s for the exhaustive phase: each
# operator's record is written when its sweep ends, so those finished before it are kept), KOPT_DEVICES (auto: every GPU gets a worker),
# STATE_DIR (PostgreSQL's data kept there between calls instead of a fresh cluster in /tmp),
# KOPT_DIR (where baselines finds the kopt records whose best kernels it times; default this
# call's results: give a committed results directory, with PHASES=baselines and FIRST_RUN, to
# measure the baselines of recorded runs again).
# KOPT_SUITE_OPS_DIR (another directory of operators for every tool, e.g. bench/suite/unseen).
# One device-tool command may run 10 minutes: split the suite with OPS (and PHASES).
# Everything is packed into $OUT/suite-results.tgz (the tool brings back 8 files at most), with
# report.md and the logs' tails beside it.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
BIN=${BIN:-bin}
OUT=${OUT:-/tmp/kopt-suite-out}
OPS=${OPS:-all}
RUNS=${RUNS:-3}
ROUNDS=${ROUNDS:-5}
POLICY=${POLICY:-hierarchy}
PROPOSER=${PROPOSER:-rules}
BACKEND=${BACKEND:-cuda}
PHASES=${PHASES:-kopt baselines exhaustive report}
EXH_CAP=${EXH_CAP:-256}
JOB_TIMEOUT=${JOB_TIMEOUT:-900}
RUN_TIMEOUT=${RUN_TIMEOUT:-21600}
BASE_TIMEOUT=${BASE_TIMEOUT:-21600}
EXH_TIMEOUT=${EXH_TIMEOUT:-21600}
RES=$OUT/results
mkdir -p "$RES"
log() { echo "suite_run: $*" >&2; }
has_phase() { case " $PHASES " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
first_run=(); [ -n "${FIRST_RUN:-}" ] && first_run=(--first-run "$FIRST_RUN")

{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm --format=csv
  python3 -c 'import torch, triton; print("torch", torch.__version__, "triton", triton.__version__)'
  echo "OPS=$OPS RUNS=$RUNS ROUNDS=$ROUNDS POLICY=$POLICY PROPOSER=$PROPOSER PHASES=$PHASES EXH_CAP=$EXH_CAP"
  git log --oneline -1 2>/dev/null || true
} >"$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt" >&2

start_stack() {
  bash bench/gpu/unpack_devdeps.sh /opt/deps || return 1
  export LD_LIBRARY_PATH=/opt/deps/usr/lib/x86_64-linux-gnu
  # SANDBOX_BWRAP=1: the carried bubblewrap, so the harness runs in the allowlisted view
  # (bench/gpu/README.md); otherwise the launcher's unshare fallback
  [ "${SANDBOX_BWRAP:-0}" = 1 ] && export PATH=/opt/deps/usr/bin:$PATH
  if ldd "$BIN/koptd" "$BIN/kopt-worker" | grep "not found"; then log "missing libraries (above)"; return 1; fi
  # the carried binaries' own version, once (the device copy's git metadata can be older)
  grep -q '^koptd ' "$OUT/gpu.txt" || "$BIN/koptd" -V >>"$OUT/gpu.txt" 2>&1
  id kopt >/dev/null 2>&1 || useradd -r -M -s /usr/sbin/nologin kopt
  PGBIN=/opt/deps/usr/lib/postgresql/15/bin
  rm -rf /tmp/kpg && mkdir -p /tmp/kpg && chown kopt /tmp/kpg
  PGDATA_DIR=/tmp/kpg/data
  # STATE_DIR: the cluster of the last call, packed there when it stopped (the checkout may
  # sit where the kopt user cannot reach, so the cluster itself runs from /tmp)
  if [ -n "${STATE_DIR:-}" ] && [ -s "$STATE_DIR/pg.tgz" ]; then
    tar -xzf "$STATE_DIR/pg.tgz" -C /tmp/kpg && chown -R kopt /tmp/kpg &&
      log "reusing PostgreSQL's data from $STATE_DIR/pg.tgz"
  fi
  local restore=0
  if [ ! -s "$PGDATA_DIR/PG_VERSION" ]; then
    runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/initdb" -D "$PGDATA_DIR" -U kopt \
      --auth=trust >/dev/null || { log "initdb failed"; return 1; }
    # no cluster to reuse, but a logical dump (kopt.dump, written beside pg.tgz): the state
    # that a results directory commits, to resume on another machine or in another session
    [ -n "${STATE_DIR:-}" ] && [ -s "$STATE_DIR/kopt.dump" ] && restore=1
  fi
  runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_ctl" -D "$PGDATA_DIR" -w \
    -o "-c listen_addresses='' -k /tmp/kpg -c jit=off" -l /tmp/kpg/log start >/dev/null \
    || { cat /tmp/kpg/log >&2; return 1; }
  pg_up=1
  if [ "$restore" = 1 ]; then
    runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_restore" -h /tmp/kpg -U kopt \
      -d postgres --exit-on-error <"$STATE_DIR/kopt.dump" || { log "pg_restore of $STATE_DIR/kopt.dump failed"; return 1; }
    log "restored PostgreSQL's data from $STATE_DIR/kopt.dump"
  fi
  export KOPT_DATABASE_URL="postgresql:///postgres?host=/tmp/kpg&user=kopt"
  export KOPT_LISTEN=127.0.0.1:18470 KOPT_URL=http://127.0.0.1:18470
  export KOPT_DEVICES=${KOPT_DEVICES:-auto} KOPT_HARNESS_PYTHON; KOPT_HARNESS_PYTHON=$(command -v python3)
  export KOPT_HARNESS_DIR=$PWD/harness KOPT_WORK_DIR=/tmp/kopt-work KOPT_LEASE_S=30
  "$BIN/koptd" migrate || return 1
  KOPT_TOKEN=$("$BIN/koptd" token create --role admin | tail -1); export KOPT_TOKEN
  "$BIN/koptd" >"$OUT/koptd.log" 2>&1 &
  kpid=$!
  # /readyz waits for each worker's start-up check (harness start, torch import, device
  # init): up to 5 minutes
  for _ in $(seq 1 1500); do
    python3 -c 'import urllib.request,sys; urllib.request.urlopen(sys.argv[1]+"/readyz")' "$KOPT_URL" \
      2>/dev/null && return 0
    sleep 0.2
  done
  log "koptd did not become ready"; return 1
}

stop_stack() {
  if [ -n "${kpid:-}" ]; then kill -TERM "$kpid"; wait "$kpid"; log "koptd exit $?"; kpid=; fi
  # once per start (the EXIT trap calls this again after a phase already did)
  [ "${pg_up:-0}" = 1 ] || return 0
  dump_state
  pg_up=0
  runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_ctl" -D "$PGDATA_DIR" stop \
    >/dev/null 2>&1
  if [ -n "${STATE_DIR:-}" ]; then
    mkdir -p "$STATE_DIR" && tar -czf "$STATE_DIR/pg.tgz.tmp" -C /tmp/kpg data &&
      mv "$STATE_DIR/pg.tgz.tmp" "$STATE_DIR/pg.tgz" && log "PostgreSQL's data packed into $STATE_DIR/pg.tgz"
  fi
  return 0
}

# The same state as a logical dump (pg_dump's custom format: 1.6 MB for 37 jobs, 21 run, against
# pg.tgz's 11 MB; restorable on a machine whose C library sorts text differently), taken while
# the server still runs. Binaries of one PostgreSQL release must write and read it: a 15.18
# pg_dump's output of a 15.20 cluster did not restore.
dump_state() {
  [ -n "${STATE_DIR:-}" ] && [ "${pg_up:-0}" = 1 ] || return 0
  mkdir -p "$STATE_DIR" && runuser -u kopt -- env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" "$PGBIN/pg_dump" \
    -h /tmp/kpg -U kopt -Fc -Z 9 postgres >"$STATE_DIR/kopt.dump.tmp" &&
    mv "$STATE_DIR/kopt.dump.tmp" "$STATE_DIR/kopt.dump" && log "PostgreSQL's data dumped into $STATE_DIR/kopt.dump"
}
trap stop_stack EXIT

if has_phase kopt; then
  if start_stack; then
    python3 bench/suite/run.py --ops "$OPS" --runs "$RUNS" "${first_run[@]}" --rounds "$ROUNDS" \
      --policy "$POLICY" --proposer "$PROPOSER" --backend "$BACKEND" --out "$RES" --job-timeout "$JOB_TIMEOUT" --timeout "$RUN_TIMEOUT" \
      2>"$OUT/run.log"
    log "run.py exit $? ($(grep -c 'submitted job' "$OUT/run.log") jobs)"
  else
    log "the stack did not start: no kopt results"
  fi
  stop_stack
fi

if has_phase heldout; then
  if start_stack; then
    ho_state=(); [ -n "${STATE_DIR:-}" ] && mkdir -p "$STATE_DIR" && ho_state=(--state "$STATE_DIR/heldout-state.json")
    ho_ops=(); [ "$OPS" != all ] && ho_ops=(--ops "$OPS")
    "$BIN/koptctl" heldout --suite bench/suite/ops "${ho_ops[@]}" --split "${HO_SPLIT:-0.5}" \
      --seed "${HO_SEED:-7}" --rounds "$ROUNDS" --policy "$POLICY" --backend cuda "${ho_state[@]}" \
      --timeout "$RUN_TIMEOUT" --out "$RES/heldout.json" >"$OUT/heldout.txt" 2>"$OUT/heldout.log"
    log "koptctl heldout exit $?"
  else
    log "the stack did not start: no held-out results"
  fi
  stop_stack
  # the state comes back too, so a later session can carry it and resume
  [ -n "${STATE_DIR:-}" ] && mkdir -p "$OUT/bench-state" && cp "$STATE_DIR"/* "$OUT/bench-state/" 2>/dev/null
fi

if has_phase baselines; then
  timeout "$BASE_TIMEOUT" python3 bench/suite/baselines.py --ops "$OPS" --runs "$RUNS" --first-run "${FIRST_RUN:-1}" --kopt "${KOPT_DIR:-$RES}" \
    --backend "$BACKEND" --out "$RES" 2>"$OUT/baselines.log"
  log "baselines.py exit $?"
fi

if has_phase exhaustive; then
  if python3 -c 'import sys; sys.path.insert(0, "harness"); from kharness.protocol import OPS
sys.exit(0 if {"knobs", "rewrite", "sweep"} <= set(OPS) else 1)'; then
    timeout "$EXH_TIMEOUT" python3 bench/suite/exhaustive.py --ops "$OPS" --backend "$BACKEND" --cap "$EXH_CAP" \
      --out "$RES" 2>"$OUT/exhaustive.log"
    log "exhaustive.py exit $?"
  else
    log "exhaustive skipped: this harness has no knobs/rewrite/sweep ops"
  fi
fi

if has_phase report; then
  python3 bench/suite/report.py "$RES" --out "$OUT/report" --title "kopt suite on $(nvidia-smi \
    --query-gpu=name --format=csv,noheader | head -1), $POLICY, $PROPOSER, $ROUNDS rounds" 2>"$OUT/report.log"
  log "report.py exit $?"
fi

# The device tool brings back at most 8 files: pack everything, keep the report beside it.
if [ "${PACK:-1}" = 1 ]; then
  tar -czf /tmp/kopt-suite-results.tgz -C "$OUT" . && find "$OUT" -mindepth 1 -delete &&
    mv /tmp/kopt-suite-results.tgz "$OUT/suite-results.tgz" &&
    tar -xzf "$OUT/suite-results.tgz" -C "$OUT" ./gpu.txt ./report/report.md 2>/dev/null
fi
exit 0
