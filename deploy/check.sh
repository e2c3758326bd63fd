#!/usr/bin/env bash
# Checks deploy/: the unit with systemd-analyze verify, the sysusers and tmpfiles files by
# applying them to a scratch root, the config example by loading it with koptd's own
# parser, and the unit's required directives. Each check is skipped, with a line saying
# why, when its tool is missing. Ends with "N passed, N failed, N skipped".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
tmp=$(mktemp -d /tmp/kopt-deploy-check.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

pass=0; fail=0; skip=0
ok()      { pass=$((pass + 1)); echo "ok   $1"; }
bad()     { fail=$((fail + 1)); echo "FAIL $1"; [ -s "$tmp/log" ] && sed 's/^/     | /' "$tmp/log"; }
skipped() { skip=$((skip + 1)); echo "skipped: $1"; }

# --- the directives the design asks for (no tool needed)
missing=()
for d in 'Type=notify' 'NotifyAccess=main' 'ExecStart=/usr/local/bin/koptd -c /etc/kopt/koptd.conf' \
         'ExecReload=/bin/kill -HUP $MAINPID' 'WatchdogSec=30s' 'KillMode=mixed' \
         'TimeoutStopSec=20s' 'Restart=on-failure' 'User=kopt' 'Group=kopt' \
         'NoNewPrivileges=yes' 'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' \
         'ReadWritePaths=/var/lib/kopt' 'StateDirectory=kopt' 'RuntimeDirectory=kopt' \
         'ProtectKernelTunables=yes' 'ProtectControlGroups=yes' 'LockPersonality=yes' \
         'RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK' 'DevicePolicy=closed' \
         'DeviceAllow=/dev/nvidiactl rw' 'DeviceAllow=/dev/nvidia-uvm rw' \
         'DeviceAllow=char-nvidia-frontend rw' 'DeviceAllow=/dev/davinci_manager rw' \
         'DeviceAllow=/dev/devmm_svm rw' 'DeviceAllow=/dev/hisi_hdc rw' 'DeviceAllow=/dev/davinci0 rw' \
         'SupplementaryGroups=video render' 'EnvironmentFile=-/etc/kopt/koptd.env'; do
  grep -qxF -- "$d" deploy/koptd.service || missing+=("$d")
done
: >"$tmp/log"
if grep -qE '^PrivateDevices=' deploy/koptd.service; then
  echo "PrivateDevices= would hide the accelerators" >>"$tmp/log"
fi
if [ ${#missing[@]} -eq 0 ] && [ ! -s "$tmp/log" ]; then
  ok "koptd.service: required directives"
else
  printf 'missing: %s\n' "${missing[@]}" >>"$tmp/log"
  bad "koptd.service: required directives"
fi

# --- systemd-analyze verify, on a copy whose ExecStart names a binary that exists, so
# that verify checks the unit itself rather than complaining that nothing is installed.
if ! command -v systemd-analyze >/dev/null; then
  skipped "no systemd-analyze (koptd.service not verified)"
else
  exe=$root/bin/koptd
  if [ ! -x "$exe" ]; then
    exe=$tmp/koptd
    printf '#!/bin/sh\nexit 0\n' >"$exe"
    chmod +x "$exe"
  fi
  mkdir -p "$tmp/unit"
  sed "s|^ExecStart=/usr/local/bin/koptd |ExecStart=$exe |" deploy/koptd.service >"$tmp/unit/koptd.service"
  # --man=no: no man pages in containers. Anything printed about our unit is a finding;
  # unrelated notes about the host's own units are not ours to fix.
  SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no "$tmp/unit/koptd.service" >"$tmp/all" 2>&1
  rc=$?
  grep -F "koptd.service" "$tmp/all" >"$tmp/log" || true
  if [ "$rc" -eq 0 ] && [ ! -s "$tmp/log" ]; then
    ok "koptd.service: systemd-analyze verify"
  else
    [ -s "$tmp/log" ] || cp "$tmp/all" "$tmp/log"
    bad "koptd.service: systemd-analyze verify (exit $rc)"
  fi
  # verify exits 0 on a mistyped value ("ignoring"), so the check above reads its output;
  # make sure that output does name a planted mistake, or the check proves nothing.
  sed -i 's/^KillMode=mixed$/KillMode=mixd/' "$tmp/unit/koptd.service"
  SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no "$tmp/unit/koptd.service" >"$tmp/log" 2>&1
  if grep -q "koptd.service:.*mixd" "$tmp/log"; then
    : >"$tmp/log"
    ok "systemd-analyze verify reports a planted mistake"
  else
    bad "systemd-analyze verify did not report KillMode=mixd"
  fi
fi

# --- sysusers and tmpfiles, applied to a scratch root (never to this machine's /etc)
if ! command -v systemd-sysusers >/dev/null || ! command -v systemd-tmpfiles >/dev/null; then
  skipped "no systemd-sysusers/systemd-tmpfiles (sysusers, tmpfiles not applied)"
else
  sroot=$tmp/root
  mkdir -p "$sroot/etc" "$sroot/var/lib"
  : >"$sroot/etc/passwd"; : >"$sroot/etc/group"; : >"$sroot/etc/shadow"; : >"$sroot/etc/gshadow"
  if systemd-sysusers --root="$sroot" "$root/deploy/kopt.sysusers" >"$tmp/log" 2>&1 &&
     grep -q '^kopt:x:[0-9]*:[0-9]*:kopt daemon:/var/lib/kopt:' "$sroot/etc/passwd" &&
     grep -q '^kopt-sandbox:' "$sroot/etc/passwd" &&
     grep -qE '^render:x:[0-9]+:.*kopt' "$sroot/etc/group"; then
    ok "kopt.sysusers: creates kopt, kopt-sandbox and the unit's groups"
  else
    { echo "passwd:"; cat "$sroot/etc/passwd"; echo "group:"; cat "$sroot/etc/group"; } >>"$tmp/log"
    bad "kopt.sysusers"
  fi
  if [ "$(id -u)" -ne 0 ]; then
    skipped "not root: tmpfiles cannot chown in the scratch root"
  elif systemd-tmpfiles --root="$sroot" --create "$root/deploy/kopt.tmpfiles" >"$tmp/log" 2>&1 &&
       [ "$(stat -c '%a' "$sroot/var/lib/kopt")" = 750 ] &&
       [ "$(stat -c '%a' "$sroot/etc/kopt")" = 750 ]; then
    ok "kopt.tmpfiles: /var/lib/kopt and /etc/kopt 0750"
  else
    ls -la "$sroot/var/lib" "$sroot/etc" >>"$tmp/log" 2>&1
    bad "kopt.tmpfiles"
  fi
fi

# --- the config example, through koptd's own loader (it refuses unknown keys). koptd
# loads the config before it looks at its command, so an unknown command after a good
# config fails with "unknown command", and a bad config with "config:".
if [ ! -x bin/koptd ]; then
  skipped "bin/koptd not built (koptd.conf.example not loaded)"
else
  env -i PATH=/usr/bin:/bin bin/koptd -c deploy/koptd.conf.example deploy-check-no-such-command >"$tmp/log" 2>&1
  if grep -q "unknown command 'deploy-check-no-such-command'" "$tmp/log" &&
     ! grep -q "config:" "$tmp/log"; then
    : >"$tmp/log"
    ok "koptd.conf.example: koptd loads it"
  else
    bad "koptd.conf.example: koptd refuses it"
  fi
fi
# Every key the brief names is present (the loader accepts a file missing keys).
: >"$tmp/log"
for k in 'listen = 127.0.0.1:8470' max_body_bytes max_source_bytes 'url = postgresql:///kopt?host=/run/postgresql' \
         'pool_size = 4' 'devices = auto' 'harness_python = /opt/kopt/venv/bin/python' 'level = info'; do
  grep -qE "^${k//\?/\\?}( |$)" deploy/koptd.conf.example || echo "missing: $k" >>"$tmp/log"
done
for e in KOPT_LISTEN KOPT_DATABASE_URL KOPT_DEVICES KOPT_LOG_LEVEL KOPT_POOL_SIZE \
         KOPT_MAX_BODY_BYTES KOPT_MAX_SOURCE_BYTES; do
  grep -q "$e" deploy/koptd.conf.example || echo "not mentioned: $e" >>"$tmp/log"
done
if [ -s "$tmp/log" ]; then bad "koptd.conf.example: keys and overrides"; else ok "koptd.conf.example: keys and overrides"; fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
