#!/usr/bin/env bash
# Runs kopt's tests and ends with one line "N passed, N failed[, N skipped]".
#
#   scripts/test.sh [unit|integration|harness|fuzz|all]      (make test = all)
#
#   unit         build, then every cmocka binary in bin/tests/ and bin/asan/tests/
#   integration  pytest tests/integration against bin/koptd, then against bin/asan/koptd
#   harness      pytest tests/harness
#   fuzz         build bin/fuzz/ (clang), run every libFuzzer target a bounded time under
#                ASan/UBSan from its committed seeds; one test per target, a crash fails it
#   all          all of the above, plus tests/build/first_run.sh (the first-run build),
#                tests/cli/run.sh and deploy/check.sh when present
#
# Environment:
#   KOPT_TEST_ASAN=0           skip the ASan/UBSan runs (quicker local iterations)
#   KOPT_TEST_PYTEST_ARGS      extra pytest arguments, shell quoting honoured
#                              (e.g. "-k 'idempotency or sandbox' -x")
#   KOPT_TEST_SUITE_TIMEOUT    seconds one suite may run before it is killed (default 1800)
#   KOPT_TEST_FUZZ_SECONDS     seconds per fuzz target (default 8; `make fuzz` runs longer)
# Results (junit XML, logs) go to var/test-results/.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

mode=${1:-all}
case "$mode" in unit|integration|harness|fuzz|all) ;; *)
  echo "usage: scripts/test.sh [unit|integration|harness|fuzz|all]" >&2; exit 2 ;;
esac
asan=${KOPT_TEST_ASAN:-1}
suite_timeout=${KOPT_TEST_SUITE_TIMEOUT:-1800}
results=$root/var/test-results
rm -rf "$results"; mkdir -p "$results"

PASSED=0; FAILED=0; SKIPPED=0
declare -a SUMMARY=()

banner() { printf '\n==== %s ====\n' "$*"; }
record() {  # suite passed failed skipped
  PASSED=$((PASSED + $2)); FAILED=$((FAILED + $3)); SKIPPED=$((SKIPPED + $4))
  SUMMARY+=("$(printf '%-34s %4d passed %4d failed %4d skipped' "$1" "$2" "$3" "$4")")
}
SAN_RE='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|WARNING: ThreadSanitizer|ERROR: UndefinedBehaviorSanitizer'

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# ---------------------------------------------------------------------------- build
build() {
  local targets=(all)
  case "$mode" in
    unit) targets+=(unit-bins) ;;
    integration) targets+=(unit-bins) ;; # test_db_prepared.py runs bin/tests/test_db
    all) targets+=(unit-bins fuzz-bins) ;;
    fuzz) targets=(fuzz-bins) ;;
    harness) return 0 ;;
  esac
  [ "$asan" = 1 ] && [ "$mode" != fuzz ] && targets+=(asan)
  banner "build: make ${targets[*]}"
  if ! make -j"$(nproc)" "${targets[@]}" 2>&1 | tee "$results/build.log"; then
    record "build" 0 1 0
    return 1
  fi
}

# ------------------------------------------------------------------------- cmocka
run_unit() {
  local dirs=(bin/tests) d b out rc p f any=0
  [ "$asan" = 1 ] && dirs+=(bin/asan/tests)
  local nsrc; nsrc=$(find tests/unit -maxdepth 1 -name 'test_*.c' 2>/dev/null | wc -l)
  for d in "${dirs[@]}"; do
    for b in "$d"/test_*; do
      [ -x "$b" ] && [ -f "$b" ] || continue
      any=1
      banner "unit: $b"
      out="$results/unit-$(echo "$b" | tr / _).log"
      timeout --kill-after=10 600 "$b" 2>&1 | tee "$out"
      rc=${PIPESTATUS[0]}
      p=$(sed -n 's/^\[  PASSED  \] \([0-9]\+\) test.*/\1/p' "$out" | tail -n1)
      f=$(sed -n 's/^\[  FAILED  \] \([0-9]\+\) test.*/\1/p' "$out" | tail -n1)
      p=${p:-0}; f=${f:-0}
      if grep -Eq "$SAN_RE" "$out"; then
        echo "unit: $b: sanitizer report in its output" >&2; f=$((f + 1))
      fi
      if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
        echo "unit: $b exited $rc without a cmocka failure line (crash or timeout)" >&2; f=1
      fi
      if [ "$rc" -eq 0 ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        echo "unit: $b ran no tests" >&2; f=1
      fi
      record "unit $b" "$p" "$f" 0
    done
  done
  if [ "$any" = 0 ]; then
    if [ "$nsrc" -gt 0 ]; then
      echo "unit: tests/unit has $nsrc test sources but no binary was built" >&2
      record "unit" 0 1 0
    else
      banner "unit: no tests/unit/test_*.c yet"
    fi
  fi
}

# ------------------------------------------------------------------------- pytest
PY=$root/.venv/bin/python
ensure_venv() {
  # .venv-ascend: triton-ascend, for the Ascend IR tests (harness, integration)
  if [ ! -x "$PY" ] || [ ! -x "$root/.venv-ascend/bin/python" ]; then
    echo "test: no .venv or .venv-ascend; running scripts/deps.sh" >&2
    bash scripts/deps.sh >/dev/null || return 1
  fi
}

# run_pytest NAME DIR [env assignments...]: one pytest session, counted from its junit XML.
run_pytest() {
  local name=$1 dir=$2; shift 2
  local xml="$results/$name.xml" rc parsed extra=()
  banner "$name: pytest $dir $*"
  if [ -n "${KOPT_TEST_PYTEST_ARGS:-}" ]; then
    # split as a shell would ("-k 'a or b'" is two arguments), by shlex rather than eval
    parsed=$("$PY" -c 'import shlex, sys; print("\n".join(shlex.split(sys.argv[1])))' \
      "$KOPT_TEST_PYTEST_ARGS" 2>/dev/null) || { echo "test: KOPT_TEST_PYTEST_ARGS: cannot split it (unbalanced quotes?)" >&2; return 2; }
    mapfile -t extra <<<"$parsed"
  fi
  env "$@" timeout --kill-after=30 "$suite_timeout" \
    "$PY" -m pytest "$dir" -q -rfEs -p no:cacheprovider --junitxml="$xml" -o junit_family=xunit2 \
    "${extra[@]}" 2>&1 | tee "$results/$name.log"
  rc=${PIPESTATUS[0]}
  local counts
  counts=$("$PY" - "$xml" <<'EOF'
import sys, xml.etree.ElementTree as ET
try:
    r = ET.parse(sys.argv[1]).getroot()
except Exception:
    print("0 0 0 0"); sys.exit()
suites = [r] if r.tag == "testsuite" else r.findall("testsuite")
t = f = e = s = 0
for x in suites:
    t += int(x.get("tests", 0)); f += int(x.get("failures", 0))
    e += int(x.get("errors", 0)); s += int(x.get("skipped", 0))
print(t - f - e - s, f + e, s, t)
EOF
)
  local p f s t; read -r p f s t <<<"$counts"
  case "$rc" in
    0|1) ;;
    5) echo "$name: pytest collected no tests: that is a failure" >&2; f=$((f + 1)) ;;
    124|137) echo "$name: killed after $suite_timeout s" >&2; f=$((f + 1)) ;;
    *) [ "$f" -gt 0 ] || { echo "$name: pytest exited $rc" >&2; f=$((f + 1)); } ;;
  esac
  if [ "$rc" -eq 1 ] && [ "$f" -eq 0 ]; then f=1; fi
  record "$name" "$p" "$f" "$s"
}

run_integration() {
  if [ ! -d tests/integration ]; then record "integration" 0 1 0; return; fi
  ensure_venv || { record "integration (venv)" 0 1 0; return; }
  run_pytest integration tests/integration KOPT_BIN_DIR=bin
  if [ "$asan" = 1 ]; then
    run_pytest integration-asan tests/integration KOPT_BIN_DIR=bin/asan
  fi
}

run_harness() {
  if [ -d tests/harness ]; then
    ensure_venv || { record "harness (venv)" 0 1 0; return; }
    run_pytest harness tests/harness
  else
    banner "harness: no tests/harness yet"
  fi
}

# run_script NAME PATH [ARG...]: a shell suite. Counted from a final "N passed, N failed" line if it
# prints one, else from the cmocka summaries it prints, else as one test by exit status.
run_script() {
  local name=$1 path=$2 rc line p f s log="$results/$1.log"
  shift 2
  banner "$name: $path $*"
  timeout --kill-after=30 "$suite_timeout" bash "$path" "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n1 || true)
  s=0
  if [ -n "$line" ]; then
    p=$(sed -E 's/^([0-9]+) passed.*/\1/' <<<"$line")
    f=$(sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/' <<<"$line")
    s=$(sed -nE 's/.*, ([0-9]+) skipped.*/\1/p' <<<"$line"); s=${s:-0}
  elif grep -Eq '^\[  (PASSED|FAILED)  \] [0-9]+ test' "$log"; then
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]\+\) test.*/\1/p' "$log" | awk '{n+=$1} END {print n+0}')
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]\+\) test.*/\1/p' "$log" | awk '{n+=$1} END {print n+0}')
  elif [ "$rc" -eq 0 ]; then p=1; f=0
  else p=0; f=1
  fi
  if grep -Eq "$SAN_RE" "$log"; then
    echo "$name: sanitizer report in its output" >&2; f=$((f + 1))
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
    echo "$name: exited $rc" >&2; f=1
  fi
  record "$name" "$p" "$f" "$s"
}

# --------------------------------------------------------------------------- fuzz
# Each target from its committed seeds alone (a fresh working directory), so a run checks the
# tree as committed, not what earlier local runs happened to find.
run_fuzz() {
  KOPT_FUZZ_WORK=$results/fuzz KOPT_FUZZ_FRESH=1 \
    run_script fuzz scripts/fuzz.sh "${KOPT_TEST_FUZZ_SECONDS:-8}"
}

# ---------------------------------------------------------------------------- main
start=$(date +%s)
if build; then
  case "$mode" in
    unit) run_unit ;;
    integration) run_integration ;;
    harness) run_harness ;;
    fuzz) run_fuzz ;;
    all)
      run_unit
      if [ -f tests/build/first_run.sh ]; then run_script first-run tests/build/first_run.sh; fi
      if [ -f tests/cli/run.sh ]; then run_script cli tests/cli/run.sh; fi
      run_integration
      run_harness
      run_fuzz
      if [ -f deploy/check.sh ]; then run_script deploy deploy/check.sh; fi
      ;;
  esac
fi

banner "summary ($mode, $(( $(date +%s) - start )) s; logs in var/test-results/)"
for l in "${SUMMARY[@]}"; do echo "  $l"; done
if [ "$SKIPPED" -gt 0 ]; then
  echo "$PASSED passed, $FAILED failed, $SKIPPED skipped"
else
  echo "$PASSED passed, $FAILED failed"
fi
[ "$FAILED" -eq 0 ] && [ "$PASSED" -gt 0 ]
