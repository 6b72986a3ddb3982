"""Benchmark: the walk-through page in headless Chromium (software WebGL, 1280×720).

Run: ``.venv/bin/python bench/bench_browser.py`` (needs ``chromium``; about five minutes), or name
the mazes: ``bench_browser.py 20 300 theta:40 hex:100x100`` (a number: a square maze that size).
By default square mazes of 20, 100 and 300 and a maze of each other shape: 40 rings (3,679 cells,
arcs in short segments), hexagons and triangles 100×100. Medians over ``RUNS`` fresh browsers per
maze:

- page: the page's size in bytes;
- first frame: navigation start to the first drawn frame (``laby3d.firstFrameMs``);
- walking frame: one frame drawn and waited for (a one-pixel read-back, so the software
  rasteriser's whole work counts), standing at 30 random cell centres looking a random way; at
  full resolution, and at the resolution the page chose for itself while turning (it draws fewer
  pixels when frames are slow, down to half per axis);
- turn rate: a real ArrowLeft key (DevTools ``Input.dispatchKeyEvent``) held 3 s of wall time,
  heading change divided by the time between the page's keydown and keyup; the design value is
  1.8 rad/s, so every size should show it, however slow its frames;
- tap: five 0.3 s taps of ArrowLeft, the heading change over 1.8 rad/s × the time between
  sending key-down and key-up (1.0 when the turn follows the time held, whatever the frames);
- physics: ms of main-thread time per second walked (``laby3d.simulate``: 120 swept steps a
  second against the walls, holding W and D in a 10 s walk, less one drawing).
"""

from __future__ import annotations

import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from devtools import Browser  # noqa: E402

import laby3d  # noqa: E402
from laby3d.export.browser import page_html  # noqa: E402
from laby3d.geometry.params import Fabrication  # noqa: E402

MAZES = tuple(sys.argv[1:]) or ("20", "100", "300", "theta:40", "hex:100x100", "triangle:100x100")
RUNS = 3
# 30 random cell centres (from the scene's flat table of centres)
POSES = """(function(){
  var h = window.laby3d, S = LABY3D_PAGE.scene, times = [], seed = 7;
  function random(){ seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
  for (var n = 0; n < 30; n++) {
    var k = Math.floor(random() * S.centres.length / 2);
    h.place(S.centres[2 * k], S.centres[2 * k + 1], random() * 2 * Math.PI, 0);
    times.push(h.timeFrame());
  }
  return times;
})()"""


def maze_of(name: str) -> tuple[str, laby3d.Maze]:
    """``"300"`` → a square 300×300 maze; ``"theta:40"``, ``"hex:100x100"`` → that shape and size.
    The maze's name in the table and the maze (seed 1)."""
    shape, _, size = name.rpartition(":")
    if not shape:
        return f"{size}×{size}", laby3d.generate(int(size), int(size), seed=1)
    if shape == "theta":
        return f"theta {size} rings", laby3d.generate(int(size), shape="theta", seed=1)
    rows, cols = (int(v) for v in size.split("x"))
    return f"{shape} {rows}×{cols}", laby3d.generate(rows, cols, shape=shape, seed=1)


def taps(page: Browser, hold: float = 0.3, count: int = 5) -> list[float]:
    """Heading change of ``count`` ArrowLeft taps over 1.8 rad/s × the time they were held (sent)."""
    ratios = []
    for _ in range(count):
        before = page.evaluate("laby3d.heading")
        sent = time.monotonic()
        page.key("keyDown", "ArrowLeft", "ArrowLeft")
        time.sleep(max(0.0, hold - (time.monotonic() - sent)))
        held = time.monotonic() - sent
        page.key("keyUp", "ArrowLeft", "ArrowLeft")
        ratios.append((before - page.evaluate("laby3d.heading")) / (1.8 * held))
    return ratios


def measure(binary: str, path: Path) -> tuple[float, list[float], list[float], float, float, list[float], float]:
    """First frame (ms), walking frame times (ms) at full and at the page's own resolution, that
    resolution (fraction of full per axis), the turn rate (rad/s), tap ratios and the physics
    cost (ms per second walked), in one fresh browser."""
    with Browser(binary, width=1280, height=720) as page:
        page.open(path, timeout=300)
        first = page.evaluate("laby3d.firstFrameMs")
        page.evaluate("laby3d.place(laby3d.position.x, laby3d.position.z, 0, 0), 1")
        before = page.evaluate("laby3d.heading")
        page.key("keyDown", "ArrowLeft", "ArrowLeft")
        time.sleep(3.0)
        page.key("keyUp", "ArrowLeft", "ArrowLeft")
        after = page.evaluate("laby3d.heading")
        down, up = page.evaluate("laby3d.keyTimes.ArrowLeft")
        turn = (before - after) / ((up - down) / 1000)
        tapped = taps(page)
        physics = page.evaluate(
            "(function(){var t = performance.now(); laby3d.simulate([], 0); var drawing = performance.now() - t;"
            "t = performance.now(); laby3d.simulate(['KeyW', 'KeyD'], 10);"
            "return (performance.now() - t - drawing) / 10;})()"
        )
        scale = page.evaluate("laby3d.renderScale")
        adapted = page.evaluate(POSES)
        page.evaluate("laby3d.setRenderScale(1), 1")
        full = page.evaluate(POSES)
    return first, full, adapted, scale, turn, tapped, physics


def main() -> None:
    binary = shutil.which("chromium") or sys.exit("chromium is not installed (apt-get install chromium)")
    folder = Path(tempfile.mkdtemp())
    print(
        "| maze | page bytes | first frame ms | walking frame ms, full resolution | page's resolution | "
        "walking frame ms there | turn rate rad/s | 0.3 s tap / time held | physics ms per s walked |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in MAZES:
        label, maze = maze_of(name)
        text = page_html(maze, Fabrication())
        path = folder / f"{name.replace(':', '-')}.html"
        path.write_text(text, encoding="utf-8")
        firsts, fulls, adapteds, scales, turns, tapped, physics = [], [], [], [], [], [], []
        for _ in range(RUNS):
            first, full, adapted, scale, turn, taps_run, physics_run = measure(binary, path)
            firsts.append(first)
            fulls.extend(full)
            adapteds.extend(adapted)
            scales.append(scale)
            turns.append(turn)
            tapped.extend(taps_run)
            physics.append(physics_run)
        print(
            f"| {label} | {len(text.encode()):,} | {statistics.median(firsts):.0f} | "
            f"{statistics.median(fulls):.1f} | {statistics.median(scales):.2f} | {statistics.median(adapteds):.1f} | "
            f"{statistics.median(turns):.3f} | {statistics.median(tapped):.3f} "
            f"({min(tapped):.2f}–{max(tapped):.2f}) | {statistics.median(physics):.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
