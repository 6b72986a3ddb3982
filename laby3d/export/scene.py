"""The scene file: what the walk-through needs to draw and walk a maze, in mm (docs/scene-format.md).

Two forms of the same JSON object: pure JSON (``.scene.json``) and JavaScript that assigns it to a
global (``.js``, for pages of one's own). Walls are given as segments: the centre line of each
straight run of closed walls (posts included) and of each free-standing post, drawn
``wall_thickness`` wide with flat ends, so no reader re-derives geometry from the cell bits and a
reader needs no grid. The file also carries the solid's sizes, the label and the language, so
``laby3d export`` of a scene keeps them. Reading a scene back checks it completely.

A square maze's scene is version 3, written here; a theta, hex or triangle maze's is version 4,
with every geometric fact as its own table (:mod:`laby3d.export.shaped_scene`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import MazeFileError
from laby3d.jsonsafe import JsonLimits, load_json
from laby3d.maze.grid import E, N, S, W
from laby3d.quoting import shown

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze, Opening
    from laby3d.options.walk import WalkSpec

FORMAT = "laby3d.scene"
#: The version a square maze's scene is written in (other shapes: version 4).
VERSION = 3
#: Versions this module reads (2: walls as rectangles, without the solid's other sizes; 4: the
#: scene of a maze that is not square).
READS = (2, 3, 4)
#: Keys of the maze file that the scene repeats unchanged (docs/maze-file.md).
MAZE_KEYS = ("rows", "cols", "algorithm", "seed", "options", "cells", "entrance", "exit", "solution")
#: The solid's sizes, mm (the first three in every version, the others from version 3).
SIZE_KEYS = ("cell_size", "wall_thickness", "wall_height", "base_thickness", "margin")
SCENE_KEYS = ("format", "version", "units", *SIZE_KEYS, "size", "label", "lang", "walls", "walk")
WALK_SWITCHES = ("overview", "trail", "hint", "timer", "steps")
LANGUAGES = ("en", "fr")
#: Longest label, characters (the job's label field).
MAX_LABEL = 60


def _mm(value: float) -> float | int:
    """A length in mm as JSON writes it: an integer when whole, else rounded to 1 µm."""
    rounded = round(float(value), 3)
    return int(rounded) if rounded.is_integer() else rounded


def _runs(closed: np.ndarray) -> list[tuple[int, int, int]]:
    """``(line, start, end)`` of each run of True along axis 1 of a 2-D bool array (end excluded)."""
    padded = np.zeros((closed.shape[0], closed.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = closed
    steps = np.diff(padded, axis=1)
    starts, ends = np.argwhere(steps == 1), np.argwhere(steps == -1)
    return [(int(a[0]), int(a[1]), int(b[1])) for a, b in zip(starts, ends, strict=True)]


def wall_runs(maze: Maze, fab: Fabrication) -> list[list[float | int]]:
    """Wall rectangles ``[x0, z0, x1, z1]`` in mm (x along columns, z down the rows), wall_height
    tall from the floor, never overlapping: one per straight west-east run of closed walls with its
    end posts, one per north-south run (its end posts only where no west-east run covers them),
    then one per post that no wall touches. Entrance and exit are open."""
    s, t = fab.cell_size, fab.wall_thickness
    grid = maze.grid
    rows, cols, cells = grid.rows, grid.cols, grid.cells
    # horizontal lattice lines i = 0..rows, segment j between posts j and j + 1
    horizontal = np.vstack([(cells & N) == 0, (cells[-1:] & S) == 0])
    # vertical lattice lines j = 0..cols (transposed: one row per line), segment i
    vertical = np.hstack([(cells & W) == 0, (cells[:, -1:] & E) == 0]).T
    # posts that a horizontal run covers: a vertical run stops at that run's face
    crossed = np.zeros((rows + 1, cols + 1), dtype=bool)
    crossed[:, :-1] |= horizontal
    crossed[:, 1:] |= horizontal
    walls: list[list[float | int]] = []
    for i, j0, j1 in _runs(horizontal):
        walls.append([_mm(j0 * s), _mm(i * s), _mm(j1 * s + t), _mm(i * s + t)])
    # north-south lines as posts and segments alternating: element 2i is post i, 2i + 1 segment i
    along = np.zeros((cols + 1, 2 * rows + 1), dtype=bool)
    along[:, 1::2] = vertical
    along[:, 2:-1:2] = vertical[:, :-1] | vertical[:, 1:]
    along[:, 0] = vertical[:, 0]
    along[:, -1] = vertical[:, -1]
    along[:, ::2] &= ~crossed.T
    starts = np.arange(2 * rows + 1) // 2 * s + np.arange(2 * rows + 1) % 2 * t  # element -> z0, mm
    ends = (np.arange(2 * rows + 1) + 1) // 2 * s + (np.arange(2 * rows + 1) + 1) % 2 * t  # z1
    for j, e0, e1 in _runs(along):
        walls.append([_mm(j * s), _mm(starts[e0]), _mm(j * s + t), _mm(ends[e1 - 1])])
    touched = crossed.copy()
    touched[:-1, :] |= vertical.T
    touched[1:, :] |= vertical.T
    for i, j in np.argwhere(~touched):
        walls.append([_mm(j * s), _mm(i * s), _mm(j * s + t), _mm(i * s + t)])
    return walls


def centre_line(box: list[float | int]) -> list[float | int]:
    """The centre segment ``[x0, z0, x1, z1]`` of an axis-aligned wall rectangle whose width
    across is the wall thickness (a square post: the segment along x)."""
    x0, z0, x1, z1 = box
    if x1 - x0 >= z1 - z0:
        return [x0, _mm((z0 + z1) / 2), x1, _mm((z0 + z1) / 2)]
    return [_mm((x0 + x1) / 2), z0, _mm((x0 + x1) / 2), z1]


def wall_segments(maze: Maze, fab: Fabrication) -> list[list[float | int]]:
    """The walls as centre segments ``[x0, z0, x1, z1]`` (mm), each ``wall_thickness`` wide with
    flat ends: exactly the rectangles of :func:`wall_runs`."""
    return [centre_line(box) for box in wall_runs(maze, fab)]


def door(opening: Opening, fab: Fabrication) -> list[float | int]:
    """The gap ``[x0, z0, x1, z1]`` (mm) an opening leaves in the border wall."""
    s, t = fab.cell_size, fab.wall_thickness
    x, z = opening.col * s, opening.row * s
    gap = {
        "N": (x + t, z, x + s, z + t),
        "S": (x + t, z + s, x + s, z + s + t),
        "W": (x, z + t, x + t, z + s),
        "E": (x + s, z + t, x + s + t, z + s),
    }[opening.side or "N"]
    return [_mm(v) for v in gap]


def _opening(opening: Opening | None, fab: Fabrication, version: int) -> dict[str, Any] | None:
    if opening is None:
        return None
    gap = door(opening, fab) if opening.side else None
    return {**opening.as_dict(), "door": centre_line(gap) if gap and version >= 3 else gap}


def stated(fab: Fabrication) -> Fabrication:
    """``fab`` with its sizes as the scene states them (rounded to 1 µm), so the geometry written
    is exactly the geometry a reader derives from the stated sizes."""
    from dataclasses import replace

    return replace(fab, **{key: float(_mm(getattr(fab, key))) for key in SIZE_KEYS})


def scene_data(
    maze: Maze,
    fab: Fabrication,
    *,
    walk: WalkSpec | None = None,
    label: str | None = None,
    lang: str = "en",
    version: int = VERSION,
) -> dict[str, Any]:
    """The scene as a JSON-ready dict (docs/scene-format.md); ``walk`` adds the teacher switches,
    ``label`` is the pupil's name (or any text) the page shows. ``version`` 2 gives what an older
    file holds (for reading one back). A maze that is not square gives version 4
    (:func:`laby3d.export.shaped_scene.shaped_scene_data`)."""
    fab = stated(fab)
    if maze.tessellation.kind != "square":
        from laby3d.export.shaped_scene import shaped_scene_data

        return shaped_scene_data(maze, fab, walk=walk, label=label, lang=lang)
    grid = maze.grid
    sizes = SIZE_KEYS if version >= 3 else SIZE_KEYS[:3]
    data: dict[str, Any] = {"format": FORMAT, "version": version, "units": "mm"}
    data.update({key: getattr(maze, key) for key in ("rows", "cols", "algorithm", "seed")})
    data["options"] = dict(maze.options)
    data.update({key: _mm(getattr(fab, key)) for key in sizes})
    data["size"] = [
        _mm(grid.cols * fab.cell_size + fab.wall_thickness),
        _mm(grid.rows * fab.cell_size + fab.wall_thickness),
    ]
    if version >= 3:
        data.update({"label": label, "lang": lang})
    data.update(
        {
            "entrance": _opening(maze.entrance, fab, version),
            "exit": _opening(maze.exit, fab, version),
            "solution": [list(cell) for cell in maze.solution],
            "cells": grid.cells.tolist(),
            "walls": wall_segments(maze, fab) if version >= 3 else wall_runs(maze, fab),
        }
    )
    if walk is not None:
        data["walk"] = walk.switches()
    return data


def _chunked(items: list[Any], per_line: int) -> str:
    lines = (
        ",".join(json.dumps(item, separators=(",", ":")) for item in items[k : k + per_line])
        for k in range(0, len(items), per_line)
    )
    return "[\n    " + ",\n    ".join(lines) + "\n  ]" if items else "[]"


def scene_json(
    maze: Maze,
    fab: Fabrication,
    *,
    walk: WalkSpec | None = None,
    label: str | None = None,
    lang: str = "en",
) -> str:
    """The ``.scene.json`` text: one key per line, a row of cells per line, walls 8 per line
    (version 4: its long tables a few items per line, :data:`laby3d.export.shaped_scene.PER_LINE`).

    ASCII only (other characters as ``\\u`` escapes), so it is also safe to inline in a page
    once ``<``, ``>`` and ``&`` are escaped (:func:`script_literal`).
    """
    from laby3d.export.shaped_scene import PER_LINE, table_text

    data = scene_data(maze, fab, walk=walk, label=label, lang=lang)
    per_line, table = ({"cells": 1, "walls": 8}, _chunked) if data["version"] < 4 else (PER_LINE, table_text)
    lines = []
    for key, value in data.items():
        if key in per_line:
            text = table(value, per_line[key])
        else:
            text = json.dumps(value, separators=(", ", ": "))
        lines.append(f"  {json.dumps(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


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


def scene_limits() -> JsonLimits:
    """What a scene file may hold: the largest maze laby3d writes a page for (:mod:`laby3d.budget`),
    its solution through every cell, and at most ``3 (rows + 1)(cols + 1)`` wall runs."""
    from laby3d.budget import largest_cells
    from laby3d.maze.model import MAX_SIDE

    cells = largest_cells("page")
    lattice = cells + 2 * MAX_SIDE + 1  # (rows + 1)(cols + 1) at most
    return JsonLimits(
        kind="a scene file",
        max_bytes=64 * cells,
        max_containers=cells + 3 * lattice + MAX_SIDE + 64,
        max_commas=3 * cells + 12 * lattice + MAX_SIDE + 256,
        why="one array per solution cell and per wall, four numbers per wall",
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
    """Read a ``.scene.json`` back: the maze, validated like a maze file, and the walls, doors
    and size checked against the cells and the sizes the scene states."""
    return read_scene(text).maze


def _keys(version: int) -> list[str]:
    """Every key a scene file of ``version`` may hold."""
    if version >= 4:
        from laby3d.export.shaped_scene import GEOMETRY_KEYS
        from laby3d.export.shaped_scene import MAZE_KEYS as SHAPED_MAZE_KEYS

        return ["format", "version", "units", *SHAPED_MAZE_KEYS, *SIZE_KEYS, "label", "lang", *GEOMETRY_KEYS, "walk"]
    if version == 3:
        return [*MAZE_KEYS, *SCENE_KEYS]
    return [*MAZE_KEYS, *SCENE_KEYS[:6], "size", "walls", "walk"]


def _geometry_keys(version: int) -> tuple[str, ...]:
    """The keys a reader recomputes from the maze and sizes and compares with the file's."""
    if version >= 4:
        from laby3d.export.shaped_scene import GEOMETRY_KEYS

        return (*GEOMETRY_KEYS, "entrance", "exit")
    return ("size", "walls", "entrance", "exit")


def maze_file_data(data: dict[str, Any], keys: tuple[str, ...], version: int) -> dict[str, Any]:
    """The maze file (of ``version``) a scene's parsed JSON holds: its maze ``keys``, each
    opening's ``door`` set aside; ``cols`` may be absent (a theta maze has none)."""
    maze_file: dict[str, Any] = {"format": "laby3d.maze", "version": version}
    for key in keys:
        if key not in data:
            if key == "cols" and version >= 2:
                continue
            raise MazeFileError(f"scene file: missing key {key!r}")
        value = data[key]
        if key in ("entrance", "exit") and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "door"}
        maze_file[key] = value
    return maze_file


def read_scene(text: str) -> Scene:
    """Read a ``.scene.json`` (version 2, 3 or 4) completely: :func:`maze_from_scene` and what
    else it states."""
    from laby3d.geometry.params import Fabrication

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
    maze: Maze
    if version >= 4:
        from laby3d.export.shaped_scene import read_shaped_scene

        maze = read_shaped_scene(data)
    else:
        from laby3d.maze.mazefile import maze_from_data

        maze = maze_from_data(maze_file_data(data, MAZE_KEYS, 1))
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
    expected = scene_data(maze, fab, version=version)
    for key in _geometry_keys(version):
        if data.get(key) != expected[key]:
            raise MazeFileError(f"scene file: {key} do not match the cells and sizes it states")
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
    "scene_limits",
    "scene_js",
    "scene_json",
    "script_literal",
    "wall_runs",
    "wall_segments",
]
