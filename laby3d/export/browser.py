"""The browser walk-through: a scene file (maze data as JavaScript) and a self-contained page.

The page inlines a classic (non-module) build of three.js, the maze data and the walking code,
so it works when opened from disk (``file://``) with no network and no server. three.js is
taken at export time from an installed package, never stored in this repository:
``LABY3D_THREE_JS`` may name a classic build (``three.min.js``) or an npm ``three`` package
folder holding ``build/three.min.js``; otherwise the build inside trimesh's viewer template
(``trimesh/resources/templates/viewer.zip``, three.js r14x, MIT) is used.
"""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from laby3d.errors import Laby3dError

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze


#: Chromium flags that run a page headless on a machine like CI's: as root, software WebGL,
#: no network chatter, a fresh profile each time (add ``--user-data-dir``). Used by the tests
#: and the benchmark that drive real Chromium.
HEADLESS_CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def scene_data(maze: Maze, fab: Fabrication) -> dict[str, Any]:
    """What the browser needs: the maze file's content plus the sizes in mm."""
    return {
        "format": "laby3d.scene",
        "version": 1,
        "rows": maze.rows,
        "cols": maze.cols,
        "seed": maze.seed,
        "algorithm": maze.algorithm,
        "cell_size": fab.cell_size,
        "wall_thickness": fab.wall_thickness,
        "wall_height": fab.wall_height,
        "cells": maze.cells.tolist(),
        "entrance": maze.entrance.as_dict() if maze.entrance else None,
        "exit": maze.exit.as_dict() if maze.exit else None,
        "solution": [list(cell) for cell in maze.solution],
    }


def scene_js(maze: Maze, fab: Fabrication) -> str:
    """The scene file: ``window.LABY3D_MAZE = {…};`` (one row of cells per line)."""
    data = scene_data(maze, fab)
    cells = data.pop("cells")
    text = json.dumps(data, ensure_ascii=False, separators=(", ", ": "))
    rows = ",\n    ".join(json.dumps(row, separators=(",", ":")) for row in cells)
    return f'window.LABY3D_MAZE = {text[:-1]}, "cells": [\n    {rows}\n  ]}};\n'


@lru_cache(maxsize=1)
def three_source() -> str:
    """A classic build of three.js (see the module docstring for where it comes from)."""
    configured = os.environ.get("LABY3D_THREE_JS")
    if configured:
        path = Path(configured)
        if path.is_dir():
            path = path / "build" / "three.min.js"
        try:
            return path.read_text(encoding="utf-8")
        except OSError as error:
            raise Laby3dError(
                f"LABY3D_THREE_JS: cannot read a classic three.js build at {path}: {error.strerror}"
            ) from None
    import zipfile

    import trimesh

    archive = Path(trimesh.__file__).parent / "resources" / "templates" / "viewer.zip"
    try:
        template = zipfile.ZipFile(archive).read("viewer.html.template").decode("utf-8")
    except (OSError, KeyError) as error:
        raise Laby3dError(f"no three.js found (trimesh's viewer template: {error}); set LABY3D_THREE_JS") from None
    script = template[template.index("<script>") + len("<script>") :]
    end = re.search(r'Object\.defineProperty\(t,"__esModule",\{value:!0\}\)\}\)\);', script)
    if end is None or "WebGLRenderer" not in script[: end.end()]:
        raise Laby3dError("trimesh's viewer template no longer holds a classic three.js build; set LABY3D_THREE_JS")
    return script[: end.end()] + "\n"


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
  html, body {{ margin: 0; height: 100%; overflow: hidden; background: #bfe3ff; font-family: sans-serif; }}
  canvas {{ display: block; }}
  #laby3d-help {{ position: absolute; left: 12px; top: 12px; padding: 8px 12px; background: rgba(255,255,255,.85);
                 border-radius: 6px; font-size: 14px; line-height: 1.5; }}
  #laby3d-message {{ display: none; position: absolute; left: 50%; top: 40%; transform: translate(-50%, -50%);
                    padding: 16px 24px; background: rgba(255,255,255,.92); border-radius: 8px; font-size: 22px; }}
</style>
</head>
<body>
<div id="laby3d-help"><b>{title}</b><br>Click, then move the mouse to look (Esc releases it)<br>
W A S D or ↑ ↓ to walk, ← → to turn · O overview · L solution trail · R restart · H hide this help</div>
<div id="laby3d-message"></div>
<script>
/* three.js, MIT licence, https://threejs.org */
{three}</script>
<script>
{scene}</script>
<script>
{walk}</script>
</body>
</html>
"""


def page_html(maze: Maze, fab: Fabrication) -> str:
    """The self-contained page (three.js, maze data and walking code inlined as classic scripts)."""
    walk = resources.files("laby3d.export").joinpath("web/walk.js").read_text(encoding="utf-8")
    title = f"laby3d maze {maze.rows}×{maze.cols}, seed {maze.seed}"
    return _PAGE.format(title=title, three=three_source(), scene=scene_js(maze, fab), walk=walk)
