"""The scene file of a theta, hex or triangle maze (version 4, docs/scene-format.md): every fact the
walk-through page needs as its own table, in mm, so the page knows no shape.

The maze keys are the version-2 maze file's (``shape``, ``passages``…). The geometry is the
tessellation's, scaled by the cell size and moved by half a wall so the outer faces of the walls
start at 0: a vertex table (``points``), each cell's polygon as point ids (which cell the walker
is in), each cell's centre, the middle of each open wall (in ``passages`` order: where the walker
goes from one cell to the next), the outline (the floor), the first cell of each row (the
``(row, col)`` of a cell), the closed walls as centre segments drawn ``wall_thickness`` wide with
flat ends, and the entrance's and exit's doors as such segments. Where walls meet at an angle,
the segments are lengthened so their outer faces meet (a mitre); a free wall end goes on by half
a thickness, as a square maze's wall ends on its post.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze, Opening
    from laby3d.options.walk import WalkSpec

VERSION = 4
#: The maze file's keys (version 2) that the scene repeats unchanged (docs/maze-file.md).
MAZE_KEYS = ("shape", "rows", "cols", "algorithm", "seed", "options", "passages", "entrance", "exit", "solution")
#: Geometry keys: what the cells and sizes give, checked when a file is read back.
GEOMETRY_KEYS = ("size", "row_starts", "points", "cell_polygons", "centres", "passage_middles", "outline", "walls")
#: Lists written several items to a line (the others one key per line).
PER_LINE = {"points": 8, "cell_polygons": 4, "centres": 8, "passages": 8, "passage_middles": 8, "walls": 8}
#: How far a wall goes on past a vertex where it ends alone, in wall thicknesses.
FREE_END = 0.5


def _mm_list(values: np.ndarray) -> list[Any]:
    """``values`` (mm, any shape) rounded to 1 µm, as nested lists (the text writes whole
    numbers as integers: :func:`table_text`)."""
    return np.round(np.asarray(values, dtype=np.float64), 3).tolist()


_WHOLE = re.compile(r"(?<=\d)\.0(?=[,\]])")


def table_text(items: list[Any], per_line: int) -> str:
    """A list of numbers or of lists of numbers as JSON, ``per_line`` items to a line, whole
    numbers without ``.0`` (what ``json.dumps`` of each item would give, at the speed of one
    ``json.dumps``: a 100×100 hex scene's tables hold 300,000 numbers)."""
    if not items:
        return "[]"
    text = _WHOLE.sub("", json.dumps(items, separators=(",", ":")))[1:-1]
    parts = text[1:-1].split("],[") if isinstance(items[0], list) else text.split(",")
    if isinstance(items[0], list):
        parts = [f"[{part}]" for part in parts]
    lines = (",".join(parts[k : k + per_line]) for k in range(0, len(parts), per_line))
    return "[\n    " + ",\n    ".join(lines) + "\n  ]"


def _placed(points: np.ndarray, fab: Fabrication) -> np.ndarray:
    """Pitch-unit points as scene millimetres: scaled by the cell size, moved by half a wall."""
    return points * fab.cell_size + fab.wall_thickness / 2


def mitred_segments(starts: np.ndarray, ends: np.ndarray, vertex_ids: np.ndarray, half: float) -> np.ndarray:
    """``(S, 4)`` segments ``x0, z0, x1, z1`` from ``starts`` and ``ends`` ``(S, 2)`` (mm), each
    end lengthened so walls ``2 half`` thick with flat ends leave no notch where they meet:
    around each vertex (ids ``vertex_ids`` ``(S, 2)``), the two walls on either side of a gap
    wider than a half turn go on by ``half · tan((gap − 180°) / 2)`` (their outer faces meet); a
    wall alone at its vertex goes on by :data:`FREE_END` thicknesses."""
    along = ends - starts
    unit = along / np.linalg.norm(along, axis=1)[:, None]
    vertex = np.concatenate([vertex_ids[:, 0], vertex_ids[:, 1]])
    leaving = np.concatenate([unit, -unit])  # direction of the wall away from each end's vertex
    angle = np.arctan2(leaving[:, 1], leaving[:, 0])
    order = np.lexsort((angle, vertex))
    grouped, turned = vertex[order], angle[order]
    first = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    size = np.diff(np.r_[first, len(order)])
    group = np.repeat(np.arange(len(first)), size)
    position = np.arange(len(order)) - first[group]
    following = first[group] + (position + 1) % size[group]
    gap = np.where(size[group] == 1, 2 * np.pi, (turned[following] - turned) % (2 * np.pi))
    wide = gap > np.pi + 1e-9
    mitre = np.where(
        size[group] == 1, 2 * FREE_END * half, half * np.tan(np.minimum(gap, 1.99 * np.pi) / 2 - np.pi / 2)
    )
    extension = np.zeros(len(order))
    extension[order[wide]] = mitre[wide]
    extension[order[following[wide]]] = np.maximum(extension[order[following[wide]]], mitre[wide])
    count = len(starts)
    return np.hstack([starts - unit * extension[:count, None], ends + unit * extension[count:, None]])


def shaped_wall_segments(maze: Maze, fab: Fabrication) -> np.ndarray:
    """``(S, 4)`` mm: the closed walls (interior, then the outline but the doors), segment by
    segment, mitred where they meet (:func:`mitred_segments`)."""
    from laby3d.maze.walls import closed_walls

    walls = closed_walls(maze)
    ids = walls.segments()
    points = _placed(walls.vertices, fab)
    return mitred_segments(points[ids[:, 0]], points[ids[:, 1]], ids, fab.wall_thickness / 2)


def door_segments(maze: Maze, opening: Opening, fab: Fabrication) -> np.ndarray:
    """``(k, 4)`` mm: the boundary wall ``opening`` opens, as centre segments (not mitred)."""
    wall = maze.boundary_wall_of(opening)
    points = _placed(maze.tessellation.boundary_polyline(wall), fab)  # type: ignore[arg-type]
    return np.hstack([points[:-1], points[1:]])


def _opening(maze: Maze, opening: Opening | None, fab: Fabrication) -> dict[str, Any] | None:
    if opening is None:
        return None
    from laby3d.export.scene import _mm

    door = None
    if opening.side is not None:
        door = [[_mm(value) for value in segment] for segment in door_segments(maze, opening, fab).tolist()]
    return {**opening.as_dict(), "door": door}


def shaped_scene_data(
    maze: Maze, fab: Fabrication, *, walk: WalkSpec | None = None, label: str | None = None, lang: str = "en"
) -> dict[str, Any]:
    """The version-4 scene of a maze that is not square, as a JSON-ready dict; ``fab`` as the
    scene states it (:func:`laby3d.export.scene.stated`)."""
    from laby3d.export.scene import FORMAT, SIZE_KEYS, _mm

    t = maze.tessellation
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "units": "mm", "shape": maze.shape, "rows": maze.rows}
    if maze.cols is not None:
        data["cols"] = maze.cols
    data.update({"algorithm": maze.algorithm, "seed": maze.seed, "options": dict(maze.options)})
    data.update({key: _mm(getattr(fab, key)) for key in SIZE_KEYS})
    width, depth = t.extent
    data["size"] = [_mm(width * fab.cell_size + fab.wall_thickness), _mm(depth * fab.cell_size + fab.wall_thickness)]
    data.update({"label": label, "lang": lang})
    data.update(
        {
            "passages": maze.passages.tolist(),
            "entrance": _opening(maze, maze.entrance, fab),
            "exit": _opening(maze, maze.exit, fab),
            "solution": [list(cell) for cell in maze.solution],
            "row_starts": t.row_starts.tolist(),
            "points": _mm_list(_placed(t.vertices, fab)),
            "cell_polygons": _polygons(maze),
            "centres": _mm_list(_placed(t.centres, fab)),
            "passage_middles": _mm_list(_placed(t.wall_midpoints[maze.open_walls], fab)),
            "outline": _outline_ids(maze),
            "walls": _mm_list(shaped_wall_segments(maze, fab)),
        }
    )
    if walk is not None:
        data["walk"] = walk.switches()
    return data


def _polygons(maze: Maze) -> list[list[int]]:
    """Each cell's polygon as point ids."""
    ids, starts = maze.tessellation.polygon_vertices.tolist(), maze.tessellation.polygon_starts.tolist()
    return [ids[a:b] for a, b in zip(starts[:-1], starts[1:], strict=True)]


def _outline_ids(maze: Maze) -> list[int]:
    """Point ids of the outline, once round (each boundary wall's last point is the next's first)."""
    t = maze.tessellation
    keep = np.ones(len(t.boundary_vertices), dtype=bool)
    keep[t.boundary_starts[1:] - 1] = False
    return t.boundary_vertices[keep].tolist()


def read_shaped_scene(data: dict[str, Any]) -> Maze:
    """The maze of a version-4 scene's parsed JSON, validated like a version-2 maze file (the
    ``door`` of each opening set aside)."""
    from laby3d.export.scene import maze_file_data
    from laby3d.maze.mazefile import maze_from_data

    return maze_from_data(maze_file_data(data, MAZE_KEYS, 2))


__all__ = ["VERSION", "mitred_segments", "read_shaped_scene", "shaped_scene_data", "shaped_wall_segments"]
