"""The scene file: what the walk-through needs to draw and walk a maze, in mm (docs/scene-format.md).

Two forms of the same JSON object: pure JSON (``.scene.json``) and JavaScript that assigns it to a
global (``.js``, for pages of one's own). Walls are given as runs: axis-aligned rectangles in mm,
one per straight run of closed walls (posts included) plus one per free-standing post, so no
reader re-derives geometry from the cell bits. Reading a scene back checks it completely.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.errors import MazeFileError
from laby3d.jsonsafe import JsonLimits, load_json
from laby3d.maze.model import E, N, S, W
from laby3d.quoting import shown

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze, Opening
    from laby3d.options.walk import WalkSpec

FORMAT = "laby3d.scene"
VERSION = 2
#: Keys of the maze file that the scene repeats unchanged (docs/maze-file.md).
MAZE_KEYS = ("rows", "cols", "algorithm", "seed", "options", "cells", "entrance", "exit", "solution")
SCENE_KEYS = ("format", "version", "units", "cell_size", "wall_thickness", "wall_height", "size", "walls", "walk")
WALK_SWITCHES = ("overview", "trail", "hint", "timer", "steps")


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
    rows, cols, cells = maze.rows, maze.cols, maze.cells
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


def _opening(opening: Opening | None, fab: Fabrication) -> dict[str, Any] | None:
    if opening is None:
        return None
    return {**opening.as_dict(), "door": door(opening, fab) if opening.side else None}


def scene_data(maze: Maze, fab: Fabrication, *, walk: WalkSpec | None = None) -> dict[str, Any]:
    """The scene as a JSON-ready dict (docs/scene-format.md); ``walk`` adds the teacher switches."""
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "units": "mm",
        "rows": maze.rows,
        "cols": maze.cols,
        "algorithm": maze.algorithm,
        "seed": maze.seed,
        "options": dict(maze.options),
        "cell_size": _mm(fab.cell_size),
        "wall_thickness": _mm(fab.wall_thickness),
        "wall_height": _mm(fab.wall_height),
        "size": [
            _mm(maze.cols * fab.cell_size + fab.wall_thickness),
            _mm(maze.rows * fab.cell_size + fab.wall_thickness),
        ],
        "entrance": _opening(maze.entrance, fab),
        "exit": _opening(maze.exit, fab),
        "solution": [list(cell) for cell in maze.solution],
        "cells": maze.cells.tolist(),
        "walls": wall_runs(maze, fab),
    }
    if walk is not None:
        data["walk"] = walk.switches()
    return data


def _chunked(items: list[Any], per_line: int) -> str:
    lines = (
        ",".join(json.dumps(item, separators=(",", ":")) for item in items[k : k + per_line])
        for k in range(0, len(items), per_line)
    )
    return "[\n    " + ",\n    ".join(lines) + "\n  ]" if items else "[]"


def scene_json(maze: Maze, fab: Fabrication, *, walk: WalkSpec | None = None) -> str:
    """The ``.scene.json`` text: one key per line, a row of cells per line, walls 8 per line.

    ASCII only (other characters as ``\\u`` escapes), so it is also safe to inline in a page
    once ``<``, ``>`` and ``&`` are escaped (:func:`script_literal`).
    """
    data = scene_data(maze, fab, walk=walk)
    lines = []
    for key, value in data.items():
        if key == "cells":
            text = _chunked(value, 1)
        elif key == "walls":
            text = _chunked(value, 8)
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


def scene_js(maze: Maze, fab: Fabrication, *, walk: WalkSpec | None = None) -> str:
    """The ``.js`` scene file: ``window["<walk.scene_global>"] = {…};`` (default LABY3D_MAZE)."""
    from laby3d.options.walk import WalkSpec

    spec = walk if walk is not None else WalkSpec()
    body = script_literal(scene_json(maze, fab, walk=walk)).rstrip("\n")
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


def maze_from_scene(text: str) -> Maze:
    """Read a ``.scene.json`` back: the maze, validated like a maze file, and the walls, doors
    and size checked against the cells and the sizes the scene states."""
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.mazefile import maze_from_data

    try:
        data = load_json(text, scene_limits())
    except MazeFileError as error:
        raise MazeFileError(f"scene file: {error}") from None
    if not isinstance(data, dict):
        raise MazeFileError("scene file: must hold a JSON object")
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise MazeFileError(
            f"scene file: format must be {FORMAT!r} version {VERSION}, "
            f"got {shown(data.get('format'))} version {shown(data.get('version'), 20)}"
        )
    unknown = sorted(set(data) - set(MAZE_KEYS) - set(SCENE_KEYS))
    if unknown:
        raise MazeFileError(f"scene file: unknown key {shown(unknown[0])}")
    if data.get("units") != "mm":
        raise MazeFileError(f"scene file: units must be 'mm', got {shown(data.get('units'), 20)}")
    maze_file = {"format": "laby3d.maze", "version": 1}
    for key in MAZE_KEYS:
        if key not in data:
            raise MazeFileError(f"scene file: missing key {key!r}")
        value = data[key]
        if key in ("entrance", "exit") and isinstance(value, dict):
            value = {k: v for k, v in value.items() if k != "door"}
        maze_file[key] = value
    maze = maze_from_data(maze_file)
    sizes: dict[str, float] = {}
    for key in ("cell_size", "wall_thickness", "wall_height"):
        value = data.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MazeFileError(f"scene file: {key} must be a number of mm, got {shown(value, 20)}")
        sizes[key] = float(value)
    try:
        fab = Fabrication(**sizes)
    except ValueError as error:
        raise MazeFileError(f"scene file: {error}") from None
    expected = scene_data(maze, fab)
    for key in ("size", "walls", "entrance", "exit"):
        if data.get(key) != expected[key]:
            raise MazeFileError(f"scene file: {key} do not match the cells and sizes it states")
    walk = data.get("walk")
    if walk is not None and (
        not isinstance(walk, dict)
        or set(walk) != set(WALK_SWITCHES)
        or not all(isinstance(v, bool) for v in walk.values())
    ):
        raise MazeFileError(f"scene file: walk must map {', '.join(WALK_SWITCHES)} to true or false")
    return maze


__all__ = [
    "FORMAT",
    "VERSION",
    "maze_from_scene",
    "scene_data",
    "scene_limits",
    "scene_js",
    "scene_json",
    "script_literal",
    "wall_runs",
]
