"""The walk-through page in real headless Chromium: loads from file:// offline, draws, moves,
collides, never crosses a closed wall, logs no error; and a clear message without WebGL."""

from __future__ import annotations

import base64
import html
import io
import json
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from conftest import require_tool
from mazecheck import open_neighbours

import laby3d
from laby3d.export.browser import HEADLESS_CHROMIUM_FLAGS, scene_data
from laby3d.export.formats import ExportOptions, render_output
from laby3d.geometry.params import Fabrication

FLAGS = [*HEADLESS_CHROMIUM_FLAGS, "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=800,600"]
PRELUDE = (
    "<script>window.__errors=[];window.addEventListener('error',function(e){__errors.push(String(e.message))});"
    "(function(){var ce=console.error;console.error=function(){__errors.push(Array.prototype.join.call(arguments,' '));"
    "ce.apply(console,arguments)}})();</script>"
)
DRIVER = """<script>
(function(){
  function run(){
    var h = window.laby3d, out = {ready: h.ready, start: h.cell.slice(), position: h.position, walk: []};
    out.forward = h.simulate(["ArrowUp"], 0.2); out.moved = h.position;
    h.simulate(["ArrowUp"], 30); out.blocked = h.position;
    h.simulate(["ArrowUp"], 5); out.still = h.position;
    var seed = 12345;
    var choices = [["ArrowUp"], ["ArrowLeft"], ["ArrowRight"], ["w", "a"], ["s"], ["d"], ["w", "ArrowRight"]];
    function random(){ seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; }
    for (var n = 0; n < 600; n++) {
      var keys = choices[Math.floor(random() * choices.length)];
      out.walk.push(h.simulate(keys, 0.05 + random() * 0.6));
    }
    out.project = {};
    h.setOverview(true);
    (window.__probes || []).forEach(function(p, k){ out.project[k] = h.project(p[0], p[1], p[2]); });
    out.ratio = window.devicePixelRatio || 1;
    if (window.__probes) out.snapshot = h.snapshot();
    out.errors = window.__errors;
    out.firstFrameMs = h.firstFrameMs;
    document.body.setAttribute("data-result", JSON.stringify(out));
  }
  function wait(){ if (!window.laby3d || !window.laby3d.ready) return setTimeout(wait, 20); run(); }
  wait();
})();
</script>"""


def chromium(*args: str) -> subprocess.CompletedProcess:
    binary = require_tool("chromium")
    profile = tempfile.mkdtemp()
    return subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, timeout=240)


def page(tmp_path: Path, maze, name: str, extra_head: str = "", extra_body: str = "") -> Path:
    text = render_output(maze, "m.html", ExportOptions()).decode()
    text = text.replace("<head>", "<head>" + PRELUDE + extra_head, 1).replace("</body>", extra_body + "</body>")
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def run_driver(path: Path) -> dict:
    done = chromium("--virtual-time-budget=20000", "--dump-dom", path.as_uri())
    found = re.search(rb'data-result="([^"]*)"', done.stdout)
    assert found, done.stderr.decode(errors="replace")[-2000:]
    return json.loads(html.unescape(found[1].decode()))


def test_page_is_self_contained() -> None:
    text = render_output(laby3d.generate(4, 4, seed=1), "m.html", ExportOptions()).decode()
    assert "<script src" not in text and "<link" not in text and 'type="module"' not in text
    assert not re.search(r"""(src|href)=["']https?:""", text)
    assert "WebGLRenderer" in text and "window.LABY3D_MAZE" in text


def test_scene_file_holds_the_maze() -> None:
    maze = laby3d.generate(5, 7, algorithm="prim", seed=3)
    text = render_output(maze, "m.js", ExportOptions()).decode()
    assert text.startswith("window.LABY3D_MAZE = ") and text.rstrip().endswith(";")
    data = json.loads(text.removeprefix("window.LABY3D_MAZE = ").rstrip().rstrip(";"))
    assert data == json.loads(json.dumps(scene_data(maze, Fabrication())))
    assert data["cells"] == maze.cells.tolist() and data["solution"] == [list(c) for c in maze.solution]


def test_walks_collides_and_never_crosses_a_wall(tmp_path: Path) -> None:
    maze = laby3d.generate(7, 9, algorithm="wilson", seed=8)
    result = run_driver(page(tmp_path, maze, "walk.html", extra_body=DRIVER))
    assert result["ready"] and result["errors"] == []
    assert result["start"] == [maze.entrance.row, maze.entrance.col]
    assert result["moved"]["x"] > result["position"]["x"]  # starts facing in, from the west entrance
    assert result["blocked"] == result["still"]  # stopped at a wall, for good
    cells = [result["start"], result["forward"], *result["walk"]]
    steps = 0
    for a, b in zip(cells, cells[1:], strict=False):
        if a != b:
            steps += 1
            assert tuple(b) in open_neighbours(maze, *a), f"walked through a wall from {a} to {b}"
    assert steps > 20, "the random walk should get around"


def test_draws_walls_where_walls_are(tmp_path: Path) -> None:
    """Overview from above: wall colour on a wall top, floor colour in a corridor, no blank frame."""
    from PIL import Image

    maze = laby3d.generate(6, 6, seed=2)
    fab = Fabrication()
    t, s, h = fab.wall_thickness, fab.cell_size, fab.wall_height
    probes = [  # away from the help box at the top left
        [t / 2 + 3 * s, t / 2 + 6 * s, h],  # middle of the south border wall, on top
        [t / 2 + 5.5 * s, t / 2 + 5.5 * s, 0.0],  # centre of cell (5, 5), on the floor
    ]
    head = f"<script>window.__probes = {json.dumps(probes)};</script>"
    result = run_driver(page(tmp_path, maze, "probe.html", extra_head=head, extra_body=DRIVER))
    data = base64.b64decode(result["snapshot"].split(",", 1)[1])
    (Path(tempfile.gettempdir()) / "laby3d-overview.png").write_bytes(data)
    image = np.asarray(Image.open(io.BytesIO(data)).convert("RGB")).astype(int)
    assert image.std() > 10, "blank frame"

    def colour(point) -> np.ndarray:
        x, y = (int(round(v * result["ratio"])) for v in point)
        return image[y - 1 : y + 2, x - 1 : x + 2].reshape(-1, 3).mean(axis=0)

    wall, floor = colour(result["project"]["0"]), colour(result["project"]["1"])
    assert wall[2] > wall[0] + 40, f"expected the blue wall colour, got {wall}"
    assert floor[0] > 150 and floor[2] < floor[0] + 20, f"expected the sand floor colour, got {floor}"


def test_clear_message_without_webgl(tmp_path: Path) -> None:
    path = page(tmp_path, laby3d.generate(3, 3, seed=1), "nowebgl.html")
    done = chromium("--disable-3d-apis", "--virtual-time-budget=3000", "--dump-dom", path.as_uri())
    dom = done.stdout.decode()
    assert "needs WebGL" in dom and 'id="laby3d-message" style="display: block;"' in dom
