"""A headless Chromium driven over the DevTools protocol, for the dashboard tests.

Chromium (Debian's `chromium`, installed by scripts/deps.sh) is started with
--remote-debugging-pipe: it reads protocol messages from fd 3 and writes them to fd 4, each
a JSON text ended by a NUL byte. That needs no WebSocket library, only pipes: this module is
the standard library and nothing else. One page (target) is attached in flat mode; the tests
navigate it, evaluate JavaScript in it and read what a person would see (innerText, the
elements drawn).
"""
from __future__ import annotations

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Self

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
STARTUP_TIMEOUT_S = 30.0
CALL_TIMEOUT_S = 30.0
MAX_MESSAGE_BYTES = 64 << 20


class BrowserError(Exception):
    """Chromium could not be started, or a protocol call failed."""


def _above_9(fd: int) -> int:
    """fd moved to the lowest free descriptor above 9 (the old one closed)."""
    high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return high


def chromium_path() -> str | None:
    for name in CHROMIUM_NAMES:
        p = shutil.which(name)
        if p:
            return p
    return None


@dataclass
class Browser:
    """One headless Chromium with one attached page. Close it (or use `with`)."""

    proc: subprocess.Popen[bytes]
    to_fd: int
    from_fd: int
    profile: str
    session: str = ""
    next_id: int = 1
    buf: bytes = b""
    events: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def start(cls) -> Browser:
        exe = chromium_path()
        if not exe:
            raise BrowserError("no chromium on PATH: scripts/deps.sh installs Debian's chromium")
        profile = tempfile.mkdtemp(prefix="kopt-chromium-")
        to_r, to_w = os.pipe()      # we write, chromium reads (its fd 3)
        from_r, from_w = os.pipe()  # chromium writes (its fd 4), we read
        # The child's ends move above fd 9 first, so that placing them at 3 and 4 can never
        # overwrite one with the other.
        to_r, from_w = _above_9(to_r), _above_9(from_w)

        # The pipe ends go to chromium as its fds 3 and 4 by bash's redirections (no
        # preexec_fn: the test process may run threads; dash takes one-digit fds only).
        args = ["/bin/bash", "-c", 'r=$1; w=$2; shift 2; exec "$@" 3<&"$r" 4>&"$w"', "sh",
                str(to_r), str(from_w), exe, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
                "--disable-extensions", "--disable-background-networking", "--mute-audio",
                f"--user-data-dir={profile}", "about:blank"]
        proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, pass_fds=(to_r, from_w))
        os.close(to_r)
        os.close(from_w)
        b = cls(proc, to_w, from_r, profile)
        try:
            target = b.call("Target.createTarget", {"url": "about:blank"}, timeout=STARTUP_TIMEOUT_S)
            att = b.call("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
            b.session = att["sessionId"]
            b.call("Page.enable", session=True)
            b.call("Runtime.enable", session=True)
        except BaseException:
            b.close()
            raise
        return b

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for fd in (self.to_fd, self.from_fd):
            try:
                os.close(fd)
            except OSError:
                pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    # ------------------------------------------------------------------ protocol

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no answer from chromium in time")
            ready, _, _ = select.select([self.from_fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_fd, 1 << 16)
            if not chunk:
                raise BrowserError(f"chromium closed the pipe (exit status {self.proc.poll()})")
            self.buf += chunk
            if len(self.buf) > MAX_MESSAGE_BYTES:
                raise BrowserError("a protocol message larger than the cap")
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, params: dict[str, Any] | None = None, session: bool = False,
             timeout: float = CALL_TIMEOUT_S) -> dict[str, Any]:
        mid = self.next_id
        self.next_id += 1
        msg: dict[str, Any] = {"id": mid, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = self.session
        os.write(self.to_fd, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            got = self._read_message(deadline)
            if got.get("id") == mid:
                if "error" in got:
                    raise BrowserError(f"{method}: {got['error']}")
                return got.get("result", {})
            self.events.append(got)
            del self.events[:-200]  # keep the latest only

    # ------------------------------------------------------------------ pages

    def eval(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (promises awaited)."""
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True}, session=True)
        if "exceptionDetails" in r:
            raise BrowserError(f"{expression[:80]}: {r['exceptionDetails'].get('text')}: "
                               f"{r['exceptionDetails'].get('exception', {}).get('description', '')[:500]}")
        return r.get("result", {}).get("value")

    def goto(self, url: str) -> None:
        self.call("Page.navigate", {"url": url}, session=True)
        self.wait_for("document.readyState === 'complete'", 30)

    def wait_for(self, predicate: str, timeout: float) -> Any:
        """Polls a JavaScript expression until it is truthy; returns its value."""
        deadline = time.monotonic() + timeout
        last: Any = None
        while time.monotonic() < deadline:
            try:
                last = self.eval(predicate)
            except BrowserError as e:  # the page is being replaced
                last = str(e)
            if last and not (isinstance(last, str) and last.startswith("Runtime.evaluate")):
                return last
            time.sleep(0.1)
        raise BrowserError(f"timed out after {timeout:.0f} s waiting for {predicate!r} (last: {last!r})")

    def text(self, selector: str = "body") -> str:
        return str(self.eval(f"(document.querySelector({json.dumps(selector)}) || {{}}).innerText || ''"))

    def count(self, selector: str) -> int:
        return int(self.eval(f"document.querySelectorAll({json.dumps(selector)}).length"))
