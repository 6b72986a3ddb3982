"""Conversions for classroom code: rows of side dicts, and the (2·rows+1)×(2·cols+1) 0/1 grid.

The classroom form is the class exercise's ``Labyrinthe``: a list of rows, each a list of cells,
each cell a dict of its sides ``N``, ``E``, ``S``, ``O`` (ouest) with True where the side is open,
optionally with the cell's zone number (see :mod:`laby3d.maze.observe`).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from laby3d.errors import MazeFileError, ParameterError
from laby3d.maze.mazefile import check_perfect, check_symmetric
from laby3d.maze.model import SIDE_BITS, E, Maze, N, S, W, check_maze, check_size, interior_only

_ALIASES = {"O": "W"}  # "ouest"
#: The key of a cell's zone number in the classroom form.
ZONE_KEY = "zone"


def to_classroom(
    maze: Maze, *, west: Literal["O", "W"] = "O", zones: np.ndarray | None = None
) -> list[list[dict[str, Any]]]:
    """Rows of ``{"N": bool, "E": bool, "S": bool, "O": bool}`` (True = open side).

    ``west`` names the west key (the exercise's ``"O"``, or ``"W"``); ``zones`` (``(rows,
    cols)`` ints, e.g. :func:`laby3d.maze.observe.zone_numbers`) adds ``"zone": number``.

    >>> import laby3d
    >>> maze = laby3d.generate(1, 2, seed=1)   # entrance W of (0, 0), exit E of (0, 1)
    >>> to_classroom(maze)
    [[{'N': False, 'E': True, 'S': False, 'O': True}, {'N': False, 'E': True, 'S': False, 'O': True}]]
    >>> to_classroom(maze, west="W", zones=np.array([[4, 4]]))[0][1]
    {'N': False, 'E': True, 'S': False, 'W': True, 'zone': 4}
    """
    check_maze(maze)
    if west not in ("O", "W"):
        raise ParameterError(f"must be 'O' or 'W', got {west!r}", field="west")
    if zones is not None and np.shape(zones) != (maze.rows, maze.cols):
        raise ParameterError(f"must be {maze.rows} × {maze.cols}, got {np.shape(zones)}", field="zones")
    names = {side: (west if side == "W" else side) for side in SIDE_BITS}
    rows: list[list[dict[str, Any]]] = [
        [{names[side]: bool(mask & bit) for side, bit in SIDE_BITS.items()} for mask in row]
        for row in maze.cells.tolist()
    ]
    if zones is not None:
        for row, numbers in zip(rows, np.asarray(zones).tolist(), strict=True):
            for cell, number in zip(row, numbers, strict=True):
                cell[ZONE_KEY] = int(number)
    return rows


def from_classroom(rows_of_dicts: list[list[dict[str, Any]]]) -> Maze:
    """A maze from rows of side dicts (``"O"`` or ``"W"`` for west); border openings and zone
    numbers are ignored (the zones are known from the passages)."""
    if not isinstance(rows_of_dicts, list) or not rows_of_dicts or not isinstance(rows_of_dicts[0], list):
        raise MazeFileError("expected a non-empty list of rows, each a list of dicts")
    rows, cols = len(rows_of_dicts), len(rows_of_dicts[0])
    cells = np.zeros((rows, cols), dtype=np.uint8)
    for r, row in enumerate(rows_of_dicts):
        if not isinstance(row, list) or len(row) != cols:
            raise MazeFileError(f"row {r} must hold {cols} cells")
        for c, sides in enumerate(row):
            if not isinstance(sides, dict):
                raise MazeFileError(f"cell ({r}, {c}) must be a dict of sides")
            for key, value in sides.items():
                if key == ZONE_KEY:
                    continue
                side = _ALIASES.get(key, key)
                if side not in SIDE_BITS:
                    raise MazeFileError(f"cell ({r}, {c}) has an unknown side {key!r} (N, E, S, O or W)")
                if value:
                    cells[r, c] |= SIDE_BITS[side]
    return _checked(rows, cols, interior_only(cells))


def to_grid(maze: Maze) -> np.ndarray:
    """``(2·rows+1, 2·cols+1)`` uint8 grid, 1 = wall (entrance and exit left open)."""
    check_maze(maze)
    grid = np.ones((2 * maze.rows + 1, 2 * maze.cols + 1), dtype=np.uint8)
    cells = maze.cells
    grid[1::2, 1::2] = 0
    grid[1::2, 2::2] = (cells & E) == 0
    grid[1::2, 0] = (cells[:, 0] & W) == 0
    grid[2::2, 1::2] = (cells & S) == 0
    grid[0, 1::2] = (cells[0, :] & N) == 0
    return grid


def from_grid(grid: np.ndarray) -> Maze:
    """A maze from a ``(2·rows+1, 2·cols+1)`` 0/1 grid (1 = wall); border openings ignored."""
    grid = np.asarray(grid)
    if grid.ndim != 2 or grid.shape[0] % 2 == 0 or grid.shape[1] % 2 == 0 or min(grid.shape) < 3:
        raise MazeFileError(f"grid must be (2·rows+1) × (2·cols+1) with odd sides >= 3, got {grid.shape}")
    rows, cols = grid.shape[0] // 2, grid.shape[1] // 2
    check_size(rows, cols)
    if grid[1::2, 1::2].any():
        r, c = (int(v) for v in np.argwhere(grid[1::2, 1::2])[0])
        raise MazeFileError(f"grid marks cell ({r}, {c}) itself as a wall")
    cells = np.zeros((rows, cols), dtype=np.uint8)
    open_east = grid[1::2, 2:-1:2] == 0
    open_south = grid[2:-1:2, 1::2] == 0
    cells[:, :-1] |= np.where(open_east, E, 0).astype(np.uint8)
    cells[:, 1:] |= np.where(open_east, W, 0).astype(np.uint8)
    cells[:-1, :] |= np.where(open_south, S, 0).astype(np.uint8)
    cells[1:, :] |= np.where(open_south, N, 0).astype(np.uint8)
    return _checked(rows, cols, cells)


def _checked(rows: int, cols: int, cells: np.ndarray) -> Maze:
    check_symmetric(cells)
    maze = Maze(rows, cols, cells)
    check_perfect(maze)
    return maze
