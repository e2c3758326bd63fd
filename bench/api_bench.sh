#!/usr/bin/env bash
# API benchmark for koptd (`make bench`): a private PostgreSQL cluster with a fresh database,
# `koptd migrate`, a submitter token, koptd on a free loopback port, then wrk against
#   GET  /v1/jobs/{id}   (one existing job)
#   POST /v1/jobs        (a small valid spec, no Idempotency-Key: every request makes a job)
# at each connection count, with koptd's resident memory (VmRSS) idle before the load, at
# its peak during each run (sampled every 0.2 s) and after. Prints a table and writes it to
# bench/results/api-<date>.txt. Everything it started is stopped on exit.
#
# Environment:
#   KOPT_BENCH_DURATION  seconds per run (default 10)
#   KOPT_BENCH_CONNS     connection counts (default "8 64")
#   KOPT_BENCH_THREADS   wrk threads (default 2)
#   KOPT_BENCH_KEEP=1    keep the work directory (cluster, koptd.log, wrk output)
#   KOPT_POOL_SIZE etc.  passed to koptd as usual (KOPT_DEVICES is forced to none: no workers)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

DURATION=${KOPT_BENCH_DURATION:-10}
CONNS=${KOPT_BENCH_CONNS:-"8 64"}
THREADS=${KOPT_BENCH_THREADS:-2}
KEEP=${KOPT_BENCH_KEEP:-0}
PGBIN=${KOPT_PG_BIN:-/usr/lib/postgresql/15/bin}
KOPTD=$root/bin/koptd

log() { echo "bench: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -x "$KOPTD" ] || die "$KOPTD is missing (run: make all)"
command -v wrk >/dev/null || die "wrk is not installed"
command -v curl >/dev/null || die "curl is not installed"
command -v python3 >/dev/null || die "python3 is not installed"
for c in $CONNS; do
  [ "$c" -ge "$THREADS" ] 2>/dev/null || die "connection count '$c' must be a number >= threads ($THREADS)"
done

work=$(mktemp -d /tmp/kopt-bench.XXXXXX)
chmod 0755 "$work" # the cluster may run as user kopt (pg.sh under root); it must reach $work/pg
pg_dir=$work/pg
koptd_pid=""
sampler_pid=""

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$sampler_pid" ]; then kill "$sampler_pid" 2>/dev/null || true; fi
  if [ -n "$koptd_pid" ] && kill -0 "$koptd_pid" 2>/dev/null; then
    kill -TERM "$koptd_pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$koptd_pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$koptd_pid" 2>/dev/null; then
      log "koptd did not stop within 10 s; killing it"
      kill -KILL "$koptd_pid" 2>/dev/null || true
    fi
    wait "$koptd_pid" 2>/dev/null || true
  fi
  if [ -e "$pg_dir" ]; then bash scripts/pg.sh stop "$pg_dir" >/dev/null 2>&1 || true; fi
  if [ "$rc" -ne 0 ] && [ -f "$work/koptd.log" ]; then
    log "koptd.log (last 20 lines):"; tail -n 20 "$work/koptd.log" >&2
  fi
  if [ "$KEEP" = 1 ]; then
    log "kept $work"
  else
    # pg.sh may have put the cluster elsewhere and left a symlink here.
    if [ -L "$pg_dir" ]; then rm -rf "$(readlink "$pg_dir")"; fi
    rm -rf "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# VmRSS of pid in KiB (0 when gone); reads /proc without forking.
rss_kib() {
  local k v _
  [ -r "/proc/$1/status" ] || { echo 0; return; }
  while read -r k v _; do
    if [ "$k" = VmRSS: ]; then echo "$v"; return; fi
  done <"/proc/$1/status" 2>/dev/null || true
  echo 0
}
# Samples pid's VmRSS every 0.2 s, keeping the maximum in file $2, until killed.
rss_sampler() {
  local pid=$1 out=$2 max=0 v
  while :; do
    v=$(rss_kib "$pid")
    if [ "${v:-0}" -gt "$max" ]; then max=$v; echo "$max" >"$out.tmp" && mv "$out.tmp" "$out"; fi
    sleep 0.2
  done
}
# CPU time (user + system) of pid in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
# wrk prints latencies as 812.00us, 1.23ms, 1.01s, 2.00m: to milliseconds.
to_ms() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
    if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
    printf "%.2f", n }'
}
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
psql_q() { "$PGBIN/psql" -X -qtA "$KOPT_DATABASE_URL" -c "$1"; }

# ---------------------------------------------------------------------------- set-up
log "PostgreSQL (fast, private) in $pg_dir"
bash scripts/pg.sh --fast start "$pg_dir" >"$work/pg.log" 2>&1 || { cat "$work/pg.log" >&2; die "pg.sh start failed"; }
KOPT_DATABASE_URL=$(bash scripts/pg.sh url "$pg_dir")
export KOPT_DATABASE_URL
export KOPT_DEVICES=none     # API only: no workers take the jobs
export KOPT_LOG_LEVEL=${KOPT_LOG_LEVEL:-warn}

"$KOPTD" migrate >"$work/migrate.log" 2>&1 || { cat "$work/migrate.log" >&2; die "koptd migrate failed"; }
TOKEN=$("$KOPTD" token create --role submitter --name bench 2>/dev/null | tail -n1)
[[ "$TOKEN" =~ ^kopt_[A-Za-z0-9_-]{43}$ ]] || die "koptd token create printed no token"

port=$(free_port)
export KOPT_LISTEN=127.0.0.1:$port
base=http://127.0.0.1:$port
"$KOPTD" >"$work/koptd.log" 2>&1 </dev/null &
koptd_pid=$!
for i in $(seq 200); do
  if curl -fsS "$base/readyz" >/dev/null 2>&1; then break; fi
  kill -0 "$koptd_pid" 2>/dev/null || die "koptd exited during start-up"
  [ "$i" -lt 200 ] || die "koptd not ready after 20 s"
  sleep 0.1
done
log "koptd pid $koptd_pid on $base"

auth="Authorization: Bearer $TOKEN"
job=$(curl -fsS -X POST -H "$auth" -H 'Content-Type: application/json' \
  --data '{"name": "bench-get", "backend": "interp", "rounds": 0, "kernel": {"source": "class ModelNew:\n    pass\n"}}' \
  "$base/v1/jobs" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])') \
  || die "could not create the job for GET"
curl -fsS -H "$auth" "$base/v1/jobs/$job" >/dev/null || die "GET /v1/jobs/$job failed"
# The wrk script's body must be accepted as is.
code=$(wrk -t1 -c1 -d1s -H "$auth" -s bench/post_job.lua "$base/v1/jobs" 2>&1 | grep -c 'Non-2xx' || true)
[ "$code" = 0 ] || die "POST /v1/jobs with bench/post_job.lua's body is not answered 201"

sleep 1
rss_idle=$(rss_kib "$koptd_pid")
load_before=$(loadavg)

# ------------------------------------------------------------------------------ runs
rows=()
run() { # label conns url [wrk args...]
  local label=$1 c=$2 url=$3; shift 3
  local out=$work/wrk-${label//[^A-Za-z0-9]/_}-c$c.txt peak_file=$work/peak
  local rps p50 p99 non2xx sockerr reqs peak t0 t1 cpu0 cpu1 cpu
  echo 0 >"$peak_file"
  rss_sampler "$koptd_pid" "$peak_file" &
  sampler_pid=$!
  log "$label -c$c -t$THREADS for ${DURATION}s"
  cpu0=$(cpu_ticks "$koptd_pid"); t0=$(date +%s.%N)
  wrk -t"$THREADS" -c"$c" -d"${DURATION}s" --latency -H "$auth" "$@" "$url" >"$out" 2>&1 \
    || { cat "$out" >&2; die "wrk failed"; }
  cpu1=$(cpu_ticks "$koptd_pid"); t1=$(date +%s.%N)
  cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.0f", 100 * (b - a) / hz / (t1 - t0) }')
  kill "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  sampler_pid=""
  if ! kill -0 "$koptd_pid" 2>/dev/null; then
    local st=0
    wait "$koptd_pid" || st=$?
    koptd_pid=""
    [ "$st" -le 128 ] || st="$st (signal $((st - 128)))"
    die "koptd died during $label -c$c, exit status $st"
  fi
  peak=$(cat "$peak_file")
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out")
  reqs=$(awk '/ requests in / { print $1 }' "$out")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ { print $2 }' "$out")
  sockerr=$(awk '/Socket errors/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$out")
  rows+=("$(printf '%-18s %5s %8s %7s %7s %8s %7s %7s %6s %8s' "$label" "$c" "$reqs" "$rps" \
    "$p50" "$p99" "${non2xx:-0}" "${sockerr:-0}" "$cpu%" "$(mib "$peak")")")
}

jobs_before=$(psql_q "SELECT count(*) FROM jobs")
for c in $CONNS; do run "GET /v1/jobs/{id}" "$c" "$base/v1/jobs/$job"; done
for c in $CONNS; do run "POST /v1/jobs" "$c" "$base/v1/jobs" -s bench/post_job.lua; done
jobs_after=$(psql_q "SELECT count(*) FROM jobs")
sleep 1
rss_after=$(rss_kib "$koptd_pid")
load_after=$(loadavg)

# ---------------------------------------------------------------------------- report
mkdir -p bench/results
stamp=$(date +%Y-%m-%d-%H%M%S)
result=bench/results/api-$stamp.txt
{
  echo "koptd API benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "build:   $(git describe --always --dirty 2>/dev/null || echo unknown), $("$KOPTD" --version 2>/dev/null | head -n1)"
  echo "machine: $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r)"
  echo "         wrk, koptd and PostgreSQL on the same host over loopback / unix socket:"
  echo "         the figures are a lower bound for what koptd alone can do."
  echo "setup:   $(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2), -t$THREADS, ${DURATION}s per run;" \
       "PostgreSQL $("$PGBIN/postgres" --version | awk '{ print $3 }') (--fast: fsync off);" \
       "koptd pool_size=${KOPT_POOL_SIZE:-4 (default)}, devices=none, log=$KOPT_LOG_LEVEL"
  echo
  printf '%-18s %5s %8s %7s %7s %8s %7s %7s %6s %8s\n' endpoint conns requests "req/s" \
    "p50 ms" "p99 ms" non-2xx sockerr "cpu" "peak MiB"
  for r in "${rows[@]}"; do echo "$r"; done
  echo
  echo "cpu: koptd's user+system CPU time over the run's wall time (200% = both of 2 CPUs)"
  echo "koptd VmRSS: idle before load $(mib "$rss_idle") MiB, after load $(mib "$rss_after") MiB"
  echo "host load average (1/5/15 min): before $load_before, after $load_after"
  echo "jobs created by the POST runs: $((jobs_after - jobs_before))"
} | tee "$result"
log "written to $result"
