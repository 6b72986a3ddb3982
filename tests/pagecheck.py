"""Helpers for the walk-through page's tests (tests/test_browser.py, tests/test_shaped_walk.py):
the page written with its script errors recorded, real Chromium driven over DevTools (tests/
devtools.py), what the page's hook says, screenshots, the page's scripts under node, and the
"which way?" arrow drawn here (Pillow and shapely) to compare with what the screen shows."""

from __future__ import annotations

import io
import json
import subprocess
import time
from importlib import resources
from pathlib import Path

import numpy as np
from conftest import require_tool
from devtools import Browser

from laby3d.export.browser import page_html
from laby3d.geometry.params import Fabrication
from laby3d.maze.model import Maze

ERRORS = (
    "<script>window.__errors=[];window.addEventListener('error',function(e){__errors.push(String(e.message))});"
    "window.addEventListener('unhandledrejection',function(e){__errors.push(String(e.reason))});"
    "(function(){var ce=console.error;console.error=function(){__errors.push(Array.prototype.join.call(arguments,' '));"
    "ce.apply(console,arguments)}})();</script>"
)
#: A slow computer, made here: each animation frame busies the page for ``window.__busyMs`` before
#: the page's own work (which gets the time after it), or, with ``__busyMs = -1``, a busy computer
#: (0 or 100 ms at random); and WebGL canvases keep what they drew (preserveDrawingBuffer), so a
#: test can read what the canvas holds between frames.
SLOW_AND_READABLE = (
    "<script>window.__busyMs=0;(function(){var raf=window.requestAnimationFrame.bind(window);"
    "window.requestAnimationFrame=function(cb){return raf(function(){"
    "var ms=window.__busyMs<0?(Math.random()<0.5?0:100):window.__busyMs;"
    "for(var until=performance.now()+ms;performance.now()<until;){}cb(performance.now());});};"
    "var get=HTMLCanvasElement.prototype.getContext;HTMLCanvasElement.prototype.getContext=function(kind,o){"
    "if(String(kind).indexOf('webgl')===0)o=Object.assign({},o||{},{preserveDrawingBuffer:true});"
    "return get.call(this,kind,o);};})();</script>"
)
HINT_YELLOW = np.array([0xFF, 0xC4, 0x00])


def write_page(
    tmp_path: Path,
    maze: Maze,
    name: str = "walk.html",
    fab: Fabrication | None = None,
    slow: bool = False,
    **options,
) -> Path:
    """The page for ``maze``, recording script errors (and with ``slow``, :data:`SLOW_AND_READABLE`)."""
    head = ERRORS + (SLOW_AND_READABLE if slow else "")
    text = page_html(maze, fab or Fabrication(), **options).replace("<head>", "<head>" + head, 1)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def browser(**options) -> Browser:
    return Browser(require_tool("chromium"), **options)


def view(page: Browser, width: int, height: int, *, touch: bool = False, mobile: bool = False) -> None:
    """The window the next page opens in: CSS size, a phone (``mobile``), a touch screen."""
    page.page(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
    )
    page.page("Emulation.setTouchEmulationEnabled", {"enabled": touch, **({"maxTouchPoints": 5} if touch else {})})


def state(page: Browser) -> dict:
    """What the page's hook says now: cell, position (mm), heading (rad), toggles, steps, errors."""
    return json.loads(
        page.evaluate(
            "JSON.stringify({cell: laby3d.cell, position: laby3d.position, heading: laby3d.heading, "
            "overview: laby3d.overview, trail: laby3d.trail, hint: laby3d.hint, steps: laby3d.steps, "
            "exited: laby3d.exited, errors: __errors})"
        )
    )


def press(page: Browser, code: str, key: str, seconds: float = 0.0, modifiers: int = 0) -> None:
    page.key("keyDown", code, key, modifiers=modifiers)
    if seconds:
        time.sleep(seconds)
    page.key("keyUp", code, key, modifiers=modifiers)


def picture(page: Browser) -> np.ndarray:
    """The page as the screen shows it (RGB, integers)."""
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB")).astype(int)


def near(image: np.ndarray, colour: np.ndarray, tolerance: int = 24) -> np.ndarray:
    """Mask of the pixels within ``tolerance`` of ``colour`` on every channel."""
    return (np.abs(image - colour) <= tolerance).all(axis=2)


def run_node(scripts: tuple[str, ...], driver: str, stdin: str, tmp_path: Path) -> object:
    """Run the page's ``web/`` scripts and a driver under node; the JSON the driver prints."""
    node = require_tool("node")
    web = resources.files("laby3d.export").joinpath("web")
    path = tmp_path / "drive.js"
    path.write_text(
        "global.window = {};\n" + "".join(web.joinpath(name).read_text(encoding="utf-8") for name in scripts) + driver,
        encoding="utf-8",
    )
    done = subprocess.run([node, str(path)], input=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def recorded(page: Browser) -> np.ndarray:
    """The walker's path since ``laby3d.record()``: (x, z) mm after every physics step."""
    return np.array(page.evaluate("laby3d.track"), dtype=float)


def arrow_mask(size: int, degrees: float) -> np.ndarray:
    """The yellow of the "which way?" arrow (its SVG path, 100 units across ``size`` px, less half
    its 5-unit outline) turned clockwise by ``degrees``, drawn here with shapely and Pillow."""
    from PIL import Image, ImageDraw
    from shapely.geometry import Polygon

    path = Polygon([(0, -44), (34, 0), (13, 0), (13, 40), (-13, 40), (-13, 0), (-34, 0)])
    outline = np.array(path.buffer(-2.5, join_style="mitre").exterior.coords)
    a = np.radians(degrees)
    turned = outline @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    canvas = Image.new("L", (size, size))
    ImageDraw.Draw(canvas).polygon([tuple(p) for p in (turned + 50) * size / 100], fill=255)
    return np.asarray(canvas) > 127


def check_arrow(page: Browser, degrees: float, where: object) -> None:
    """The "which way?" arrow shows on the screen turned clockwise by ``degrees`` from straight
    ahead: its yellow pixels match :func:`arrow_mask` at that turn (and clearly better than at a
    quarter, half or three quarters of a turn more); ``where`` names the place in a failure."""
    box = page.evaluate(
        "(function(r){return [r.x, r.y, r.width]})(document.getElementById('laby3d-way').getBoundingClientRect())"
    )
    x, y, size = (int(round(v)) for v in box)
    shown = near(picture(page)[y : y + size, x : x + size], HINT_YELLOW, 40)
    match = {
        k: (shown & arrow_mask(size, degrees + k)).sum() / (shown | arrow_mask(size, degrees + k)).sum()
        for k in (0, 90, 180, 270)
    }
    assert shown.sum() > 0.1 * size * size, f"the arrow shows at {where}"
    assert match[0] > 0.75 and match[0] > max(match[90], match[180], match[270]) + 0.2, (where, match)
