"""The scene file: what the walk-through needs to draw and walk a maze of any shape, in mm
(docs/scene-format.md).

Two forms of the same JSON object: pure JSON (``.scene.json``) and JavaScript that assigns it to
a global (``.js``, for pages of one's own). Written once for every shape against the cell graph
(version 5): the maze file's keys (version 2: ``shape``, ``passages``…), the solid's sizes, the
label and the language, and every geometric fact the page needs as a table of its own
(:mod:`laby3d.export.scene_geometry`), so the page knows no shape and re-derives nothing.
Reading a scene back (versions 2 to 5, :mod:`laby3d.export.scene_versions`) checks it completely.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import MazeFileError
from laby3d.jsonsafe import JsonLimits, load_json
from laby3d.quoting import shown

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze, Opening
    from laby3d.options.walk import WalkSpec

FORMAT = "laby3d.scene"
#: The version laby3d writes, for every shape.
VERSION = 5
#: Versions read back (2 and 3: square mazes as bit masks; 4: other shapes, tables of pairs).
READS = (2, 3, 4, 5)
#: Keys of the maze file (version 2) that the scene repeats unchanged (docs/maze-file.md): the
#: board (its shape, size and options), how it was carved, the cells a cut board keeps (an
#: outline), the passages (flat in the scene), the openings and the solution.
MAZE_KEYS = (
    *("shape", "rows", "cols", "first_ring", "algorithm", "seed", "options", "outline", "braid", "cells"),
    *("passages", "entrance", "exit", "solution"),
)
#: Maze keys a maze file may leave out (cols: theta; the others when they say nothing).
OPTIONAL_MAZE_KEYS = ("cols", "first_ring", "outline", "braid", "cells")
#: Version 4's maze keys (no outlines, loops or ring options then).
MAZE_KEYS_4 = ("shape", "rows", "cols", "algorithm", "seed", "options", "passages", "entrance", "exit", "solution")
#: The solid's sizes, mm (the first three in every version, the others from version 3).
SIZE_KEYS = ("cell_size", "wall_thickness", "wall_height", "base_thickness", "margin")
#: Geometry keys: what the maze and sizes give, checked when a file is read back.
GEOMETRY_KEYS = (
    *("size", "narrowest_passage", "row_starts", "points", "polygon_starts", "cell_polygons", "centres"),
    *("passage_middles", "floor", "walls"),
)
#: Version 4's geometry keys (no narrowest passage: the page measured it; polygons as lists; the
#: floor named ``outline``).
GEOMETRY_KEYS_4 = (
    *("size", "row_starts", "points", "cell_polygons", "centres", "passage_middles", "outline", "walls"),
)
WALK_SWITCHES = ("overview", "trail", "hint", "timer", "steps")
LANGUAGES = ("en", "fr")
#: Longest label, characters (the job's label field).
MAX_LABEL = 60
#: Tables written several items to a line: numbers (flat tables) or lists per line.
PER_LINE = {
    "passages": 16,
    "points": 16,
    "polygon_starts": 16,
    "cell_polygons": 24,
    "centres": 16,
    "passage_middles": 16,
    "walls": 32,
    "cells": 1,  # versions 2 and 3
}


def _mm(value: float) -> float | int:
    """A length in mm as JSON writes it: an integer when whole, else rounded to 1 µm."""
    rounded = round(float(value), 3)
    return int(rounded) if rounded.is_integer() else rounded


def _flat_mm(values: np.ndarray) -> list[float]:
    """``values`` (mm, any shape) rounded to 1 µm, as one flat list (the text writes whole
    numbers as integers: :func:`table_text`)."""
    return np.round(np.asarray(values, dtype=np.float64), 3).ravel().tolist()


def stated(fab: Fabrication) -> Fabrication:
    """``fab`` with its sizes as the scene states them (rounded to 1 µm), so the geometry written
    is exactly the geometry a reader derives from the stated sizes."""
    from dataclasses import replace

    return replace(fab, **{key: float(_mm(getattr(fab, key))) for key in SIZE_KEYS})


def _opening(maze: Maze, opening: Opening | None, fab: Fabrication) -> dict[str, Any] | None:
    """The maze file's opening and its ``door``: the boundary wall it opens as centre segments,
    one flat list ``x0, z0, x1, z1, …`` (None for a start or goal inside the maze)."""
    from laby3d.export.scene_geometry import door_segments

    if opening is None:
        return None
    door = None if opening.side is None else [_mm(v) for v in door_segments(maze, opening, fab).ravel()]
    return {**opening.as_dict(), "door": door}


def scene_data(
    maze: Maze,
    fab: Fabrication,
    *,
    walk: WalkSpec | None = None,
    label: str | None = None,
    lang: str = "en",
) -> dict[str, Any]:
    """The scene as a JSON-ready dict (docs/scene-format.md): the maze file's keys (its passages
    as one flat list), the sizes as stated (:func:`stated`), the geometry tables (flat lists:
    JSON.parse reads them several times faster than lists of pairs); ``walk`` adds the teacher
    switches, ``label`` is the pupil's name (or any text) the page shows."""
    from laby3d.export import scene_geometry as geometry
    from laby3d.geometry.passages import narrowest_passage

    fab = stated(fab)
    t = maze.tessellation
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "units": "mm", "shape": maze.shape, "rows": maze.rows}
    if maze.cols is not None:
        data["cols"] = maze.cols
    data.update(dict(t.options))
    data.update({"algorithm": maze.algorithm, "seed": maze.seed, "options": dict(maze.options)})
    if maze.outline:
        data["outline"] = maze.outline
    if maze.braid:
        data["braid"] = maze.braid
    data.update({key: _mm(getattr(fab, key)) for key in SIZE_KEYS})
    width, depth = t.extent
    data["size"] = [_mm(width * fab.cell_size + fab.wall_thickness), _mm(depth * fab.cell_size + fab.wall_thickness)]
    data["narrowest_passage"] = _mm(narrowest_passage(maze.shape, fab, maze.rows))
    data.update({"label": label, "lang": lang})
    if t.inside is not None:  # a board cut to an outline: the board cell of each cell
        data["cells"] = t.inside.tolist()
    data.update(
        {
            "passages": maze.passages.ravel().tolist(),
            "entrance": _opening(maze, maze.entrance, fab),
            "exit": _opening(maze, maze.exit, fab),
            "solution": [list(cell) for cell in maze.solution],
            "row_starts": t.board.row_starts.tolist(),
            "points": _flat_mm(geometry.placed(t.vertices, fab)),
            "polygon_starts": t.polygon_starts.tolist(),
            "cell_polygons": t.polygon_vertices.tolist(),
            "centres": _flat_mm(geometry.placed(t.centres, fab)),
            "passage_middles": _flat_mm(geometry.placed(t.wall_midpoints[maze.open_walls], fab)),
            "floor": geometry.floor_ids(maze),
            "walls": _flat_mm(geometry.wall_segments(maze, fab)),
        }
    )
    if walk is not None:
        data["walk"] = walk.switches()
    return data


_WHOLE = re.compile(r"(?<=\d)\.0(?=[,\]])")


def table_text(items: list[Any], per_line: int) -> str:
    """A list of numbers or of lists of numbers as JSON, ``per_line`` items to a line, whole
    numbers without ``.0`` (what ``json.dumps`` of each item would give, at the speed of one
    ``json.dumps`` and two passes of a regular expression over its text: a 1000×1000 scene's
    tables hold 10 million numbers, and a string per item would take gigabytes)."""
    if not items:
        return "[]"
    text = _WHOLE.sub("", json.dumps(items, separators=(",", ":")))[1:-1]
    item = r"\[[^\]]*\]" if isinstance(items[0], list) else r"[^,]+"
    line = re.compile(rf"((?:{item},){{{per_line - 1}}}{item}),")
    return "[\n    " + line.sub("\\1,\n    ", text) + "\n  ]"


def scene_text(data: dict[str, Any]) -> str:
    """A scene's JSON text: one key per line, its long tables a few items per line
    (:data:`PER_LINE`). ASCII only (other characters as ``\\u`` escapes), so it is also safe to
    inline in a page once ``<``, ``>`` and ``&`` are escaped (:func:`script_literal`)."""
    lines = []
    for key, value in data.items():
        if key in PER_LINE:
            text = table_text(value, PER_LINE[key])
        else:
            text = json.dumps(value, separators=(", ", ": "))
        lines.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def scene_json(
    maze: Maze,
    fab: Fabrication,
    *,
    walk: WalkSpec | None = None,
    label: str | None = None,
    lang: str = "en",
) -> str:
    """The ``.scene.json`` text (:func:`scene_data`, as :func:`scene_text` lays it out)."""
    return scene_text(scene_data(maze, fab, walk=walk, label=label, lang=lang))


def script_literal(json_text: str) -> str:
    """JSON text made safe inside an HTML ``<script>``: no ``</script>``, ``<!--`` or line
    separators can end or change the script (``<``, ``>``, ``&``, U+2028, U+2029 escaped)."""
    return (
        json_text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def scene_js(
    maze: Maze,
    fab: Fabrication,
    *,
    walk: WalkSpec | None = None,
    label: str | None = None,
    lang: str = "en",
) -> str:
    """The ``.js`` scene file: ``window["<walk.scene_global>"] = {…};`` (default LABY3D_MAZE)."""
    from laby3d.options.walk import WalkSpec

    spec = walk if walk is not None else WalkSpec()
    body = script_literal(scene_json(maze, fab, walk=walk, label=label, lang=lang)).rstrip("\n")
    return f"window[{json.dumps(spec.scene_global)}] = {body};\n"


#: What a scene file holds per cell at most, by shape, as (bytes, arrays and objects, commas): a
#: square maze's, and for the others the fullest of theta, hex and triangle (hex; measured at
#: 600×600 and 300×300, 5 % to spare: tests/test_walk_shapes.py).
PER_CELL = {"square": (125, 3, 16)} | dict.fromkeys(("theta", "hex", "triangle"), (195, 3, 26))


def scene_limits() -> JsonLimits:
    """What a scene file may hold: that of the largest scene file laby3d writes, of any shape
    (:func:`laby3d.budget.largest_scene_cells`), at :data:`PER_CELL`."""
    from laby3d.budget import largest_scene_cells
    from laby3d.maze.model import MAX_SIDE
    from laby3d.tessellation import SHAPES

    most = [[per_cell * largest_scene_cells(shape) for per_cell in PER_CELL[shape]] for shape in SHAPES]
    size, containers, commas = (max(values) for values in zip(*most, strict=True))
    return JsonLimits(
        kind="a scene file",
        max_bytes=size,
        max_containers=containers + MAX_SIDE + 64,
        max_commas=commas + MAX_SIDE + 256,
        why="a list per cell's polygon, per passage and per solution cell; a few numbers per point, cell and wall",
    )


@dataclass(frozen=True)
class Scene:
    """What a scene file holds besides its geometry: the maze, the solid's sizes (mm), the
    teacher switches (None when absent), the label and the page's language (None in version 2)."""

    maze: Maze
    fabrication: Fabrication
    walk: dict[str, bool] | None
    label: str | None
    lang: str | None
    version: int

    def options(self) -> dict[str, Any]:
        """The job options (dotted paths) the file states, for ``laby3d export`` to keep."""
        sizes = SIZE_KEYS if self.version >= 3 else SIZE_KEYS[:3]
        values: dict[str, Any] = {f"print.{key}": getattr(self.fabrication, key) for key in sizes}
        values.update({f"walk.{key}": value for key, value in (self.walk or {}).items()})
        if self.version >= 3:
            values.update({"label": self.label, "lang": self.lang})
        return {path: value for path, value in values.items() if value is not None}


def maze_from_scene(text: str) -> Maze:
    """Read a ``.scene.json`` back: the maze, validated like a maze file, and the geometry
    checked against the maze and the sizes the scene states."""
    return read_scene(text).maze


def _keys(version: int) -> tuple[str, ...]:
    """Every key a scene file of ``version`` may hold."""
    from laby3d.export.scene_versions import GRID_KEYS

    if version <= 3:
        return (*GRID_KEYS[version], "walk")
    maze, geometry = (MAZE_KEYS, GEOMETRY_KEYS) if version >= 5 else (MAZE_KEYS_4, GEOMETRY_KEYS_4)
    return ("format", "version", "units", *maze, *SIZE_KEYS, "label", "lang", *geometry, "walk")


def maze_file_data(
    data: dict[str, Any], keys: tuple[str, ...], version: int, *, paired: bool = False
) -> dict[str, Any]:
    """The maze file (of ``version``) a scene's parsed JSON holds: its maze ``keys``, each
    opening's ``door`` set aside; ``cols`` may be absent (a theta maze has none); ``paired``:
    the flat ``passages`` of version 5 as the maze file's pairs."""
    maze_file: dict[str, Any] = {"format": "laby3d.maze", "version": version}
    for key in keys:
        if key not in data:
            if key in OPTIONAL_MAZE_KEYS and version >= 2:
                continue
            raise MazeFileError(f"scene file: missing key {key!r}")
        value = data[key]
        if key in ("entrance", "exit") and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "door"}
        if key == "passages" and paired:
            if not isinstance(value, list) or len(value) % 2:
                raise MazeFileError("scene file: passages must be one flat list of cell indices, two per passage")
            value = [value[k : k + 2] for k in range(0, len(value), 2)]
        maze_file[key] = value
    return maze_file


def expected_geometry(maze: Maze, fab: Fabrication, version: int) -> dict[str, Any]:
    """The geometry keys (and openings with their doors) a scene of ``version`` holds for
    ``maze`` at the sizes ``fab`` states."""
    from laby3d.export.scene_versions import grid_geometry, version_4

    if version <= 3:
        return grid_geometry(maze, fab, version)
    data = scene_data(maze, fab)
    return {**data, **version_4(data, maze, fab)} if version == 4 else data


def read_scene(text: str) -> Scene:
    """Read a ``.scene.json`` (version 2 to 5) completely: :func:`maze_from_scene` and what
    else it states."""
    from laby3d.export.scene_versions import GRID_MAZE_KEYS
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.mazefile import maze_from_data

    try:
        data = load_json(text, scene_limits())
    except MazeFileError as error:
        raise MazeFileError(f"scene file: {error}") from None
    if not isinstance(data, dict):
        raise MazeFileError("scene file: must hold a JSON object")
    version = data.get("version")
    if data.get("format") != FORMAT or isinstance(version, bool) or version not in READS:
        raise MazeFileError(
            f"scene file: format must be {FORMAT!r} version {', '.join(map(str, READS[:-1]))} or {READS[-1]}, "
            f"got {shown(data.get('format'))} version {shown(version, 20)}"
        )
    unknown = sorted(set(data) - set(_keys(version)))
    if unknown:
        raise MazeFileError(f"scene file: unknown key {shown(unknown[0])} (in version {version})")
    if data.get("units") != "mm":
        raise MazeFileError(f"scene file: units must be 'mm', got {shown(data.get('units'), 20)}")
    if version <= 3:
        maze = maze_from_data(maze_file_data(data, GRID_MAZE_KEYS, 1))
    else:
        keys = MAZE_KEYS if version >= 5 else MAZE_KEYS_4
        maze = maze_from_data(maze_file_data(data, keys, 2, paired=version >= 5))
    sizes: dict[str, float] = {}
    for key in SIZE_KEYS if version >= 3 else SIZE_KEYS[:3]:
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MazeFileError(f"scene file: {key} must be a number of mm, got {shown(value, 20)}")
        sizes[key] = float(value)
    try:
        fab = Fabrication(**sizes)
    except ValueError as error:
        raise MazeFileError(f"scene file: {error}") from None
    label, lang = data.get("label"), data.get("lang")
    if version >= 3:
        if label is not None and not (isinstance(label, str) and 1 <= len(label) <= MAX_LABEL):
            raise MazeFileError(
                f"scene file: label must be null or 1 to {MAX_LABEL} characters, got {shown(label, 20)}"
            )
        if lang not in LANGUAGES:
            raise MazeFileError(f"scene file: lang must be {' or '.join(LANGUAGES)}, got {shown(lang, 20)}")
    expected = expected_geometry(maze, stated(fab), version)
    checked = ("size", "walls") if version <= 3 else (GEOMETRY_KEYS if version >= 5 else GEOMETRY_KEYS_4)
    for key in (*checked, "entrance", "exit"):
        if data.get(key) != expected[key]:
            raise MazeFileError(f"scene file: {key} do not match the maze and sizes it states")
    walk = data.get("walk")
    if walk is not None and (
        not isinstance(walk, dict)
        or set(walk) != set(WALK_SWITCHES)
        or not all(isinstance(v, bool) for v in walk.values())
    ):
        raise MazeFileError(f"scene file: walk must map {', '.join(WALK_SWITCHES)} to true or false")
    return Scene(maze=maze, fabrication=fab, walk=walk, label=label, lang=lang, version=version)


__all__ = [
    "FORMAT",
    "VERSION",
    "Scene",
    "maze_from_scene",
    "read_scene",
    "scene_data",
    "scene_js",
    "scene_json",
    "scene_limits",
    "script_literal",
]
