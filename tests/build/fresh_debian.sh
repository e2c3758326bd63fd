#!/usr/bin/env bash
# The README's first command on a FRESH Debian 12: debootstrap a minimal bookworm into a
# directory, clone this repository into it, and run `make demo` (or the target given) in a
# chroot, as root, with nothing installed but `make`. CI cannot show this (its machine has
# the packages already); run it by hand after changing scripts/deps.sh, the Makefile or the
# demo. Needs root, debootstrap and network access to Debian and PyPI; takes minutes (the
# virtualenv downloads torch).
#
#   bash tests/build/fresh_debian.sh [make-target] [dir]      (default: demo /tmp/kopt-fresh)
#
# bubblewrap cannot set up its mounts inside a plain chroot, so the harness runs under the
# unshare fallback there (as on machines without bwrap); everything else is as on a new VM.
# A TLS-intercepting proxy's CA in /usr/local/share/ca-certificates is copied in (it belongs
# to the network, not to the product).
set -uo pipefail
target=${1:-demo}
R=${2:-/tmp/kopt-fresh}
root=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "fresh_debian: run as root" >&2; exit 2; }
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
cleanup() { for m in dev/shm dev/pts dev proc sys; do umount "$R/$m" 2>/dev/null; done; }
trap cleanup EXIT
if [ ! -x "$R/bin/bash" ]; then
  debootstrap --variant=minbase bookworm "$R" http://deb.debian.org/debian >/dev/null || exit 1
fi
mount --bind /dev "$R/dev"; mount --bind /dev/pts "$R/dev/pts"; mount -t proc proc "$R/proc"
mount -t sysfs sys "$R/sys"; mkdir -p "$R/dev/shm"; mount -t tmpfs tmpfs "$R/dev/shm"
cp /etc/resolv.conf "$R/etc/resolv.conf"
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  mkdir -p "$R/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
fi
rm -rf "$R/root/kopt" && git clone -q "$root" "$R/root/kopt"
# Only the environment a new machine has (no proxy wheel directories or the like).
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb chroot "$R" /bin/bash -c "
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq && apt-get install -y -qq make ca-certificates >/dev/null &&
  update-ca-certificates >/dev/null 2>&1
  cd /root/kopt && time make $target"
rc=$?
[ "$target" = demo ] && chroot "$R" /bin/bash -c 'cd /root/kopt && make demo-stop' >/dev/null 2>&1
echo "fresh_debian: make $target exited $rc"
exit $rc
