#!/usr/bin/env bash
# Builds and runs the koptctl unit tests (cmocka) against the cli/ modules they test.
# They live here, not in tests/unit/, because the Makefile links tests/unit/ with the
# daemon's sources, not the CLI's. Exits non-zero if a test fails or does not build.
#   tests/cli/run.sh            # with ASan + UBSan (the default)
#   SAN= tests/cli/run.sh       # without sanitizers
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=build/tests-cli
mkdir -p "$out"
CC=${CC:-cc}
SAN=${SAN--fsanitize=address,undefined -fno-sanitize-recover=undefined}
# The Makefile's flags, so that a test build fails exactly where `make` would.
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
        -O1 -g -fno-omit-frame-pointer -D_GNU_SOURCE -Icli $SAN"
LIBS="$(pkg-config --libs jansson libcurl) -lcmocka"

# test name -> the cli/ sources it needs
declare -A srcs=(
  [test_ctl_sse]="cli/ctl_sse.c"
  [test_ctl_spec]="cli/ctl_spec.c"
  [test_ctl_format]="cli/ctl_format.c cli/ctl_http.c"
)

fail=0
for t in test_ctl_sse test_ctl_spec test_ctl_format; do
  # shellcheck disable=SC2086 # flags are word lists on purpose
  if ! $CC $CFLAGS -o "$out/$t" "tests/cli/$t.c" ${srcs[$t]} $LIBS; then
    echo "FAIL: $t did not build" >&2
    fail=1
    continue
  fi
  if ! "$out/$t"; then
    echo "FAIL: $t" >&2
    fail=1
  fi
done
exit $fail
