#!/usr/bin/env bash
# Installs what kopt needs on Debian 12, idempotently: apt packages, then the Python
# virtualenv in a cache directory outside the clone, keyed by the hash of the pinned
# requirements (torch's wheel pulls gigabytes; a second run on one machine reuses it), and a
# second one for the Ascend compiler (harness/requirements-ascend.txt), linked as .venv-ascend.
# Prints the main venv path on its last line.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

APT_PKGS=(build-essential pkg-config git ca-certificates curl
  libmicrohttpd-dev libjansson-dev libcurl4-openssl-dev libuv1-dev libpq-dev libssl-dev
  libinih-dev libcmocka-dev
  clang libclang-rt-14-dev
  postgresql postgresql-client
  bubblewrap util-linux procps psmisc wrk
  python3 python3-venv python3-dev
  systemd
  chromium)   # headless, for the dashboard tests (tests/integration/browser.py)

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing apt packages: ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

req="$here/harness/requirements.txt"
hash=$(sha256sum "$req" | cut -c1-16)
# As root the cache lives under /var/cache, not /root (mode 0700), so that the harness's
# unprivileged sandbox user can read the interpreter and its packages.
if [ "$(id -u)" -eq 0 ]; then def_cache=/var/cache/kopt; else def_cache=${XDG_CACHE_HOME:-$HOME/.cache}/kopt; fi
cache="${KOPT_CACHE_DIR:-$def_cache}"
venv="$cache/venv-$hash"
if [ ! -x "$venv/bin/python" ] || [ ! -f "$venv/.complete" ]; then
  echo "deps: building Python virtualenv $venv (first run on this machine downloads torch: minutes)" >&2
  rm -rf "$venv"
  mkdir -p "$cache" && chmod 755 "$cache"
  /usr/bin/python3 -m venv "$venv"
  "$venv/bin/pip" install -q --upgrade pip >&2
  "$venv/bin/pip" install -q -r "$req" >&2
  chmod -R a+rX "$venv"
  touch "$venv/.complete"
fi
ln -sfn "$venv" "$here/.venv"

# The Ascend compiler (triton-ascend) in a virtualenv of its own: it installs a package named
# `triton` too. Same cache and keying scheme; the wheel (~54 MB) is downloaded once per
# machine. KOPT_NO_ASCEND=1 skips it (the ascend IR evidence is then unavailable).
if [ "${KOPT_NO_ASCEND:-0}" != 1 ]; then
  areq="$here/harness/requirements-ascend.txt"
  ahash=$(sha256sum "$areq" | cut -c1-16)
  avenv="$cache/venv-ascend-$ahash"
  if [ ! -x "$avenv/bin/python" ] || [ ! -f "$avenv/.complete" ]; then
    echo "deps: building the Ascend compiler virtualenv $avenv (triton-ascend, ~54 MB download)" >&2
    rm -rf "$avenv"
    /usr/bin/python3 -m venv "$avenv"
    "$avenv/bin/pip" install -q --upgrade pip >&2
    "$avenv/bin/pip" install -q -r "$areq" >&2
    "$avenv/bin/python" -c 'import os, triton; assert os.access(os.path.join(os.path.dirname(triton.__file__), "backends", "ascend", "triton-adapter-opt"), os.X_OK)' >&2
    chmod -R a+rX "$avenv"
    touch "$avenv/.complete"
  fi
  ln -sfn "$avenv" "$here/.venv-ascend"
fi
echo "$venv"
