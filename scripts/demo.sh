#!/usr/bin/env bash
# The kopt demo (`make demo`, after `make deps all`): a private PostgreSQL, koptd, and the
# vector_add example submitted and followed with koptctl.
#
#   scripts/demo.sh         run the demo (koptd keeps running afterwards)
#   scripts/demo.sh stop    stop koptd and PostgreSQL
#
# Environment: KOPT_LISTEN (default 127.0.0.1:8470), KOPT_DEMO_ROUNDS (default 3),
# KOPT_DEVICES (default auto), KOPT_DEMO_TIMEOUT (seconds to follow
# the job, default 600). State lives in ./var: pg/ (the cluster), koptd.log, koptd.pid,
# demo.token.
set -euo pipefail
cd "$(dirname "$0")/.."

VAR=$PWD/var
PG_DIR=$VAR/pg
PIDFILE=$VAR/koptd.pid
LOG=$VAR/koptd.log
LISTEN=${KOPT_LISTEN:-127.0.0.1:8470}
TIMEOUT=${KOPT_DEMO_TIMEOUT:-600}
EXAMPLE=examples/vector_add

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
die() { echo "demo: $*" >&2; exit 1; }

koptd_running() { [ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null; }

stop_koptd() {
  if koptd_running; then
    local pid; pid=$(cat "$PIDFILE")
    echo "stopping koptd (pid $pid)"
    kill -TERM "$pid"
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "koptd did not stop within 10 s; killing it" >&2
      kill -KILL "$pid"
    fi
  fi
  rm -f "$PIDFILE"
}

if [ "${1:-}" = stop ]; then
  stop_koptd
  bash scripts/pg.sh stop "$PG_DIR"
  exit 0
fi
[ $# -eq 0 ] || die "usage: scripts/demo.sh [stop]"

for b in bin/koptd bin/koptctl; do
  [ -x "$b" ] || die "$b is missing: run 'make deps all' first (make demo does)"
done
[ -f "$EXAMPLE/ref.py" ] && [ -f "$EXAMPLE/kernel.py" ] || die "$EXAMPLE/{ref.py,kernel.py} missing"
mkdir -p "$VAR"

say "1. PostgreSQL: a private cluster in var/pg (unix socket only)"
bash scripts/pg.sh start "$PG_DIR"
export KOPT_DATABASE_URL; KOPT_DATABASE_URL=$(bash scripts/pg.sh url "$PG_DIR")
echo "KOPT_DATABASE_URL=$KOPT_DATABASE_URL"

say "2. Schema: koptd migrate"
bin/koptd migrate

say "3. A submitter token: koptd token create --role submitter"
KOPT_TOKEN=$(bin/koptd token create --role submitter --name demo | tail -n1)
export KOPT_TOKEN
( umask 077; echo "$KOPT_TOKEN" >"$VAR/demo.token" )
echo "token saved in var/demo.token"

say "4. koptd on $LISTEN (log: var/koptd.log)"
export KOPT_LISTEN=$LISTEN KOPT_URL="http://$LISTEN"
# Workers: one per device koptd finds (NVIDIA GPUs, else Ascend NPUs, else the CPU
# interpreter), each with the sandboxed harness from this checkout and the virtualenv that
# `make deps` built (koptd finds both beside its binary; KOPT_HARNESS_PYTHON overrides).
export KOPT_DEVICES=${KOPT_DEVICES:-auto}
if koptd_running; then
  echo "koptd already running (pid $(cat "$PIDFILE")); restarting it"
  stop_koptd
fi
nohup bin/koptd >>"$LOG" 2>&1 </dev/null &
echo $! >"$PIDFILE"
echo "pid $(cat "$PIDFILE")"
# Ready once every worker's start-up check passed: its harness started as the sandbox user
# and imported torch and Triton (a first start can take a minute). A failed check says why.
for i in $(seq 3000); do
  code=$(curl -sS -o "$VAR/readyz.json" -w '%{http_code}' "$KOPT_URL/readyz" 2>/dev/null) || code=000
  [ "$code" = 200 ] && break
  if ! koptd_running; then tail -n 30 "$LOG" >&2; die "koptd exited; see var/koptd.log"; fi
  if [ "$code" = 503 ] && grep -q '"state":"unready"' "$VAR/readyz.json"; then
    cat "$VAR/readyz.json" >&2; echo >&2
    die "a worker's start-up check failed (the reason is above; the log is var/koptd.log)"
  fi
  [ "$i" -lt 3000 ] || { tail -n 30 "$LOG" >&2; die "koptd not ready after 300 s"; }
  sleep 0.1
done
echo "ready: $(curl -fsS "$KOPT_URL/readyz")"

ROUNDS=${KOPT_DEMO_ROUNDS:-3}
say "5. Submit $EXAMPLE: koptctl submit --reference ref.py --kernel kernel.py --backend any --rounds $ROUNDS"
out=$(bin/koptctl submit --reference "$EXAMPLE/ref.py" --kernel "$EXAMPLE/kernel.py" --backend any \
      --rounds "$ROUNDS")
echo "$out"
JOB=$(echo "$out" | grep -Eo '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' | tail -n1)
[ -n "$JOB" ] || die "koptctl submit printed no job id"

say "6. Follow the job: koptctl watch $JOB"
rc=0
if [ ! -x bin/kopt-worker ]; then
  echo "bin/kopt-worker is missing (make all): the job stays queued"
else
  timeout "$TIMEOUT" bin/koptctl watch "$JOB" || rc=$?
  case $rc in
    0) echo "job succeeded" ;;
    1) echo "job failed (its error says why)" ;;
    2) echo "job cancelled" ;;
    124) echo "still not finished after ${TIMEOUT}s (KOPT_DEMO_TIMEOUT); it keeps running in koptd" ;;
    *) echo "koptctl watch exited $rc" ;;
  esac
fi

say "7. The job: koptctl status $JOB  (add --json for every recorded figure)"
bin/koptctl status "$JOB"
say "8. Its rounds: GET /v1/jobs/$JOB/rounds"
curl -fsS -H "Authorization: Bearer $KOPT_TOKEN" "$KOPT_URL/v1/jobs/$JOB/rounds" \
  | python3 scripts/show_rounds.py || true
if [ "$(bin/koptctl status "$JOB" --json | grep -o '"worker": "[^"]*"' | grep -c interp)" -gt 0 ]; then
  echo "(ran on the CPU Triton interpreter: its timings are CPU timings, not a GPU's)"
fi

cat <<EOF

koptd keeps running (pid $(cat "$PIDFILE")). Try:
  export KOPT_URL=$KOPT_URL KOPT_TOKEN=\$(cat var/demo.token)
  bin/koptctl list
  bin/koptctl watch $JOB
  curl -s $KOPT_URL/metrics | grep kopt_
Stop everything with: make demo-stop
EOF
case $rc in 0|124) exit 0 ;; *) exit "$rc" ;; esac
