#!/usr/bin/env bash
# API benchmark for koptd (`make bench`): a private PostgreSQL cluster (durable settings:
# fsync and synchronous_commit on), a database per koptd under test, a submitter token, and
# wrk against
#   GET  /v1/jobs/{id}                      (one existing job)
#   GET  /v1/jobs/{id} + If-None-Match      (the job's ETag: answered 304, no body)
#   POST /v1/jobs                           (a small valid spec, no Idempotency-Key: every
#                                            request makes a job), with fsync on, then off
# at each connection count, with koptd's CPU and peak resident memory per run.
#
#   bench/api_bench.sh [BASE_KOPTD]
#
# With BASE_KOPTD (a koptd built from another commit, e.g. in a scratch directory), both
# run side by side against the same cluster: each measurement is taken for the base, then
# at once for bin/koptd, so both see the same machine. Prints a table and writes it to
# bench/results/api-<date>.txt, with the load average at each run and what else used the
# CPU when the benchmark began. Everything it started is stopped on exit.
#
# Environment:
#   KOPT_BENCH_DURATION  seconds per run (default 10)
#   KOPT_BENCH_CONNS     connection counts (default "8 64")
#   KOPT_BENCH_THREADS   wrk threads (default 2)
#   KOPT_BENCH_KEEP=1    keep the work directory (cluster, koptd logs, wrk output)
#   KOPT_POOL_SIZE etc.  passed to koptd as usual (KOPT_DEVICES is forced to none: no workers)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

DURATION=${KOPT_BENCH_DURATION:-10}
CONNS=${KOPT_BENCH_CONNS:-"8 64"}
THREADS=${KOPT_BENCH_THREADS:-2}
KEEP=${KOPT_BENCH_KEEP:-0}
PGBIN=${KOPT_PG_BIN:-/usr/lib/postgresql/15/bin}
NEW_KOPTD=$root/bin/koptd
BASE_KOPTD=${1:-}

log() { echo "bench: $*" >&2; }
die() { log "error: $*"; exit 1; }

[ -x "$NEW_KOPTD" ] || die "$NEW_KOPTD is missing (run: make all)"
[ -z "$BASE_KOPTD" ] || [ -x "$BASE_KOPTD" ] || die "$BASE_KOPTD is not an executable koptd"
command -v wrk >/dev/null || die "wrk is not installed"
command -v curl >/dev/null || die "curl is not installed"
command -v python3 >/dev/null || die "python3 is not installed"
for c in $CONNS; do
  [ "$c" -ge "$THREADS" ] 2>/dev/null || die "connection count '$c' must be a number >= threads ($THREADS)"
done

work=$(mktemp -d /tmp/kopt-bench.XXXXXX)
chmod 0755 "$work" # the cluster may run as user kopt (pg.sh under root); it must reach $work/pg
pg_dir=$work/pg
declare -A PID PORT TOKEN JOB ETAG BIN
TAGS=()
sampler_pid=""

stop_koptd() { # pid
  local pid=$1
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    log "koptd $pid did not stop within 10 s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local rc=$? t
  trap - EXIT INT TERM
  if [ -n "$sampler_pid" ]; then kill "$sampler_pid" 2>/dev/null || true; fi
  for t in "${TAGS[@]}"; do
    if [ -n "${PID[$t]:-}" ]; then stop_koptd "${PID[$t]}"; fi
  done
  if [ -e "$pg_dir" ]; then bash scripts/pg.sh stop "$pg_dir" >/dev/null 2>&1 || true; fi
  if [ "$rc" -ne 0 ]; then
    for t in "${TAGS[@]}"; do
      if [ -f "$work/koptd-$t.log" ]; then
        log "koptd-$t.log (last 20 lines):"; tail -n 20 "$work/koptd-$t.log" >&2
      fi
    done
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
psql_q() { "$PGBIN/psql" -X -qtA "$1" -c "$2"; }

# fsync on|off for the whole cluster (reloadable settings; the data is disposable).
set_fsync() {
  local v=$1
  if [ "$v" = on ]; then
    psql_q "$ADMIN_URL" "ALTER SYSTEM RESET fsync" >/dev/null
    psql_q "$ADMIN_URL" "ALTER SYSTEM RESET synchronous_commit" >/dev/null
    psql_q "$ADMIN_URL" "ALTER SYSTEM RESET full_page_writes" >/dev/null
  else
    psql_q "$ADMIN_URL" "ALTER SYSTEM SET fsync = off" >/dev/null
    psql_q "$ADMIN_URL" "ALTER SYSTEM SET synchronous_commit = off" >/dev/null
    psql_q "$ADMIN_URL" "ALTER SYSTEM SET full_page_writes = off" >/dev/null
  fi
  psql_q "$ADMIN_URL" "SELECT pg_reload_conf()" >/dev/null
  sleep 0.5
  [ "$(psql_q "$ADMIN_URL" "SHOW fsync")" = "$v" ] || die "fsync did not turn $v"
  psql_q "$ADMIN_URL" "CHECKPOINT" >/dev/null
}

# ---------------------------------------------------------------------------- set-up
log "PostgreSQL (private, fsync on) in $pg_dir"
bash scripts/pg.sh start "$pg_dir" >"$work/pg.log" 2>&1 || { cat "$work/pg.log" >&2; die "pg.sh start failed"; }
ADMIN_URL=$(bash scripts/pg.sh url "$pg_dir")
export KOPT_DEVICES=none     # API only: no workers take the jobs
export KOPT_LOG_LEVEL=${KOPT_LOG_LEVEL:-warn}
# Durable commits wait for the WAL flush: the disk's flush latency now, where the cluster is.
fsync_us=$("$PGBIN/pg_test_fsync" -s 1 -f "$work/fsync-test" 2>/dev/null \
  | awk '$1 == "fdatasync" { print $(NF - 1); exit }' || true)
rm -f "$work/fsync-test"
others=$(ps -eo pcpu=,comm= --sort=-pcpu | awk '$1 > 2 { printf "%s%s %s%%", sep, $2, $1; sep = ", " }' | cut -c1-300)

# start_koptd TAG BINARY: its own database, migrations, token, port, one job to read.
start_koptd() {
  local t=$1 bin=$2 url port i
  psql_q "$ADMIN_URL" "CREATE DATABASE bench_$t" >/dev/null
  url=${ADMIN_URL/postgresql:\/\/\/kopt?/postgresql:\/\/\/bench_$t?}
  KOPT_DATABASE_URL=$url "$bin" migrate >"$work/migrate-$t.log" 2>&1 \
    || { cat "$work/migrate-$t.log" >&2; die "$t: koptd migrate failed"; }
  TOKEN[$t]=$(KOPT_DATABASE_URL=$url "$bin" token create --role submitter --name bench 2>/dev/null | tail -n1)
  [[ "${TOKEN[$t]}" =~ ^kopt_[A-Za-z0-9_-]{43}$ ]] || die "$t: koptd token create printed no token"
  port=$(free_port)
  KOPT_DATABASE_URL=$url KOPT_LISTEN=127.0.0.1:$port "$bin" >"$work/koptd-$t.log" 2>&1 </dev/null &
  PID[$t]=$!
  PORT[$t]=$port
  BIN[$t]=$bin
  TAGS+=("$t")
  for i in $(seq 200); do
    if curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then break; fi
    kill -0 "${PID[$t]}" 2>/dev/null || die "$t: koptd exited during start-up"
    [ "$i" -lt 200 ] || die "$t: koptd not ready after 20 s"
    sleep 0.1
  done
  JOB[$t]=$(curl -fsS -X POST -H "Authorization: Bearer ${TOKEN[$t]}" -H 'Content-Type: application/json' \
    --data '{"name": "bench-get", "backend": "interp", "rounds": 0, "kernel": {"source": "class ModelNew:\n    pass\n"}}' \
    "http://127.0.0.1:$port/v1/jobs" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])') \
    || die "$t: could not create the job for GET"
  ETAG[$t]=$(curl -fsS -o /dev/null -D - -H "Authorization: Bearer ${TOKEN[$t]}" \
    "http://127.0.0.1:$port/v1/jobs/${JOB[$t]}" | tr -d '\r' | awk -F': ' 'tolower($1) == "etag" { print $2 }')
  # The wrk script's body must be accepted as is.
  if wrk -t1 -c1 -d1s -H "Authorization: Bearer ${TOKEN[$t]}" -s bench/post_job.lua \
      "http://127.0.0.1:$port/v1/jobs" 2>&1 | grep -q 'Non-2xx'; then
    die "$t: POST /v1/jobs with bench/post_job.lua's body is not answered 201"
  fi
  log "$t: koptd pid ${PID[$t]} on 127.0.0.1:$port ($("$bin" --version | head -n1)), etag ${ETAG[$t]:-none}"
}

[ -z "$BASE_KOPTD" ] || start_koptd base "$BASE_KOPTD"
start_koptd new "$NEW_KOPTD"
sleep 1

# ------------------------------------------------------------------------------ runs
rows=()
run() { # tag label fsync conns path [wrk args...]
  local t=$1 label=$2 fs=$3 c=$4 path=$5; shift 5
  local pid=${PID[$t]} url="http://127.0.0.1:${PORT[$t]}$path"
  local out=$work/wrk-$t-${label//[^A-Za-z0-9]/_}-$fs-c$c.txt peak_file=$work/peak
  local rps p50 p99 non2xx sockerr reqs peak t0 t1 cpu0 cpu1 cpu load
  echo 0 >"$peak_file"
  rss_sampler "$pid" "$peak_file" &
  sampler_pid=$!
  load=$(cut -d' ' -f1 /proc/loadavg)
  log "$t: $label fsync=$fs -c$c -t$THREADS for ${DURATION}s (load $load)"
  cpu0=$(cpu_ticks "$pid"); t0=$(date +%s.%N)
  wrk -t"$THREADS" -c"$c" -d"${DURATION}s" --latency -H "Authorization: Bearer ${TOKEN[$t]}" \
    "$@" "$url" >"$out" 2>&1 || { cat "$out" >&2; die "wrk failed"; }
  cpu1=$(cpu_ticks "$pid"); t1=$(date +%s.%N)
  cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v t0="$t0" -v t1="$t1" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf "%.0f", 100 * (b - a) / hz / (t1 - t0) }')
  kill "$sampler_pid" 2>/dev/null || true
  wait "$sampler_pid" 2>/dev/null || true
  sampler_pid=""
  if ! kill -0 "$pid" 2>/dev/null; then
    local st=0
    wait "$pid" || st=$?
    PID[$t]=""
    [ "$st" -le 128 ] || st="$st (signal $((st - 128)))"
    die "$t: koptd died during $label -c$c, exit status $st"
  fi
  peak=$(cat "$peak_file")
  rps=$(awk '/^Requests\/sec:/ { printf "%.0f", $2 }' "$out")
  reqs=$(awk '/ requests in / { print $1 }' "$out")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
  non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ { print $2 }' "$out")
  sockerr=$(awk '/Socket errors/ { gsub(/,/, ""); print $4 + $6 + $8 + $10 }' "$out")
  rows+=("$(printf '%-24s %-5s %-4s %5s %8s %7s %7s %8s %7s %7s %5s %6s %8s' "$label" "$fs" \
    "$t" "$c" "$reqs" "$rps" "$p50" "$p99" "${non2xx:-0}" "${sockerr:-0}" "$load" "$cpu%" \
    "$(mib "$peak")")")
}
# each TAG in turn, back to back, for one measurement
both() { # label fsync conns path [wrk args...]
  local t
  for t in "${TAGS[@]}"; do run "$t" "$@"; done
}

load_before=$(loadavg)
set_fsync on
for c in $CONNS; do
  for t in "${TAGS[@]}"; do run "$t" "GET /v1/jobs/{id}" on "$c" "/v1/jobs/${JOB[$t]}"; done
done
for c in $CONNS; do
  for t in "${TAGS[@]}"; do
    if [ -n "${ETAG[$t]}" ]; then
      run "$t" "GET {id} If-None-Match" on "$c" "/v1/jobs/${JOB[$t]}" -H "If-None-Match: ${ETAG[$t]}"
    else
      rows+=("$(printf '%-24s %-5s %-4s %5s %8s' "GET {id} If-None-Match" on "$t" "$c" "(no ETag)")")
    fi
  done
done
for fs in on off; do
  set_fsync "$fs"
  for c in $CONNS; do both "POST /v1/jobs" "$fs" "$c" "/v1/jobs" -s bench/post_job.lua; done
done
load_after=$(loadavg)

# ---------------------------------------------------------------------------- report
mkdir -p bench/results
stamp=$(date +%Y-%m-%d-%H%M%S)
result=bench/results/api-$stamp.txt
{
  echo "koptd API benchmark, $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  for t in "${TAGS[@]}"; do
    echo "$(printf '%-5s' "$t"):   ${BIN[$t]} ($("${BIN[$t]}" --version 2>/dev/null | head -n1))"
  done
  echo "tree:    $(git describe --always --dirty 2>/dev/null || echo unknown)"
  echo "machine: $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM, Linux $(uname -r)"
  echo "         wrk, koptd and PostgreSQL on the same host over loopback / unix socket:"
  echo "         the figures are a lower bound for what koptd alone can do."
  echo "setup:   $(wrk -v 2>&1 | head -n1 | cut -d' ' -f1-2), -t$THREADS, ${DURATION}s per run;" \
       "PostgreSQL $("$PGBIN/postgres" --version | awk '{ print $3 }'), fsync as the column says" \
       "(off = fsync, synchronous_commit and full_page_writes off);" \
       "koptd pool_size=${KOPT_POOL_SIZE:-4 (default)}, devices=none, log=$KOPT_LOG_LEVEL"
  echo "other:   using the CPU when the benchmark began: ${others:-nothing above 2%}"
  echo "disk:    fdatasync of one 8 kB write (pg_test_fsync) when the benchmark began: ${fsync_us:-?} us"
  echo
  printf '%-24s %-5s %-4s %5s %8s %7s %7s %8s %7s %7s %5s %6s %8s\n' endpoint fsync kopt conns \
    requests "req/s" "p50 ms" "p99 ms" non-2xx sockerr load "cpu" "peak MiB"
  for r in "${rows[@]}"; do echo "$r"; done
  echo
  echo "non-2xx: for If-None-Match runs these are the 304 answers (every one is expected)."
  echo "load: the host's 1-minute load average as the run began (2 CPUs)."
  echo "cpu: koptd's user+system CPU time over the run's wall time (200% = both of 2 CPUs)"
  echo "host load average (1/5/15 min): before $load_before, after $load_after"
  for t in "${TAGS[@]}"; do
    url=${ADMIN_URL/postgresql:\/\/\/kopt?/postgresql:\/\/\/bench_$t?}
    echo "jobs in the $t database after the POST runs: $(psql_q "$url" "SELECT count(*) FROM jobs")"
  done
} | tee "$result"
log "written to $result"
