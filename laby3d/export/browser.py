"""The browser walk-through page: one self-contained HTML file (the scene file is :mod:`.scene`).

The page inlines a classic (non-module) build of three.js, the scene, its texts and the walking
code (``web/*.js``), so it works when opened from disk (``file://``) with no network and no server.
three.js is taken at export time from an installed package, never stored in this repository:
``LABY3D_THREE_JS`` may name a classic build (``three.min.js``), a CommonJS build
(``three.cjs``) or an npm ``three`` package folder holding one of them; otherwise the build inside
trimesh's viewer template (``trimesh/resources/templates/viewer.zip``, three.js r14x, MIT) is
used. An ES-module build is refused with the reason.

One page for every shape: it reads every position from the scene's tables (version 5) and
knows no shape. The scene and the texts are one JSON element, read with ``JSON.parse``.
"""

from __future__ import annotations

import html
import json
import os
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from laby3d.errors import Laby3dError, ParameterError
from laby3d.export.scene import maze_from_scene, scene_js, scene_json, script_literal

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze
    from laby3d.options.walk import WalkSpec

Language = Literal["en", "fr"]
#: The walk-through's own scripts in ``web/``, in the order the page runs them.
WALK_SCRIPTS = ("maze.js", "walls.js", "meshes.js", "input.js", "words.js", "walk.js")

__all__ = [
    "HEADLESS_CHROMIUM_FLAGS",
    "maze_from_scene",
    "page_html",
    "page_strings",
    "page_title",
    "scene_js",
    "scene_json",
]


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


def three_source() -> str:
    """A classic build of three.js: ``LABY3D_THREE_JS`` if set, else trimesh's (module docstring)."""
    return _three_build(os.environ.get("LABY3D_THREE_JS") or None)


@lru_cache(maxsize=2)
def _three_build(configured: str | None) -> str:
    """The three.js text for a ``LABY3D_THREE_JS`` setting (cached: a batch writes many pages)."""
    if configured is None:
        return _trimesh_three()
    path = Path(configured)
    if path.is_dir():
        # three.cjs first: r150-r159's build/three.min.js logs a deprecation warning in the page
        candidates = [path / "build" / "three.cjs", path / "build" / "three.min.js", path / "build" / "three.js"]
        found = [candidate for candidate in candidates if candidate.is_file()]
        if not found:
            raise Laby3dError(
                f"LABY3D_THREE_JS: {path} holds no classic three.js build (build/three.min.js, build/three.js "
                "or build/three.cjs); an ES-module build (three.module.js) cannot run from a file:// page"
            )
        path = found[0]
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise Laby3dError(f"LABY3D_THREE_JS: cannot read a three.js build at {path}: {error}") from None
    return classic_three(text, str(path))


def classic_three(text: str, name: str) -> str:
    """``text`` as a classic script defining ``window.THREE``: a UMD build as it is, a CommonJS
    build (``three.cjs``) wrapped; an ES-module build is refused with the reason."""
    if "WebGLRenderer" not in text:
        raise Laby3dError(f"LABY3D_THREE_JS: {name} is not a three.js build (no WebGLRenderer in it)")
    if "</script" in text.lower():
        raise Laby3dError(f"LABY3D_THREE_JS: {name} contains '</script', which would end the page's script early")
    if re.search(r"^\s*export\s*(\{|\*|default\b|(const|class|function|let|var)\s)", text, re.MULTILINE):
        raise Laby3dError(
            f"LABY3D_THREE_JS: {name} is an ES-module build (three.module.js), which browsers refuse to load "
            "from a file:// page; give a classic build (three.min.js, up to r159) or three.cjs (r150 and later)"
        )
    if re.search(r"\bdefine\.amd\b|\.THREE\s*=", text):
        return text + "\n"
    if re.search(r"\bexports\.WebGLRenderer\s*=", text):  # CommonJS: give it an exports object
        head = "(function () { var exports = {}, module = { exports: exports };\n"
        return f"{head}{text}\nwindow.THREE = exports; }})();\n"
    raise Laby3dError(f"LABY3D_THREE_JS: {name}: neither a classic (UMD) nor a CommonJS three.js build")


def _trimesh_three() -> str:
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
    return classic_three(script[: end.end()], "trimesh's viewer template")


def page_strings(lang: Language, shape: str = "square") -> dict[str, str]:
    """Every text of the page of a ``shape`` maze in ``lang``, from the one table
    ``web/strings.json``: a row ``<key>_<shape>`` replaces ``<key>`` for that shape."""
    from laby3d.tessellation import SHAPES

    if lang not in ("en", "fr"):
        raise ParameterError(f"must be en or fr, got {str(lang)[:20]!r}", field="lang")
    table = json.loads(resources.files("laby3d.export").joinpath("web/strings.json").read_text(encoding="utf-8"))
    variants = tuple(f"_{name}" for name in SHAPES)
    text = {key: row[lang] for key, row in table.items() if not key.startswith("_") and not key.endswith(variants)}
    text.update({key.removesuffix(f"_{shape}"): row[lang] for key, row in table.items() if key.endswith(f"_{shape}")})
    return text


_STYLE = """
  html, body { margin: 0; height: 100%; overflow: hidden; background: #bfe3ff; font-family: sans-serif; }
  /* the canvases fill the screen by CSS: sized in px by script, a turning phone widened the page */
  canvas { display: block; touch-action: none; position: fixed; left: 0; top: 0; width: 100%; height: 100%; }
  #laby3d-map { pointer-events: none; }
  /* the help, then the message in the room left below it (centred there): it never covers the help */
  #laby3d-top { position: absolute; left: 12px; right: 12px; top: 12px; bottom: 68px; display: flex;
                flex-direction: column; align-items: flex-start; gap: 8px; pointer-events: none; }
  #laby3d-help { max-width: 60%; padding: 8px 12px; pointer-events: auto;
                 background: rgba(255,255,255,.88); border-radius: 6px; font-size: 14px; line-height: 1.5; }
  #laby3d-speech { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
                   white-space: nowrap; }
  #laby3d-hud { position: absolute; right: 12px; top: 12px; padding: 6px 10px; background: rgba(255,255,255,.88);
                border-radius: 6px; font: bold 16px monospace; }
  #laby3d-hud:empty { display: none; }
  #laby3d-way { display: none; position: absolute; right: 12px; top: 56px; width: 88px; height: 88px;
                pointer-events: none; }
  #laby3d-way svg { width: 100%; height: 100%; }
  #laby3d-buttons { position: absolute; left: 184px; right: 12px; bottom: 12px; display: flex; gap: 8px;
                    flex-wrap: wrap; justify-content: flex-end; pointer-events: none; }
  button { font-size: 16px; min-width: 44px; min-height: 44px; padding: 10px 14px; border: 0; border-radius: 8px;
           background: rgba(255,255,255,.9); touch-action: manipulation; }
  #laby3d-buttons button { pointer-events: auto; }
  #laby3d-buttons button[aria-pressed="true"] { background: #ffd35c; }
  #laby3d-stick { display: none; position: absolute; left: 24px; bottom: 24px; width: 140px; height: 140px;
                  border-radius: 50%; background: rgba(255,255,255,.35); border: 2px solid rgba(255,255,255,.8);
                  touch-action: none; }
  #laby3d-stick div { position: absolute; left: 45px; top: 45px; width: 50px; height: 50px; border-radius: 50%;
                      background: rgba(255,255,255,.9); pointer-events: none; }
  #laby3d-message { display: none; margin: auto; max-width: 80%; padding: 16px 24px; pointer-events: auto;
                    background: rgba(255,255,255,.94); border-radius: 8px; font-size: 22px; text-align: center; }
  #laby3d-message button { margin-top: 12px; background: #ffd35c; }
  @media (max-width: 640px) {  /* a phone: the help goes under the timer */
    #laby3d-top { top: 56px; }
    #laby3d-help { max-width: none; align-self: stretch; font-size: 13px; }
    #laby3d-way { top: auto; bottom: 180px; }
  }
"""

#: The "which way?" arrow (pointing up, the page turns it): static markup, no data in it.
_WAY_ARROW = (
    '<div id="laby3d-way" role="img" aria-live="polite">'
    '<svg viewBox="-50 -50 100 100" aria-hidden="true">'
    '<path d="M0,-44 L34,0 L13,0 L13,40 L-13,40 L-13,0 L-34,0 Z" fill="#ffc400" stroke="#1b2433" '
    'stroke-width="5" stroke-linejoin="round"/></svg></div>'
)


def page_title(text: dict[str, str], rows: int, cols: int | None, label: str | None) -> str:
    """The page's title: the pupil's name (the job's label) if any, the goal and the maze's shape
    and size (``text`` of its shape: :func:`page_strings`)."""
    maze = text["maze"].format(rows=rows, cols=cols)
    if label:
        return text["title_named"].format(name=label, goal=text["goal"], maze=maze)
    return text["title"].format(goal=text["goal"], maze=maze)


def page_html(
    maze: Maze,
    fab: Fabrication,
    *,
    walk: WalkSpec | None = None,
    lang: Language = "en",
    label: str | None = None,
) -> str:
    """The self-contained page: three.js, the scene (with the teacher switches), the page's texts
    in ``lang`` and the walking code, inlined as classic scripts; no markup holds unescaped data.
    ``label`` is the pupil's name, shown with the goal."""
    from laby3d.options.walk import WalkSpec

    text = page_strings(lang, maze.shape)
    title = page_title(text, maze.rows, maze.cols, label)
    scene = scene_json(maze, fab, walk=walk if walk is not None else WalkSpec(), label=label, lang=lang)
    page_data = f'{{"scene": {scene.strip()},\n"text": {json.dumps(text, ensure_ascii=True)}}}'
    web = resources.files("laby3d.export").joinpath("web")
    walk_code = "".join(web.joinpath(name).read_text(encoding="utf-8") for name in WALK_SCRIPTS)
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{html.escape(lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(title)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        '<canvas id="laby3d-map"></canvas>',
        '<div id="laby3d-top"><div id="laby3d-help"></div><div id="laby3d-message" role="status"></div></div>',
        '<div id="laby3d-hud" aria-live="off"></div>',
        _WAY_ARROW,
        '<div id="laby3d-buttons"></div>',
        '<div id="laby3d-stick"><div></div></div>',
        '<div id="laby3d-speech" aria-live="polite"></div>',
        "<script>\n/* three.js, MIT licence, https://threejs.org */",
        three_source() + "</script>",
        f'<script type="application/json" id="laby3d-page">\n{script_literal(page_data)}\n</script>',
        f"<script>\n{walk_code}</script>",
        "</body>",
        "</html>",
        "",
    ]
    return "\n".join(parts)
