"""Hunt-and-kill: a random walk into unvisited cells; when stuck, hunt for a new start.

1. Walk from a random cell, each step opening the wall to a random unvisited neighbour.
2. When the walk is stuck, scan rows from the top for an unvisited cell next to a visited one,
   open the wall to a random visited neighbour, and walk on from there.
3. Stop when the scan finds no unvisited cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from laby3d.accel import kernel
from laby3d.maze.algorithms.base import Algorithm, on_graph, on_grid
from laby3d.maze.algorithms.csr import gather_csr
from laby3d.maze.algorithms.neighbours import gather

if TYPE_CHECKING:
    from laby3d.tessellation import CellGraph


@kernel(python_ns=59_000)  # ns per cell as Python: bench/bench_jit.py
def _grid_hunt_and_kill(rows: int, cols: int, draws: np.ndarray) -> np.ndarray:
    n = rows * cols
    visited = np.zeros(n, dtype=np.bool_)
    unvisited_in_row = np.full(rows, cols, dtype=np.int32)
    choices = np.empty(4, dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    d = 0
    cell = int(draws[d] * n)
    d += 1
    visited[cell] = True
    unvisited_in_row[cell // cols] -= 1
    first_row = 0
    k = 0
    while k < n - 1:
        m = gather(cell, rows, cols, visited, False, choices)
        if m > 0:  # kill: walk on
            nxt = choices[int(draws[d] * m)]
            d += 1
        else:  # hunt
            while unvisited_in_row[first_row] == 0:
                first_row += 1
            nxt = -1
            row = first_row
            while nxt < 0:
                if unvisited_in_row[row] > 0:
                    for candidate in range(row * cols, row * cols + cols):
                        if not visited[candidate]:
                            m = gather(candidate, rows, cols, visited, True, choices)
                            if m > 0:
                                nxt = candidate
                                cell = choices[int(draws[d] * m)]
                                d += 1
                                break
                row += 1
        visited[nxt] = True
        unvisited_in_row[nxt // cols] -= 1
        out[k, 0] = cell
        out[k, 1] = nxt
        k += 1
        cell = nxt
    return out


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a hunt-and-kill maze, in opening order."""
    return _grid_hunt_and_kill(rows, cols, rng.random(rows * cols + 1), cells=rows * cols)


@kernel(python_ns=150_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_hunt_and_kill(
    indptr: np.ndarray, neighbours: np.ndarray, row_starts: np.ndarray, draws: np.ndarray, max_degree: int
) -> np.ndarray:
    n = indptr.shape[0] - 1
    rows = row_starts.shape[0] - 1
    visited = np.zeros(n, dtype=np.bool_)
    unvisited_in_row = np.empty(rows, dtype=np.int64)
    row_of = np.empty(n, dtype=np.int64)
    for row in range(rows):
        unvisited_in_row[row] = row_starts[row + 1] - row_starts[row]
        for cell in range(row_starts[row], row_starts[row + 1]):
            row_of[cell] = row
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    d = 0
    cell = int(draws[d] * n)
    d += 1
    visited[cell] = True
    unvisited_in_row[row_of[cell]] -= 1
    first_row = 0
    k = 0
    while k < n - 1:
        m = gather_csr(cell, indptr, neighbours, visited, False, choices)
        if m > 0:  # kill: walk on
            nxt = choices[int(draws[d] * m)]
            d += 1
        else:  # hunt
            while unvisited_in_row[first_row] == 0:
                first_row += 1
            nxt = -1
            row = first_row
            while nxt < 0:
                if unvisited_in_row[row] > 0:
                    for candidate in range(row_starts[row], row_starts[row + 1]):
                        if not visited[candidate]:
                            m = gather_csr(candidate, indptr, neighbours, visited, True, choices)
                            if m > 0:
                                nxt = candidate
                                cell = choices[int(draws[d] * m)]
                                d += 1
                                break
                row += 1
        visited[nxt] = True
        unvisited_in_row[row_of[nxt]] -= 1
        out[k, 0] = cell
        out[k, 1] = nxt
        k += 1
        cell = nxt
    return out


def carve_graph(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a hunt-and-kill maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    return _graph_hunt_and_kill(indptr, neighbours, graph.row_starts, rng.random(n + 1), graph.max_degree, cells=n)


ALGORITHM = Algorithm(
    "hunt_and_kill",
    "random walk into new cells, then hunt row by row for a new start",
    {"square": on_grid(carve_grid), "any": on_graph(carve_graph)},
)
