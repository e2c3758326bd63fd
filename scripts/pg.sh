#!/usr/bin/env bash
# A private PostgreSQL 15 cluster for development, tests and the demo.
#
#   scripts/pg.sh [--fast] [--tcp] start  [DIR]   initialise if needed, start (no-op if running)
#   scripts/pg.sh                  stop   [DIR]   stop (no-op if not running)
#   scripts/pg.sh                  status [DIR]   exit 0 if running, 3 if not
#   scripts/pg.sh [--tcp]          url    [DIR]   create database "kopt" if missing, print its URI
#
# DIR defaults to ./var/pg of the repository. The cluster listens only on a unix socket in a
# private directory (mode 0700); --tcp also listens on 127.0.0.1 on a free port (password
# auth, password kept in DIR/password). --fast turns off fsync, synchronous_commit and JIT:
# for tests only, a crash can lose the cluster.
#
# PostgreSQL refuses to run as root. Run as root, this script creates a system user "kopt"
# (if missing) and runs the cluster as that user; if that user cannot reach DIR (a clone
# under /root, mode 0700), the cluster lives in /tmp/kopt-pg-<hash of DIR> and DIR becomes
# a symlink to it. The database superuser is always named "kopt"; local connections on the
# private socket are trusted, so root and the owner can connect, nobody else.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
PGBIN=${KOPT_PG_BIN:-/usr/lib/postgresql/15/bin}
OS_USER=kopt
DB_USER=kopt
PORT=5432

log() { echo "pg.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

fast=0; tcp=0; cmd=""; dir=""
while [ $# -gt 0 ]; do
  case "$1" in
    --fast) fast=1 ;;
    --tcp) tcp=1 ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    start|stop|status|url) [ -z "$cmd" ] || die "one command at a time"; cmd=$1 ;;
    -*) die "unknown option $1" ;;
    *) [ -z "$dir" ] || die "one DIR at a time"; dir=$1 ;;
  esac
  shift
done
[ -n "$cmd" ] || die "usage: pg.sh [--fast] [--tcp] start|stop|status|url [DIR]"
[ -x "$PGBIN/pg_ctl" ] || die "PostgreSQL 15 not found in $PGBIN (run: make deps)"

dir=${dir:-$here/var/pg}
case "$dir" in /*) ;; *) dir="$PWD/$dir" ;; esac
dir=$(realpath -m "$(dirname "$dir")")/$(basename "$dir")   # absolute; DIR itself may be our symlink

# Who runs the cluster.
if [ "$(id -u)" -eq 0 ]; then
  if ! id -u "$OS_USER" >/dev/null 2>&1; then
    log "creating system user $OS_USER to run PostgreSQL (it refuses to run as root)"
    useradd --system --create-home --home-dir /var/lib/kopt-home --shell /usr/sbin/nologin \
      --user-group "$OS_USER" || id -u "$OS_USER" >/dev/null 2>&1 || die "useradd $OS_USER failed"
  fi
  as_owner() { (cd / && runuser -u "$OS_USER" -- "$@"); }
  owner=$OS_USER
else
  as_owner() { (cd / && "$@"); }
  owner=$(id -un)
fi

# Where the cluster really lives. The path given by the user stays the handle.
handle=$dir
real=""
if [ -L "$handle" ]; then real=$(readlink "$handle"); elif [ -d "$handle" ]; then real=$handle; fi
if [ -z "$real" ] || [ ! -d "$real" ]; then
  case "$cmd" in
    status) echo "not running: $handle (no cluster)"; exit 3 ;;
    stop) log "no cluster in $handle"; exit 0 ;;
    url) die "no cluster in $handle (run: scripts/pg.sh start $handle)" ;;
  esac
fi
if [ -z "$real" ]; then
  parent=$(dirname "$handle")
  mkdir -p "$parent"
  if [ "$owner" != "$(id -un)" ] && ! as_owner test -x "$parent"; then
    real=/tmp/kopt-pg-$(printf %s "$handle" | sha256sum | cut -c1-12)
    log "$parent is not reachable by user $owner: the cluster lives in $real, $handle is a symlink to it"
    ln -sfn "$real" "$handle"
  else
    real=$handle
  fi
fi
mkdir -p "$real"
if [ "$cmd" = start ]; then
  chown "$owner" "$real" 2>/dev/null || true
  chmod 0700 "$real"
fi

data=$real/data
logfile=$real/postgres.log
# The socket lives in the cluster directory unless that path is too long for sun_path.
sock=$real/sock
if [ $(( ${#sock} + 20 )) -gt 100 ]; then
  sock=/tmp/kopt-sock-$(printf %s "$real" | sha256sum | cut -c1-12)
fi

pg_ctl() { as_owner "$PGBIN/pg_ctl" -D "$data" "$@"; }
postmaster_pid() { head -n1 "$data/postmaster.pid" 2>/dev/null || true; }
running() {
  # pg_ctl status trusts any live pid in postmaster.pid; also check it is a postgres.
  local pid
  [ -f "$data/PG_VERSION" ] && pg_ctl status >/dev/null 2>&1 || return 1
  pid=$(postmaster_pid)
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ]
}

# The port a --tcp cluster listens on (0 when unix socket only).
tcp_port() { cat "$real/tcp_port" 2>/dev/null || echo 0; }

uri() {
  # URI for psql / libpq; database $1. Unix socket unless --tcp was asked for.
  local db=$1
  if [ "$tcp" = 1 ]; then
    local p; p=$(tcp_port)
    [ "$p" != 0 ] || die "cluster in $handle was not started with --tcp"
    echo "postgresql://$DB_USER:$(cat "$real/password")@127.0.0.1:$p/$db"
  else
    echo "postgresql:///$db?host=$sock&port=$PORT&user=$DB_USER"
  fi
}

remove_stale_pid() {
  # pg_ctl says not running, yet a postmaster.pid may be left by a crash (or a kill -9 of
  # the whole container). PostgreSQL copes unless that pid now belongs to another process.
  local pidfile=$data/postmaster.pid pid
  [ -f "$pidfile" ] || return 0
  pid=$(postmaster_pid)
  if [ -n "$pid" ] && [ -d "/proc/$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = postgres ]; then
    die "a postgres process $pid owns $data but pg_ctl cannot see it; stop it first"
  fi
  log "removing stale $pidfile (pid ${pid:-?} is not a postgres)"
  rm -f "$pidfile" "$sock"/.s.PGSQL.*.lock
}

free_port() {
  python3 - <<'EOF'
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
EOF
}

do_start() {
  if [ ! -f "$data/PG_VERSION" ]; then
    log "initialising a PostgreSQL 15 cluster in $data (owner $owner)"
    rm -rf "$data"
    install -d -m 0700 -o "$owner" "$data"
    as_owner "$PGBIN/initdb" -D "$data" -U "$DB_USER" --auth-local=trust --auth-host=reject \
      -E UTF8 --locale=C.UTF-8 >"$real/initdb.log" 2>&1 \
      || { cat "$real/initdb.log" >&2; die "initdb failed"; }
    echo "include_if_exists = 'kopt.conf'" >>"$data/postgresql.conf"
  fi
  install -d -m 0700 -o "$owner" "$sock"
  if running; then
    log "already running ($handle)"
    return 0
  fi
  remove_stale_pid
  # Settings are rewritten at each start, so --fast / --tcp apply to this run.
  {
    echo "# written by scripts/pg.sh at each start"
    echo "port = $PORT"
    echo "unix_socket_directories = '$sock'"
    echo "unix_socket_permissions = 0700"
    echo "max_connections = 200"
    echo "shared_buffers = 64MB"
    echo "log_min_messages = warning"
    if [ "$tcp" = 1 ]; then
      echo "listen_addresses = '127.0.0.1'"
    else
      echo "listen_addresses = ''"
    fi
    if [ "$fast" = 1 ]; then
      echo "jit = off"
      echo "fsync = off"
      echo "synchronous_commit = off"
      echo "full_page_writes = off"
    fi
  } >"$data/kopt.conf"
  if [ "$tcp" = 1 ]; then
    local p; p=$(free_port)
    echo "$p" >"$real/tcp_port"
    # TCP binds its own port; the socket keeps $PORT's name, in its private directory.
    sed -i "s/^port = .*/port = $p/" "$data/kopt.conf"
    PORT=$p
    [ -s "$real/password" ] || { head -c 18 /dev/urandom | base64 | tr '+/' 'xy' >"$real/password"; chmod 600 "$real/password"; }
    printf 'local all all trust\nhost all %s 127.0.0.1/32 scram-sha-256\n' "$DB_USER" >"$data/pg_hba.conf"
  else
    echo 0 >"$real/tcp_port"
    printf 'local all all trust\n' >"$data/pg_hba.conf"
  fi
  chown "$owner" "$data/kopt.conf" "$data/pg_hba.conf" "$real/tcp_port"
  [ ! -f "$real/password" ] || chown "$owner" "$real/password"
  touch "$logfile"; chown "$owner" "$logfile"
  log "starting PostgreSQL ($handle$([ "$fast" = 1 ] && echo ', fast: no fsync')$([ "$tcp" = 1 ] && echo ", tcp 127.0.0.1:$PORT"))"
  if ! pg_ctl -l "$logfile" -w -t 60 start >/dev/null; then
    tail -n 30 "$logfile" >&2
    die "PostgreSQL did not start (log: $logfile)"
  fi
  if [ "$tcp" = 1 ]; then
    as_owner "$PGBIN/psql" -X -q "$(tcp=0 uri postgres)" -v ON_ERROR_STOP=1 \
      -c "ALTER ROLE $DB_USER PASSWORD '$(cat "$real/password")'" >/dev/null
  fi
}

current_port() {
  # The port the running cluster uses (the socket file is named after it).
  sed -n 's/^port = //p' "$data/kopt.conf" 2>/dev/null || echo 5432
}

case "$cmd" in
  start)
    do_start
    ;;
  stop)
    if running; then
      log "stopping PostgreSQL ($handle)"
      pg_ctl -m fast -w -t 60 stop >/dev/null
    else
      log "not running ($handle)"
    fi
    ;;
  status)
    if running; then
      PORT=$(current_port)
      echo "running: $handle (data $data, socket $sock, port $PORT)"
    else
      echo "not running: $handle"
      exit 3
    fi
    ;;
  url)
    running || die "not running: $handle (run: scripts/pg.sh start $handle)"
    PORT=$(current_port)
    if ! "$PGBIN/psql" -X -qtA "$(tcp=0 uri postgres)" \
         -c "SELECT 1 FROM pg_database WHERE datname = 'kopt'" | grep -q 1; then
      "$PGBIN/psql" -X -q "$(tcp=0 uri postgres)" -v ON_ERROR_STOP=1 -c "CREATE DATABASE kopt" >/dev/null 2>&1 \
        || "$PGBIN/psql" -X -qtA "$(tcp=0 uri postgres)" -c "SELECT 1 FROM pg_database WHERE datname = 'kopt'" | grep -q 1 \
        || die "could not create database kopt"
    fi
    uri kopt
    ;;
esac
