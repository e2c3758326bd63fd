#!/usr/bin/env bash
# End-to-end checks of koptctl against tests/cli/mock_koptd.py, a stand-in for koptd's
# HTTP API: spec building, problem documents, idempotency, pages, status, cancel, and
# watch over server-sent events with its fallback to polling and its exit statuses.
#   tests/cli/e2e.sh                     # uses bin/koptctl
#   KOPTCTL=bin/asan/koptctl tests/cli/e2e.sh
# Ends with "N passed, N failed"; exits non-zero on any failure.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
KOPTCTL=${KOPTCTL:-bin/koptctl}
[ -x "$KOPTCTL" ] || { echo "e2e: $KOPTCTL is not built (make bin/koptctl)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "0 passed, 0 failed, 1 skipped (no python3)"; exit 0; }

tmp=$(mktemp -d /tmp/koptctl-e2e.XXXXXX)
mock_pid=
cleanup() {
  [ -n "$mock_pid" ] && kill "$mock_pid" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

python3 tests/cli/mock_koptd.py "$tmp/port" &
mock_pid=$!
for _ in $(seq 50); do [ -s "$tmp/port" ] && break; sleep 0.1; done
[ -s "$tmp/port" ] || { echo "e2e: mock server did not start" >&2; exit 1; }
export KOPT_URL="http://127.0.0.1:$(cat "$tmp/port")"
export KOPT_TOKEN=kopt_test

pass=0; fail=0
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; sed 's/^/     | /' "$tmp/out" "$tmp/err" | head -40; }
# run NAME EXPECTED_RC CMD...: output in $tmp/out, $tmp/err
run() {
  local name=$1 want=$2; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  if [ "$rc" -eq "$want" ]; then return 0; fi
  echo "     (exit $rc, wanted $want)" >>"$tmp/err"
  bad "$name"
  return 1
}
has()  { grep -qF -- "$2" "$tmp/$1"; }   # has out|err TEXT
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }

# --- files
cat >"$tmp/kernel.py" <<'PY'
import torch
import triton
import triton.language as tl

@triton.jit
def add_kernel(x, y, out, n, BLOCK: tl.constexpr):
    off = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = off < n
    tl.store(out + off, tl.load(x + off, mask=m) + tl.load(y + off, mask=m), mask=m)

class ModelNew(torch.nn.Module):
    def forward(self, x, y):
        out = torch.empty_like(x)
        add_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
        return out  # "quotes" and \ backslashes survive
PY
cat >"$tmp/ref.py" <<'PY'
import torch
class Model(torch.nn.Module):
    def forward(self, x, y):
        return x + y
def get_inputs():
    return [torch.randn(4096), torch.randn(4096)]
def get_init_inputs():
    return []
PY
printf '{"inputs": [{"name": "x", "type": "tensor", "dtype": "float32", "shape": [4096]}]}\n\n{"inputs": []}\n' >"$tmp/cases.jsonl"
printf '{"inputs": []}\n{"inputs": [}\n' >"$tmp/bad.jsonl"
head -c 262145 /dev/zero | tr '\0' '#' >"$tmp/big.py"

K=(--kernel "$tmp/kernel.py" --reference "$tmp/ref.py")

# --- submit --print: the body, nothing sent
if run "submit --print" 0 "$KOPTCTL" submit "${K[@]}" --cases "$tmp/cases.jsonl" --backend interp \
     --rounds 0 --name va --print; then
  check "submit --print body" python3 - "$tmp/out" "$tmp/kernel.py" "$tmp/ref.py" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
assert spec["kernel"]["source"] == open(sys.argv[2]).read(), "kernel source"
assert spec["kernel"]["filename"] == "kernel.py"
assert spec["reference"]["source"] == open(sys.argv[3]).read(), "reference source"
assert len(spec["cases"]) == 2 and spec["cases"][0]["inputs"][0]["name"] == "x"
assert spec["rounds"] == 0 and spec["backend"] == "interp" and spec["name"] == "va"
assert set(spec) == {"kernel", "reference", "cases", "rounds", "backend", "name"}, set(spec)
PY
fi

run "bad cases line" 3 "$KOPTCTL" submit "${K[@]}" --cases "$tmp/bad.jsonl" --print &&
  check "bad cases line: names file and line" has err "bad.jsonl:2: invalid JSON"
run "oversized kernel" 3 "$KOPTCTL" submit --kernel "$tmp/big.py" --print &&
  check "oversized kernel: names file and limit" has err "big.py: 262145 bytes is over the 256 KiB limit"
run "usage: no kernel" 3 "$KOPTCTL" submit --rounds 3 && check "usage: says what is missing" has err "--kernel"
run "usage: bad integer" 3 "$KOPTCTL" submit "${K[@]}" --rounds 3x
run "usage: unknown command" 3 "$KOPTCTL" frobnicate
run "usage: unknown option" 3 "$KOPTCTL" list --bogus && check "usage: names the option" has err "unknown option --bogus"
run "usage: missing value" 3 "$KOPTCTL" list --state && check "usage: missing value named" has err "--state needs a value"
run "usage: status without id" 3 "$KOPTCTL" status
run "help exit statuses" 0 "$KOPTCTL" --help && check "help: exit statuses" has out "2  the watched job was cancelled"
run "watch --help" 0 "$KOPTCTL" watch --help && check "watch --help: exit statuses" has out "0 succeeded, 1 failed, 2 cancelled"

# --- server refusals
run "no token" 3 env -u KOPT_TOKEN "$KOPTCTL" list &&
  check "no token: 401 problem and hint" bash -c "grep -qF 'koptctl: 401 Unauthorized: missing or unknown token' '$tmp/err' && grep -qF 'set KOPT_TOKEN' '$tmp/err'"
run "validation problem" 3 "$KOPTCTL" submit "${K[@]}" --rounds 101 &&
  check "validation: status title detail" has err "koptctl: 400 Request failed validation: rounds: must be at most 100" &&
  check "validation: errors[] field/rule" has err "rounds: maximum (limit 100) - must be at most 100"
run "transport error" 3 env KOPT_URL=http://127.0.0.1:1 "$KOPTCTL" list &&
  check "transport error: says where" has err "GET http://127.0.0.1:1/v1/jobs"
run "bad KOPT_URL" 3 env KOPT_URL=ftp://x "$KOPTCTL" list && check "bad KOPT_URL: explained" has err "KOPT_URL must start with http"

# --- submit, idempotency
if run "submit" 0 "$KOPTCTL" submit "${K[@]}" --name ok --idempotency-key key-1; then
  id_ok=$(tail -n1 "$tmp/out")
  check "submit: id on the last line" grep -qE '^[0-9a-f-]{36}$' <<<"$id_ok"
  check "submit: human line" has out 'submitted job "ok": queued, backend any'
  check "submit: sent body and headers" python3 - "$KOPT_URL" "$tmp/kernel.py" <<'PY'
import json, sys, urllib.request
last = json.load(urllib.request.urlopen(sys.argv[1] + "/_last"))
assert last["idempotency_key"] == "key-1", last
assert last["content_type"] == "application/json", last
assert last["body"]["kernel"]["source"] == open(sys.argv[2]).read()
PY
  run "submit again, same key" 0 "$KOPTCTL" submit "${K[@]}" --name ok --idempotency-key key-1 &&
    check "same key: same job" test "$(tail -n1 "$tmp/out")" = "$id_ok" &&
    check "same key: says so" has out "already submitted"
  run "same key, other body" 3 "$KOPTCTL" submit "${K[@]}" --name other --idempotency-key key-1 &&
    check "same key, other body: 409" has err "koptctl: 409 Idempotency conflict"
  run "bad idempotency key" 3 "$KOPTCTL" submit "${K[@]}" --idempotency-key $'a\r\nX-Evil: 1'

  # --- watch over SSE: succeeded
  if run "watch ok" 0 "$KOPTCTL" watch "$id_ok"; then
    check "watch: progress line" has out "running  round 3/15  level L3  best 1.30x"
    check "watch: one line per change" test "$(grep -c 'running  round 3/15' "$tmp/out")" -eq 1
    check "watch: closing line" has out "succeeded: best 1.30x over the initial kernel"
    check "watch: no polling needed" test ! -s "$tmp/err"
  fi
fi

# --- submit FILE.json, then watch: stream drops, polling finds the failure
"$KOPTCTL" submit --kernel "$tmp/kernel.py" --name drop --print >"$tmp/drop.json"
if run "submit FILE.json" 0 "$KOPTCTL" submit "$tmp/drop.json"; then
  id=$(tail -n1 "$tmp/out")
  if run "watch: stream drops, job fails" 1 "$KOPTCTL" watch "$id"; then
    check "watch drop: falls back to polling" has err "event stream ended"
    check "watch drop: polled progress" has out "running  round 2/15  level L3"
    check "watch drop: error sanitised" has out "failed: harness crashed twice: ?[31mboom?[0m"
  fi
fi
printf '{"kernel": {"source": "x"},\n "rounds": }\n' >"$tmp/broken.json"
run "submit broken FILE.json" 3 "$KOPTCTL" submit "$tmp/broken.json" &&
  check "broken FILE.json: line and column" has err "broken.json:2:"
run "submit FILE.json with options" 3 "$KOPTCTL" submit "$tmp/drop.json" --rounds 2

# --- submit --wait: cancelled -> 2; no event stream -> polling -> 0
run "submit --wait cancelled" 2 "$KOPTCTL" submit --kernel "$tmp/kernel.py" --name cancel --wait &&
  check "wait cancelled: closing line" has out "cancelled"
run "watch without events route" 0 "$KOPTCTL" submit --kernel "$tmp/kernel.py" --name nosse --wait &&
  check "nosse: polled to success" has out "succeeded: best 2.50x"
run "watch unknown job" 3 "$KOPTCTL" watch 00000000-0000-0000-0000-000000000000 &&
  check "watch unknown job: 404 problem" has err "koptctl: 404 Not found"

# --- cancel
if run "submit idle" 0 "$KOPTCTL" submit --kernel "$tmp/kernel.py" --name idle; then
  id=$(tail -n1 "$tmp/out")
  run "cancel queued" 0 "$KOPTCTL" cancel "$id" && check "cancel: says cancelled" has out "job $id cancelled"
  run "cancel again" 3 "$KOPTCTL" cancel "$id" && check "cancel again: 409" has err "koptctl: 409 Conflict: job is already cancelled"
  # --- status
  run "status" 0 "$KOPTCTL" status "$id" &&
    check "status: summary" bash -c "grep -qE '^state +cancelled' '$tmp/out' && grep -qE '^name +idle' '$tmp/out'"
  run "status --json" 0 "$KOPTCTL" status "$id" --json &&
    check "status --json: the document" python3 -c "import json,sys; d=json.load(open('$tmp/out')); assert d['id']=='$id' and 'spec' in d"
fi

# --- list and pages (6 jobs so far)
total=$(python3 -c "import json,urllib.request,sys; r=urllib.request.Request('$KOPT_URL/v1/jobs?limit=100', headers={'Authorization':'Bearer kopt_test'}); print(len(json.load(urllib.request.urlopen(r))['jobs']))")
run "list" 0 "$KOPTCTL" list && check "list: header" has out "ID                                    STATE      BACKEND  NAME"
run "list one page" 0 "$KOPTCTL" list --limit 2 &&
  check "list --limit 2: two rows" test "$(($(wc -l <"$tmp/out") - 1))" -eq 2 &&
  check "list: says there is more" has err "--all"
run "list --all" 0 "$KOPTCTL" list --limit 2 --all &&
  check "list --all: every job ($total)" test "$(($(wc -l <"$tmp/out") - 1))" -eq "$total"
run "list --state" 0 "$KOPTCTL" list --state cancelled --state failed &&
  check "list --state: filtered" bash -c "! tail -n +2 '$tmp/out' | grep -vE ' (cancelled|failed) '"
run "list --limit 101" 3 "$KOPTCTL" list --limit 101 && check "list: server's limit" has err "limit: maximum (limit 100)"

# --- a terminal: the progress line is rewritten in place
if command -v script >/dev/null; then
  "$KOPTCTL" submit --kernel "$tmp/kernel.py" --name ok >"$tmp/out" 2>"$tmp/err"
  id=$(tail -n1 "$tmp/out")
  script -qec "$KOPTCTL watch $id" /dev/null >"$tmp/out" 2>"$tmp/err" </dev/null
  rc=$?
  check "tty watch: exit 0" test "$rc" -eq 0
  check "tty watch: rewrites with CR" grep -qF $'\r\033[K' "$tmp/out"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
