"""Solving: breadth-first distances over the open walls, the path between two cells, and the
solution as a polyline (pitch units).

In a perfect maze the path between two cells is unique; in a maze with loops (braided) the
breadth-first search gives a shortest one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel

if TYPE_CHECKING:
    from laby3d.maze.model import Maze


#: The numpy path's cost, ns per cell (a stable argsort of the pairs' ends: 0.3 s at 1000×1000),
#: which the compiled counting sort beats once numba's start-up is paid.
@kernel(python_ns=300)
def _adjacency(cell_count: int, first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """CSR of the undirected pairs ``(first[i], second[i])`` by a counting sort (linear in their
    number); compiled only (see :func:`passage_adjacency`). Each cell's neighbours in the numpy
    path's order: its pairs as ``first`` in order, then as ``second`` (a maze with loops has
    several shortest routes, and the search takes the first found)."""
    indptr = np.zeros(cell_count + 1, dtype=np.int64)
    for i in range(first.shape[0]):
        indptr[first[i] + 1] += 1
        indptr[second[i] + 1] += 1
    for cell in range(cell_count):
        indptr[cell + 1] += indptr[cell]
    fill = indptr[:-1].copy()
    neighbours = np.empty(2 * first.shape[0], dtype=np.int32)
    for i in range(first.shape[0]):
        neighbours[fill[first[i]]] = second[i]
        fill[first[i]] += 1
    for i in range(first.shape[0]):
        neighbours[fill[second[i]]] = first[i]
        fill[second[i]] += 1
    return indptr, neighbours


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
    """CSR ``(indptr, neighbours)`` of the cells joined by ``passages`` ``(k, 2)``: a compiled
    counting sort for large mazes once numba is loaded, else numpy's stable argsort."""
    pairs = np.asarray(passages, dtype=np.int64).reshape(-1, 2)
    if _adjacency.compiles_for(cell_count):
        return _adjacency(cell_count, pairs[:, 0], pairs[:, 1], cells=cell_count)
    source = np.concatenate([pairs[:, 0], pairs[:, 1]])
    target = np.concatenate([pairs[:, 1], pairs[:, 0]]).astype(np.int32)
    indptr = np.zeros(cell_count + 1, dtype=np.int64)
    np.cumsum(np.bincount(source, minlength=cell_count), out=indptr[1:])
    return indptr, target[np.argsort(source, kind="stable")]


def distances_and_parents(maze: Maze, start: int) -> tuple[np.ndarray, np.ndarray]:
    """``(C,)`` int32 steps from cell ``start`` (−1 where unreachable) and the BFS parents."""
    indptr, neighbours = maze.adjacency
    return _bfs(indptr, neighbours, start, cells=maze.cell_count)


def distance_map(maze: Maze, start: tuple[int, int] | None = None) -> np.ndarray:
    """Steps from ``start`` to every cell along the maze.

    Parameters
    ----------
    maze : Maze
        Any maze.
    start : (row, col), optional
        The cell counted from (default: the entrance's cell, else cell (0, 0)).

    Returns
    -------
    ndarray of int32
        ``(rows, cols)`` for a board of rows and columns, ``(cells,)`` for theta (ring by ring);
        −1 where a cell cannot be reached. A maze or cell of the wrong kind raises
        :class:`laby3d.errors.ParameterError` naming it.

    Examples
    --------
    >>> import laby3d
    >>> laby3d.distance_map(laby3d.generate(1, 3, seed=1)).tolist()
    [[0, 1, 2]]
    """
    from laby3d.maze.model import check_maze

    check_maze(maze)
    if start is None:
        start = (maze.entrance.row, maze.entrance.col) if maze.entrance else (0, 0)
    row, col = checked_cell(start, maze, "start")
    distance = distances_and_parents(maze, maze.tessellation.cell_index(row, col))[0]
    return maze.tessellation.per_cell(distance)


def checked_cell(cell: Any, maze: Maze, name: str) -> tuple[int, int]:
    """``cell`` as a ``(row, col)`` pair of Python integers inside ``maze``; raises
    :class:`laby3d.errors.ParameterError` naming ``name`` otherwise."""
    from laby3d.errors import ParameterError
    from laby3d.quoting import shown
    from laby3d.values import is_integer

    try:
        row, col = cell
    except (TypeError, ValueError):
        raise ParameterError(f"must be a (row, col) pair, got {shown(cell)}", field=name) from None
    inside = is_integer(row) and is_integer(col) and 0 <= row < maze.rows
    if not (inside and 0 <= col < maze.tessellation.row_length(int(row))):
        where = f"col in 0..{maze.cols - 1}" if maze.cols is not None else "col within its ring"
        raise ParameterError(
            f"must be a cell (row, col) with row in 0..{maze.rows - 1} and {where}, got {shown(cell)}", field=name
        )
    return int(row), int(col)


def path_cells(maze: Maze, start: int, goal: int) -> np.ndarray:
    """The cells of a shortest path from ``start`` to ``goal``, both included (empty when none)."""
    distance, parent = distances_and_parents(maze, start)
    if distance[goal] < 0:
        return np.zeros(0, dtype=np.int64)
    path = np.empty(int(distance[goal]) + 1, dtype=np.int64)
    cell = goal
    for step in range(len(path) - 1, -1, -1):
        path[step] = cell
        cell = parent[cell]
    return path


def solution_cells(maze: Maze) -> np.ndarray:
    """The path from the entrance's cell to the exit's (empty without both)."""
    if maze.entrance is None or maze.exit is None:
        return np.zeros(0, dtype=np.int64)
    return path_cells(maze, maze.cell_of(maze.entrance), maze.cell_of(maze.exit))


def solution_polyline(maze: Maze) -> np.ndarray:
    """``(k, 2)`` points (pitch units): from the middle of the entrance's boundary wall, through
    each solution cell's centre and the middle of each wall crossed, to the exit's wall."""
    tessellation = maze.tessellation
    cells = maze.solution_cells
    if not len(cells):
        return np.zeros((0, 2))
    crossed = tessellation.edge_indices(np.stack([cells[:-1], cells[1:]], axis=1))
    points = np.empty((2 * len(cells) - 1, 2))
    points[0::2] = tessellation.centres[cells]
    points[1::2] = tessellation.wall_midpoints[crossed]
    ends = [maze.boundary_wall_of(maze.entrance), maze.boundary_wall_of(maze.exit)]
    first = [tessellation.boundary_midpoints[ends[0]]] if ends[0] is not None else []
    last = [tessellation.boundary_midpoints[ends[1]]] if ends[1] is not None else []
    return np.concatenate([np.reshape(first, (-1, 2)), points, np.reshape(last, (-1, 2))])
