"""Headless Chromium driven through its DevTools protocol over a pipe (``--remote-debugging-pipe``):
the standard library only, no browser download, no WebSocket.

Chromium reads commands from its file descriptor 3 and writes answers and events to its file
descriptor 4, each a JSON message ended by a NUL byte.  ``Browser.open`` attaches to a new tab
(a flat session); its ``messages`` keep every event seen, so that console errors, uncaught
exceptions and failed loads can be read after the page has loaded.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe"]
PATIENCE = 60.0  # seconds before a silent browser is declared stuck (a safety net, not a measure)


class BrowserError(RuntimeError):
    """Chromium answered with an error, died, or said nothing for too long."""


class Browser:
    """One headless Chromium, closed on leaving the ``with`` block."""

    def __init__(self) -> None:
        self.profile = tempfile.TemporaryDirectory(prefix="chromium-")
        to_browser, self._commands = os.pipe()
        self._answers, from_browser = os.pipe()

        def wire() -> None:  # in the child: the pipes become its descriptors 3 and 4
            read, write = fcntl.fcntl(to_browser, fcntl.F_DUPFD, 10), fcntl.fcntl(from_browser, fcntl.F_DUPFD, 10)
            os.dup2(read, 3)
            os.dup2(write, 4)

        self.process = subprocess.Popen(
            [str(CHROMIUM), *FLAGS, f"--user-data-dir={self.profile.name}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            pass_fds=(3, 4), preexec_fn=wire)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(BrowserError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        assert self.process.stderr is not None
        self.process.stderr.close()
        os.close(self._commands)
        os.close(self._answers)
        self.profile.cleanup()

    def _receive(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._answers], [], [], PATIENCE)
            chunk = os.read(self._answers, 1 << 20) if ready else b""
            if not chunk:
                raise BrowserError("Chromium stopped answering")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(message))

    def call(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """Send one command and wait for its answer; the events meanwhile are kept."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._receive()
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                return dict(answer.get("result", {}))
            self.events.append(answer)

    def wait_for(self, event: str, session: str) -> dict[str, Any]:
        """The first event ``event`` of ``session`` not yet waited for."""
        deadline = time.monotonic() + PATIENCE
        while time.monotonic() < deadline:
            for seen in self.events:
                if seen.get("method") == event and seen.get("sessionId") == session and not seen.get("_used"):
                    seen["_used"] = True
                    return seen
            self.events.append(self._receive())
        raise BrowserError(f"no {event}")

    def open(self, width: int, height: int) -> Tab:
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable", session=session)
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600}, session)
        return Tab(self, session)


class Tab:
    """A page in the browser, seen at one window size."""

    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    def load(self, url: str) -> None:
        """Go to ``url`` and wait until it has loaded (images included)."""
        answer = self.browser.call("Page.navigate", {"url": url}, self.session)
        if answer.get("errorText"):
            raise BrowserError(f"{url}: {answer['errorText']}")
        self.browser.wait_for("Page.loadEventFired", self.session)

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (the pages themselves need no script)."""
        answer = self.browser.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                                   self.session)
        if "exceptionDetails" in answer:
            raise BrowserError(f"{expression}: {answer['exceptionDetails']}")
        return answer["result"].get("value")

    def screenshot(self, path: Path) -> Path:
        """The whole page as a PNG in ``path``."""
        data = self.browser.call("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                                 self.session)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def problems(self) -> list[str]:
        """Console errors and warnings, uncaught exceptions, failed loads and HTTP errors seen in this tab."""
        found = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            params, method = event.get("params", {}), event.get("method")
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                found.append(f"console {params['type']}: {params.get('args')}")
            elif method == "Runtime.exceptionThrown":
                found.append(f"exception: {params.get('exceptionDetails')}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") in ("error", "warning"):
                found.append(f"log: {params['entry'].get('text')} {params['entry'].get('url', '')}")
            elif method == "Network.loadingFailed":
                found.append(f"failed load: {params.get('errorText')} {params.get('blockedReason', '')}")
            elif method == "Network.responseReceived" and params.get("response", {}).get("status", 200) >= 400:
                found.append(f"HTTP {params['response']['status']}: {params['response'].get('url')}")
        return found
