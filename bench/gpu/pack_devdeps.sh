#!/usr/bin/env bash
# Packs .devdeps/*.deb into one trimmed archive, .devdeps-packed/deps.tar.xz (~16 MB against
# the debs' ~29 MB), for device calls whose tree plus carry would pass the tool's 64 MiB cap.
# Left out, as nothing on the device reads them: translations, docs, man pages, PostgreSQL's
# LLVM JIT bitcode and module (the stack runs with jit=off) and its extension-build files.
#   bash bench/gpu/pack_devdeps.sh   # then carry ".devdeps-packed" instead of ".devdeps"
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=.devdeps
DST=.devdeps-packed
ls "$SRC"/*.deb >/dev/null 2>&1 || { echo "pack_devdeps: no .deb in $SRC (bench/gpu/README.md)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for f in "$SRC"/*.deb; do dpkg -x "$f" "$work"; done
rm -rf "$work"/usr/share/locale "$work"/usr/share/doc "$work"/usr/share/man \
  "$work"/usr/lib/postgresql/15/lib/bitcode "$work"/usr/lib/postgresql/15/lib/pgxs
rm -f "$work"/usr/lib/postgresql/15/lib/llvmjit*.so
mkdir -p "$DST"
tar -C "$work" -cJf "$DST/deps.tar.xz.tmp" .
mv "$DST/deps.tar.xz.tmp" "$DST/deps.tar.xz"
ls -l "$DST/deps.tar.xz" >&2
