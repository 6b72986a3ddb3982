"""Statistics of a maze of any shape, in the same :class:`laby3d.maze.stats.MazeStats` as the
square grid's.

A cell's degree counts its open interior walls (entrance and exit aside). A *straight* is a cell
of degree 2 whose two passages leave in nearly opposite directions: the directions from its
centre to the middles of the two open walls are at least :data:`STRAIGHT_DEGREES` apart (opposite
sides of a square or a hexagon, across or along a theta ring away from the centre; a triangle
has none); every other cell of degree 2 is a *turn*.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from laby3d.maze.shaped.solve import distances_and_parents
from laby3d.maze.stats import MazeStats

if TYPE_CHECKING:
    from laby3d.maze.shaped.model import ShapedMaze

#: Least angle between the two passages of a straight cell, degrees.
STRAIGHT_DEGREES = 155.0


def longest_path(maze: ShapedMaze) -> int:
    """Cells on the longest path of the maze (its diameter plus one), by two sweeps."""
    first, _ = distances_and_parents(maze, 0)
    second, _ = distances_and_parents(maze, int(np.argmax(first)))
    return int(second.max()) + 1


def straight_cells(maze: ShapedMaze) -> np.ndarray:
    """``(C,)`` bool: cells of degree 2 whose passages are at least :data:`STRAIGHT_DEGREES` apart."""
    tessellation = maze.tessellation
    cells = tessellation.cell_count
    walls = np.flatnonzero(maze.open_walls)
    ends = tessellation.edges[walls].astype(np.int64)
    owner = ends.T.ravel()
    middle = np.tile(tessellation.wall_midpoints[walls], (2, 1))
    direction = middle - tessellation.centres[owner]
    direction /= np.linalg.norm(direction, axis=1, keepdims=True)
    degree = np.bincount(owner, minlength=cells)
    order = np.argsort(owner, kind="stable")
    firsts = np.zeros(cells + 1, dtype=np.int64)
    np.cumsum(degree, out=firsts[1:])
    two = np.flatnonzero(degree == 2)
    a, b = direction[order[firsts[two]]], direction[order[firsts[two] + 1]]
    straight = np.zeros(cells, dtype=bool)
    straight[two] = np.einsum("ij,ij->i", a, b) <= math.cos(math.radians(STRAIGHT_DEGREES))
    return straight


def shaped_stats(maze: ShapedMaze) -> MazeStats:
    """The statistics of ``maze``."""
    n = maze.cell_count
    degree = np.bincount(maze.passages.ravel(), minlength=n)
    straights = int(straight_cells(maze).sum())
    dead_ends = int((degree == 1).sum())
    solution = len(maze.solution_cells)
    return MazeStats(
        cells=n,
        dead_ends=dead_ends,
        dead_end_percent=round(100.0 * dead_ends / n, 2),
        junctions=int((degree >= 3).sum()),
        straights=straights,
        turns=int((degree == 2).sum()) - straights,
        solution_length=solution,
        solution_percent=round(100.0 * solution / n, 2),
        longest_path=longest_path(maze),
    )
