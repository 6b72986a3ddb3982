"""A minimal Chrome DevTools protocol client over ``--remote-debugging-pipe`` (no websocket
library needed): start headless Chromium, open a page, send real input events, evaluate script.

Messages are JSON objects separated by NUL bytes; Chromium reads commands on file descriptor 3
and writes replies and events on descriptor 4.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from laby3d.export.browser import HEADLESS_CHROMIUM_FLAGS


class DevToolsError(RuntimeError):
    """Chromium answered a command with an error, died, or did not answer in time."""


class Browser:
    """Headless Chromium with one page, driven over the DevTools pipe.

    >>> with Browser(binary, width=800, height=600) as page:  # doctest: +SKIP
    ...     page.open(path)
    ...     page.evaluate("1 + 1")
    2
    """

    def __init__(self, binary: str, *, width: int = 800, height: int = 600, extra_flags: tuple[str, ...] = ()) -> None:
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        profile = tempfile.mkdtemp(prefix="laby3d-chromium-")
        flags = [
            *HEADLESS_CHROMIUM_FLAGS,
            "--remote-debugging-pipe",
            "--host-resolver-rules=MAP * ~NOTFOUND",
            f"--window-size={width},{height}",
            f"--user-data-dir={profile}",
            *extra_flags,
        ]
        # the child sees the pipe ends as descriptors 3 (commands) and 4 (replies)
        os.set_inheritable(to_browser_read, True)
        os.set_inheritable(from_browser_write, True)

        def place_fds() -> None:
            os.dup2(to_browser_read, 3)
            os.dup2(from_browser_write, 4)

        self.process = subprocess.Popen(
            [binary, *flags, "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=place_fds,  # noqa: PLW1509 - only dup2, safe between fork and exec
            close_fds=False,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []
        self.width, self.height = width, height
        self.target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime"):
            self.send(f"{domain}.enable", session=True)
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=True,
        )

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        """End Chromium (the process this object started)."""
        try:
            self.send("Browser.close", timeout=5)
        except DevToolsError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read_message(self, deadline: float) -> dict[str, Any]:
        import select

        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise DevToolsError("Chromium did not answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    raise DevToolsError("Chromium closed the DevTools pipe")
                self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(
        self, method: str, params: dict[str, Any] | None = None, *, session: bool = False, timeout: float = 120
    ) -> dict[str, Any]:
        """Send one command and wait for its reply (events meanwhile go to :attr:`events`)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read_message(deadline)
            if reply.get("method") == "Page.javascriptDialogOpening":  # answer it, or the page hangs
                answer = {"id": 0, "method": "Page.handleJavaScriptDialog", "params": {"accept": False}}
                answer["sessionId"] = reply.get("sessionId", self.session)
                os.write(self._to_browser, json.dumps(answer).encode() + b"\0")
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise DevToolsError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def page(self, method: str, params: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
        """Send a command to the page's session."""
        return self.send(method, params, session=True, **kwargs)

    def open(self, path: Path, *, ready: str = "window.laby3d && window.laby3d.ready", timeout: float = 120) -> None:
        """Navigate to a local file and wait until ``ready`` evaluates true (in the new document:
        the one being left is marked, so it cannot answer for it)."""
        self.evaluate("window.__devtools_leaving = true")
        self.page("Page.navigate", {"url": path.as_uri()})
        self.wait_for(f"!window.__devtools_leaving && ({ready})", timeout=timeout)

    def wait_for(self, condition: str, *, timeout: float = 60) -> Any:
        """Poll a JavaScript expression until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(f"(function(){{try{{return {condition};}}catch(e){{return null;}}}})()")
            except DevToolsError as error:  # asked while the page navigates (a reload): ask again
                if "navigated or closed" not in str(error) and "context" not in str(error):
                    raise
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise DevToolsError(f"timed out waiting for {condition}")

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a JavaScript expression in the page (promises awaited)."""
        reply = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in reply:
            raise DevToolsError(f"{expression[:80]}: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    def key(self, kind: str, code: str, key: str, *, modifiers: int = 0, repeat: bool = False) -> None:
        """One real key event (``kind``: keyDown or keyUp), as a keyboard sends it."""
        params: dict[str, Any] = {"type": kind, "code": code, "key": key, "modifiers": modifiers}
        if len(key) == 1:
            params["text"] = key if kind == "keyDown" else None
            if params["text"] is None:
                del params["text"]
        if repeat:
            params["autoRepeat"] = True
        self.page("Input.dispatchKeyEvent", params)

    def touch(self, kind: str, points: list[tuple[float, float]]) -> None:
        """One real touch event (touchStart, touchMove, touchEnd) with its touch points (px)."""
        self.page(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]},
        )

    def mouse(self, kind: str, x: float, y: float, **extra: Any) -> None:
        """One real mouse event (mousePressed, mouseReleased, mouseMoved, mouseWheel) at (x, y) px."""
        self.page("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, **extra})

    def switch_away_and_back(self, seconds: float) -> None:
        """Open another tab (the page really loses focus and is hidden), wait, close it and
        come back to the page."""
        other = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        time.sleep(seconds)
        self.send("Target.closeTarget", {"targetId": other})
        self.send("Target.activateTarget", {"targetId": self.target})
        self.page("Emulation.setFocusEmulationEnabled", {"enabled": True})

    def screen(self, width: int, height: int, *, scale: float = 1, mobile: bool = False, angle: int = 0) -> None:
        """Make the page's screen ``width`` × ``height`` CSS px at ``scale`` device pixels per px
        (devicePixelRatio), a phone's (``mobile``: a viewport meta tag counts, pages zoom) turned
        to ``angle`` degrees (0 or 180: portrait when taller than wide; 90 or 270: landscape)."""
        portrait = "portrait" if height >= width else "landscape"
        kind = f"{portrait}{'Primary' if angle in (0, 90) else 'Secondary'}"
        self.page(
            "Emulation.setDeviceMetricsOverride",
            {
                "width": width,
                "height": height,
                "deviceScaleFactor": scale,
                "mobile": mobile,
                "screenOrientation": {"type": kind, "angle": angle},
            },
        )

    def before_each_page(self, script: str) -> str:
        """Run ``script`` in every document before its own scripts (until :meth:`forget`)."""
        return self.page("Page.addScriptToEvaluateOnNewDocument", {"source": script})["identifier"]

    def forget(self, identifier: str) -> None:
        """Stop running a script of :meth:`before_each_page`."""
        self.page("Page.removeScriptToEvaluateOnNewDocument", {"identifier": identifier})

    def screenshot(self) -> bytes:
        """The page as PNG bytes, everything composited (canvas and overlays)."""
        return base64.b64decode(self.page("Page.captureScreenshot", {"format": "png"})["data"])

    def dialogs(self) -> list[dict[str, Any]]:
        """JavaScript dialogs (alert, confirm…) the page opened."""
        return [e for e in self.events if e.get("method") == "Page.javascriptDialogOpening"]
