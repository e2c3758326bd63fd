#!/usr/bin/env bash
# Runs the libFuzzer targets (bin/fuzz/fuzz_*, built by `make fuzz-bins`) one at a time, each
# for SECONDS, starting from its committed seed corpus tests/fuzz/corpus/<name>/, and prints
# the executions per target and the total. Ends with one line "N passed, N failed" (a target
# passes when it ran to its time without a crash, leak, timeout or sanitizer report).
#
#   scripts/fuzz.sh [SECONDS] [NAME...]     (make fuzz: SECONDS=$FUZZ_SECONDS, default 60)
#
# The committed corpus is only read: inputs a run finds go to $KOPT_FUZZ_WORK/corpus/<name>/
# (kept between runs, so a long run goes on where the last one stopped), a crashing input and
# the run's log to $KOPT_FUZZ_WORK/<name>.crash-* and <name>.log. Reproduce a crash with
#   bin/fuzz/fuzz_<name> var/fuzz/<name>.crash-<sha1>
# Environment:
#   KOPT_FUZZ_WORK      working directory (default var/fuzz)
#   KOPT_FUZZ_FRESH=1   forget what earlier runs found: start from the committed seeds alone
#                       (scripts/test.sh does, in its own working directory)
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
case "$seconds" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [NAME...]" >&2; exit 2 ;; esac
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for b in bin/fuzz/fuzz_*; do [ -x "$b" ] && names+=("${b#bin/fuzz/fuzz_}"); done
fi
if [ ${#names[@]} -eq 0 ]; then
  echo "fuzz: no bin/fuzz/fuzz_* binaries: run make fuzz-bins" >&2
  echo "0 passed, 1 failed"
  exit 1
fi

work=${KOPT_FUZZ_WORK:-var/fuzz}
mkdir -p "$work"
# Leaks count as crashes; UBSan stops at the first report (the binaries are built with
# -fno-sanitize-recover=undefined) and prints where.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

pass=0; fail=0; total=0
echo "kopt fuzz run, $(date -u '+%Y-%m-%d %H:%M:%S UTC'): ${seconds} s per target, one at a time"
echo "build: $(git describe --always --dirty 2>/dev/null || echo unknown), $(clang --version 2>/dev/null | head -n1)," \
  "-fsanitize=fuzzer,address,undefined"
echo "machine: $(nproc) CPUs ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)), shared"
printf '%-14s %14s %10s  %s\n' target executions exec/s result
for name in "${names[@]}"; do
  bin=bin/fuzz/fuzz_$name seeds=tests/fuzz/corpus/$name found=$work/corpus/$name
  log=$work/$name.log
  if [ ! -x "$bin" ]; then
    printf '%-14s %14s %10s  %s\n' "$name" - - "FAIL (no $bin)"
    fail=$((fail + 1)); continue
  fi
  [ "${KOPT_FUZZ_FRESH:-0}" = 1 ] && rm -rf "$found"
  mkdir -p "$found"
  dict=() ; [ -f "tests/fuzz/$name.dict" ] && dict=("-dict=tests/fuzz/$name.dict")
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: a parser that balloons is a bug.
  # The time limit is enforced by libFuzzer; timeout(1) only guards against libFuzzer itself.
  timeout --kill-after=10 $((seconds + 120)) "$bin" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$work/$name." "${dict[@]}" \
    "$found" "$seeds" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *\([0-9]*\).*/\1/p' "$log" | tail -n1)
  execs=${execs:-0}; speed=${speed:-0}
  total=$((total + execs))
  if [ "$rc" -eq 0 ] && ! grep -aEq 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|FUZZ_CHECK failed' "$log"; then
    result=ok; pass=$((pass + 1))
  else
    result="FAIL (exit $rc; see $log)"; fail=$((fail + 1))
    grep -aE 'ERROR:|runtime error:|FUZZ_CHECK failed|Test unit written|SUMMARY' "$log" | head -n 8 | sed 's/^/    /'
  fi
  printf '%-14s %14d %10d  %s\n' "$name" "$execs" "$speed" "$result"
done
printf '%-14s %14d\n' total "$total"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
