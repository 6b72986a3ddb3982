"""Statistics of a maze: dead ends, junctions, straights, turns, solution and longest path.

A cell's degree counts its open interior walls (entrance and exit aside). A *straight* is a cell
of degree 2 whose two passages leave in nearly opposite directions: the directions from its
centre to the middles of the two open walls are at least :data:`STRAIGHT_DEGREES` apart (opposite
sides of a square or a hexagon, across or along a theta ring away from the centre; a triangle
has none); every other cell of degree 2 is a *turn*.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.maze.solve import distances_and_parents

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

#: Least angle between the two passages of a straight cell, degrees.
STRAIGHT_DEGREES = 155.0


@dataclass(frozen=True)
class MazeStats:
    """Counts over the cells (passages between cells only; entrance and exit openings aside)."""

    cells: int
    dead_ends: int
    dead_end_percent: float
    junctions: int
    straights: int
    turns: int
    solution_length: int
    solution_percent: float
    longest_path: int
    #: Loops: passages − cells + 1 (0 for a perfect maze).
    loops: int = 0
    #: Shortest routes from the entrance to the exit (1 for a perfect maze; 0 without both).
    shortest_routes: int = 1

    def as_dict(self) -> dict[str, Any]:
        """Plain dict, for JSON."""
        return asdict(self)


def shortest_routes(maze: Maze) -> int:
    """How many shortest routes lead from the entrance's cell to the exit's (counted along the
    breadth-first layers: a cell's count is the sum of its counts one step nearer the entrance)."""
    if maze.entrance is None or maze.exit is None:
        return 0
    start, goal = maze.cell_of(maze.entrance), maze.cell_of(maze.exit)
    distance, _ = distances_and_parents(maze, start)
    indptr, neighbours = maze.adjacency
    counts = np.zeros(maze.cell_count, dtype=object)  # Python integers: the counts grow fast
    counts[start] = 1
    for cell in np.argsort(distance, kind="stable").tolist():
        if distance[cell] <= 0:
            continue
        nearer = neighbours[indptr[cell] : indptr[cell + 1]]
        counts[cell] = sum(counts[nearer[distance[nearer] == distance[cell] - 1]])
    return int(counts[goal])


def longest_path(maze: Maze) -> int:
    """Cells on the longest path of the maze (its diameter plus one), by two sweeps (in a maze
    with loops: the longest of the shortest paths from the farthest cell)."""
    first, _ = distances_and_parents(maze, 0)
    second, _ = distances_and_parents(maze, int(np.argmax(first)))
    return int(second.max()) + 1


def straight_cells(maze: Maze) -> np.ndarray:
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


def maze_stats(maze: Maze) -> MazeStats:
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
        loops=maze.passage_count - n + 1,
        shortest_routes=shortest_routes(maze)
        if maze.braid
        else int(maze.entrance is not None and maze.exit is not None),
    )


def algorithm_table(rows: int, cols: int, *, seeds: int = 20, lang: str = "en") -> str:
    """A text table of mean statistics per algorithm over seeds ``0..seeds-1``, in ``lang``."""
    from laby3d.i18n.formatting import number_text
    from laby3d.i18n.terminal import said
    from laby3d.maze.algorithms import ALGORITHMS
    from laby3d.maze.generate import generate

    columns = [said(name, lang) for name in ("dead ends %", "junctions %", "straights %", "turns %", "solution %")]
    columns.append(said("longest", lang))
    widths = [max(11, len(name)) for name in columns]
    header = f"{said('algorithm', lang):19}" + "".join(
        f" {name:>{width}}" for name, width in zip(columns, widths, strict=True)
    )
    title = said("table_title", lang).format(size=f"{rows}×{cols}", seeds=seeds)
    lines = [title, header, "-" * len(header)]
    n = rows * cols
    for name in ALGORITHMS:
        samples = [generate(rows, cols, algorithm=name, seed=seed).stats() for seed in range(seeds)]
        means = {
            field: float(np.mean([getattr(s, field) for s in samples])) for field in MazeStats.__dataclass_fields__
        }
        values = (
            means["dead_end_percent"],
            100 * means["junctions"] / n,
            100 * means["straights"] / n,
            100 * means["turns"] / n,
            means["solution_percent"],
            means["longest_path"],
        )
        shown = [number_text(value, lang, digits=1) for value in values]
        lines.append(f"{name:19}" + "".join(f" {text:>{width}}" for text, width in zip(shown, widths, strict=True)))
    return "\n".join(lines)
