"""Independent checks of maze invariants, written without laby3d's own solver."""

from __future__ import annotations

from collections import deque

import numpy as np

from laby3d.maze.model import SIDE_BITS, Maze

STEP = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def open_neighbours(maze: Maze, row: int, col: int) -> list[tuple[int, int]]:
    """Cells reachable in one step, read from the bit masks (both sides must agree)."""
    result = []
    for side, (dr, dc) in STEP.items():
        r, c = row + dr, col + dc
        if 0 <= r < maze.rows and 0 <= c < maze.cols and maze.cells[row, col] & SIDE_BITS[side]:
            assert maze.cells[r, c] & SIDE_BITS[OPPOSITE[side]], f"one-sided wall at {(row, col)} {side}"
            result.append((r, c))
    return result


def distances(maze: Maze, start: tuple[int, int]) -> dict[tuple[int, int], int]:
    """Steps from ``start`` to every reachable cell, by a plain BFS over :func:`open_neighbours`."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for other in open_neighbours(maze, *cell):
            if other not in seen:
                seen[other] = seen[cell] + 1
                queue.append(other)
    return seen


def assert_perfect(maze: Maze) -> None:
    """Spanning tree: rows·cols − 1 passages, closed walls (rows−1)(cols−1), connected, border closed."""
    rows, cols = maze.rows, maze.cols
    edges = sum(len(open_neighbours(maze, r, c)) for r in range(rows) for c in range(cols)) // 2
    assert edges == rows * cols - 1
    assert 2 * rows * cols - rows - cols - edges == (rows - 1) * (cols - 1)
    seen = {(0, 0)}
    queue = deque([(0, 0)])
    while queue:
        for cell in open_neighbours(maze, *queue.popleft()):
            if cell not in seen:
                seen.add(cell)
                queue.append(cell)
    assert len(seen) == rows * cols, "not connected"
    border = np.zeros_like(maze.cells)
    border[0, :] |= SIDE_BITS["N"]
    border[-1, :] |= SIDE_BITS["S"]
    border[:, 0] |= SIDE_BITS["W"]
    border[:, -1] |= SIDE_BITS["E"]
    expected = np.zeros_like(maze.cells)
    for opening in (maze.entrance, maze.exit):
        if opening is not None and opening.side is not None:
            expected[opening.row, opening.col] |= SIDE_BITS[opening.side]
    assert ((maze.cells & border) == expected).all(), "border open outside entrance and exit"


def assert_solution(maze: Maze) -> None:
    """The solution runs from the entrance to the exit through open walls, without repeats."""
    path = maze.solution
    assert path[0] == (maze.entrance.row, maze.entrance.col)
    assert path[-1] == (maze.exit.row, maze.exit.col)
    assert len(set(path)) == len(path)
    for a, b in zip(path, path[1:], strict=False):
        assert b in open_neighbours(maze, *a), f"solution steps through a wall {a} -> {b}"
