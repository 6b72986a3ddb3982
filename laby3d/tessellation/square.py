"""The square grid: today's mazes. Cell ``(row, col)`` has index ``row·cols + col``; its corners
are lattice points ``(row, col)`` to ``(row + 1, col + 1)`` at x = column, y = row, so its walls
are exactly those of :mod:`laby3d.maze.walls`. The cell size is the side of a square."""

from __future__ import annotations

import numpy as np

from laby3d.tessellation.base import CellGraph, CellLayout, Shape, frozen, lattice_layout, sorted_pairs


def square_graph(rows: int, cols: int) -> CellGraph:
    """Cells ``rows × cols``; east and south neighbours."""
    index = np.arange(rows * cols, dtype=np.int64).reshape(rows, cols)
    first = np.concatenate([index[:, :-1].ravel(), index[:-1, :].ravel()])
    second = np.concatenate([index[:, 1:].ravel(), index[1:, :].ravel()])
    return CellGraph(rows * cols, sorted_pairs(first, second), frozen(np.arange(rows + 1) * cols, np.int64))


def square_layout(rows: int, cols: int) -> CellLayout:
    """Unit squares, corners in the order top-left, top-right, bottom-right, bottom-left."""
    row, col = np.divmod(np.arange(rows * cols, dtype=np.int64), cols)
    keys = np.stack(
        [
            np.stack([row, col], 1),
            np.stack([row, col + 1], 1),
            np.stack([row + 1, col + 1], 1),
            np.stack([row + 1, col], 1),
        ],
        axis=1,
    )
    return lattice_layout(keys, (1.0, 1.0), np.stack([col + 0.5, row + 0.5], axis=1))


SQUARE = Shape(
    name="square",
    description="the square grid, rows × cols",
    graph=square_graph,
    layout=square_layout,
    side_angles={"E": 0.0, "S": 90.0, "W": 180.0, "N": 270.0},
    max_rows=2000,
    max_cols=2000,
)
