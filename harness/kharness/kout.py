"""What submitted code prints, kept apart from the harness's own log.

User code runs in the harness worker process, and anything it writes to file descriptors 1
and 2 (Python prints, C-level writes of a kernel's module, warnings) used to flow into the
worker's log and from there into koptd's — uncapped, and able to imitate koptd's own lines.
This module points fds 1 and 2 at a pipe that a thread drains into a capped buffer; the
harness's own messages go to a private copy of the original stderr. After every request
the captured text (first KOUT_CAP_BYTES, with the total count) goes back in the response as
`kernel_output`, and the C worker stores it in the job's own log, never in koptd's."""
from __future__ import annotations

import os
import sys
import threading
from typing import IO

KOUT_CAP_BYTES = 64 * 1024          # kept per request; the rest is only counted
KOUT_DRAIN_TIMEOUT_S = 2.0          # how long take() waits for the pipe to catch up


class KernelOutput:
    """Owns fds 1 and 2 of this process from construction on."""

    def __init__(self, cap: int = KOUT_CAP_BYTES) -> None:
        self.cap = cap
        self.log: IO[str] = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
        r, w = os.pipe()
        os.dup2(w, 1)
        os.dup2(w, 2)
        os.close(w)
        sys.stdout = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8", errors="replace")
        sys.stderr = os.fdopen(os.dup(2), "w", buffering=1, encoding="utf-8", errors="replace")
        self._r = r
        self._buf = bytearray()
        self._total = 0
        self._lock = threading.Lock()
        self._marker = b"\x1ekopt-kout-" + os.urandom(8).hex().encode() + b"\n"
        self._drained = threading.Event()
        self._thread = threading.Thread(target=self._pump, name="kopt-kout", daemon=True)
        self._thread.start()

    def _keep(self, data: bytes) -> None:
        if not data:
            return
        with self._lock:
            self._total += len(data)
            room = self.cap - len(self._buf)
            if room > 0:
                self._buf += data[:room]

    def _pump(self) -> None:
        pending = b""
        m = self._marker
        while True:
            try:
                chunk = os.read(self._r, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            data = pending + chunk
            while True:
                i = data.find(m)
                if i < 0:
                    break
                self._keep(data[:i])
                data = data[i + len(m):]
                self._drained.set()
            # keep a possible partial marker for the next read
            tail = len(m) - 1
            self._keep(data[:-tail] if len(data) > tail else b"")
            pending = data[-tail:] if len(data) > tail else data

    def take(self) -> dict | None:
        """What user code wrote since the last take(): {text, bytes, truncated}, or None."""
        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except (OSError, ValueError):
                pass  # a closed or broken stream has nothing more to give
        self._drained.clear()
        try:
            os.write(1, self._marker)
            self._drained.wait(KOUT_DRAIN_TIMEOUT_S)
        except OSError:
            pass  # fd 1 closed by user code: take what arrived
        with self._lock:
            total, data = self._total, bytes(self._buf)
            self._total = 0
            self._buf = bytearray()
        if total == 0:
            return None
        return {"text": data.decode("utf-8", errors="replace"), "bytes": total, "truncated": total > len(data)}
