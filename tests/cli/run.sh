#!/usr/bin/env bash
# Builds and runs koptctl's tests, ending with one line "N passed, N failed":
#  1. unit tests (cmocka) of the cli/ modules, compiled here with the Makefile's warning
#     flags: they live in tests/cli/, not tests/unit/, because the Makefile links
#     tests/unit/ with the daemon's sources, not the CLI's;
#  2. a build of bin/koptctl (its end-to-end tests run against a real koptd in
#     tests/integration).
# Both run under ASan + UBSan by default (leaks included).
#   tests/cli/run.sh            # sanitised
#   SAN= tests/cli/run.sh       # plain build (bin/koptctl)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
out=build/tests-cli
mkdir -p "$out"
CC=${CC:-cc}
SAN=${SAN--fsanitize=address,undefined -fno-sanitize-recover=undefined}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# The Makefile's flags, so that a test build fails exactly where `make` would.
CFLAGS="-std=gnu11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
        -O1 -g -fno-omit-frame-pointer -D_GNU_SOURCE -Icli -Icommon $SAN"
LIBS="$(pkg-config --libs jansson libcurl) -lcmocka -lm"

# The version string koptctl's modules link against (the Makefile generates it from git).
printf '#include "version.h"\nconst char kopt_version[] = "cli-test";\n' >"$out/version.c"

# test name -> the cli/ sources it needs
declare -A srcs=(
  [test_ctl_sse]="cli/ctl_sse.c"
  [test_ctl_spec]="cli/ctl_spec.c"
  [test_ctl_format]="cli/ctl_format.c cli/ctl_http.c $out/version.c"
  [test_ctl_suite]="cli/ctl_suite.c cli/ctl_spec.c"
)

pass=0; fail=0
for t in test_ctl_sse test_ctl_spec test_ctl_format test_ctl_suite; do
  # shellcheck disable=SC2086 # flags are word lists on purpose
  if ! $CC $CFLAGS -o "$out/$t" "tests/cli/$t.c" ${srcs[$t]} $LIBS; then
    echo "FAIL: $t did not build" >&2
    fail=$((fail + 1))
    continue
  fi
  "$out/$t" 2>&1 | tee "$out/$t.log"
  rc=${PIPESTATUS[0]}
  p=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' "$out/$t.log" | tail -n1)
  f=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' "$out/$t.log" | tail -n1)
  p=${p:-0}; f=${f:-0}
  # A crash (sanitizer report, abort) prints no summary: count it as a failure.
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  pass=$((pass + p)); fail=$((fail + f))
done

# The binary the end-to-end checks drive: the Makefile's, built the way `make asan` does
# when sanitising (own tree, so the release build is left alone).
if [ -n "$SAN" ]; then
  koptctl=bin/asan/koptctl
  mk=(make -s BUILD=build/asan BIN=bin/asan OPT='-O1 -g -fno-omit-frame-pointer' "SAN=$SAN" bin/asan/koptctl)
else
  koptctl=bin/koptctl
  mk=(make -s bin/koptctl)
fi
# koptctl's behaviour against the real koptd is tested in tests/integration (test_koptctl*.py);
# here only build it, so a broken CLI build fails this suite.
if ! "${mk[@]}"; then
  echo "FAIL: ${mk[*]}" >&2
  fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
