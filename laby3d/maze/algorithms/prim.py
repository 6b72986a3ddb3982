"""Randomized Prim (frontier of cells).

1. Put a random cell in the maze; its neighbours form the frontier.
2. Take a random frontier cell, open the wall to a random neighbour already in the maze, and
   add its outside neighbours to the frontier.
3. Stop when the frontier is empty. Gives many short dead ends.
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

OUTSIDE, FRONTIER, IN_MAZE = 0, 1, 2


@kernel(python_ns=8_600)  # ns per cell as Python: bench/bench_jit.py
def _grid_prim(rows: int, cols: int, draws: np.ndarray) -> np.ndarray:
    n = rows * cols
    status = np.zeros(n, dtype=np.uint8)
    frontier = np.empty(n, dtype=np.int32)
    slot = np.empty(n, dtype=np.int32)
    choices = np.empty(4, dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    cell = int(draws[0] * n)
    d = 1
    size = 0
    k = 0
    while True:
        status[cell] = IN_MAZE
        m = gather(cell, rows, cols, status, OUTSIDE, choices)
        for j in range(m):
            status[choices[j]] = FRONTIER
            frontier[size] = choices[j]
            slot[choices[j]] = size
            size += 1
        if size == 0:
            break
        index = int(draws[d] * size)
        cell = frontier[index]
        size -= 1
        frontier[index] = frontier[size]
        slot[frontier[index]] = index
        m = gather(cell, rows, cols, status, IN_MAZE, choices)
        out[k, 0] = choices[int(draws[d + 1] * m)]
        out[k, 1] = cell
        d += 2
        k += 1
    return out


def carve_grid(rows: int, cols: int, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a randomized-Prim maze, in opening order."""
    return _grid_prim(rows, cols, rng.random(2 * rows * cols + 1), cells=rows * cols)


@kernel(python_ns=12_000)  # ns per cell as Python (bench/bench_shapes.py; on the square kernels' scale)
def _graph_prim(indptr: np.ndarray, neighbours: np.ndarray, draws: np.ndarray, max_degree: int) -> np.ndarray:
    n = indptr.shape[0] - 1
    status = np.zeros(n, dtype=np.uint8)
    frontier = np.empty(n, dtype=np.int32)
    slot = np.empty(n, dtype=np.int32)
    choices = np.empty(max(max_degree, 1), dtype=np.int32)
    out = np.empty((n - 1, 2), dtype=np.int32)
    cell = int(draws[0] * n)
    d = 1
    size = 0
    k = 0
    while True:
        status[cell] = IN_MAZE
        m = gather_csr(cell, indptr, neighbours, status, OUTSIDE, choices)
        for j in range(m):
            status[choices[j]] = FRONTIER
            frontier[size] = choices[j]
            slot[choices[j]] = size
            size += 1
        if size == 0:
            break
        index = int(draws[d] * size)
        cell = frontier[index]
        size -= 1
        frontier[index] = frontier[size]
        slot[frontier[index]] = index
        m = gather_csr(cell, indptr, neighbours, status, IN_MAZE, choices)
        out[k, 0] = choices[int(draws[d + 1] * m)]
        out[k, 1] = cell
        d += 2
        k += 1
    return out


def carve_graph(graph: CellGraph, rng: np.random.Generator, options: Mapping[str, Any]) -> np.ndarray:
    """Passages of a randomized-Prim maze on ``graph``, in opening order."""
    indptr, neighbours, _ = graph.adjacency
    n = graph.cell_count
    return _graph_prim(indptr, neighbours, rng.random(2 * n + 1), graph.max_degree, cells=n)


ALGORITHM = Algorithm(
    "prim",
    "randomized Prim over a frontier of cells: many short dead ends",
    {"square": on_grid(carve_grid), "any": on_graph(carve_graph)},
)
