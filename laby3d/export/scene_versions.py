"""What scene files of earlier versions hold, so that they still read back checked to the last
number (docs/scene-format.md, "Versions"). laby3d writes version 5 only.

- Versions 2 and 3 hold square mazes only, as the version-1 maze file's bit masks: their walls
  are runs of the square lattice (version 2: rectangles; version 3: centre segments), their
  doors the gap between two posts. This is square by nature, so it reads ``maze.grid``.
- Version 4 holds theta, hex and triangle mazes as version 5 does, its tables as lists of
  ``[x, z]`` pairs (the passages as pairs, each cell's polygon as a list) and its walls segment
  by segment (not joined into straight runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.maze.grid import E, N, S, W

if TYPE_CHECKING:
    from laby3d.geometry.params import Fabrication
    from laby3d.maze.model import Maze, Opening

#: Keys of the version-1 maze file that versions 2 and 3 repeat (docs/maze-file.md).
GRID_MAZE_KEYS = ("rows", "cols", "algorithm", "seed", "options", "cells", "entrance", "exit", "solution")
#: Every key of versions 2 and 3, in the order version 3 writes them.
GRID_KEYS = {
    2: ("format", "version", "units", *GRID_MAZE_KEYS, "cell_size", "wall_thickness", "wall_height", "size", "walls"),
    3: (
        *("format", "version", "units", *GRID_MAZE_KEYS, "cell_size", "wall_thickness", "wall_height"),
        *("base_thickness", "margin", "size", "label", "lang", "walls"),
    ),
}
#: Tables version 4 writes as lists of ``[x, z]`` pairs (version 5: one flat list of numbers).
PAIRED = ("points", "centres", "passage_middles")


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


def grid_wall_boxes(maze: Maze, fab: Fabrication) -> list[list[float | int]]:
    """Version 2 and 3's wall rectangles ``[x0, z0, x1, z1]`` (mm), never overlapping: one per
    straight west-east run of closed walls with its end posts, one per north-south run (its end
    posts only where no west-east run covers them), then one per post that no wall touches."""
    s, t = fab.cell_size, fab.wall_thickness
    grid = maze.grid
    rows, cols, cells = grid.rows, grid.cols, grid.cells
    horizontal = np.vstack([(cells & N) == 0, (cells[-1:] & S) == 0])
    vertical = np.hstack([(cells & W) == 0, (cells[:, -1:] & E) == 0]).T
    crossed = np.zeros((rows + 1, cols + 1), dtype=bool)
    crossed[:, :-1] |= horizontal
    crossed[:, 1:] |= horizontal
    walls: list[list[float | int]] = []
    for i, j0, j1 in _runs(horizontal):
        walls.append([_mm(j0 * s), _mm(i * s), _mm(j1 * s + t), _mm(i * s + t)])
    along = np.zeros((cols + 1, 2 * rows + 1), dtype=bool)  # element 2i: post i, 2i + 1: segment i
    along[:, 1::2] = vertical
    along[:, 2:-1:2] = vertical[:, :-1] | vertical[:, 1:]
    along[:, 0] = vertical[:, 0]
    along[:, -1] = vertical[:, -1]
    along[:, ::2] &= ~crossed.T
    element = np.arange(2 * rows + 1)
    starts = element // 2 * s + element % 2 * t
    ends = (element + 1) // 2 * s + (element + 1) % 2 * t
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


def grid_door(opening: Opening, fab: Fabrication) -> list[float | int]:
    """The gap ``[x0, z0, x1, z1]`` (mm) an opening leaves between two posts of the border."""
    s, t = fab.cell_size, fab.wall_thickness
    x, z = opening.col * s, opening.row * s
    gap = {
        "N": (x + t, z, x + s, z + t),
        "S": (x + t, z + s, x + s, z + s + t),
        "W": (x, z + t, x + t, z + s),
        "E": (x + s, z + t, x + s + t, z + s),
    }[opening.side or "N"]
    return [_mm(v) for v in gap]


def grid_geometry(maze: Maze, fab: Fabrication, version: int) -> dict[str, Any]:
    """The geometry keys a version-2 or -3 scene of a square ``maze`` holds (``fab`` as stated)."""
    boxes = grid_wall_boxes(maze, fab)

    def opening(value: Opening | None) -> dict[str, Any] | None:
        if value is None:
            return None
        gap = grid_door(value, fab) if value.side else None
        return {**value.as_dict(), "door": centre_line(gap) if gap and version >= 3 else gap}

    grid = maze.grid
    return {
        "size": [
            _mm(grid.cols * fab.cell_size + fab.wall_thickness),
            _mm(grid.rows * fab.cell_size + fab.wall_thickness),
        ],
        "walls": [centre_line(box) for box in boxes] if version >= 3 else boxes,
        "entrance": opening(maze.entrance),
        "exit": opening(maze.exit),
    }


def _pairs(flat: list[Any], width: int) -> list[list[Any]]:
    return [flat[k : k + width] for k in range(0, len(flat), width)]


def version_4(data: dict[str, Any], maze: Maze, fab: Fabrication) -> dict[str, Any]:
    """Version 4's geometry keys from a version-5 scene ``data`` of the same ``maze`` and sizes:
    pairs for flat tables, walls and doors segment by segment."""
    from laby3d.export.scene_geometry import wall_segments

    old: dict[str, Any] = {key: _pairs(data[key], 2) for key in PAIRED}
    old["outline"] = data["floor"]
    starts = data["polygon_starts"]
    old["cell_polygons"] = [data["cell_polygons"][a:b] for a, b in zip(starts[:-1], starts[1:], strict=True)]
    old["walls"] = np.round(wall_segments(maze, fab, runs=False), 3).tolist()
    for name in ("entrance", "exit"):
        opening = data[name]
        old[name] = opening and {**opening, "door": opening["door"] and _pairs(opening["door"], 4)}
    return old


__all__ = ["GRID_KEYS", "GRID_MAZE_KEYS", "grid_geometry", "version_4"]
