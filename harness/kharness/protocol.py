"""JSON Lines framing shared by the supervisor and the worker: limits, errors, encoding."""
import json
import math
from dataclasses import dataclass
from typing import Any

# Defaults, equal to koptd's (common/contract.h: KOPT_SOURCE_BYTES_DEFAULT,
# KOPT_HARNESS_LINE_MIN). The C worker passes the daemon's settings as --max-source-bytes and
# --max-line-bytes, so that whatever the API accepted can be loaded here.
MAX_LINE_BYTES = 16 * 1024 * 1024      # one request line
MAX_SOURCE_BYTES = 256 * 1024          # each of reference_source, kernel_source, candidate_source, source
SOURCE_BYTES_CAP = 16 * 1024 * 1024    # the most a koptd may allow (KOPT_SOURCE_BYTES_MAX)
LINE_BYTES_CAP = 1 << 30               # sanity bound on --max-line-bytes
MAX_CASES = 1024                       # cases given inline in `load` (KOPT_CASES_MAX)
MAX_JSON_DEPTH = 32


@dataclass
class Limits:
    """The limits in force in this process (set once at start-up by configure_limits)."""
    source_bytes: int = MAX_SOURCE_BYTES
    line_bytes: int = MAX_LINE_BYTES


LIMITS = Limits()


def configure_limits(source_bytes: int | None, line_bytes: int | None) -> None:
    """Applies the limits the worker passed; raises ValueError naming the one out of range."""
    if source_bytes is not None:
        if not 64 <= source_bytes <= SOURCE_BYTES_CAP:
            raise ValueError(f"--max-source-bytes {source_bytes} is outside 64..{SOURCE_BYTES_CAP}")
        LIMITS.source_bytes = source_bytes
    if line_bytes is not None:
        if not MAX_LINE_BYTES <= line_bytes <= LINE_BYTES_CAP:
            raise ValueError(f"--max-line-bytes {line_bytes} is outside {MAX_LINE_BYTES}..{LINE_BYTES_CAP}")
        LIMITS.line_bytes = line_bytes


OPS = ("hello", "load", "validate", "bench", "compare", "compile", "profile", "knobs", "rewrite", "sweep",
       "shutdown")

# Default wall-clock limits (seconds) for one request, enforced by the supervisor. A request
# may lower or raise them with "timeout_s" (1..MAX_TIMEOUT_S).
DEFAULT_TIMEOUTS = {
    "hello": 120, "load": 600, "validate": 600, "bench": 600, "compare": 900,
    "compile": 600, "profile": 900, "knobs": 60, "rewrite": 60, "sweep": 1200, "shutdown": 30,
}
MAX_TIMEOUT_S = 7200                   # the worker caps its limits to this (workers/deadline.h)


class HarnessError(Exception):
    """An error that becomes {"ok": false, "error": {"kind", "message", ...}}."""

    def __init__(self, kind, message, **extra) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        d = {"kind": self.kind, "message": self.message}
        d.update(self.extra)
        return d


def sanitize(obj) -> Any:
    """Make obj strict-JSON serializable: NaN/Inf become strings, tuples lists, numpy/torch
    scalars Python numbers."""
    if isinstance(obj, float):
        if math.isnan(obj):
            return "NaN"
        if math.isinf(obj):
            return "Infinity" if obj > 0 else "-Infinity"
        return obj
    if isinstance(obj, (str, int, bool)) or obj is None:
        return obj
    if isinstance(obj, dict):
        return {str(k): sanitize(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [sanitize(v) for v in obj]
    if hasattr(obj, "item") and callable(obj.item):
        try:
            return sanitize(obj.item())
        except Exception:  # noqa: S110, BLE001 -- any object's .item() may raise anything: fall back to str(obj)
            pass
    return str(obj)


def encode(obj) -> str:
    return json.dumps(sanitize(obj), separators=(",", ":"), allow_nan=False) + "\n"


def ok(req_id, result) -> dict[str, Any]:
    return {"id": req_id, "ok": True, "result": result}


def error(req_id, kind, message, **extra) -> dict[str, Any]:
    e = {"kind": kind, "message": message}
    e.update(extra)
    return {"id": req_id, "ok": False, "error": e}


def _depth(obj, limit, d=0) -> int:
    if d > limit:
        return d
    if isinstance(obj, dict):
        return max([_depth(v, limit, d + 1) for v in obj.values()] or [d + 1])
    if isinstance(obj, list):
        return max([_depth(v, limit, d + 1) for v in obj] or [d + 1])
    return d


def parse_request(line) -> dict[str, Any]:
    """Parse and check one request line. Returns the request dict or raises HarnessError
    (the id is attached as .extra['id'] when it could be read)."""
    if len(line) > LIMITS.line_bytes:
        raise HarnessError("bad-request", f"request line is {len(line)} bytes; the limit is {LIMITS.line_bytes}")
    try:
        req = json.loads(line)
    except ValueError as e:
        raise HarnessError("bad-request", f"request is not valid JSON: {e}")
    if not isinstance(req, dict):
        raise HarnessError("bad-request", "request must be a JSON object")
    req_id = req.get("id")
    if _depth(req, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise HarnessError("bad-request", f"request nests deeper than {MAX_JSON_DEPTH} levels", id=req_id)
    if not isinstance(req_id, int) or isinstance(req_id, bool):
        raise HarnessError("bad-request", 'request needs an integer "id"', id=req_id)
    op = req.get("op")
    if op not in OPS:
        raise HarnessError("unknown-op", f"unknown op {op!r}; known ops: {', '.join(OPS)}", id=req_id)
    for field in ("reference_source", "kernel_source", "candidate_source", "incumbent_source", "source"):
        v = req.get(field)
        if v is None:
            continue
        if not isinstance(v, str):
            raise HarnessError("bad-request", f"{field} must be a string (Python source)", id=req_id)
        n = len(v.encode("utf-8", "surrogatepass"))
        if n > LIMITS.source_bytes:
            raise HarnessError("bad-request", f"{field} is {n} bytes; the limit is {LIMITS.source_bytes}", id=req_id)
    cases = req.get("cases")
    if cases is not None and op == "load":
        if not isinstance(cases, list):
            raise HarnessError("bad-request", "cases must be a list of NPUKernelBench case objects", id=req_id)
        if len(cases) > MAX_CASES:
            raise HarnessError("bad-request", f"{len(cases)} cases given; the limit is {MAX_CASES}", id=req_id)
    t = req.get("timeout_s")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool) or not (0 < t <= MAX_TIMEOUT_S)):
        raise HarnessError("bad-request", f"timeout_s must be a number in (0, {MAX_TIMEOUT_S}]", id=req_id)
    return req


def _field(req: dict[str, Any], name: str, default: Any, lo: Any, hi: Any, types: tuple[type, ...],
           what: str) -> Any:
    v = req.get(name, default)
    if v is None:
        v = default
    if not isinstance(v, types) or isinstance(v, bool) or not (lo <= v <= hi):
        raise HarnessError("bad-request", f"{name} must be {what} in [{lo}, {hi}]")
    return v


def int_field(req: dict[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    """req[name] (default when absent or null), an integer in [lo, hi]; else bad-request naming
    the field and its range."""
    return int(_field(req, name, default, lo, hi, (int,), "an integer"))


def num_field(req: dict[str, Any], name: str, default: float, lo: float, hi: float) -> float:
    """The same for a number (an integer or a float), returned as a float."""
    return float(_field(req, name, default, lo, hi, (int, float), "a number"))
