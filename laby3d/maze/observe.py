"""Watching generation step by step: the maze after the first k passages were opened."""

from __future__ import annotations

import numpy as np

from laby3d.errors import ParameterError
from laby3d.maze.model import Maze


def _checked_order(maze: Maze, steps: int) -> np.ndarray:
    if maze.carve_order is None:
        raise ParameterError("this maze has no recorded generation steps (it was read from a file)")
    total = len(maze.carve_order)
    if not 0 <= steps <= total:
        raise ParameterError(f"steps must be in 0..{total}, got {steps}")
    return maze.carve_order[:steps]


def partial_maze(maze: Maze, steps: int) -> Maze:
    """The maze with only its first ``steps`` passages open (no entrance or exit)."""
    return Maze.from_passages(maze.rows, maze.cols, _checked_order(maze, steps))


def set_labels(maze: Maze, steps: int) -> np.ndarray:
    """``(rows, cols)`` set number of every cell after ``steps`` passages (Kruskal's sets).

    Sets are numbered 0, 1, ... in row-major order of their first cell.
    """
    order = _checked_order(maze, steps)
    parent = list(range(maze.cell_count))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for a, b in order.tolist():
        parent[root(a)] = root(b)
    roots = np.array([root(cell) for cell in range(maze.cell_count)])
    _, first_seen = np.unique(roots, return_index=True)
    number = {int(roots[i]): rank for rank, i in enumerate(sorted(first_seen))}
    return np.array([number[int(r)] for r in roots]).reshape(maze.rows, maze.cols)
