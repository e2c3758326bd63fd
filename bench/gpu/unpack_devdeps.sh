#!/usr/bin/env bash
# Unpacks the carried runtime packages into $1 (default /opt/deps), never into /: the trimmed
# archive from pack_devdeps.sh when the call carried it, else the .debs themselves.
set -euo pipefail
cd "$(dirname "$0")/../.."
dest=${1:-/opt/deps}
mkdir -p "$dest"
if [ -s .devdeps-packed/deps.tar.xz ]; then
  tar -xJf .devdeps-packed/deps.tar.xz -C "$dest"
elif ls .devdeps/*.deb >/dev/null 2>&1; then
  for f in .devdeps/*.deb; do dpkg -x "$f" "$dest"; done
else
  echo "unpack_devdeps: carry .devdeps-packed or .devdeps (bench/gpu/README.md)" >&2; exit 1
fi
