"""Closed walls on the lattice of cell corners, and their merged straight runs.

Lattice point ``(i, j)`` is the top-left corner of cell ``(i, j)``; there are
``(rows + 1) × (cols + 1)`` of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.maze.model import E, N, S, W

if TYPE_CHECKING:
    from laby3d.maze.model import Maze


def wall_lattice(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """Closed walls: horizontal ``(rows + 1, cols)`` and vertical ``(rows, cols + 1)`` bool.

    ``horizontal[i, j]`` joins lattice points ``(i, j)`` and ``(i, j + 1)``;
    ``vertical[i, j]`` joins ``(i, j)`` and ``(i + 1, j)``. Border walls are included, with the
    entrance and exit left open.
    """
    cells = maze.cells
    horizontal = np.concatenate([(cells & N) == 0, ((cells[-1:] & S) == 0)], axis=0)
    vertical = np.concatenate([(cells & W) == 0, ((cells[:, -1:] & E) == 0)], axis=1)
    return horizontal, vertical


def _runs_along_rows(mask: np.ndarray) -> np.ndarray:
    """Maximal runs of True along each row of ``mask``: ``(k, 3)`` int64 rows (row, start, stop)."""
    padded = np.zeros((mask.shape[0], mask.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = mask
    change = np.diff(padded, axis=1)
    start_rows, starts = np.nonzero(change == 1)
    _, stops = np.nonzero(change == -1)
    return np.stack([start_rows, starts, stops], axis=1)


def wall_runs(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """Closed walls merged into maximal straight runs, in lattice units.

    Returns ``horizontal`` rows ``(i, j0, j1)`` (from lattice point (i, j0) to (i, j1)) and
    ``vertical`` rows ``(j, i0, i1)`` (from (i0, j) to (i1, j)), each ``(k, 3)`` int64.
    """
    horizontal, vertical = wall_lattice(maze)
    return _runs_along_rows(horizontal), _runs_along_rows(vertical.T)


def wall_segments(maze: Maze) -> np.ndarray:
    """``(k, 2, 2)`` wall runs as (x, y) end points in cell units (x = column, y = row)."""
    return lattice_segments(*wall_lattice(maze))


def lattice_segments(horizontal: np.ndarray, vertical: np.ndarray) -> np.ndarray:
    """``(k, 2, 2)`` maximal runs of the walls marked in ``horizontal`` ``(rows + 1, cols)`` and
    ``vertical`` ``(rows, cols + 1)`` (as :func:`wall_lattice` gives them), as (x, y) end points
    in cell units."""
    horizontal, vertical = _runs_along_rows(horizontal), _runs_along_rows(vertical.T)
    h = np.stack([horizontal[:, [1, 0]], horizontal[:, [2, 0]]], axis=1)
    v = np.stack([vertical[:, [0, 1]], vertical[:, [0, 2]]], axis=1)
    return np.concatenate([h, v]).astype(float)
