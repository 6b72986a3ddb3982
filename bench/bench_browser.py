"""Benchmark: the walk-through page in headless Chromium (software WebGL): load and frame time.

Run: ``python bench/bench_browser.py`` (needs ``chromium``). Load = time from navigation start
to the first drawn frame (``laby3d.firstFrameMs``); frame = median of 30 renders, each waited for
by a one-pixel read-back, so the software rasteriser's whole work is counted.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import laby3d
from laby3d.export.browser import HEADLESS_CHROMIUM_FLAGS
from laby3d.export.formats import ExportOptions, render_output

FLAGS = [*HEADLESS_CHROMIUM_FLAGS, "--window-size=1280,720"]
DRIVER = """<script>
(function(){
  function run(){
    var h = window.laby3d, times = [];
    for (var n = 0; n < 30; n++) {  // render and read back: the full cost of one frame
      h.simulate(["ArrowLeft"], 0.05);
      times.push(h.timeFrame());
    }
    document.body.setAttribute("data-result", JSON.stringify({load: h.firstFrameMs, frames: times}));
  }
  function wait(){ if (!window.laby3d || !window.laby3d.ready) return setTimeout(wait, 20); run(); }
  wait();
})();
</script>"""


def main() -> None:
    binary = shutil.which("chromium") or sys.exit("chromium is not installed (apt-get install chromium)")
    folder = Path(tempfile.mkdtemp())
    print("| maze | page bytes | load to first frame ms (median of 3) | frame ms (median) |")
    print("|---|---|---|---|")
    for size in (20, 100):
        maze = laby3d.generate(size, size, seed=1)
        text = render_output(maze, "m.html", ExportOptions()).decode().replace("</body>", DRIVER + "</body>")
        path = folder / f"m{size}.html"
        path.write_text(text, encoding="utf-8")
        loads, frames = [], []
        for _ in range(3):
            done = subprocess.run(
                [
                    binary,
                    *FLAGS,
                    f"--user-data-dir={tempfile.mkdtemp()}",
                    "--virtual-time-budget=30000",
                    "--dump-dom",
                    path.as_uri(),
                ],
                capture_output=True,
                timeout=300,
            )
            result = json.loads(html.unescape(re.search(rb'data-result="([^"]*)"', done.stdout)[1].decode()))
            loads.append(result["load"])
            frames.extend(result["frames"])
        print(
            f"| {size}×{size} | {len(text):,} | {statistics.median(loads):.0f} | {statistics.median(frames):.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
