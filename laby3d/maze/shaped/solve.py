"""Solving a maze of any shape: breadth-first distances over the open walls, the path between
two cells, and the solution as a polyline (pitch units)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from laby3d.accel import kernel

if TYPE_CHECKING:
    from laby3d.maze.shaped.model import ShapedMaze


@kernel(python_ns=2_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _bfs(indptr: np.ndarray, neighbours: np.ndarray, start: int) -> tuple[np.ndarray, np.ndarray]:
    n = indptr.shape[0] - 1
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
        for i in range(indptr[cell], indptr[cell + 1]):
            nxt = neighbours[i]
            if distance[nxt] < 0:
                distance[nxt] = distance[cell] + 1
                parent[nxt] = cell
                queue[tail] = nxt
                tail += 1
    return distance, parent


def passage_adjacency(cell_count: int, passages: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR ``(indptr, neighbours)`` of the cells joined by ``passages`` ``(k, 2)``."""
    source = np.concatenate([passages[:, 0], passages[:, 1]]).astype(np.int64)
    target = np.concatenate([passages[:, 1], passages[:, 0]]).astype(np.int32)
    order = np.argsort(source, kind="stable")
    indptr = np.zeros(cell_count + 1, dtype=np.int64)
    np.cumsum(np.bincount(source, minlength=cell_count), out=indptr[1:])
    return indptr, target[order]


def distances_and_parents(maze: ShapedMaze, start: int) -> tuple[np.ndarray, np.ndarray]:
    """``(C,)`` int32 steps from cell ``start`` (−1 where unreachable) and the BFS parents."""
    indptr, neighbours = passage_adjacency(maze.cell_count, maze.passages)
    return _bfs(indptr, neighbours, start, cells=maze.cell_count)


def path_cells(maze: ShapedMaze, start: int, goal: int) -> np.ndarray:
    """The cells of the unique path from ``start`` to ``goal``, both included (empty when none)."""
    distance, parent = distances_and_parents(maze, start)
    if distance[goal] < 0:
        return np.zeros(0, dtype=np.int64)
    path = np.empty(int(distance[goal]) + 1, dtype=np.int64)
    cell = goal
    for step in range(len(path) - 1, -1, -1):
        path[step] = cell
        cell = parent[cell]
    return path


def solution_cells(maze: ShapedMaze) -> np.ndarray:
    """The path from the entrance's cell to the exit's (empty without both)."""
    if maze.entrance is None or maze.exit is None:
        return np.zeros(0, dtype=np.int64)
    return path_cells(maze, maze.cell_of(maze.entrance), maze.cell_of(maze.exit))


def solution_polyline(maze: ShapedMaze) -> np.ndarray:
    """``(k, 2)`` points (pitch units): from the middle of the entrance's boundary wall, through
    each solution cell's centre and the middle of each wall crossed, to the exit's wall."""
    tessellation = maze.tessellation
    cells = maze.solution_cells
    if not len(cells):
        return np.zeros((0, 2))
    from laby3d.maze.shaped.model import wall_indices

    crossed = wall_indices(tessellation, np.stack([cells[:-1], cells[1:]], axis=1))
    points = np.empty((2 * len(cells) - 1, 2))
    points[0::2] = tessellation.centres[cells]
    points[1::2] = tessellation.wall_midpoints[crossed]
    ends = [maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)]
    first = [tessellation.boundary_midpoints[ends[0]]] if ends[0] is not None else []
    last = [tessellation.boundary_midpoints[ends[1]]] if ends[1] is not None else []
    return np.concatenate([np.reshape(first, (-1, 2)), points, np.reshape(last, (-1, 2))])
