"""A small Python client for the harness protocol (used by the tests; the production caller
is the C worker). Starts `harness/kopt_harness.py` (or any command) and exchanges JSON Lines."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import Self  # Python 3.11; the harness also runs on older ones

HARNESS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kopt_harness.py")


class HarnessClient:
    def __init__(self, args: Sequence[str] = (), cmd: list[str] | None = None, env: dict[str, str] | None = None,
                 stderr_path: str | os.PathLike[str] | None = None) -> None:
        self.cmd = cmd or [sys.executable, HARNESS, *args]
        # the log file lives as long as the harness process writes to it: closed in close()
        self._err = open(stderr_path, "ab") if stderr_path else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._err,
                                     env=env)
        self._id = 0
        self._lock = threading.Lock()

    def request(self, op: str, **fields: Any) -> dict[str, Any]:
        with self._lock:
            self._id += 1
            req = {"id": self._id, "op": op, **fields}
            return self.raw(json.dumps(req), expect_id=self._id)

    def raw(self, line: str, expect_id: int | None = None) -> dict[str, Any]:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None     # both are PIPE (__init__)
        stdin.write((line.rstrip("\n") + "\n").encode())
        stdin.flush()
        out = stdout.readline()
        if not out:
            raise EOFError(f"harness exited (rc={self.proc.poll()})")
        resp = json.loads(out)
        if expect_id is not None and resp.get("id") != expect_id:
            raise AssertionError(f"response id {resp.get('id')} != request id {expect_id}")
        return resp

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                self.request("shutdown")
        # the harness may be gone or mid-crash (broken pipe, EOF, a garbled or mismatched
        # answer): the wait/kill below ends it either way
        except (OSError, EOFError, ValueError, AssertionError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        if not isinstance(self._err, int):      # a log file, not subprocess.DEVNULL
            self._err.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
