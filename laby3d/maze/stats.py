"""Statistics of a maze: dead ends, junctions, straights, turns, solution and longest path."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.maze.model import E, N, S, W, interior_only
from laby3d.maze.solve import distance_map

if TYPE_CHECKING:
    from laby3d.maze.model import Maze

_POPCOUNT = np.array([bin(mask).count("1") for mask in range(16)], dtype=np.int8)


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

    def as_dict(self) -> dict[str, Any]:
        """Plain dict, for JSON."""
        return asdict(self)


def longest_path(maze: Maze) -> int:
    """Cells on the longest path of the maze (its diameter plus one), by two sweeps."""
    first = distance_map(maze, (0, 0))
    far = np.unravel_index(int(np.argmax(first)), first.shape)
    return int(distance_map(maze, (int(far[0]), int(far[1]))).max()) + 1


def maze_stats(maze: Maze) -> MazeStats:
    """The statistics of ``maze``."""
    cells = interior_only(maze.cells)
    degree = _POPCOUNT[cells]
    straight = (cells == (N | S)) | (cells == (E | W))
    n = maze.cell_count
    dead_ends = int((degree == 1).sum())
    solution = len(maze.solution)
    return MazeStats(
        cells=n,
        dead_ends=dead_ends,
        dead_end_percent=round(100.0 * dead_ends / n, 2),
        junctions=int((degree >= 3).sum()),
        straights=int(straight.sum()),
        turns=int(((degree == 2) & ~straight).sum()),
        solution_length=solution,
        solution_percent=round(100.0 * solution / n, 2),
        longest_path=longest_path(maze),
    )


def algorithm_table(rows: int, cols: int, *, seeds: int = 20) -> str:
    """A text table of mean statistics per algorithm over seeds ``0..seeds-1``."""
    from laby3d.maze.algorithms import ALGORITHMS
    from laby3d.maze.generate import generate

    columns = ("dead ends %", "junctions %", "straights %", "turns %", "solution %", "longest")
    header = f"{'algorithm':19}" + "".join(f" {name:>11}" for name in columns)
    lines = [f"{rows}×{cols}, mean of {seeds} seeds", header, "-" * len(header)]
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
        lines.append(f"{name:19}" + "".join(f" {value:11.1f}" for value in values))
    return "\n".join(lines)
