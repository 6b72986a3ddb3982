"""Solving: breadth-first distances over the open walls, and the entrance-to-exit path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.sides import BITS, COL_STEPS, ROW_STEPS, outward

if TYPE_CHECKING:
    from laby3d.maze.model import Maze


@kernel(python_ns=4_200)  # ns per cell as Python: bench/bench_jit.py
def _bfs(cells: np.ndarray, rows: int, cols: int, start: int) -> tuple[np.ndarray, np.ndarray]:
    n = rows * cols
    distance = np.full(n, -1, dtype=np.int32)
    parent = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    queue[0] = start
    distance[start] = 0
    head = 0
    tail = 1
    while head < tail:
        cell = queue[head]
        head += 1
        bits = cells[cell]
        row = cell // cols
        col = cell % cols
        for k in range(4):
            r = row + ROW_STEPS[k]
            c = col + COL_STEPS[k]
            if bits & BITS[k] and 0 <= r < rows and 0 <= c < cols:
                nxt = r * cols + c
                if distance[nxt] < 0:
                    distance[nxt] = distance[cell] + 1
                    parent[nxt] = cell
                    queue[tail] = nxt
                    tail += 1
    return distance, parent


def distances_and_parents(maze: Maze, start: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, cols)`` steps from ``start`` (−1 where unreachable) and the flat BFS parent array."""
    distance, parent = _bfs(
        maze.cells.ravel(), maze.rows, maze.cols, start[0] * maze.cols + start[1], cells=maze.cell_count
    )
    return distance.reshape(maze.rows, maze.cols), parent


def distance_map(maze: Maze, start: tuple[int, int] | None = None) -> np.ndarray:
    """``(rows, cols)`` int32 number of steps from ``start`` (default: the entrance, else (0, 0));
    a maze or cell of the wrong kind raises :class:`laby3d.errors.ParameterError` naming it.

    >>> import laby3d
    >>> laby3d.distance_map(laby3d.generate(1, 3, seed=1)).tolist()
    [[0, 1, 2]]
    """
    from laby3d.maze.model import check_maze

    check_maze(maze)
    if start is None:
        start = (maze.entrance.row, maze.entrance.col) if maze.entrance else (0, 0)
    return distances_and_parents(maze, checked_cell(start, maze, "start"))[0]


def checked_cell(cell: Any, maze: Maze, name: str) -> tuple[int, int]:
    """``cell`` as a ``(row, col)`` pair of Python integers inside ``maze``; raises
    :class:`laby3d.errors.ParameterError` naming ``name`` otherwise."""
    from laby3d.errors import ParameterError
    from laby3d.maze.model import is_integer
    from laby3d.quoting import shown

    try:
        row, col = cell
    except (TypeError, ValueError):
        raise ParameterError(f"must be a (row, col) pair, got {shown(cell)}", field=name) from None
    if not (is_integer(row) and is_integer(col) and 0 <= row < maze.rows and 0 <= col < maze.cols):
        raise ParameterError(
            f"must be a cell (row, col) with row in 0..{maze.rows - 1} and col in 0..{maze.cols - 1}, "
            f"got {shown(cell)}",
            field=name,
        )
    return int(row), int(col)


def path_between(maze: Maze, start: tuple[int, int], goal: tuple[int, int]) -> list[tuple[int, int]]:
    """The unique path of cells from ``start`` to ``goal``, both included."""
    _, parent = distances_and_parents(maze, start)
    cell = goal[0] * maze.cols + goal[1]
    path = [cell]
    while parent[cell] >= 0:
        cell = int(parent[cell])
        path.append(cell)
    return [(int(c) // maze.cols, int(c) % maze.cols) for c in reversed(path)]


def solve(maze: Maze) -> list[tuple[int, int]]:
    """The path from the entrance to the exit (empty when the maze has no entrance or exit)."""
    if maze.entrance is None or maze.exit is None:
        return []
    return path_between(maze, (maze.entrance.row, maze.entrance.col), (maze.exit.row, maze.exit.col))


def solution_polyline(maze: Maze) -> np.ndarray:
    """``(k, 2)`` points (x, y) through the solution's cell centres, out through the openings."""
    points = [(c + 0.5, r + 0.5) for r, c in maze.solution]
    if maze.entrance and maze.entrance.side and points:
        dx, dy = outward(maze.entrance.side)
        points.insert(0, (points[0][0] + dx / 2, points[0][1] + dy / 2))
    if maze.exit and maze.exit.side and points:
        dx, dy = outward(maze.exit.side)
        points.append((points[-1][0] + dx / 2, points[-1][1] + dy / 2))
    return np.array(points, dtype=float).reshape(-1, 2)
